# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The freezer during a batch's pack pass (issue 20, review N1). Upstream
# GC stops between segments once its task is being frozen on 7.2 and
# 7.3, not on 6.1 and 6.12 (src/compat.h, gc_pack_freezing()). A pack
# pass migrates whole sections, a batch's pass several: it must stop
# where upstream does, and finish where upstream finishes.
# The batch of tests/lib/batch.sh (S0..S2) is held in its one pass on
# a's first block, under write-back to the suspended hold device (as in
# test 49), with the records of all three sections queued. The GC task
# is then put in a cgroup v1 freezer (FREEZING: a task in D state
# cannot freeze) and the device resumed. 7.x: the pass drops every
# record after the one it was moving, the call returns, the task
# freezes; 6.x: the pass migrates every record first. Both: every
# record counted once (moved + stale + dropped + left = queued), no
# record left queued, the call ends after the thaw, the data intact
# (a's first block the rewrite, the rest as written), fsck clean.
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/batch.sh"

load_packed
need_gc_tool
batch_devices
layout
total=$((V0 + V1 + V2))
sys=$(sysfs_dev f2fs_packed "$DM")
read -r ablk _ < <(file_span "$MNT/a/a")
must "a's first block through the hold device" route_block race "$DISK1" "$HOLD" "$ablk"
echo 1 > "$sys/ipu_policy"	# F2FS_IPU_FORCE
dmsetup suspend hold
# Whatever fails below, the device must not stay suspended.
trap 'dmsetup resume hold 2>/dev/null || :' EXIT
rewrite_first_block "$MNT/a/a"
echo 16 > "$sys/ipu_policy"	# the default, F2FS_IPU_FSYNC
must "a page under write-back to hold the pass on" wait_for 20 under_writeback
must "the rewrite stayed in place" \
	test "$(file_span "$MNT/a/a" | cut -d' ' -f1)" -eq "$ablk"
counters f0
start_gc
if ! wait_for 120 blocked_in "$GC" "$HELD"; then
	dmsetup resume hold
	fail "the pass waits on the held page"
	finish
fi
echo "ok - the pass waits on the held page"
queued=$(queued_records "$MNT")
check "the records of the 3 sections queued ($queued = $V0 + $V1 + $V2)" \
	test "$queued" -eq "$total"

freezer=/tmp/freezer
mkdir -p "$freezer"
must "cgroup v1 freezer mounted" mount -t cgroup -o freezer freezer "$freezer"
mkdir "$freezer/gc"
for p in "$GC" $(pgrep -P "$GC"); do
	echo "$p" > "$freezer/gc/tasks"
done
state() {
	cat "$freezer/gc/freezer.state"
}
frozen() {
	test "$(state)" = FROZEN
}
echo FROZEN > "$freezer/gc/freezer.state"
check "the held GC task is freezing, not frozen" test "$(state)" = FREEZING
dmsetup resume hold
check "the GC task froze" wait_for 120 frozen
counters f1
# shellcheck disable=SC2154
{
dropped=$((f1_dropped - f0_dropped)) moved=$((f1_blocks - f0_blocks))
stale=$((f1_stale - f0_stale)) left=$((f1_left - f0_left))
}
log "queued $queued: moved $moved, stale $stale, dropped $dropped, left $left; $(pack_stats "$MNT")"
check "no record left queued" test "$(queued_records "$MNT")" -eq 0
check "every record counted once ($moved + $stale + $dropped + $left = $queued)" \
	test $((moved + stale + dropped + left)) -eq "$queued"
case $KVER in
6.*)
	check "6.x: the pass finished, as upstream's GC finishes the section (dropped $dropped)" \
		test "$dropped" -eq 0 -a "$moved" -ge $((queued - 1))
	;;
*)
	check "7.x: the pass stopped after the record it was moving (dropped $dropped = $queued - 1)" \
		test "$dropped" -eq $((queued - 1))
	;;
esac
echo THAWED > "$freezer/gc/freezer.state"
check "the GC call ends after the thaw" wait_for 60 gone "$GC"
rc=0
wait "$GC" || rc=$?
log "f2fs-gc exit $rc: $(tr -d '\n ' < /tmp/gc.json | cut -c1-240)"
umount "$freezer"

check "d/ intact" sha_verify "$MNT/d" /tmp/d.sha
check "a intact after its first block" cmp -i 4096 /tmp/a.orig "$MNT/a/a"
check "a's first block the rewrite" python3 -c '
import sys
sys.exit(open(sys.argv[1], "rb").read(4096) != b"\x5a" * 4096)' "$MNT/a/a"
umount_fsck "$DM" "$MNT"
batch_devices_remove
finish
