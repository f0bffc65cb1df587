# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The seed's seg_freed regression, plus the maintainer's question: with
# mkfs.f2fs -s 4, 256 x 1 MiB files written in order (two per segment),
# every even one deleted (each segment half valid), and both files of each
# section's first segment deleted (a segment already free before GC). 24
# sync GC calls must all succeed on stock f2fs and on f2fs_packed with
# packing off and on, and f2fs_gc_end's seg_freed and sec_freed must be
# stock's: the three segments per section that GC emptied and the one it
# found free, as upstream counts them (a section is reclaimed when every
# usable segment is free once GC is done with it).
# vm: -d 2 -s 1G
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool

run_variant() {	# DEV NAME TYPE [PACKING]
	local dev=$1 name=$2 type=$3 mnt=/mnt/$2 i out holes
	mkfs_f2fs "$dev" -s 4
	mount_fs "$type" "$dev" "$mnt" "background_gc=off${4:+,gc_packing=$4}"
	in_order "$mnt/d" 256 1024
	sync
	delete_even "$mnt/d" 256
	holes=()
	for ((i = 1; i < 256; i += 8)); do
		holes+=("$mnt/d/f.0.$i")
	done
	rm "${holes[@]}"
	sync
	sha_record "$mnt/d" "/tmp/$name.sha"

	echo > /sys/kernel/tracing/trace
	echo 1 > "/sys/kernel/tracing/events/$type/f2fs_gc_end/enable"
	out=$(gc_calls "$mnt" 24)
	trace_stop
	eval "${name}_ok=$(json_field "$out" successes)"
	eval "${name}_seg=$(trace_gc_end_sum seg_freed)"
	eval "${name}_sec=$(trace_gc_end_sum sec_freed)"
	log "$name: seg_freed $(trace_gc_end_sum seg_freed) sec_freed $(trace_gc_end_sum sec_freed)${4:+, $(pack_stats "$mnt")}"

	check "$name: data intact after GC" sha_verify "$mnt/d" "/tmp/$name.sha"
	umount_fsck "$dev" "$mnt"
	mount_fs "$type" "$dev" "$mnt"
	check "$name: data intact after remount" sha_verify "$mnt/d" "/tmp/$name.sha"
	umount_fsck "$dev" "$mnt"
}

load_stock
run_variant "$DISK1" stock f2fs
run_variant "$DISK2" off f2fs_packed off
run_variant "$DISK1" on f2fs_packed on

# shellcheck disable=SC2154
{
check "stock: all 24 sync GC calls succeed ($stock_ok)" test "$stock_ok" -eq 24
check "stock: sections were freed by migration (sec_freed $stock_sec >= 24)" \
	test "$stock_sec" -ge 24
check "stock: seg_freed counts the free segment of each section too ($stock_seg = 4 x $stock_sec)" \
	test "$stock_seg" -eq $((stock_sec * 4))
for v in off on; do
	eval "ok=\$${v}_ok seg=\$${v}_seg sec=\$${v}_sec"
	check "packing $v: all 24 sync GC calls succeed ($ok)" test "$ok" -eq 24
	check "packing $v: stock's seg_freed ($seg = $stock_seg)" test "$seg" -eq "$stock_seg"
	check "packing $v: stock's sec_freed ($sec = $stock_sec)" test "$sec" -eq "$stock_sec"
done
}
finish
