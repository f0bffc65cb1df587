# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What changes a queued block's fate while a pack pass runs, made
# deterministic as in test 37: the pass is held on a page under write-back
# (file a's first block rewritten in place, its dm linear device suspended
# with --nolockfs), with every record of the victim queued. Meanwhile:
#  - an atomic write is committed on b (F2FS_IOC_START_ATOMIC_WRITE, 64
#    blocks written and written back to the COW inode before the hold,
#    F2FS_IOC_COMMIT_ATOMIC_WRITE during it: f2fs_replace_block() gives
#    b the COW blocks and the 64 queued ones die),
#  - c is truncated from 1024 to 256 blocks (768 die),
#  - a 128-block hole is punched in d.
# Then the device is resumed. Exactly the 960 dead records count stale,
# every other one is moved (no stale count for a live block), no valid
# block is left in the victim, the files have the content the model
# gives, the checkpoint asks for no fsck, fsck is clean, dmesg is clean.
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool
modprobe dm_mod || { fail "modprobe dm_mod"; finish; }
SEGS=4
bps=$((SEGS * 512))
MNT=/mnt/a

# blocked_in PID REGEX: the kernel stack of PID or of one of its children
# matches REGEX.
blocked_in() {
	local p
	for p in "$1" $(pgrep -P "$1"); do
		grep -qE "$2" "/proc/$p/stack" 2>/dev/null && return 0
	done
	return 1
}

under_writeback() {
	awk '$1 == "Writeback:" { exit !($2 > 0) }' /proc/meminfo
}

# to_section_end MNT FILE: fill the warm data log to its section's end.
to_section_end() {
	local b _ n
	dd if=/dev/zero of="$2" bs=4k count=1 oflag=direct conv=fsync status=none
	read -r b _ < <(file_span "$2")
	n=$((bps - 1 - (b - $(pack_stat "$1" main_blkaddr)) % bps))
	[ "$n" -eq 0 ] || dd if=/dev/zero of="$2" bs=$((n * 4))k seek=4096 count=1 \
		oflag=direct,seek_bytes conv=fsync,notrunc status=none
}

size=$(blockdev --getsz "$DISK1")
dmsetup create race --table "0 $size linear $DISK1 0" ||
	{ fail "dmsetup create"; finish; }
DM=/dev/$(dmsetup info -c --noheadings -o blkdevname race)

mkfs_f2fs "$DM" -s "$SEGS"
mount_fs f2fs_packed "$DM" "$MNT" gc_packing=on,background_gc=off
sys=$(sysfs_dev f2fs_packed "$DM")
to_section_end "$MNT" "$MNT/start"
mkdir -p "$MNT/r"
direct_write "$MNT/r/a" 256
for f in b c d; do
	direct_write "$MNT/r/$f" 4096
	cp "$MNT/r/$f" "/tmp/$f.orig"
done
to_section_end "$MNT" "$MNT/hole"
rm "$MNT/hole"
victim_of "$MNT" "$MNT"/r/*
vsec=$VICTIM

# The atomic writer: starts the atomic write, writes 64 blocks at 1 MiB
# and writes them back (to the COW inode's blocks, outside the victim),
# says "ready"; commits on a line from us, says "committed".
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
fcntl.ioctl(fd, 0xf502)			# F2FS_IOC_COMMIT_ATOMIC_WRITE
print("committed")
' "$MNT/r/b"; }
read -r line <&"${ATOMIC[0]}" || line=
must "atomic write started and written back" test "$line" = ready

before=$(valid_in_section "$MNT" "$vsec")
blocks0=$(pack_stat "$MNT" gc_pack_blocks)
stale0=$(pack_stat "$MNT" gc_pack_stale)
log "victim at $vsec: $before valid blocks"

# hold: a's first block rewritten in place, written back to a suspended
# device; the pass waits for it with every record queued
echo 1 > "$sys/ipu_policy"	# F2FS_IPU_FORCE
dmsetup suspend --nolockfs race
python3 -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.sync_file_range.argtypes = [ctypes.c_int, ctypes.c_longlong,
				 ctypes.c_longlong, ctypes.c_uint]
fd = os.open(sys.argv[1], os.O_WRONLY)
os.pwrite(fd, b"\x5a" * 4096, 0)
if libc.sync_file_range(fd, 0, 4096, 2):	# SYNC_FILE_RANGE_WRITE
	sys.exit(os.strerror(ctypes.get_errno()))
' "$MNT/r/a"
echo 16 > "$sys/ipu_policy"	# the default, F2FS_IPU_FSYNC
must "a page under write-back to hold the pass on" wait_for 20 under_writeback
gc_blocks "$MNT" "$vsec" $((bps - 1)) > /tmp/gc.json &
gc=$!
must "the pass waits on the held page" \
	wait_for 120 blocked_in $gc 'wait_on_page_writeback|folio_wait_writeback'
check "the victim's records are queued ($(queued_records "$MNT"))" \
	test "$(queued_records "$MNT")" -eq "$before"
echo commit >&"${ATOMIC[1]}"
read -r -t 120 line <&"${ATOMIC[0]}" || line=
check "atomic commit while queued" test "$line" = committed
check "truncate while queued" timeout 120 truncate -s 1M "$MNT/r/c"
check "punch hole while queued" \
	timeout 120 fallocate -p -o 2MiB -l 512KiB "$MNT/r/d"
check "the pass still held" blocked_in $gc 'wait_on_page_writeback|folio_wait_writeback'
dmsetup resume race
check "GC call returns" wait $gc
stale=$(($(pack_stat "$MNT" gc_pack_stale) - stale0))
moved=$(($(pack_stat "$MNT" gc_pack_blocks) - blocks0))
after=$(valid_in_section "$MNT" "$vsec")
log "$(tr -d '\n ' < /tmp/gc.json)"
log "queued $before, moved $moved, stale $stale, left in the victim $after; $(pack_stats "$MNT")"
check "stale counts exactly the 960 dead blocks" test "$stale" -eq 960
check "every other record moved" test "$moved" -eq $((before - 960))
check "no valid block left in the victim" test "$after" -eq 0
check "no record left" test "$(queued_records "$MNT")" -eq 0

# the model
python3 - <<'PY'
d = bytearray(open("/tmp/b.orig", "rb").read())
d[1 << 20:(1 << 20) + (64 << 12)] = b"\xa5" * (64 << 12)
open("/tmp/b.model", "wb").write(d)
open("/tmp/c.model", "wb").write(open("/tmp/c.orig", "rb").read()[:1 << 20])
d = bytearray(open("/tmp/d.orig", "rb").read())
d[2 << 20:(2 << 20) + (512 << 10)] = bytes(512 << 10)
open("/tmp/d.model", "wb").write(d)
PY
sync
echo 3 > /proc/sys/vm/drop_caches
for f in b c d; do
	check "$f has the content the model gives" cmp "$MNT/r/$f" "/tmp/$f.model"
done
check "a begins with the held rewrite" python3 -c '
import sys
sys.exit(open(sys.argv[1], "rb").read(4096) != b"\x5a" * 4096)' "$MNT/r/a"
sha_record "$MNT/r" /tmp/r.sha
umount "$MNT"
check "no fsck flag in the checkpoint" no_fsck_flag "$DM"
check "fsck.f2fs clean" fsck_clean "$DM"
mount_fs f2fs_packed "$DM" "$MNT"
check "data intact after remount" sha_verify "$MNT/r" /tmp/r.sha
umount "$MNT"
dmsetup remove race
finish
