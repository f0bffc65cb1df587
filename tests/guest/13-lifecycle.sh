# SPDX-License-Identifier: GPL-2.0
# Module lifecycle beside a mounted stock f2fs: load, mount, umount, rmmod
# and reload keep dmesg free of WARN/BUG/Oops/"duplicate"/"cannot create";
# rmmod is refused while mounted; after rmmod the stock mount still works
# and none of our names is left behind.
# vm: -d 2 -s 256M
set -eu
. "$REPO/tests/lib/guest.sh"

# after WHAT: dmesg still clean at this step (finish checks it again).
after() {
	check "dmesg clean after $1" dmesg_clean
}

loaded() {
	grep -q '^f2fs_packed ' /proc/modules
}

# gone: no name of ours is left once the module is out.
gone() {
	local p ok=0
	for p in /sys/fs/f2fs_packed /proc/fs/f2fs_packed \
		/sys/kernel/debug/f2fs_packed /sys/kernel/tracing/events/f2fs_packed \
		/sys/kernel/slab/f2fs_packed_inode_cache /sys/module/f2fs_packed; do
		if [ -e "$p" ]; then
			log "left behind: $p"
			ok=1
		fi
	done
	! grep -qw f2fs_packed /proc/filesystems || { log "left behind: fs type"; ok=1; }
	return "$ok"
}

# The stock side: mounted first, used throughout.
load_stock
mkfs_f2fs "$DISK1"
mount_fs f2fs "$DISK1" /mnt/stock
mkdir /mnt/stock/before
dd if=/dev/urandom of=/mnt/stock/before/blob bs=1M count=8 status=none
cp -a /usr/share/doc/f2fs-tools /mnt/stock/before/
sha_record /mnt/stock /tmp/stock.sha

load_packed
check "f2fs_packed loaded" loaded
after load
mkfs_f2fs "$DISK2"
mount_fs f2fs_packed "$DISK2" /mnt/packed
after mount
dd if=/dev/urandom of=/mnt/packed/blob bs=1M count=8 status=none
sha_record /mnt/packed /tmp/packed.sha

# rmmod while mounted: refused, module and mount unharmed.
if out=$(rmmod f2fs_packed 2>&1); then
	fail "rmmod f2fs_packed refused while mounted"
else
	log "rmmod while mounted: $out"
	check "rmmod f2fs_packed refused while mounted" loaded
fi
check "our mount still readable after the refused rmmod" sha_verify /mnt/packed /tmp/packed.sha
check "stock mount unaffected by the refused rmmod" sha_verify /mnt/stock /tmp/stock.sha

umount_fsck "$DISK2" /mnt/packed
after umount
check "rmmod f2fs_packed after umount" rmmod f2fs_packed
check "f2fs_packed unloaded" sh -c "! grep -q '^f2fs_packed ' /proc/modules"
check "no name of ours left after rmmod" gone
check "stock sysfs /sys/fs/f2fs/$(basename "$DISK1") still there" \
	test -d "/sys/fs/f2fs/$(basename "$DISK1")"
after rmmod

# The stock mount still works: old data intact, new data written and read.
check "stock data intact after rmmod f2fs_packed" sha_verify /mnt/stock /tmp/stock.sha
mkdir /mnt/stock/after
dd if=/dev/urandom of=/mnt/stock/after/blob bs=1M count=4 status=none
sync
echo 3 > /proc/sys/vm/drop_caches
sha_record /mnt/stock /tmp/stock2.sha
check "stock write + read after rmmod f2fs_packed" sha_verify /mnt/stock /tmp/stock2.sha

# Reload: the names come back without a clash, the volume mounts.
for i in 1 2 3; do
	load_packed
	check "reload $i: loaded" loaded
	if [ $i -eq 2 ]; then
		mount_fs f2fs_packed "$DISK2" /mnt/packed
		check "reload $i: our data intact" sha_verify /mnt/packed /tmp/packed.sha
		echo "reload $i" > /mnt/packed/note
		sha_record /mnt/packed /tmp/packed.sha
		umount_fsck "$DISK2" /mnt/packed
	fi
	check "reload $i: rmmod" rmmod f2fs_packed
	check "reload $i: nothing left" gone
done
after "load/unload cycles"

load_packed
mount_fs f2fs_packed "$DISK2" /mnt/packed
check "final mount: our data intact" sha_verify /mnt/packed /tmp/packed.sha
umount_fsck "$DISK2" /mnt/packed
umount_fsck "$DISK1" /mnt/stock
mount_fs f2fs "$DISK1" /mnt/stock
check "stock data intact after remount" sha_verify /mnt/stock /tmp/stock2.sha
umount_fsck "$DISK1" /mnt/stock
check "rmmod f2fs_packed at the end" rmmod f2fs_packed
check "rmmod f2fs (stock) at the end" rmmod f2fs
finish
