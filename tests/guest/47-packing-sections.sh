# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Packing across the sections one sync GC call collects (the knob
# gc_pack_sections). Default sections (mkfs.f2fs -s 1): 64 files x 128 KiB
# written 4 KiB at a time round-robin, every even one deleted, so each of
# the 32 survivors has 8 blocks in each of 4 half-valid victim sections.
#  - the knob: 1 by default, 1..64 accepted, 0, 65, -1, abc refused
#    (EINVAL, value kept); f2fs-gc --pack-sections sets it for the run and
#    restores it, also after SIGTERM
#  - one sync call with gc_pack_sections=16 collects every victim and
#    frees them: seg_freed and sec_freed (f2fs_gc_end) equal the sections
#    that held valid blocks before the call and none after, records held
#    across sections (gc_pack_held_sections), none left (gc_pack_queued 0)
#  - GC_RANGE over consecutive victims: one pass with 16, one per section
#    with 1, every section emptied, exit 0; one section further onto one
#    it cannot collect: both fail alike after emptying the victims
#  - GC until idle, packing off / on with 1 / on with 16 sections per call,
#    each from the same layout: with 16 every survivor ends as one run
#    (>= 95% of the reduction to one extent per file), with 1 as one run
#    per victim; blocks moved (moved_blocks_foreground) never more than
#    packing off's, no EAGAIN beyond packing off's
#  - the writers' GC (f2fs_balance_fs(), mode=lfs, hot files rewritten
#    among cold ones) holds sections with gc_pack_sections=16, none with
#    1, and leaves the cold files in fewer runs
#  - at the physical limit (mode=lfs, 95% full, every section 7/8 valid):
#    the batch stops on free space (gc_pack_space_stops) with no more
#    blocks moved than the free sections take above the level where
#    f2fs_gc() checkpoints, and the call succeeds as packing off's does
# Every variant: data intact after GC and after a remount, fsck clean,
# dmesg clean (finish).
# vm: -d 3 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool

NFILES=64
KIB=128
SURVIVORS=$((NFILES / 2))
MULTI=16

# sysfs_of MNT: the mount's f2fs_packed sysfs directory
sysfs_of() {
	sysfs_dev f2fs_packed "$(findmnt -no SOURCE "$1")"
}

# segs_valid MNT: "SEGNO VALID" for every segment (-s 1: sections).
segs_valid() {
	section_valid "/proc/fs/f2fs_packed/$(basename "$(findmnt -no SOURCE "$1")")" 1
}

# victims: the segments foreground GC selected, from the
# f2fs_packed:f2fs_get_victim events in the trace buffer (-s 1: sections).
victims() {
	sed -n 's/.*f2fs_get_victim: .*LFS-mode.* victim = \([0-9]*\),.*/\1/p' \
		/sys/kernel/tracing/trace | sort -un
}

# emptied VICTIMS BEFORE AFTER: the victims valid in BEFORE, not in AFTER.
emptied() {
	awk 'FILENAME == ARGV[1] { v[$1] = 1; next }
		FILENAME == ARGV[2] { if ($1 in v) a[$1] = 1; next }
		{ b[$1] = 1 }
		END { for (s in a) if (!(s in b)) n++; print n + 0 }' "$1" "$2" "$3"
}

# cold_extents DIR: the extents of the even-numbered (cold) files.
cold_extents() {
	find "$1" -type f -name 'f.0.*[02468]' -print0 | xargs -0 -r filefrag |
		awk '{ n += $(NF-2) } END { print n + 0 }'
}

# data_sections DIR MAIN: the sections (-s 1) holding blocks of DIR's
# files, MAIN the first block of the main area.
data_sections() {
	find "$1" -type f -print0 | xargs -0 -r filefrag -v |
		awk -v m="$2" '$1 ~ /^[0-9]+:$/ {
			s = $4; sub(/\.\..*/, "", s); e = $5; sub(/:.*/, "", e)
			for (b = int((s - m) / 512); b <= int((e - m) / 512); b++) print b }' |
		sort -un
}

# max_file_extents DIR: the most extents any file has.
max_file_extents() {
	find "$1" -type f -print0 | xargs -0 -r filefrag |
		awk '{ if ($(NF-2) > m) m = $(NF-2) } END { print m + 0 }'
}

# free_and_reserved DEV: "FREE_SECS RESERVED_SEGS" from the debugfs status.
free_and_reserved() {
	awk -v n="partition info($(basename "$1"))" '
		/=====\[ partition info\(/ { on = index($0, n) > 0 }
		on && /Resv:/ { r = $0; sub(/.*Resv:/, "", r); sub(/\).*/, "", r) }
		on && /^  - Free: / { f = $NF; gsub(/[()]/, "", f) }
		END { print f, r }' /sys/kernel/debug/f2fs_packed/status
}

## the knob ####################################################################
mkfs_f2fs "$DISK1" -s 1
mount_fs f2fs_packed "$DISK1" /mnt/k gc_packing=on,background_gc=off
sys=$(sysfs_of /mnt/k)
must "gc_pack_sections exists" test -e "$sys/gc_pack_sections"
check "gc_pack_sections is 1 by default" test "$(cat "$sys/gc_pack_sections")" = 1
rejects() {	# VALUE: the write fails with EINVAL, the knob stays 1
	local err
	if err=$( (echo "$1" > "$sys/gc_pack_sections") 2>&1); then
		return 1
	fi
	echo "$err" | grep -q "Invalid argument" && [ "$(cat "$sys/gc_pack_sections")" = 1 ]
}
for v in 0 65 -1 abc 4294967297; do
	check "gc_pack_sections rejects $v" rejects "$v"
done
for v in 64 2 1; do
	check "gc_pack_sections accepts $v" sh -c "echo $v > '$sys/gc_pack_sections' && [ \"\$(cat '$sys/gc_pack_sections')\" = $v ]"
done
for c in held_sections cap_stops space_stops packed_sections; do
	check "counter gc_pack_$c is read-only" not sh -c "echo 0 > '$sys/gc_pack_$c'"
done

# f2fs-gc --pack-sections: set for the run (held in its dirty wait), then
# restored after SIGTERM; an out-of-range value is refused with exit 2
rc=0
"$GC_TOOL" --pack-sections 65 -c 1 /mnt/k > /tmp/k.log 2>&1 || rc=$?
check "f2fs-gc --pack-sections 65: exit 2" test "$rc" -eq 2
check "f2fs-gc --pack-sections 65: knob left at 1" test "$(cat "$sys/gc_pack_sections")" = 1
exec 9< "$DISK3"
dd if=/dev/zero of="$DISK3" bs=1M count=64 status=none
"$GC_TOOL" --pack-sections 7 --max-dirty 1M /mnt/k > /tmp/k.log 2>&1 &
pid=$!
if wait_for 30 grep -q "waiting: dirty" /tmp/k.log; then
	check "f2fs-gc --pack-sections 7: knob is 7 during the run" \
		test "$(cat "$sys/gc_pack_sections")" = 7
else
	fail "f2fs-gc --pack-sections: the run did not reach the dirty wait"
fi
kill -TERM "$pid" 2>/dev/null || true
rc=0
wait "$pid" || rc=$?
exec 9<&-
sync
check "f2fs-gc --pack-sections: exit 143 on SIGTERM" test "$rc" -eq 143
check "f2fs-gc --pack-sections: knob restored to 1" test "$(cat "$sys/gc_pack_sections")" = 1
umount /mnt/k

## one call, several victims ##################################################
# The layout is written once, on a 128 MiB volume on DISK1, and copied for
# every variant.
mkfs.f2fs -q -f -s 1 "$DISK1" 262144 > /dev/null || fail "mkfs.f2fs 128 MiB"
mount_fs f2fs_packed "$DISK1" /mnt/g gc_packing=off,background_gc=off
fragment /mnt/g/d "$NFILES" "$KIB" /tmp/g.sha
BEFORE_EXTENTS=$(total_extents /mnt/g/d)
umount /mnt/g
log "layout: $NFILES x $KIB KiB interleaved, even files deleted: $BEFORE_EXTENTS extents"

layout_on() {	# DEV MNT PACKING
	dd if="$DISK1" of="$1" bs=1M count=128 conv=fsync status=none
	mount_fs f2fs_packed "$1" "$2" "gc_packing=$3,background_gc=off"
}

layout_on "$DISK2" /mnt/m on
sys=$(sysfs_of /mnt/m)
segs_valid /mnt/m > /tmp/m.before
trace_start f2fs_gc_end f2fs_gc_pack_end f2fs_get_victim
out=$("$GC_TOOL" -q -j -d off -S "$MULTI" -i 1 -c 1 /mnt/m)
trace_stop
segs_valid /mnt/m > /tmp/m.after
victims > /tmp/m.victims
seg=$(trace_gc_end_sum seg_freed)
sec=$(trace_gc_end_sum sec_freed)
gone=$(emptied /tmp/m.victims /tmp/m.before /tmp/m.after)
passes=$(grep -c "f2fs_gc_pack_end:" /sys/kernel/tracing/trace || true)
log "one call, $MULTI sections: $(echo "$out" | tr -d '\n ')"
log "one call: victims $(tr '\n' ' ' < /tmp/m.victims)"
log "one call: seg_freed $seg sec_freed $sec, $gone victims emptied, $passes pack passes, $(pack_stats /mnt/m) held_sections=$(cat "$sys/gc_pack_held_sections")"
check "one call: it succeeded" test "$(json_field "$out" successes)" -eq 1
check "one call: records were held across sections" test "$(cat "$sys/gc_pack_held_sections")" -ge 3
check "one call: one pack pass for the batch ($passes)" test "$passes" -eq 1
check "one call: the 4 victims emptied ($gone)" test "$gone" -ge 4
check "one call: sec_freed is the victims emptied ($sec = $gone)" test "$sec" -eq "$gone"
check "one call: seg_freed is the victims emptied ($seg = $gone)" test "$seg" -eq "$gone"
check "one call: no record left queued" test "$(cat "$sys/gc_pack_queued")" -eq 0
check "one call: knob restored to 1" test "$(cat "$sys/gc_pack_sections")" = 1
check "one call: data intact" sha_verify /mnt/m/d /tmp/g.sha
umount_fsck "$DISK2" /mnt/m

## GC_RANGE: one sync call over consecutive victims ##########################
# The layout's longest run of consecutive victim sections, as one range:
# with 16 sections per call its sections are held and packed in one pass,
# with 1 in one pass each; both empty every section of the range and
# return 0. Going one section further, onto one it cannot collect (the
# open log's: EAGAIN; or one without valid blocks: ENODATA), both fail
# alike, as upstream's GC_RANGE stops there, after emptying the victims
# before it.
range_variant() {	# NAME SECTIONS EXTRA_SECTIONS
	local mnt=/mnt/r$1 main first n rc=0 out
	layout_on "$DISK2" "$mnt" on
	main=$(pack_stat "$mnt" main_blkaddr)
	segs_valid "$mnt" > "/tmp/r$1.before"
	# the longest run of consecutive sections holding the survivors'
	# blocks and invalid ones (not a node or current section)
	data_sections "$mnt/d" "$main" > "/tmp/r$1.data"
	read -r first n < <(awk 'FILENAME == ARGV[1] { d[$1] = 1; next }
		($1 in d) && $2 < 512 { print $1 }' "/tmp/r$1.data" "/tmp/r$1.before" |
		sort -n | awk '{
		if ($1 == last + 1 && run) run++; else { run = 1; s = $1 }
		if (run > best) { best = run; bs = s }; last = $1 }
		END { print bs, best }')
	trace_start f2fs_gc_pack_end
	out=$("$GC_TOOL" -q -j -n -d off -S "$2" -c 1 -i 1 \
		-r "$((main + first * 512)):$(((n + $3) * 512 - 1))" "$mnt") || rc=$?
	trace_stop
	segs_valid "$mnt" > "/tmp/r$1.after"
	eval "r${1}_rc=$rc r${1}_n=$n r${1}_passes=$(grep -c 'f2fs_gc_pack_end:' /sys/kernel/tracing/trace || true)"
	eval "r${1}_left=$(awk -v f="$first" -v n="$n" '$1 >= f && $1 < f + n' "/tmp/r$1.after" | wc -l)"
	eval "r${1}_ext=$(total_extents "$mnt/d")"
	eval "r${1}_res=$(json_field "$out" successes)/$(json_field "$out" eagain)/$(json_field "$out" errors)"
	log "range $1: sections $first..$((first + n - 1)) (+$3): exit $rc, $(echo "$out" | tr -d '\n ' | cut -c1-200), $(pack_stats "$mnt")"
	check "range $1: data intact" sha_verify "$mnt/d" /tmp/g.sha
	umount_fsck "$DISK2" "$mnt"
}

range_variant one 1 0
range_variant multi "$MULTI" 0
range_variant onex 1 1
range_variant multix "$MULTI" 1

# shellcheck disable=SC2154
{
check "range: the layout has consecutive victims ($rmulti_n)" test "$rmulti_n" -ge 2
check "range x 1: exit 0, one pass per section ($rone_rc, $rone_passes)" \
	test "$rone_rc" -eq 0 -a "$rone_passes" -eq "$rone_n"
check "range x $MULTI: exit 0, one pass for the range ($rmulti_rc, $rmulti_passes)" \
	test "$rmulti_rc" -eq 0 -a "$rmulti_passes" -eq 1
check "range x 1 and x $MULTI: every section of the range emptied ($rone_left, $rmulti_left)" \
	test "$rone_left" -eq 0 -a "$rmulti_left" -eq 0
check "range x $MULTI: fewer extents than x 1 ($rmulti_ext < $rone_ext)" \
	test "$rmulti_ext" -lt "$rone_ext"
check "range onto a section it cannot collect: x 1's call fails (successes/EAGAIN/errors $ronex_res)" \
	test "${ronex_res%%/*}" -eq 0
check "range onto a section it cannot collect: x $MULTI fails as x 1 does ($rmultix_res = $ronex_res, exit $rmultix_rc = $ronex_rc)" \
	test "$rmultix_res" = "$ronex_res" -a "$rmultix_rc" -eq "$ronex_rc"
check "range onto an empty section: both emptied the victims before it ($ronex_left, $rmultix_left)" \
	test "$ronex_left" -eq 0 -a "$rmultix_left" -eq 0
}

## until idle: off, on x 1, on x 16 ############################################
run_variant() {	# NAME PACKING SECTIONS
	local mnt=/mnt/$1 out moved
	layout_on "$DISK2" "$mnt" "$2"
	moved=$(pack_stat "$mnt" moved_blocks_foreground)
	out=$("$GC_TOOL" -q -j -d off -S "$3" -i 3 -c 400 "$mnt")
	sync
	moved=$(($(pack_stat "$mnt" moved_blocks_foreground) - moved))
	eval "${1}_after=$(total_extents "$mnt/d") ${1}_max=$(max_file_extents "$mnt/d")"
	eval "${1}_moved=$moved ${1}_eagain=$(json_field "$out" eagain)"
	eval "${1}_ok=$(json_field "$out" successes)"
	log "$1: extents $BEFORE_EXTENTS -> $(total_extents "$mnt/d") (max $(max_file_extents "$mnt/d") per file), moved $moved, $(pack_stats "$mnt")"
	log "$1: gc $(echo "$out" | tr -d '\n ')"
	check "$1: data intact after GC" sha_verify "$mnt/d" /tmp/g.sha
	umount_fsck "$DISK2" "$mnt"
	mount_fs f2fs_packed "$DISK2" "$mnt"
	check "$1: data intact after remount" sha_verify "$mnt/d" /tmp/g.sha
	umount "$mnt"
}

run_variant off off 1
run_variant one on 1
run_variant multi on "$MULTI"

# shellcheck disable=SC2154
{
check "layout: every survivor in >= 4 pieces ($BEFORE_EXTENTS extents)" \
	test "$BEFORE_EXTENTS" -ge $((SURVIVORS * 4))
check "on x 1: one run per victim at most ($one_max per file)" test "$one_max" -le 4
check "on x $MULTI: every survivor is one run ($multi_max per file, $multi_after in all)" \
	test "$multi_max" -eq 1
check "on x $MULTI: >= 95% of the reduction to one extent per file" \
	test $(((BEFORE_EXTENTS - multi_after) * 100)) -ge $(((BEFORE_EXTENTS - SURVIVORS) * 95))
check "on x $MULTI: no more extents than on x 1 ($multi_after <= $one_after)" \
	test "$multi_after" -le "$one_after"
check "on x $MULTI: blocks moved <= packing off's ($multi_moved <= $off_moved)" \
	test "$multi_moved" -le "$off_moved"
check "on x 1: blocks moved <= packing off's ($one_moved <= $off_moved)" \
	test "$one_moved" -le "$off_moved"
check "on x $MULTI: EAGAIN no more than packing off's ($multi_eagain <= $off_eagain)" \
	test "$multi_eagain" -le "$off_eagain"
check "on x $MULTI: at least one call succeeded" test "$multi_ok" -ge 1
}

## the writers' GC: f2fs_balance_fs() batches too ############################
# 128 MiB, mode=lfs (no SSR into the holes), no GC thread: 16 files filling
# 85% of the user space, written 64 KiB at a time round-robin; the even
# ones cold, the odd ones rewritten in full twice (buffered, out of place
# in mode=lfs; 7.2's O_DIRECT overwrites needed no GC here), which makes
# the writers' f2fs_balance_fs() collect. The same
# layout with gc_pack_sections 1 and 16: with 16 the writers' calls hold
# sections and the cold files end in fewer runs; with 1 nothing is held.
WFILES=16
mkfs.f2fs -q -f -s 1 "$DISK1" 262144 > /dev/null || fail "mkfs.f2fs 128 MiB"
mount_fs f2fs_packed "$DISK1" /mnt/w "gc_packing=off,mode=lfs,background_gc=off"
WKIB=$(($(df -B1 --output=avail /mnt/w | tail -1) * 85 / 100 / WFILES / 1024 / 64 * 64))
interleave /mnt/w/d "$WFILES" "$WKIB" 64k
sync
sha_record /mnt/w/d /tmp/w.sha
grep -E '\./f\.0\.[0-9]*[02468]$' /tmp/w.sha > /tmp/w.cold.sha
WCOLD_BEFORE=$(cold_extents /mnt/w/d)
umount /mnt/w
log "writers: $WFILES x $WKIB KiB interleaved 64 KiB at a time, cold files in $WCOLD_BEFORE extents"

writers_variant() {	# NAME SECTIONS
	local mnt=/mnt/w$1 sys moved hot
	dd if="$DISK1" of="$DISK2" bs=1M count=128 conv=fsync status=none
	mount_fs f2fs_packed "$DISK2" "$mnt" "gc_packing=on,mode=lfs,background_gc=off"
	sys=$(sysfs_of "$mnt")
	echo "$2" > "$sys/gc_pack_sections"
	moved=$(pack_stat "$mnt" moved_blocks_foreground)
	hot=$(cd "$mnt/d" && ls | awk -F. '$3 % 2 == 1' | sort -V | paste -sd:)
	for _ in 1 2; do
		(cd "$mnt/d" && fio --name=h --filename="$hot" --filesize="${WKIB}k" \
			--size=$((WFILES / 2 * WKIB))k --bs=64k --rw=write --end_fsync=1 \
			--file_service_type=sequential --refill_buffers \
			--eta=never --output=/dev/null) ||
			fail "writers $1: the hot rewrite failed"
	done
	sync
	eval "w${1}_cold=$(cold_extents "$mnt/d")"
	eval "w${1}_held=$(cat "$sys/gc_pack_held_sections")"
	eval "w${1}_moved=$(($(pack_stat "$mnt" moved_blocks_foreground) - moved))"
	log "writers $1: cold extents $WCOLD_BEFORE -> $(cold_extents "$mnt/d"), moved $(($(pack_stat "$mnt" moved_blocks_foreground) - moved)), held_sections $(cat "$sys/gc_pack_held_sections"), space stops $(cat "$sys/gc_pack_space_stops"), cap stops $(cat "$sys/gc_pack_cap_stops"), $(pack_stats "$mnt")"
	check "writers $1: cold data intact" sha_verify "$mnt/d" /tmp/w.cold.sha
	umount_fsck "$DISK2" "$mnt"
}

writers_variant one 1
writers_variant multi "$MULTI"

# shellcheck disable=SC2154
{
check "writers: their GC moved blocks ($wone_moved, $wmulti_moved)" \
	test "$wone_moved" -gt 0 -a "$wmulti_moved" -gt 0
check "writers x 1: no section held ($wone_held)" test "$wone_held" -eq 0
check "writers x $MULTI: f2fs_balance_fs() held sections ($wmulti_held)" test "$wmulti_held" -gt 0
check "writers x $MULTI: cold files in fewer runs than x 1 ($wmulti_cold < $wone_cold)" \
	test "$wmulti_cold" -lt "$wone_cold"
}

## at the physical limit #######################################################
# 128 MiB filled to 95% of the user space with 8 files written 64 KiB at a
# time round-robin, then one of them deleted: every section 7/8 valid, the
# free sections just above the reserved ones (mode=lfs: no SSR into the
# holes). The batch may fill the free sections, reserved ones included,
# down to the level where f2fs_gc() checkpoints (the writers' needs plus
# NR_GC_CHECKPOINT_SECS, 3): its held blocks must stop there, short of the
# victims' valid blocks, and the call succeeds as packing off's does.
LFS=mode=lfs,background_gc=off
mkfs.f2fs -q -f -s 1 "$DISK1" 262144 > /dev/null || fail "mkfs.f2fs 128 MiB"
mount_fs f2fs_packed "$DISK1" /mnt/l "gc_packing=off,$LFS"
LKIB=$(($(df -B1 --output=avail /mnt/l | tail -1) * 95 / 100 / 8 / 1024 / 64 * 64))
interleave /mnt/l/d 8 "$LKIB" 64k
rm /mnt/l/d/f.0.0
sync
sha_record /mnt/l /tmp/l.sha
read -r free rsvd < <(free_and_reserved "$DISK1")
valid=$(segs_valid /mnt/l | awk '$2 < 512 { n += $2 } END { print n + 0 }')
log "limit: 8 x $LKIB KiB, one deleted: $free free sections, $rsvd reserved, $valid valid blocks in the victims"
umount /mnt/l

limit_variant() {	# NAME DEV PACKING SECTIONS
	local mnt=/mnt/l$1 out moved sys
	[ "$2" = "$DISK1" ] || dd if="$DISK1" of="$2" bs=1M count=128 conv=fsync status=none
	mount_fs f2fs_packed "$2" "$mnt" "gc_packing=$3,$LFS"
	sys=$(sysfs_of "$mnt")
	read -r free rsvd < <(free_and_reserved "$2")
	moved=$(pack_stat "$mnt" moved_blocks_foreground)
	trace_start f2fs_gc_pack_end
	out=$("$GC_TOOL" -q -j -d off -S "$4" -i 1 -c 1 "$mnt") || true
	trace_stop
	eval "l${1}_ok=$(json_field "$out" successes)"
	eval "l${1}_moved=$(($(pack_stat "$mnt" moved_blocks_foreground) - moved))"
	# the call's own passes: the writers' GC that follows it (writeback
	# in f2fs_balance_fs() once the call has used the free sections,
	# seen on 6.12) packs too
	eval "l${1}_call=$(grep -E '^ *f2fs-gc-[0-9]+ .*f2fs_gc_pack_end:' /sys/kernel/tracing/trace |
		sed -n 's/.* moved = \([0-9]*\),.*/\1/p' | awk '{ n += $1 } END { print n + 0 }')"
	eval "l${1}_free=$free l${1}_stops=$(cat "$sys/gc_pack_space_stops")"
	log "limit $1: $free free, $rsvd reserved: $(echo "$out" | tr -d '\n ') moved $(($(pack_stat "$mnt" moved_blocks_foreground) - moved)), by the call's passes $(eval echo "\$l${1}_call"), space stops $(cat "$sys/gc_pack_space_stops"), cap stops $(cat "$sys/gc_pack_cap_stops")"
	check "limit $1: data intact" sha_verify "$mnt" /tmp/l.sha
	umount_fsck "$2" "$mnt"
}

limit_variant off "$DISK2" off 1
limit_variant multi "$DISK3" on 64

# shellcheck disable=SC2154
{
room=$(((lmulti_free - 3) * 512))
check "limit: the victims hold more than the free sections take ($valid > $room)" \
	test "$valid" -gt "$room"
check "limit: packing off's call succeeds" test "$loff_ok" -eq 1
check "limit: on x 64 succeeds as packing off's does" test "$lmulti_ok" -eq "$loff_ok"
check "limit: on x 64 stopped its batch on free space ($lmulti_stops)" test "$lmulti_stops" -ge 1
check "limit: on x 64's call packed no more than the free sections above the checkpoint level take ($lmulti_call <= $room)" \
	test "$lmulti_call" -le "$room"
check "limit: on x 64's call collected more than one section ($lmulti_call > $loff_moved)" \
	test "$lmulti_call" -gt "$loff_moved"
}
finish
