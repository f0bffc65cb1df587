# SPDX-License-Identifier: GPL-2.0
# On-disk compatibility both ways: a volume written by f2fs_packed mounts
# with stock f2fs and the reverse, data intact (sha256), each side adding
# data the other then reads back; fsck.f2fs clean after every umount.
# vm: -d 2 -s 256M
set -eu
. "$REPO/tests/lib/guest.sh"

load_stock
load_packed

# write_set DIR: a data set with large, small, sparse and linked files.
write_set() {
	mkdir -p "$1/big" "$1/small" "$1/tree"
	dd if=/dev/urandom of="$1/big/blob" bs=1M count=12 status=none
	# 150 small files from one process: a process costs ~0.3 s under TCG.
	head -c 300000 /dev/urandom | split -b 2000 -a 3 - "$1/small/f"
	dd if=/dev/urandom of="$1/big/sparse" bs=4k count=3 seek=2000 status=none
	cp -a /usr/share/doc/f2fs-tools "$1/tree/"
	ln -s ../big/blob "$1/tree/link"
	ln "$1/small/faaa" "$1/tree/hard"
	sync
}

# mounted_as TYPE DEV MNT: the mount really went to that module.
mounted_as() {
	grep -q "^$2 $3 $1 " /proc/mounts
}

# round trip: WRITER mounts and writes, READER reads and adds, WRITER reads all.
round_trip() {
	local dev=$1 writer=$2 reader=$3 mnt=/mnt/compat
	mkfs_f2fs "$dev"

	mount_fs "$writer" "$dev" $mnt
	check "$dev mounted as $writer" mounted_as "$writer" "$dev" $mnt
	write_set "$mnt/by-$writer"
	sha_record $mnt "/tmp/sha-$writer"
	umount_fsck "$dev" $mnt

	mount_fs "$reader" "$dev" $mnt
	check "$dev mounted as $reader" mounted_as "$reader" "$dev" $mnt
	check "data written by $writer intact under $reader" sha_verify $mnt "/tmp/sha-$writer"
	write_set "$mnt/by-$reader"
	rm -f "$mnt/by-$writer"/small/fb*
	echo appended >> "$mnt/by-$writer"/big/blob
	sha_record $mnt "/tmp/sha-$reader"
	umount_fsck "$dev" $mnt

	mount_fs "$writer" "$dev" $mnt
	check "changes by $reader intact under $writer" sha_verify $mnt "/tmp/sha-$reader"
	umount_fsck "$dev" $mnt
}

round_trip "$DISK1" f2fs_packed f2fs
round_trip "$DISK2" f2fs f2fs_packed
finish
