# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A section a batch holds, emptied by a writer before the pass (issue 20,
# finding 5): GC must not be credited with it. The sync GC call's batch
# of tests/lib/batch.sh (S0..S2) is held reading S2's summary block, with
# S0's and S1's records queued; meanwhile S1's files are truncated to
# nothing, which leaves S1 with no valid block (not deleted: the batch
# holds their inodes, which keeps them from eviction until it ends). Resumed, the pass must find S1's records
# stale (the SIT no longer counts them valid: nothing moved for them),
# move every other record, and the call's sec_freed (f2fs_gc_end) must
# count S0 and S2, which the pass emptied, not S1, which the writer
# emptied: a batch's further section counts a segment only if the pass
# moved blocks out of it. S0 and S2 end empty; the data left intact,
# fsck clean, dmesg clean.
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/batch.sh"

load_packed
need_gc_tool
batch_devices
layout
S1BLK=$((S0BLK + 512))

# the files of S1 (a file of d/ lies in one section: 64-block files, a
# opens S0 at its start)
s1_files=
for f in "$MNT"/d/*; do
	read -r first last < <(file_span "$f")
	[ "$first" -ge "$S1BLK" ] && [ "$last" -lt $((S1BLK + 512)) ] &&
		s1_files="$s1_files $f"
done
must "layout: S1 holds files of d/ ($(echo "$s1_files" | wc -w))" test -n "$s1_files"

trace_start f2fs_gc_end
counters e0
hold_summary_read emptied
queued=$(queued_records "$MNT")
check "S0's and S1's records held ($queued = $V0 + $V1)" test "$queued" -eq $((V0 + V1))

# shellcheck disable=SC2086 # file names are words
truncate -s 0 $s1_files
check "S1 emptied by the writer while held" test "$(valid_in_section "$MNT" "$S1BLK")" -eq 0
dmsetup resume hold
check "the GC call ends" wait_for 120 gone "$GC"
rc=0
wait "$GC" || rc=$?
log "f2fs-gc exit $rc: $(tr -d '\n ' < /tmp/gc.json | cut -c1-240)"
trace_stop
counters e1
# shellcheck disable=SC2154
{
moved=$((e1_blocks - e0_blocks)) stale=$((e1_stale - e0_stale))
dropped=$((e1_dropped - e0_dropped)) held=$((e1_held - e0_held))
}
sec=$(trace_gc_end_sum sec_freed)
log "moved $moved, stale $stale, dropped $dropped, sections held $held, sec_freed $sec; $(pack_stats "$MNT")"
check "the call succeeded" test "$rc" -eq 0
check "no record left" test "$(queued_records "$MNT")" -eq 0
check "S0 and S1 held for S2's scan ($held)" test "$held" -eq 2
check "S1's records stale, nothing dropped ($stale = $V1, $dropped)" \
	test "$stale" -eq "$V1" -a "$dropped" -eq 0
check "every record of S0 and S2 moved ($moved = $V0 + $V2)" test "$moved" -eq $((V0 + V2))
check "S0 and S2 emptied by the pass" \
	test "$(valid_in_section "$MNT" "$S0BLK")" -eq 0 -a \
	"$(valid_in_section "$MNT" $((S1BLK + 512)))" -eq 0
check "sec_freed counts S0 and S2, not S1 ($sec = 2)" test "$sec" -eq 2

for f in $s1_files; do
	echo "./${f#"$MNT"/d/}"
done > /tmp/emptied
awk 'NR == FNR { e[$1]; next } !($2 in e)' /tmp/emptied /tmp/d.sha > /tmp/d.kept.sha
check "the files not truncated intact" sha_verify "$MNT/d" /tmp/d.kept.sha
all_empty() {
	local f
	for f; do
		[ ! -s "$f" ] || return 1
	done
}
# shellcheck disable=SC2086 # file names are words
check "the truncated files empty" all_empty $s1_files
check "a intact" cmp /tmp/a.orig "$MNT/a/a"
umount_fsck "$DM" "$MNT"
batch_devices_remove
finish
