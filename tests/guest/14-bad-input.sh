# SPDX-License-Identifier: GPL-2.0
# Bad input: an unknown mount option, a device of random bytes, an f2fs
# volume whose superblocks are garbage, an ext4 volume and a nonexistent
# device; mount -t f2fs_packed fails with an error each time, the kernel
# stays quiet (no Oops, WARN, BUG) and the module still works afterwards.
# vm: -d 3 -s 256M
set -eu
. "$REPO/tests/lib/guest.sh"

load_packed
mkdir -p /mnt/bad

# refused WHAT DEV [OPTIONS]: mount fails, says why, leaves nothing mounted.
refused() {
	local what=$1 dev=$2 out rc=0
	out=$(mount -t f2fs_packed ${3:+-o "$3"} "$dev" /mnt/bad 2>&1) || rc=$?
	log "$what: mount status $rc: $out"
	if [ "$rc" -eq 0 ]; then
		umount /mnt/bad
		return 1
	fi
	[ -n "$out" ] && ! grep -q ' /mnt/bad ' /proc/mounts
}

mkfs_f2fs "$DISK1"
check "unknown mount option is refused" refused "unknown option" "$DISK1" no_such_option
# 6.x says so in f2fs's words; 7.x's fs_parser names the fs type.
check "dmesg names the unknown option" sh -c \
	"dmesg | grep -E 'F2FS_PACKED-fs|\] f2fs_packed: ' | grep -q no_such_option"
check "unknown value of a known option is refused" refused "bad value" "$DISK1" background_gc=sometimes
check "the valid volume still mounts" mount -t f2fs_packed "$DISK1" /mnt/bad
umount /mnt/bad

# Random bytes from the first sector on: no superblock at all.
dd if=/dev/urandom of="$DISK2" bs=1M count=16 status=none
check "device of random bytes is refused" refused "random bytes" "$DISK2"

# A real f2fs whose both superblocks (first 8 KiB) are random.
mkfs_f2fs "$DISK2"
dd if=/dev/urandom of="$DISK2" bs=1k seek=1 count=8 conv=notrunc status=none
check "f2fs with garbage superblocks is refused" refused "garbage superblocks" "$DISK2"

# A real f2fs whose checkpoint area is random (superblocks intact).
mkfs_f2fs "$DISK2"
dd if=/dev/urandom of="$DISK2" bs=1M seek=2 count=4 conv=notrunc status=none
check "f2fs with a garbage checkpoint is refused" refused "garbage checkpoint" "$DISK2"

mkfs.ext4 -q -F "$DISK3" >/dev/null 2>&1 || fail "mkfs.ext4 $DISK3"
check "ext4 volume is refused" refused "ext4" "$DISK3"
check "nonexistent device is refused" refused "nonexistent" /dev/no-such-device
check "a regular file as device is refused" refused "regular file" /etc/hostname

check "module still loaded" grep -q '^f2fs_packed ' /proc/modules
check "dmesg clean after the bad mounts" dmesg_clean

# Still usable: a fresh volume mounts, keeps data, checks clean.
mkfs_f2fs "$DISK2"
mount_fs f2fs_packed "$DISK2" /mnt/packed
dd if=/dev/urandom of=/mnt/packed/blob bs=1M count=8 status=none
cp -a /usr/share/doc/f2fs-tools /mnt/packed/
sha_record /mnt/packed /tmp/packed.sha
umount_fsck "$DISK2" /mnt/packed
mount_fs f2fs_packed "$DISK2" /mnt/packed
check "data intact after the bad mounts" sha_verify /mnt/packed /tmp/packed.sha
umount_fsck "$DISK2" /mnt/packed
check "rmmod f2fs_packed" rmmod f2fs_packed
finish
