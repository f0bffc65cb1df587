# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What changes a queued block's fate while a pack pass runs: an atomic
# commit, a truncate and a punched hole on files whose blocks are queued.
# The pass is held as in test 37, on a page under write-back (file a's
# first block rewritten in place), but only that block's 4 KiB are
# suspended: the volume's dm linear device maps them to a second dm
# device, the one suspended, and is mounted nobarrier (a flush would
# reach the suspended device too). So the commit's own I/O (it syncs the
# file) goes through while the pass waits. The victim is a section of the
# hot data log, where the atomic write's COW blocks go (f2fs_is_cow_file):
# it holds a, then b, c and d (512 blocks each, *.hot files), then 64 COW
# blocks of an atomic write to b, written back before the hold. The pass
# waits on a, the first inode it moves, with every record queued.
# Meanwhile:
#  - F2FS_IOC_COMMIT_ATOMIC_WRITE on b: f2fs_replace_block() gives the 64
#    queued COW blocks to b without moving them (their live summary entry
#    now names b), and b's 64 old blocks at 1 MiB die,
#  - c is truncated from 512 to 256 blocks (256 die),
#  - a 128-block hole is punched in d.
# Then the device is resumed. Exactly the 448 dead records count stale,
# every other one is moved (the COW blocks for b, their owner now: no
# stale count for a live block), no valid block is left in the victim,
# the files have the content the model gives, the checkpoint asks for no
# fsck, fsck is clean, dmesg is clean.
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool
modprobe dm_mod || { fail "modprobe dm_mod"; finish; }
SEGS=4
bps=$((SEGS * 512))
MNT=/mnt/a
HELD='wait_on_page_writeback|folio_wait_writeback'

# hot_write FILE KIB: KIB KiB of random data, buffered and fsync'd: a
# *.hot file's blocks land in the hot data log, in file order.
hot_write() {
	dd if=/dev/urandom of="$1" bs=64k count=$(($2 / 64)) conv=fsync \
		status=none || { fail "writing $1"; finish; }
}

# hot_section_end FILE: fill the hot data log to its section's end.
hot_section_end() {
	local b _ n
	dd if=/dev/zero of="$1" bs=4k count=1 conv=fsync status=none
	read -r b _ < <(file_span "$1")
	n=$((bps - 1 - (b - $(pack_stat "$MNT" main_blkaddr)) % bps))
	[ "$n" -eq 0 ] || dd if=/dev/zero of="$1" bs=4k seek=1 count="$n" \
		conv=notrunc,fsync status=none
}

size=$(blockdev --getsz "$DISK1")
dmsetup create hold --table "0 $size linear $DISK1 0" &&
	dmsetup create race --table "0 $size linear $DISK1 0" ||
	{ fail "dmsetup create"; finish; }
# no udev in the guest: the dm-N nodes
HOLD=/dev/$(dmsetup info -c --noheadings -o blkdevname hold)
DM=/dev/$(dmsetup info -c --noheadings -o blkdevname race)

mkfs_f2fs "$DM" -s "$SEGS" -E hot
mount_fs f2fs_packed "$DM" "$MNT" gc_packing=on,background_gc=off,nobarrier
sys=$(sysfs_dev f2fs_packed "$DM")
mkdir -p "$MNT/r"
sync
hot_section_end "$MNT/start.hot"
hot_write "$MNT/r/a.hot" 256
for f in b c d; do
	hot_write "$MNT/r/$f.hot" 2048
	cp "$MNT/r/$f.hot" "/tmp/$f.orig"
done

# The atomic writer: starts the atomic write on b, writes 64 blocks at
# 1 MiB and writes them back (the COW inode's blocks, in the hot log
# after d), says "ready"; commits on a line from us, says "committed".
coproc ATOMIC { python3 -u -c '
import ctypes, fcntl, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.sync_file_range.argtypes = [ctypes.c_int, ctypes.c_longlong,
				 ctypes.c_longlong, ctypes.c_uint]
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.ioctl(fd, 0xf501)			# F2FS_IOC_START_ATOMIC_WRITE
os.pwrite(fd, b"\xa5" * (64 << 12), 1 << 20)
if libc.sync_file_range(fd, 0, 0, 7):	# wait, write, wait
	sys.exit(os.strerror(ctypes.get_errno()))
print("ready")
sys.stdin.readline()
try:
	fcntl.ioctl(fd, 0xf502)		# F2FS_IOC_COMMIT_ATOMIC_WRITE
	print("committed")
except OSError as e:
	print("commit:", e)
' "$MNT/r/b.hot"; }
apid=$ATOMIC_PID	# bash unsets ATOMIC_PID once the writer is done
read -r line <&"${ATOMIC[0]}" || line=
must "atomic write started and written back" test "$line" = ready
hot_section_end "$MNT/hole.hot"
rm "$MNT/hole.hot"
sync
victim_of "$MNT" "$MNT"/r/*
vsec=$VICTIM
before=$(valid_in_section "$MNT" "$vsec")
log "victim at $vsec: $before valid blocks"
check "the victim holds a, b, c, d and the 64 COW blocks ($before)" \
	test "$before" -eq $((64 + 3 * 512 + 64))

# a's first block: its 8 sectors through the hold device
read -r ablk _ < <(file_span "$MNT/r/a.hot")
s=$((ablk * 8))
dmsetup suspend --nolockfs race
dmsetup load race --table "0 $s linear $DISK1 0
$s 8 linear $HOLD $s
$((s + 8)) $((size - s - 8)) linear $DISK1 $((s + 8))"
dmsetup resume race
blocks0=$(pack_stat "$MNT" gc_pack_blocks)
stale0=$(pack_stat "$MNT" gc_pack_stale)

# hold: a's first block rewritten in place, its write-back queued on the
# suspended hold device; the pass waits for it with every record queued
echo 1 > "$sys/ipu_policy"	# F2FS_IPU_FORCE
dmsetup suspend hold
rewrite_first_block "$MNT/r/a.hot"
echo 16 > "$sys/ipu_policy"	# the default, F2FS_IPU_FSYNC
must "a page under write-back to hold the pass on" wait_for 20 under_writeback
check "the rewrite stayed in place" \
	test "$(file_span "$MNT/r/a.hot" | cut -d' ' -f1)" -eq "$ablk"
gc_blocks "$MNT" "$vsec" $((bps - 1)) > /tmp/gc.json &
gc=$!
must "the pass waits on the held page" wait_for 120 blocked_in $gc "$HELD"
check "the victim's records are queued ($(queued_records "$MNT"))" \
	test "$(queued_records "$MNT")" -eq "$before"
echo commit >&"${ATOMIC[1]}"
read -r -t 60 line <&"${ATOMIC[0]}" || line="no answer in 60 s"
check "atomic commit while queued ($line)" test "$line" = committed
check "truncate while queued" timeout 60 truncate -s 1M "$MNT/r/c.hot"
check "punch hole while queued" \
	timeout 60 fallocate -p -o 1MiB -l 512KiB "$MNT/r/d.hot"
check "the pass still held" blocked_in $gc "$HELD"
dmsetup resume hold
check "GC call returns" wait $gc
stale=$(($(pack_stat "$MNT" gc_pack_stale) - stale0))
moved=$(($(pack_stat "$MNT" gc_pack_blocks) - blocks0))
after=$(valid_in_section "$MNT" "$vsec")
log "$(tr -d '\n ' < /tmp/gc.json)"
log "queued $before, moved $moved, stale $stale, left in the victim $after; $(pack_stats "$MNT")"
check "stale counts exactly the 448 dead blocks" test "$stale" -eq 448
check "every other record moved" test "$moved" -eq $((before - 448))
check "no valid block left in the victim" test "$after" -eq 0
check "no record left" test "$(queued_records "$MNT")" -eq 0
wait "$apid" 2>/dev/null || true

# the model
python3 - <<'PY'
d = bytearray(open("/tmp/b.orig", "rb").read())
d[1 << 20:(1 << 20) + (64 << 12)] = b"\xa5" * (64 << 12)
open("/tmp/b.model", "wb").write(d)
open("/tmp/c.model", "wb").write(open("/tmp/c.orig", "rb").read()[:1 << 20])
d = bytearray(open("/tmp/d.orig", "rb").read())
d[1 << 20:(1 << 20) + (512 << 10)] = bytes(512 << 10)
open("/tmp/d.model", "wb").write(d)
PY
sync
echo 3 > /proc/sys/vm/drop_caches
for f in b c d; do
	check "$f has the content the model gives" cmp "$MNT/r/$f.hot" "/tmp/$f.model"
done
check "a begins with the held rewrite" python3 -c '
import sys
sys.exit(open(sys.argv[1], "rb").read(4096) != b"\x5a" * 4096)' "$MNT/r/a.hot"
sha_record "$MNT/r" /tmp/r.sha
umount "$MNT"
check "no fsck flag in the checkpoint" no_fsck_flag "$DM"
check "fsck.f2fs clean" fsck_clean "$DM"
mount_fs f2fs_packed "$DM" "$MNT"
check "data intact after remount" sha_verify "$MNT/r" /tmp/r.sha
umount "$MNT"
dmsetup remove race
dmsetup remove hold
finish
