# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A checkpoint error while one sync GC call holds the records of several
# victim sections (every early exit drops or migrates all held records,
# for every held section): the batch of tests/lib/batch.sh (S0..S2), held
# on purpose through its suspended dm device:
#  - in the pack pass: a's first block, rewritten in place, stays under
#    write-back; the batch's one pass waits on it, the first record it
#    moves, with the records of all three sections queued;
#  - between sections: the summary block of S2; the call waits reading
#    it, with S0's and S1's records held, before S2 joins the batch.
#    Resumed, S2 joins with nothing queued (the checkpoint error) and the
#    batch's pass drops the records;
#  - the same, but the held read fails (dm error target): S2 never joins,
#    and the batch's pass drops them.
# Held there, f2fs_io shutdown 2 (no flush) sets the checkpoint error
# (its superblock commit flushes, and waits on the suspended device too),
# then the device is resumed. Checked each time: the call ends, no
# record left (gc_pack_queued 0), every held record dropped (in the pass:
# all but the one being moved), more than one section's records held
# (gc_pack_peak_queued, gc_pack_held_sections), rmmod after the umount
# clean (kmem_cache_destroy() warns of a record still allocated), after
# a recovery mount the synced data intact (sha256; a's held block either
# version), fsck clean; dmesg clean (finish).
# dmesg-expected: Stopped filesystem due to reason
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/batch.sh"

load_packed
need_gc_tool
batch_devices

# shutdown_held WHAT REGEX: with the call held in REGEX, shut down (no
# flush), wait for the checkpoint error, then resume the hold device;
# the call and the shutdown must end.
shutdown_held() {	# WHAT REGEX [error: the held I/O fails instead]
	local sd rc=0
	f2fs_io shutdown 2 "$MNT" > /tmp/shutdown.log 2>&1 &
	sd=$!
	must "$1: the shutdown set the checkpoint error" wait_for 60 cp_error "$MNT"
	check "$1: the call still held" blocked_in "$GC" "$2"
	if gone "$sd"; then
		log "$1: the shutdown returned before the resume"
	else
		log "$1: the shutdown waits too: $(grep -oE 'f2fs_[a-z_]+' "/proc/$sd/stack" | head -3 | paste -sd' ')"
	fi
	[ "${3:-}" != error ] ||
		dmsetup load hold --table "0 $(blockdev --getsz "$DISK1") error"
	dmsetup resume hold
	check "$1: the GC call ends" wait_for 120 gone "$GC"
	wait "$GC" || rc=$?
	log "$1: f2fs-gc exit $rc: $(tr -d '\n ' < /tmp/gc.json | cut -c1-240)"
	check "$1: the shutdown ends" wait_for 60 gone "$sd"
	wait "$sd" || true
}

# recover WHAT: umount, rmmod (its slab check), a recovery mount: the
# synced data intact, a's held block either version; fsck clean.
recover() {
	umount "$MNT" || { fail "$1: umount"; finish; }
	dmesg > /tmp/dmesg.before
	check "$1: rmmod f2fs_packed after the umount" rmmod f2fs_packed
	check "$1: no record left in the slab cache" not sh -c \
		"dmesg | grep -vxFf /tmp/dmesg.before | grep -E 'still has objects|Objects remaining'"
	load_packed
	mount_fs f2fs_packed "$DM" "$MNT"
	check "$1: synced data intact after the recovery mount" sha_verify "$MNT/d" /tmp/d.sha
	check "$1: a intact after its first block" cmp -i 4096 /tmp/a.orig "$MNT/a/a"
	check "$1: a's first block the synced one or the held rewrite" python3 -c '
import sys
b = open(sys.argv[1], "rb").read(4096)
sys.exit(b != open(sys.argv[2], "rb").read(4096) and b != b"\x5a" * 4096)' \
		"$MNT/a/a" /tmp/a.orig
	umount "$MNT" || { fail "$1: umount"; finish; }
	check "$1: fsck.f2fs clean" fsck_clean "$DM"
}

## held in the pack pass #######################################################
layout
total=$((V0 + V1 + V2))
sys=$(sysfs_dev f2fs_packed "$DM")
read -r ablk _ < <(file_span "$MNT/a/a")
must "a's first block through the hold device" route_block race "$DISK1" "$HOLD" "$ablk"
echo 1 > "$sys/ipu_policy"	# F2FS_IPU_FORCE
dmsetup suspend hold
rewrite_first_block "$MNT/a/a"
echo 16 > "$sys/ipu_policy"	# the default, F2FS_IPU_FSYNC
must "pass: a page under write-back to hold the pass on" wait_for 20 under_writeback
must "pass: the rewrite stayed in place" \
	test "$(file_span "$MNT/a/a" | cut -d' ' -f1)" -eq "$ablk"
counters p0
start_gc
must "pass: the pass waits on the held page" wait_for 120 blocked_in "$GC" "$HELD"
queued=$(queued_records "$MNT")
check "pass: the records of the 3 sections queued ($queued = $V0 + $V1 + $V2)" \
	test "$queued" -eq "$total"
shutdown_held pass "$HELD"
counters p1
# shellcheck disable=SC2154
{
dropped=$((p1_dropped - p0_dropped)) moved=$((p1_blocks - p0_blocks))
stale=$((p1_stale - p0_stale)) held=$((p1_held - p0_held))
}
peak=$(pack_stat "$MNT" gc_pack_peak_queued)
log "pass: queued $queued, dropped $dropped, moved $moved, stale $stale, peak $peak, sections held $held; $(pack_stats "$MNT")"
check "pass: no record left" test "$(queued_records "$MNT")" -eq 0
check "pass: every record but the one being moved dropped ($dropped = $queued - 1)" \
	test "$dropped" -eq $((queued - 1))
check "pass: the records accounted (dropped $dropped + moved $moved + stale $stale, of $queued)" \
	test $((dropped + moved + stale)) -ge $((queued - 1)) -a \
	$((dropped + moved + stale)) -le "$queued"
check "pass: more than one section's records held (peak $peak)" \
	test "$peak" -eq "$total" -a "$peak" -gt $((V0 > V1 ? (V0 > V2 ? V0 : V2) : (V1 > V2 ? V1 : V2)))
check "pass: S0 and S1 held for a later victim's scan ($held)" test "$held" -eq 2
recover pass

## held between sections #######################################################
# S2's summary block is read from the disk when S2 is collected: the
# caches dropped, it goes through the hold device. Resumed, the read
# completes, S2 joins the batch with nothing queued (its scan sees the
# checkpoint error) and the batch's pass drops the records; failed (dm
# error target), S2 never joins and the batch's pass drops them.
between() {	# WHAT [error]
	local held_records queued dropped moved stale held peak
	layout
	held_records=$((V0 + V1))
	counters b0
	hold_summary_read "$1"
	queued=$(queued_records "$MNT")
	check "$1: S0's and S1's records held ($queued = $V0 + $V1)" \
		test "$queued" -eq "$held_records"
	shutdown_held "$1" "$SUM_READ" "${2:-}"
	counters b1
	# shellcheck disable=SC2154
	{
	dropped=$((b1_dropped - b0_dropped)) moved=$((b1_blocks - b0_blocks))
	stale=$((b1_stale - b0_stale)) held=$((b1_held - b0_held))
	}
	peak=$(pack_stat "$MNT" gc_pack_peak_queued)
	log "$1: queued $queued, dropped $dropped, moved $moved, stale $stale, peak $peak, sections held $held; $(pack_stats "$MNT")"
	check "$1: no record left" test "$(queued_records "$MNT")" -eq 0
	check "$1: every held record dropped ($dropped = $queued)" \
		test "$dropped" -eq "$queued" -a "$moved" -eq 0 -a "$stale" -eq 0
	check "$1: more than one section's records held (peak $peak)" \
		test "$peak" -eq "$held_records" -a "$peak" -gt "$((V0 > V1 ? V0 : V1))"
	check "$1: S0 and S1 held ($held)" test "$held" -eq 2
	if [ "${2:-}" = error ]; then
		must "$1: the summary block straight to the disk again" \
			route_block race "$DISK1" "$HOLD" ''
		dmsetup suspend hold
		dmsetup load hold --table "0 $(blockdev --getsz "$DISK1") linear $DISK1 0"
		dmsetup resume hold
	fi
	recover "$1"
}
between between
between read-error error
batch_devices_remove
finish
