# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Packing works: files interleaved block by block, half of them deleted,
# then sync foreground GC until idle. With gc_packing=off the extents stay;
# with gc_packing=on (both block orders) they collapse, the counters move,
# and the data survives GC, umount and mount; fsck is clean.
# vm: -d 3 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool

run_variant() {	# DEV NAME MOUNTOPTION ORDER
	local dev=$1 name=$2 mnt=/mnt/$2 before after out
	mkfs_f2fs "$dev" -s 8
	mount_fs f2fs_packed "$dev" "$mnt" "$3"
	[ -z "$4" ] || echo "$4" > "$(sysfs_dev f2fs_packed "$dev")/gc_pack_order"
	fragment "$mnt/d" 32 1024 "/tmp/$name.sha"
	before=$(total_extents "$mnt/d")
	out=$(gc_until_idle "$mnt")
	sync
	after=$(total_extents "$mnt/d")
	log "$name: extents $before -> $after, $(pack_stats "$mnt")"
	log "$name: gc $(echo "$out" | tr -d '\n ')"
	eval "${name}_blocks=$(pack_stat "$mnt" gc_pack_blocks)"
	eval "${name}_sections=$(pack_stat "$mnt" gc_pack_packed_sections)"
	check "$name: data intact after GC" sha_verify "$mnt/d" "/tmp/$name.sha"
	umount_fsck "$dev" "$mnt"
	mount_fs f2fs_packed "$dev" "$mnt" "$3"
	check "$name: data intact after remount" sha_verify "$mnt/d" "/tmp/$name.sha"
	eval "${name}_before=$before ${name}_after=$after"
	umount_fsck "$dev" "$mnt"
}

run_variant "$DISK1" off gc_packing=off ""
run_variant "$DISK2" found gc_packing=on 0
run_variant "$DISK3" offset gc_packing=on 1

# shellcheck disable=SC2154
{
check "workload is interleaved (>= 4000 extents before GC)" test "$off_before" -ge 4000
check "packing off: extents stay (>= 90% of before)" test $((off_after * 10)) -ge $((off_before * 9))
check "packing off: no block packed" test "$off_blocks" -eq 0
check "packing on (found order): extents drop by >= 90%" test $((found_after * 10)) -le "$found_before"
check "packing on (offset order): extents drop by >= 90%" test $((offset_after * 10)) -le "$offset_before"
check "packing on: blocks packed counted" test "$found_blocks" -gt 0 -a "$offset_blocks" -gt 0
check "packing on: sections packed counted" test "$found_sections" -gt 0 -a "$offset_sections" -gt 0
check "offset order no worse than found order" test "$offset_after" -le "$found_after"
}
finish
