# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# GC that no f2fs_gc() call drives packs too: shrinking a mounted volume
# (F2FS_IOC_RESIZE_FS) empties the sections past the new end through
# free_segment_range(), which calls do_garbage_collect() directly (6.12:
# through f2fs_gc_range(), as pinned-file fallocate on a zoned volume
# does). We chose to pack there as well: it is foreground data GC, the
# blocks it moves are the same, and they come out grouped by file. With
# packing off the interleaving stays; with it on, the resize's GC counts
# packed sections and leaves fewer extents. Data intact, fsck clean.
# vm: -d 2 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed

# 512 MiB volume, 4 MiB sections: 240 MiB written interleaved (16 KiB at a
# time), half of it deleted, then the volume shrunk by as many sections as
# its free space allows (f2fs refuses more with ENOSPC), past some of that
# data: the checks below see the resize's GC move it.
bps=1024

# shrunk_blocks MNT: block count after the largest shrink f2fs accepts,
# less a tenth of the user blocks as margin for reserved space.
shrunk_blocks() {
	local total free shrink
	read -r total free < <(stat -f -c '%b %f' "$1")
	shrink=$(((free - total / 10) / bps * bps))
	echo $(($(blockdev --getsize64 "$2") / 4096 - shrink))
}

resize_fs() {	# MNT BLOCKS
	python3 -c '
import fcntl, os, struct, sys
F2FS_IOC_RESIZE_FS = 0x4008f510	# _IOW(0xf5, 16, __u64)
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.ioctl(fd, F2FS_IOC_RESIZE_FS, struct.pack("Q", int(sys.argv[2])))
' "$1" "$2"
}

run_variant() {	# DEV NAME PACKING
	local dev=$1 name=$2 mnt=/mnt/$2 before after sections
	mkfs_f2fs "$dev" -s 2
	mount_fs f2fs_packed "$dev" "$mnt" "gc_packing=$3,background_gc=off"
	interleave "$mnt/d" 30 8192 16k
	delete_even "$mnt/d" 30
	sync
	sha_record "$mnt/d" "/tmp/$name.sha"
	before=$(total_extents "$mnt/d")
	new_blocks=$(shrunk_blocks "$mnt" "$dev")
	check "$name: F2FS_IOC_RESIZE_FS to $new_blocks blocks ($((new_blocks / 256)) MiB)" \
		resize_fs "$mnt" "$new_blocks"
	sync
	after=$(total_extents "$mnt/d")
	sections=$(pack_stat "$mnt" gc_pack_packed_sections)
	log "$name: extents $before -> $after, $(pack_stats "$mnt")"
	eval "${name}_after=$after ${name}_sections=$sections"
	check "$name: data intact after the resize" sha_verify "$mnt/d" "/tmp/$name.sha"
	umount_fsck "$dev" "$mnt"
	check "$name: the volume is $new_blocks blocks now" \
		sh -c "dump.f2fs $dev 2>&1 | grep -q 'total FS sectors = $((new_blocks * 8)) '"
	mount_fs f2fs_packed "$dev" "$mnt" "gc_packing=$3,background_gc=off"
	check "$name: data intact after remount" sha_verify "$mnt/d" "/tmp/$name.sha"
	umount_fsck "$dev" "$mnt"
}

run_variant "$DISK1" off off
run_variant "$DISK2" on on

# shellcheck disable=SC2154
{
check "packing off: the resize's GC packed nothing" test "$off_sections" -eq 0
check "packing on: the resize's GC packed sections ($on_sections)" test "$on_sections" -gt 0
check "packing on leaves fewer extents ($on_after < $off_after)" test "$on_after" -lt "$off_after"
}
finish
