# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A node page the pack pass cannot read is an error, not a stale record
# (issue 39, item 4). The sync GC call's batch of tests/lib/batch.sh
# (S0..S2) is held reading S2's summary block with S0's and S1's records
# queued; meanwhile the clean node pages leave the page cache and every
# page-cache allocation of the volume fails (FAULT_PAGE_ALLOC at rate 1),
# so the pass's is_alive() cannot read the owners' inodes again. Resumed,
# the pass must leave every held record in place and count it in
# gc_pack_left and gc_pack_read_errors, none in gc_pack_stale: the blocks
# are live, their reads failed. The data intact, fsck clean, dmesg clean.
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/batch.sh"

FAULT_PAGE_ALLOC=$((1 << 2))

load_packed
need_gc_tool
batch_devices
layout
sys=$(sysfs_dev f2fs_packed "$DM")

# read_errors: the counter, or "none" where the module has none
read_errors() {
	cat "$sys/gc_pack_read_errors" 2>/dev/null || echo none
}

counters e0
errors0=$(read_errors)
hold_summary_read "node read"
queued=$(queued_records "$MNT")
check "S0's and S1's records held ($queued = $V0 + $V1)" test "$queued" -eq $((V0 + V1))
# the held inodes stay, their clean node pages go; no checkpoint runs in
# the call (free space), nothing else reads the volume meanwhile
echo 1 > /proc/sys/vm/drop_caches
echo "$FAULT_PAGE_ALLOC" > "$sys/inject_type"
echo 1 > "$sys/inject_rate"
dmsetup resume hold
check "the GC call ends" wait_for 120 gone "$GC"
echo 0 > "$sys/inject_rate"
rc=0
wait "$GC" || rc=$?
log "f2fs-gc exit $rc: $(tr -d '\n ' < /tmp/gc.json | cut -c1-240)"
counters e1
errors1=$(read_errors)
# shellcheck disable=SC2154
{
moved=$((e1_blocks - e0_blocks)) stale=$((e1_stale - e0_stale))
dropped=$((e1_dropped - e0_dropped)) left=$((e1_left - e0_left))
}
log "moved $moved, stale $stale, dropped $dropped, left $left, read errors $errors0 -> $errors1; $(pack_stats "$MNT")"
check "no record counted stale ($stale)" test "$stale" -eq 0
check "no record moved or dropped ($moved, $dropped)" test "$moved" -eq 0 -a "$dropped" -eq 0
check "every held record left in place ($left = $queued)" test "$left" -eq "$queued"
check "every held record counted a read error ($errors0 -> $errors1)" \
	test "$errors0" != none -a "$errors1" != none
[ "$errors0" = none ] ||
	check "read errors = held records ($((errors1 - errors0)) = $queued)" \
		test $((errors1 - errors0)) -eq "$queued"
check "no record queued" test "$(queued_records "$MNT")" -eq 0
check "S0 and S1 still valid" test "$(valid_in_section "$MNT" "$S0BLK")" -eq "$V0" \
	-a "$(valid_in_section "$MNT" $((S0BLK + 512)))" -eq "$V1"

# with the faults off: what later GC makes of them (not checked: on main
# and with the fix alike, S0 was still valid after GC until idle; open)
gc_until_idle "$MNT" > /dev/null || true
log "after GC until idle, S0 holds $(valid_in_section "$MNT" "$S0BLK") valid blocks"
check "d/ intact" sha_verify "$MNT/d" /tmp/d.sha
check "a intact" cmp /tmp/a.orig "$MNT/a/a"
umount_fsck "$DM" "$MNT"
batch_devices_remove
finish
