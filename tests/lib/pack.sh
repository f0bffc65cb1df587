# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Workload helpers shared by the packing tests, the demo and the
# benchmarks (sourced inside the VM; they bring tests/lib/guest.sh along).

[ -z "${PACK_LIB_LOADED:-}" ] || return 0
PACK_LIB_LOADED=1
# shellcheck source=tests/lib/guest.sh
. "$REPO/tests/lib/guest.sh"

GC_TOOL=$REPO/tools/f2fs-gc/f2fs-gc

# need_gc_tool: the test stops here unless f2fs-gc is built.
need_gc_tool() {
	must "f2fs-gc is built" test -x "$GC_TOOL"
}

# interleave DIR NFILES KIB [BS]: write NFILES files of KIB KiB
# round-robin, BS (default 4k) at a time with O_DIRECT, so that on disk
# the files' blocks alternate. Files are DIR/f.0.<i>.
interleave() {
	local bs=${4:-4k}
	mkdir -p "$1"
	fio --name=f --directory="$1" --nrfiles="$2" --filesize="${3}k" \
		--size="$(($2 * $3))k" --bs="$bs" \
		--rw=write --direct=1 --ioengine=psync \
		--file_service_type=roundrobin --randrepeat=1 \
		--eta=never --output=/dev/null ||
		{ fail "fio could not write the interleaved files"; finish; }
}

# in_order DIR NFILES KIB: write NFILES files of KIB KiB one after the
# other (fio's own random data, quicker than /dev/urandom under TCG).
in_order() {
	mkdir -p "$1"
	fio --name=f --directory="$1" --nrfiles="$2" --filesize="${3}k" \
		--size="$(($2 * $3))k" --bs=1m --rw=write --fallocate=none \
		--file_service_type=sequential --refill_buffers \
		--eta=never --output=/dev/null ||
		{ fail "fio could not write the files"; finish; }
}

# delete_even DIR NFILES: remove every even-numbered file, leaving each
# section about half valid.
delete_even() {
	local i files=()
	for ((i = 0; i < $2; i += 2)); do
		files+=("$1/f.0.$i")
	done
	rm -f "${files[@]}"	# one process: spawning is slow under TCG
}

# fragment DIR NFILES KIB SHA: interleaved files, every other one deleted,
# synced, the survivors' sha256 recorded in SHA.
fragment() {
	interleave "$1" "$2" "$3"
	delete_even "$1" "$2"
	sync
	sha_record "$1" "$4"
}

# gc_until_idle MNT: sync foreground GC until three calls in a row find
# nothing to collect (or 400 calls); prints the tool's JSON summary.
gc_until_idle() {
	"$GC_TOOL" -q -j -d off -i 3 -c 400 "$1"
}

# json_field JSON KEY: a numeric field of a flat JSON object.
json_field() {
	echo "$1" | tr ',{}' '\n\n\n' | sed -n "s/^ *\"$2\": *\\([0-9-]*\\).*/\\1/p"
}

# pack_stat MNT NAME: one of our sysfs knobs or counters for MNT.
pack_stat() {
	cat "$(sysfs_dev f2fs_packed "$(findmnt -no SOURCE "$1")")/$2"
}

# pack_stats MNT: the gc_pack_* counters as "name=value ..." on one line.
pack_stats() {
	local s out=
	for s in blocks inodes packed_sections early_drains alloc_fallbacks dropped stale left; do
		out="$out $s=$(pack_stat "$1" "gc_pack_$s")"
	done
	echo "${out# }"
}

# gc_calls MNT N: exactly N sync foreground GC calls; prints the JSON
# summary (successes, eagain, ...).
gc_calls() {
	"$GC_TOOL" -q -j -d off -i "$2" -c "$2" "$1"
}

# trace_gc_end_sum FIELD: sum FIELD (seg_freed, sec_freed) over the
# f2fs_packed:f2fs_gc_end events in the trace buffer.
trace_gc_end_sum() {
	grep -o "f2fs_gc_end: .*" /sys/kernel/tracing/trace |
		sed -n "s/.* $1 = \\([0-9-]*\\),.*/\\1/p" |
		awk '{ n += $1 } END { print n + 0 }'
}

# trace_start EVENT...: the trace emptied, EVENTs enabled: f2fs_packed's
# (f2fs_gc_end), or another system's as SYSTEM/EVENT (f2fs/f2fs_gc_end).
trace_start() {
	local e
	echo > /sys/kernel/tracing/trace
	echo 4096 > /sys/kernel/tracing/buffer_size_kb
	for e in "$@"; do
		case $e in
		*/*) ;;
		*) e=f2fs_packed/$e ;;
		esac
		echo 1 > "/sys/kernel/tracing/events/$e/enable"
	done
}

trace_stop() {
	echo 0 > /sys/kernel/tracing/events/enable
}

# f2fs_sb_u32 DEV OFFSET: a 32-bit field of the f2fs superblock on DEV,
# OFFSET bytes into struct f2fs_super_block (92: main_blkaddr).
f2fs_sb_u32() {
	od -An -tu4 -j $((1024 + $2)) -N4 "$1" | tr -d ' '
}

# section_valid PROCDIR SEGS_PER_SEC: "SECNO VALID" for every section that
# holds valid blocks, from PROCDIR/segment_info (/proc/fs/<type>/<dev>).
section_valid() {
	awk -v sps="$2" 'NR > 2 {
			for (i = 2; i <= NF; i++) {
				split($i, tv, "|")
				v[int(($1 + i - 2) / sps)] += tv[2]
			}
		}
		END { for (s in v) if (v[s]) print s, v[s] }' "$1/segment_info"
}

# queued_records MNT: GC packing records held now (0 outside a GC pass).
queued_records() {
	pack_stat "$1" gc_pack_queued
}

# Victim-section helpers (tests 45, 46). SEGS is the volume's segments
# per section (mkfs.f2fs -s SEGS), set by the test before using them.
SEGS=${SEGS:-4}

# file_span FILE: "FIRST LAST" physical blocks of FILE.
file_span() {
	filefrag -v "$1" | awk '$1 ~ /^[0-9]+:$/ {
		s = $4; sub(/\.\..*/, "", s); e = $5; sub(/:.*/, "", e)
		if (min == "" || s + 0 < min) min = s + 0
		if (e + 0 > max) max = e + 0 }
		END { print min, max }'
}

# victim_of MNT FILE...: sets VICTIM to the first block of the section
# holding all of the FILEs, or the test stops (the layout every check
# relies on). Not in $(...): the stop would end only the subshell.
victim_of() {
	local mnt=$1 main bps=$((SEGS * 512)) sec='' f first last s b
	shift
	main=$(pack_stat "$mnt" main_blkaddr)
	for f in "$@"; do
		read -r first last < <(file_span "$f")
		[ -n "$first" ] || { fail "layout: $f has no blocks"; finish; }
		for b in "$first" "$last"; do
			s=$((main + (b - main) / bps * bps))
			[ "${sec:-$s}" = "$s" ] ||
				{ fail "layout: $* do not share one section"; finish; }
			sec=$s
		done
	done
	# shellcheck disable=SC2034 # for the test that sources this
	VICTIM=$sec
}

# pad_out DIR [KIB] [SUFFIX]: a 1 MiB hole after what was written (GC
# leaves a fully valid section alone), then KIB KiB (default 8 MiB) more,
# so that the log has left the victim section. SUFFIX names the files
# (.cz: through the compressed files' log).
pad_out() {
	direct_write "$1/hole${3:-}" 1024
	direct_write "$1/pad${3:-}" "${2:-8192}"
	rm "$1/hole${3:-}"
}

# valid_in_section MNT SECSTART: valid blocks in that section now.
valid_in_section() {
	local main secno
	main=$(pack_stat "$1" main_blkaddr)
	secno=$((($2 - main) / (SEGS * 512)))
	section_valid "/proc/fs/f2fs_packed/$(basename "$(readlink -f \
		"$(findmnt -no SOURCE "$1")")")" "$SEGS" |
		awk -v s="$secno" '$1 == s { v = $2 } END { print v + 0 }'
}

# gc_blocks MNT START LEN: one sync GC_RANGE call over LEN blocks from
# START, no syncfs after it; prints f2fs-gc's JSON summary.
gc_blocks() {
	"$GC_TOOL" -q -j -n -d off -r "$2:$3" -c 1 -i 1 "$1"
}

# direct_write FILE KIB: KIB KiB of fio's random data with O_DIRECT and
# an fsync: the blocks land in write order.
direct_write() {
	fio --name=w --filename="$1" --size="${2}k" --bs=64k --rw=write \
		--direct=1 --end_fsync=1 --refill_buffers --eta=never \
		--output=/dev/null || { fail "fio could not write $1"; finish; }
}

# shuffled_write DIR NFILES BLOCKS SEED: NFILES files DIR/s.<i> of BLOCKS
# 4 KiB blocks, every (file, block) written once with O_DIRECT in an order
# shuffled by SEED (the same order on every run), then fsync'd: on disk
# each file's blocks lie out of file-offset order, interleaved with the
# other files'.
shuffled_write() {
	mkdir -p "$1"
	python3 - "$@" <<'PY' || { fail "shuffled_write $*"; finish; }
import mmap, os, random, sys
d, n, blocks, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rnd = random.Random(seed)
order = [(f, b) for f in range(n) for b in range(blocks)]
rnd.shuffle(order)
fds = [os.open(f"{d}/s.{f}", os.O_WRONLY | os.O_CREAT | os.O_DIRECT, 0o644)
       for f in range(n)]
buf = mmap.mmap(-1, 4096)
for f, b in order:
	buf.seek(0)
	buf.write(rnd.randbytes(4096))
	os.pwrite(fds[f], buf, b * 4096)
for fd in fds:
	os.fsync(fd)
	os.close(fd)
PY
}

# file_extents FILE: FILE's extents (logically and physically contiguous
# runs), as filefrag counts them.
file_extents() {
	filefrag "$1" | awk '{ print $(NF-2) }'
}

# no_fsck_flag DEV: the unmounted volume's checkpoint does not ask for
# fsck (SBI_NEED_FSCK was never set).
no_fsck_flag() {
	local st
	st=$(dump.f2fs "$1" 2>&1 | grep -m1 'checkpoint state')
	echo "$st" | grep -qw fsck && { echo "# $st"; return 1; }
	return 0
}

# blocked_in PID REGEX: the kernel stack of PID or of one of its children
# (a backgrounded function runs in a subshell) matches REGEX.
blocked_in() {
	local p
	for p in "$1" $(pgrep -P "$1"); do
		grep -qE "$2" "/proc/$p/stack" 2>/dev/null && return 0
	done
	return 1
}

# under_writeback: some page is under write-back (meminfo folds the
# per-cpu counters in about once a second).
under_writeback() {
	awk '$1 == "Writeback:" { exit !($2 > 0) }' /proc/meminfo
}

# rewrite_first_block FILE: rewrite FILE's first block and start its
# write-back (sync_file_range, no wait). With ipu_policy forcing in-place
# updates and the device suspended, the page stays under write-back: the
# tests hold a pack pass on it.
rewrite_first_block() {
	python3 -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.sync_file_range.argtypes = [ctypes.c_int, ctypes.c_longlong,
				 ctypes.c_longlong, ctypes.c_uint]
fd = os.open(sys.argv[1], os.O_WRONLY)
os.pwrite(fd, b"\x5a" * 4096, 0)
if libc.sync_file_range(fd, 0, 4096, 2):	# SYNC_FILE_RANGE_WRITE
	sys.exit(os.strerror(ctypes.get_errno()))
' "$1"
}

# Holding a pack pass or a GC scan on one block (tests 46, 49): the
# volume is a dm linear device over the disk, and the block's 4 KiB can
# be routed through a second dm device over the same disk, the one the
# test suspends.

# route_block DM DISK HOLD BLK: reload dm device DM (linear over DISK) so
# that block BLK goes through HOLD (dm linear over DISK too) and every
# other block straight to DISK. BLK empty: all of DM straight to DISK.
route_block() {
	local size s
	size=$(blockdev --getsz "$2")
	dmsetup suspend --nolockfs "$1" || return 1
	if [ -z "$4" ]; then
		dmsetup load "$1" --table "0 $size linear $2 0"
	else
		s=$(($4 * 8))
		dmsetup load "$1" --table "0 $s linear $2 0
$s 8 linear $3 $s
$((s + 8)) $((size - s - 8)) linear $2 $((s + 8))"
	fi || { dmsetup resume "$1"; return 1; }
	dmsetup resume "$1"
}

# cp_error MNT: the mount's checkpoint carries the checkpoint error
# (CP_ERROR_FLAG, 0x8, in stat/cp_status): f2fs_stop_checkpoint() ran.
cp_error() {
	local flags
	flags=$(cat "$(sysfs_dev f2fs_packed "$(findmnt -no SOURCE "$1")")/stat/cp_status") &&
		[ $((0x$flags & 0x8)) -ne 0 ]
}

# gone PID: the process has exited (a backgrounded job: wait for its
# status afterwards).
gone() {
	! kill -0 "$1" 2>/dev/null
}

# last_block FILE: the physical block of FILE's last logical block.
last_block() {
	filefrag -v "$1" | awk '$1 ~ /^[0-9]+:$/ {
		l = $3; sub(/:.*/, "", l); e = $5; sub(/:.*/, "", e)
		if (l + 0 >= max) { max = l + 0; p = e + 0 } }
		END { print p }'
}

# fill_to_section_end FILE: append to FILE with O_DIRECT (the warm data
# log, whatever the write's size: a buffered write-back of up to
# min_hot_blocks pages goes to the hot one) until the log has written
# the last block of a section (SEGS segments): its next block opens a
# section. Checked after the write, from where the last block landed.
fill_to_section_end() {
	local bps=$((SEGS * 512)) main p
	main=$(pack_stat "$(findmnt -no TARGET -T "$(dirname "$1")")" main_blkaddr)
	dd if=/dev/zero of="$1" bs=4k count=64 oflag=direct,append \
		conv=notrunc,fsync status=none || return 1
	p=$(last_block "$1")
	[ $(((p - main) % bps)) -eq $((bps - 1)) ] ||
		dd if=/dev/zero of="$1" bs=4k oflag=direct,append conv=notrunc,fsync \
			count=$((bps - 1 - (p - main) % bps)) status=none || return 1
	p=$(last_block "$1")
	[ $(((p - main) % bps)) -eq $((bps - 1)) ]
}

# sync_gc MNT: one sync F2FS_IOC_GARBAGE_COLLECT; prints its errno (0 ok)
sync_gc() {
	python3 -c '
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
try:
	fcntl.ioctl(fd, 0x4004f506, struct.pack("I", 1))
	print(0)
except OSError as e:
	print(e.errno)
' "$1"
}

# status TYPE DEV FIELD: of DEV's block of TYPE's debugfs status: free
# (sections), prefree (segments), resv (reserved segments), nodes, dents,
# datas, imeta (dirty pages), cp (checkpoints)
status() {
	awk -v n="partition info($(basename "$2"))" -v w="$3" '
		/=====\[ partition info\(/ { on = index($0, n) > 0 }
		!on { next }
		w == "free" && /^  - Free: / { f = $NF; gsub(/[()]/, "", f) }
		w == "prefree" && /^  - Prefree: / { f = $NF }
		w == "resv" && /Resv:/ { f = $0; sub(/.*Resv:/, "", f); sub(/\).*/, "", f) }
		w == "cp" && /^CP calls: / { f = $3 }
		(w == "nodes" || w == "dents" || w == "datas" || w == "imeta") &&
			$0 ~ "^  - " w ": " { f = $3 }
		END { print f + 0 }' "/sys/kernel/debug/$1/status"
}
