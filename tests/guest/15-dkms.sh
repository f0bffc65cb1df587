# SPDX-License-Identifier: GPL-2.0
# DKMS: the module the host installed with DKMS (tests/host/22-dkms.sh,
# which tests/run runs before the guest tests: "after: host checks" below) loads with modprobe from
# /lib/modules/$KVER/updates/dkms, beside stock f2fs, and works.
# vm: -d 2 -s 256M
# after: host checks
set -eu
. "$REPO/tests/lib/guest.sh"

dkms_dir=/lib/modules/$KVER/updates/dkms
version=$(cat "$REPO/VERSION")
if ! ls "$dkms_dir"/f2fs_packed.ko* >/dev/null 2>&1; then
	fail "no f2fs_packed.ko in $dkms_dir: the DKMS install is missing; run 'tests/run 22-dkms' (or make dkms-install) on the host first"
	finish
fi

path=$(modinfo -n f2fs_packed 2>/dev/null || true)
log "modinfo -n f2fs_packed: $path"
case $path in
"$dkms_dir"/f2fs_packed.ko*) echo "ok - modinfo -n f2fs_packed is the DKMS module" ;;
*) fail "modinfo -n f2fs_packed is the DKMS module (got '${path:-nothing}'; depmod not run?)" ;;
esac
check "DKMS module has version $version" sh -c "modinfo -F version f2fs_packed | grep -qx '$version'"

load_stock
check "modprobe f2fs_packed" modprobe f2fs_packed
check "f2fs_packed loaded" grep -q '^f2fs_packed ' /proc/modules
check "the loaded module is the DKMS one (srcversion)" test \
	"$(cat /sys/module/f2fs_packed/srcversion 2>/dev/null)" = "$(modinfo -F srcversion "$path")"
check "the loaded module has version $version" test \
	"$(cat /sys/module/f2fs_packed/version 2>/dev/null)" = "$version"

mkfs_f2fs "$DISK1"
mkfs_f2fs "$DISK2"
mount_fs f2fs "$DISK1" /mnt/stock
mount_fs f2fs_packed "$DISK2" /mnt/packed
check "our mount is type f2fs_packed" grep -q "^$DISK2 /mnt/packed f2fs_packed " /proc/mounts
for m in stock packed; do
	dd if=/dev/urandom of=/mnt/$m/blob bs=1M count=8 status=none
	cp -a /usr/share/doc/f2fs-tools /mnt/$m/
	sha_record /mnt/$m /tmp/$m.sha
done
umount_fsck "$DISK1" /mnt/stock
umount_fsck "$DISK2" /mnt/packed
mount_fs f2fs_packed "$DISK2" /mnt/packed
mount_fs f2fs "$DISK1" /mnt/stock
check "f2fs_packed (DKMS) data intact after remount" sha_verify /mnt/packed /tmp/packed.sha
check "stock data intact after remount" sha_verify /mnt/stock /tmp/stock.sha
umount_fsck "$DISK2" /mnt/packed
umount_fsck "$DISK1" /mnt/stock
check "modprobe -r f2fs_packed" modprobe -r f2fs_packed
finish
