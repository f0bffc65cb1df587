# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Power cuts during packed GC, the strict way: dm-log-writes records every
# write of a run (mkfs, an interleaved layout, then sync foreground GC with
# packing on while a writer fsyncs new files), and replay-log-writes
# replays the log onto a blank disk. From the moment GC starts it stops at
# every flush and FUA entry, where a cut could have left the device: there
# a snapshot of the replayed disk must take a recovery mount, hold every
# file whose fsync had returned (a mark in the log says which) and the
# layout GC was moving, and be fsck-clean after the mount. The replayed
# disk must end up equal to the logged one.
# dmesg-expected: Unaligned curseg\[[0-9]+\] with write pointer
# vm: -d 3 -s 256M -t 1200
set -eu
. "$REPO/tests/lib/powercut.sh"

load_packed
need_gc_tool
REPLAY=$REPO/tools/replay-log-writes/replay-log-writes
must "replay-log-writes is built" test -x "$REPLAY"
must "dm-log-writes and dm-snapshot load" modprobe -a dm-log-writes dm-snapshot
# The snapshots' copy-on-write store: a recovery mount writes little.
must "a RAM disk for the snapshots" modprobe brd rd_nr=1 rd_size=65536

W=/tmp/pc
mkdir -p $W
size=$(blockdev --getsz "$DISK1")
must "dm-log-writes over $DISK1, logging to $DISK2" \
	dmsetup create pc-log --table "0 $size log-writes $DISK1 $DISK2"
DEV=/dev/$(dmsetup info -c --noheadings -o blkdevname pc-log)
# mark WORD...: a mark in the log, the words joined by ':' (a mark is one
# word to the target).
mark() {
	local IFS=:
	dmsetup message pc-log 0 mark "$*"
}

# One segment per section would let GC find whole-garbage segments; four
# make each victim a multi-segment section that packing reorders.
mkfs_f2fs "$DEV" -s 4 -t 0
mark mkfs
mount_fs f2fs_packed "$DEV" /mnt/pc background_gc=off,gc_packing=on
fragment /mnt/pc/base 32 1024 $W/base.sha
sed -i 's|  \./|  base/|' $W/base.sha
mark base
: > $W/fsynced
fsync_writer /mnt/pc new 12 $W/fsynced mark fsync &
writer=$!
mark gc
out_gc=$(gc_calls /mnt/pc 12)
check "writer's fsyncs all returned" wait $writer
mark gc-done
log "gc: $(echo "$out_gc" | tr -d '\n ')"
log "packing: $(pack_stats /mnt/pc)"
check "packed GC moved blocks during the logged run" \
	test "$(pack_stat /mnt/pc gc_pack_blocks)" -gt 0
check "data intact before the cut points are replayed" \
	sha_verify /mnt/pc $W/base.sha
umount_fsck "$DEV" /mnt/pc
must "dm-log-writes removed" dmsetup remove pc-log
dmesg_check_clear "the replays"

# The check at each durable point from GC's start on. What must have
# survived there: the base layout, and each file whose fsync mark is
# replayed.
cat > $W/check.sh <<'EOF'
set -u
. "$REPO/tests/lib/powercut.sh"
grep -qx gc $W/marks || exit 0
{
	cat $W/base.sha
	sed -n 's/^fsync://p' $W/marks |
		awk 'NR == FNR { want[$1]; next } $2 in want' - $W/fsynced
} > $W/expected
phase=$(tail -1 $W/marks)
echo "$REPLAY_ENTRY $phase $(wc -l < $W/expected)" >> $W/points
dmsetup create pc-snap --table "0 $size snapshot $DISK3 /dev/ram0 N 8" || exit 1
snap=/dev/$(dmsetup info -c --noheadings -o blkdevname pc-snap)
cut_check f2fs_packed "$snap" /mnt/snap $W/expected background_gc=off
rc=$?
dmsetup remove pc-snap || rc=1
[ $rc -eq 0 ] || echo "# at log entry $REPLAY_ENTRY (after mark '$phase')"
exit $rc
EOF
export W size DISK3
: > $W/marks
: > $W/points
start=$(date +%s)
rc=0
out=$("$REPLAY" -m $W/marks -c "bash $W/check.sh" "$DISK2" "$DISK3" 2>&1) || rc=$?
echo "$out" | sed 's/^/# /'
check "every durable point recovers, keeps the fsync'd files and is fsck-clean" \
	test $rc -eq 0
log "replay and checks took $(($(date +%s) - start)) s"
# Each successful GC call ends in a checkpoint, a durable point of its
# own; the writer's fsyncs add points that may fall inside a call.
successes=$(json_field "$out_gc" successes)
during_gc=$(awk '$2 == "gc" || $2 ~ /^fsync:/' $W/points | wc -l)
log "replay: $(echo "$out" | tail -1)"
log "points checked: $(wc -l < $W/points), $during_gc before GC and the writer were done; $successes GC calls succeeded"
check "a point checked for every GC call's checkpoint" \
	test "$during_gc" -ge "$successes" -a "$successes" -gt 0
check "every fsync'd file was checked at some point" \
	test "$(grep -c '^fsync:' $W/marks)" -eq 12
check "the replayed disk equals the logged one" cmp -s "$DISK1" "$DISK3"
finish
