# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The seed's seg_freed regression, plus the maintainer's question: with
# mkfs.f2fs -s 4, 256 x 1 MiB files written in order (two per segment),
# every even one deleted (each segment half valid), and both files of each
# section's first segment deleted (a segment already free before GC). 24
# sync GC calls must all succeed with packing off and on, with the same
# seg_freed and sec_freed (f2fs_gc_end), and seg_freed must count only the
# three segments per section that GC emptied, not the one found free.
# vm: -d 2 -s 1G
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool

run_variant() {	# DEV NAME PACKING
	local dev=$1 name=$2 mnt=/mnt/$2 i out holes
	mkfs_f2fs "$dev" -s 4
	mount_fs f2fs_packed "$dev" "$mnt" "gc_packing=$3,background_gc=off"
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

	trace_start f2fs_gc_end
	out=$(gc_calls "$mnt" 24)
	trace_stop
	eval "${name}_ok=$(json_field "$out" successes)"
	eval "${name}_seg=$(trace_gc_end_sum seg_freed)"
	eval "${name}_sec=$(trace_gc_end_sum sec_freed)"
	log "$name: seg_freed $(trace_gc_end_sum seg_freed) sec_freed $(trace_gc_end_sum sec_freed), $(pack_stats "$mnt")"

	check "$name: data intact after GC" sha_verify "$mnt/d" "/tmp/$name.sha"
	umount_fsck "$dev" "$mnt"
	mount_fs f2fs_packed "$dev" "$mnt"
	check "$name: data intact after remount" sha_verify "$mnt/d" "/tmp/$name.sha"
	umount_fsck "$dev" "$mnt"
}

run_variant "$DISK1" off off
run_variant "$DISK2" on on

# shellcheck disable=SC2154
{
check "packing off: all 24 sync GC calls succeed ($off_ok)" test "$off_ok" -eq 24
check "packing on: all 24 sync GC calls succeed ($on_ok)" test "$on_ok" -eq 24
check "sections were freed by migration (sec_freed $off_sec >= 24)" test "$off_sec" -ge 24
check "seg_freed equal off/on ($off_seg / $on_seg)" test "$off_seg" -eq "$on_seg"
check "sec_freed equal off/on ($off_sec / $on_sec)" test "$off_sec" -eq "$on_sec"
check "off: seg_freed counts the 3 emptied segments per section, not the free one" \
	test "$off_seg" -eq $((off_sec * 3))
check "on: seg_freed counts the 3 emptied segments per section, not the free one" \
	test "$on_seg" -eq $((on_sec * 3))
}
finish
