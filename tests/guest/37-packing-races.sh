# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What the pack pass must do that phase 4 does, each made deterministic:
#  - blocks whose phase-3 step failed: FAULT_PAGE_ALLOC (every 2nd page
#    f2fs allocates, counter-driven, no timing) fails some phase-3 data
#    reads of a file whose other blocks put it on gc_list. Phase 4 still
#    moves those blocks; packing must leave no more behind than legacy GC
#    does on the same layout (it left twice as many when it queued in
#    phase 3).
#  - blocks given a new node by f2fs_replace_block() while queued: the
#    pass is held on a page under write-back (in-place rewrite of the
#    first queued file, its device suspended), collapse and insert range
#    run on the second file meanwhile, then the device is resumed. Every
#    still-valid block must be moved: stale counts only the collapsed-away
#    blocks, every other record is migrated, and the file has the content
#    collapse+insert give.
#  - a checkpoint error while the pass runs: held the same way, a
#    shutdown sets the error, and the pass must drop what it has not
#    moved yet instead of writing on.
#  - a summary block that cannot be read (a dm error target over it):
#    do_garbage_collect() returns -EIO, which f2fs_gc() must not count
#    as freed segments or a freed section.
# dmesg-expected: Stopped filesystem due to reason
# vm: -d 2 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool
modprobe dm_mod || { fail "modprobe dm_mod"; finish; }
FAULT_PAGE_ALLOC=$((1 << 2))
SEGS=4
bps=$((SEGS * 512))

# gc_section MNT SECSTART: one sync GC_RANGE call over the section, no
# syncfs after it; prints f2fs-gc's JSON summary.
gc_section() {
	"$GC_TOOL" -q -j -n -d off -r "$2:$bps" -c 1 -i 1 "$1"
}

# cp_error MNT: MNT has a checkpoint error, seen as touch(1) failing
# (f2fs_setattr() and f2fs_create() refuse with EIO before any I/O).
cp_error() {
	! touch "$1/.cp-probe" 2>/dev/null
}

# hold_pass MNT DM FILE: rewrite FILE's first block in place and start its
# write-back with device-mapper device DM suspended: the page stays under
# write-back until DM is resumed, and a pack pass that comes to that block
# waits for it there, with every record of the section queued.
hold_pass() {
	local sys old
	sys=$(sysfs_dev f2fs_packed "$(findmnt -no SOURCE "$1")")
	old=$(cat "$sys/ipu_policy")
	echo 1 > "$sys/ipu_policy"	# F2FS_IPU_FORCE
	# --nolockfs: a frozen file system would block the rewrite itself
	dmsetup suspend --nolockfs "$2"
	rewrite_first_block "$3"
	echo "$old" > "$sys/ipu_policy"
	must "a page under write-back to hold the pass on" \
		wait_for 20 under_writeback
}

# A section of the dm-backed volume: file a (256 KiB), file b (4 MiB), a
# hole (GC passes over a full section) and a pad that moves the logs on.
# No section is left empty but dirty, which f2fs_replace_block() warns
# about under checkpoint=disable.
prepare() {	# MNT DIR
	mkdir -p "$1/$2"
	direct_write "$1/$2/a" 256
	direct_write "$1/$2/b" 4096
	direct_write "$1/$2/hole" 1024
	direct_write "$1/$2/pad" 8192
	rm "$1/$2/hole"
	cp "$1/$2/b" "/tmp/$2.b"
}

size=$(blockdev --getsz "$DISK1")
dmsetup create race --table "0 $size linear $DISK1 0" ||
	{ fail "dmsetup create"; finish; }
# no udev in the guest, hence no /dev/mapper/race: use the dm-N node
DM=/dev/$(dmsetup info -c --noheadings -o blkdevname race)

## blocks whose phase-3 read failed
# the same layout on a fresh volume for each: a 4 MiB file alone in its
# section with a pad after it, deleted
declare -A left
for mode in off on; do
	mkfs_f2fs "$DISK2" -s "$SEGS"
	mount_fs f2fs_packed "$DISK2" /mnt/b gc_packing=$mode,background_gc=off
	sys=$(sysfs_dev f2fs_packed "$DISK2")
	mkdir -p "/mnt/b/$mode"
	direct_write "/mnt/b/$mode/f" 4096
	direct_write "/mnt/b/$mode/pad" 8192
	rm "/mnt/b/$mode/pad"
	victim_of /mnt/b "/mnt/b/$mode/f"
	sec=$VICTIM
	sha_record "/mnt/b/$mode" "/tmp/p3.$mode.sha"
	# the reads must go to the device, where the faults are
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "/mnt/b/$mode/f"
	echo "$FAULT_PAGE_ALLOC" > "$sys/inject_type"
	echo 2 > "$sys/inject_rate"
	out=$(gc_section /mnt/b "$sec") || true
	log "phase-3 faults, packing $mode: $(echo "$out" | grep -E '"(successes|eagain|errors)"' | tr -d '\n ') $(pack_stats /mnt/b)"
	echo 0 > "$sys/inject_rate"
	left[$mode]=$(valid_in_section /mnt/b "$sec")
	check "phase-3 faults, packing $mode: data intact" \
		sha_verify "/mnt/b/$mode" "/tmp/p3.$mode.sha"
	check "phase-3 faults, packing $mode: no record left" \
		test "$(queued_records /mnt/b)" -eq 0
	umount_fsck "$DISK2" /mnt/b
done
log "phase-3 faults: valid blocks left in the victim: legacy ${left[off]}, packed ${left[on]} of 1024"
check "phase-3 faults: legacy GC left some blocks (faults hit)" test "${left[off]}" -gt 0
check "phase-3 faults: packing leaves no more than legacy GC" \
	test "${left[on]}" -le $((left[off] + left[off] / 8 + 8))

## blocks replaced in place while queued
# checkpoint=disable: b's blocks are never checkpointed, so collapse and
# insert reuse them in place through f2fs_replace_block() (checkpointed
# blocks they copy, and the old ones die)
mkfs_f2fs "$DM" -s "$SEGS"
mount_fs f2fs_packed "$DM" /mnt/a gc_packing=on,background_gc=off,checkpoint=disable
prepare /mnt/a replace
victim_of /mnt/a /mnt/a/replace/a /mnt/a/replace/b
sec=$VICTIM
stale0=$(pack_stat /mnt/a gc_pack_stale)
blocks0=$(pack_stat /mnt/a gc_pack_blocks)
hold_pass /mnt/a race /mnt/a/replace/a
gc_section /mnt/a "$sec" > /tmp/replace.json &
gc=$!
must "replace: the pass waits on the held page" \
	wait_for 120 blocked_in $gc 'wait_on_page_writeback|folio_wait_writeback'
check "replace: collapse range while queued" \
	timeout 120 fallocate -c -o 1MiB -l 1MiB /mnt/a/replace/b
check "replace: insert range while queued" \
	timeout 120 fallocate -i -o 0 -l 1MiB /mnt/a/replace/b
dmsetup resume race
check "replace: GC call returns" wait $gc
# a fresh mount that GC'd one section: its peak is that section's records
queued=$(pack_stat /mnt/a gc_pack_peak_queued)
stale=$(($(pack_stat /mnt/a gc_pack_stale) - stale0))
moved=$(($(pack_stat /mnt/a gc_pack_blocks) - blocks0))
log "replace: $queued queued, $moved moved, $stale stale"
# Under checkpoint=disable the section's emptied segments are reused at
# once (GC's own log writes into them), so "nothing left" is told by the
# records: each was moved unless its block died.
check "replace: stale counts only the 256 collapsed-away blocks" test "$stale" -eq 256
check "replace: every other record moved" test "$moved" -eq $((queued - 256))
python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
d = d[:1 << 20] + d[2 << 20:]
sys.stdout.buffer.write(bytes(1 << 20) + d)
' /tmp/replace.b > /tmp/replace.expected
sync
echo 3 > /proc/sys/vm/drop_caches
check "replace: b has the content collapse and insert give" \
	cmp /mnt/a/replace/b /tmp/replace.expected
check "replace: no record left" test "$(queued_records /mnt/a)" -eq 0
check "replace: checkpoint=enable" mount -o remount,checkpoint=enable /mnt/a
umount_fsck "$DM" /mnt/a

## checkpoint error while the pass runs
mkfs_f2fs "$DM" -s "$SEGS"
mount_fs f2fs_packed "$DM" /mnt/a gc_packing=on,background_gc=off
prepare /mnt/a cperr
victim_of /mnt/a /mnt/a/cperr/a /mnt/a/cperr/b
sec=$VICTIM
blocks0=$(pack_stat /mnt/a gc_pack_blocks)
dropped0=$(pack_stat /mnt/a gc_pack_dropped)
hold_pass /mnt/a race /mnt/a/cperr/a
gc_section /mnt/a "$sec" > /dev/null &
gc=$!
must "cp error: the pass waits on the held page" \
	wait_for 120 blocked_in $gc 'wait_on_page_writeback|folio_wait_writeback'
f2fs_io shutdown 2 /mnt/a > /dev/null &	# F2FS_GOING_DOWN_NOSYNC
sd=$!
must "cp error: the shutdown has set it" wait_for 120 cp_error /mnt/a
dmsetup resume race
wait $gc || true
wait $sd || true
moved=$(($(pack_stat /mnt/a gc_pack_blocks) - blocks0))
dropped=$(($(pack_stat /mnt/a gc_pack_dropped) - dropped0))
queued=$(pack_stat /mnt/a gc_pack_peak_queued)
log "cp error: $queued queued, $moved moved, $dropped dropped"
check "cp error: records were queued" test "$queued" -gt 1000
check "cp error: at most the held block moved after the error" test "$moved" -le 1
check "cp error: every other record dropped" test "$dropped" -eq $((queued - moved))
check "cp error: no record left" test "$(queued_records /mnt/a)" -eq 0
umount /mnt/a
mount_fs f2fs_packed "$DM" /mnt/a
check "cp error: fsync'd b intact after the recovery mount" cmp /mnt/a/cperr/b /tmp/cperr.b
umount_fsck "$DM" /mnt/a
## a summary block that cannot be read (6.1 counted it as freeing)
# The read error stops checkpoints, and 7.x dumps the stack when it does:
# dmesg is checked up to here, and that expected part is cleared below.
check "dmesg clean before the injected read error" dmesg_clean
mkfs_f2fs "$DM" -s "$SEGS"
mount_fs f2fs_packed "$DM" /mnt/a gc_packing=on,background_gc=off
prepare /mnt/a ssa
sha_record /mnt/a/ssa /tmp/ssa.sha
victim_of /mnt/a /mnt/a/ssa/a /mnt/a/ssa/b
sec=$VICTIM
main=$(pack_stat /mnt/a main_blkaddr)
umount /mnt/a	# the victim's summary is read from the device again
ssa=$(f2fs_sb_u32 "$DM" 88)	# ssa_blkaddr
bad=$(((ssa + (sec - main) / 512) * 8))	# its first segment's, in sectors
dmsetup suspend race
dmsetup load race --table "0 $bad linear $DISK1 0
$bad 8 error
$((bad + 8)) $((size - bad - 8)) linear $DISK1 $((bad + 8))"
dmsetup resume race
mount_fs f2fs_packed "$DM" /mnt/a gc_packing=on,background_gc=off
trace_start f2fs_gc_end
gc_section /mnt/a "$sec" > /dev/null 2>&1 || true
trace_stop
# On 7.x the read error makes f2fs_handle_critical_error() dump its stack
# (no report line of its own) and stop the file system.
dmesg_check_clear "the unreadable summary's end" 'Call Trace'
seg_freed=$(trace_gc_end_sum seg_freed)
log "unreadable summary: f2fs_gc_end seg_freed $seg_freed, sec_freed $(trace_gc_end_sum sec_freed)"
check "unreadable summary: no segment counted as freed" test "$seg_freed" -eq 0
check "unreadable summary: no section counted as freed" test "$(trace_gc_end_sum sec_freed)" -eq 0
check "unreadable summary: no record left" test "$(queued_records /mnt/a)" -eq 0
umount /mnt/a
dmsetup suspend race
dmsetup load race --table "0 $size linear $DISK1 0"
dmsetup resume race
mount_fs f2fs_packed "$DM" /mnt/a
check "unreadable summary: data intact" sha_verify /mnt/a/ssa /tmp/ssa.sha
umount_fsck "$DM" /mnt/a
dmsetup remove race
finish
