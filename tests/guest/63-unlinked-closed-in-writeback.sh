# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The torture smoke's failure on 6.1 (test 62, and CI twice): a recovery
# mount after a shutdown refused with EUCLEAN, "inode (ino=..) extent
# info [...] is incorrect". The last close of an unlinked file while the
# file is under write-back (I_SYNC) goes through f2fs_drop_inode()'s
# early truncate; 6.1.192's __destroy_extent_node() (a stable backport of
# ed78aeebef05) sets FI_NO_EXTENT there without clearing the largest
# extent, so the truncate leaves i_ext naming freed blocks, and the inode
# stays an orphan, in every checkpoint until something evicts it (umount
# at the latest). Upstream reverted that in 1f70ddb28a3c; 6.1 gets the
# same (patches/6.1/0006).
#
# Held, not raced: the device suspended, a checkpoint waits on it with
# cp_rwsem held and the file's inode page under write-back; the flusher,
# woken for the file's dirty inode, waits on that page in write_inode()
# with the inode under I_SYNC, and the file's last opener is killed
# then. Its truncate waits for the checkpoint. Once the device resumes,
# periodic write-back (which leaves node pages to checkpoints) writes
# the truncated inode: an orphan no checkpoint touches again. sync's node
# write-back or its checkpoint would instead have evicted it (they take
# a reference to a dirty inode), so that write is waited for, and the
# result read back before the shutdown: the inode still on disk,
# unlinked.
# dmesg-expected: Stopped filesystem due to reason
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
MNT=/mnt/a
WB=writeback/writeback_single_inode

modprobe dm_mod || { fail "modprobe dm_mod"; finish; }
dmsetup create wb --table "0 $(blockdev --getsz "$DISK1") linear $DISK1 0" ||
	{ fail "dmsetup create wb"; finish; }
DM=/dev/$(dmsetup info -c --noheadings -o blkdevname wb)
BDI=$(cat "/sys/block/${DM#/dev/}/dev")	# as the writeback events name it

# in_writeback INO: write-back of INO on the volume started and has not
# ended.
in_writeback() {
	local t=/sys/kernel/tracing/trace
	[ "$(grep -c "writeback_single_inode_start: bdi $BDI: ino=$1 " $t)" -gt \
		"$(grep -c "writeback_single_inode: bdi $BDI: ino=$1 " $t)" ]
}

# checkpoint_waiting: a checkpoint (the ioctl's caller, or the
# checkpoint_merge thread it hands over to) waits for its pages with
# cp_rwsem held.
checkpoint_waiting() {
	grep -qs f2fs_wait_on_all_pages /proc/[0-9]*/stack
}

# written_after_drop INO: since f2fs_drop_inode() was done with INO
# (after its truncate dirtied it), write-back took its dirty inode
# (I_DIRTY_SYNC) and is done with it.
written_after_drop() {
	awk -v ino="$1" -v bdi="bdi $BDI: ino=$1 " '
		/f2fs_drop_inode:/ && index($0, "ino = " ino ", ret = 0") { t = 1 }
		t && /writeback_single_inode_start:/ && index($0, bdi) &&
			/I_DIRTY_SYNC/ { s = 1 }
		s && /writeback_single_inode:/ && index($0, bdi) { ok = 1 }
		END { exit !ok }' /sys/kernel/tracing/trace
}

# write_checkpoint MNT: F2FS_IOC_WRITE_CHECKPOINT.
write_checkpoint() {
	python3 -c '
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.ioctl(fd, 0xf507)
' "$1"
}

# dump_inode DEV INO: dump.f2fs's fields of inode INO on DEV (mounted:
# the device's page cache, stale beside f2fs's own writes, dropped first).
dump_inode() {
	blockdev --flushbufs "$1"
	dump.f2fs -i "$(printf 0x%x "$2")" "$1" 2>&1
}

# largest_on_disk DEV INO: INO's i_ext on DEV has a length.
largest_on_disk() {
	dump_inode "$1" "$2" | grep -qE '^i_ext: .* len:[1-9a-f]'
}

# orphan_on_disk DEV INO: INO is an inode on DEV's disk, unlinked: an
# orphan of the checkpoint.
orphan_on_disk() {
	local d
	d=$(dump_inode "$1" "$2")
	echo "$d" | grep -q "Node ID \\[0x[0-9a-f]*:$2\\] is inode" &&
		echo "$d" | grep -qE "^i_links[[:space:]]+\\[0x[[:space:]]+0 : 0\\]"
}

# held WHAT CMD...: must, for a step while the device is suspended: on
# failure the stacks shown and the device resumed first.
held() {
	local what=$1 p
	shift
	if "$@"; then
		echo "ok - $what"
		return 0
	fi
	fail "$what"
	for p in /proc/[0-9]*; do
		grep -qE 'f2fs|sync|sleep|python|writeback' "$p/comm" "$p/stack" 2>/dev/null &&
			echo "# ${p#/proc/} $(cat "$p/comm"): $(paste -sd' ' "$p/stack")"
	done
	grep -E 'writeback_single_inode' /sys/kernel/tracing/trace | tail -5 | sed 's/^/# trace: /'
	dmsetup resume wb
	finish
}

mkfs_f2fs "$DM" -s 1
mount_fs f2fs_packed "$DM" "$MNT" background_gc=off
dd if=/dev/urandom of="$MNT/keep" bs=1M count=4 status=none conv=fsync
sha_record "$MNT" /tmp/keep.sha
# mapped, so its extent tree has a node and a largest extent
dd if=/dev/urandom of="$MNT/f" bs=1M count=4 status=none conv=fsync
ino=$(stat -c %i "$MNT/f")
sleep 1000 3< "$MNT/f" &
holder=$!
rm "$MNT/f"
# Everything else clean (write-back would wait on the root directory's
# inode page first), then the unlinked file, through its opener, grown
# by a MiB: a dirty inode for the checkpoint to write (without one it
# has nothing to do).
sync
must "the file's largest extent is on disk" largest_on_disk "$DM" "$ino"
dd if=/dev/urandom of="/proc/$holder/fd/3" bs=1M seek=4 count=1 \
	status=none conv=notrunc

echo > /sys/kernel/tracing/trace
echo 1 > "/sys/kernel/tracing/events/${WB}_start/enable"
echo 1 > "/sys/kernel/tracing/events/$WB/enable"
echo 1 > /sys/kernel/tracing/events/f2fs_packed/f2fs_drop_inode/enable
dmsetup suspend --nolockfs wb
write_checkpoint "$MNT" &
cp=$!
held "a checkpoint waits on the suspended device" \
	wait_for 60 checkpoint_waiting
# dirty again (the checkpoint wrote it), and the flusher woken for what
# is dirty
touch "/proc/$holder/fd/3"
echo 1 > /proc/sys/vm/dirty_expire_centisecs
echo 10 > /proc/sys/vm/dirty_writeback_centisecs
held "the flusher's write-back of the unlinked file is held" \
	wait_for 60 in_writeback "$ino"
kill "$holder"
held "the last close runs f2fs_drop_inode()" \
	wait_for 60 blocked_in "$holder" f2fs_drop_inode
held "... with the write-back still held (I_SYNC)" in_writeback "$ino"
dmsetup resume wb
must "F2FS_IOC_WRITE_CHECKPOINT" wait "$cp"
wait "$holder" || :
must "the flusher writes the truncated inode" \
	wait_for 60 written_after_drop "$ino"
echo 3000 > /proc/sys/vm/dirty_expire_centisecs
echo 500 > /proc/sys/vm/dirty_writeback_centisecs
echo 0 > /sys/kernel/tracing/events/enable
sync
dump_inode "$DM" "$ino" | grep -E 'Node ID|^i_(links|size|blocks|ext)' |
	tr -s ' \t' ' ' | sed 's/^/# on disk: /'
must "inode $ino is on disk, an orphan" orphan_on_disk "$DM" "$ino"
must "f2fs_io shutdown 2" f2fs_io shutdown 2 "$MNT"
umount "$MNT"
must "the recovery mount takes the orphan back" \
	mount_f2fs f2fs_packed "$DM" "$MNT" background_gc=off
check "the data survives" sha_verify "$MNT" /tmp/keep.sha
umount_fsck "$DM" "$MNT"
dmsetup remove wb
finish
