# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2317
# tools/f2fs-gc: reaches a --target-free and exits 0 on a holed volume,
# waits while the dirty cache is above --max-dirty, prints its summary and
# leaves a consistent volume when interrupted, refuses non-f2fs mounts,
# works on stock f2fs and on f2fs_packed, and --packing sets and restores
# the gc_inode_local_packing knob.
# vm: -d 2 -s 256M
set -eu
# shellcheck source=tests/lib/guest.sh
. "$REPO/tests/lib/guest.sh"

GC=$REPO/tools/f2fs-gc/f2fs-gc
must "f2fs-gc is built (make -C tools/f2fs-gc)" test -x "$GC"

load_stock
load_packed

# Test data: a random seed of 253 blocks (4 KiB each) repeated, cut into
# 1 MiB files by one split(1) process (processes are slow to start under
# emulation).  Each file starts 3 blocks further into the seed, so the
# files differ from each other.
head -c $((253 * 4096)) /dev/urandom > /tmp/seed

# fill_punch MNT PCT: fill MNT/data with 1 MiB files up to PCT% of the
# volume, then delete every other file so most data segments end up
# half valid, i.e. dirty.
fill_punch() {
	local dir=$1/data pct=$2 total used n i name
	local -a seeds=() even=()
	mkdir -p "$dir"
	# shellcheck disable=SC2046
	set -- $(stat -f -c '%b %f %S' "$1")
	total=$(($1 * $3 / 1048576))
	used=$(((($1 - $2) * $3) / 1048576))
	n=$((total * pct / 100 - used))
	log "[${SECONDS}s] filling $dir with $n files of 1 MiB ($total MiB volume)"
	for ((i = 0; i <= n; i++)); do
		seeds+=(/tmp/seed)
	done
	cat "${seeds[@]}" | head -c $((n * 1048576)) |
		split -b 1048576 -d -a 4 - "$dir/f"
	sync
	for ((i = 0; i < n; i += 2)); do
		printf -v name '%s/f%04d' "$dir" "$i"
		even+=("$name")
	done
	rm -f "${even[@]}"
	sync
	log "[${SECONDS}s] filled"
}

dirty_wb_kb() {
	awk '/^(Dirty|Writeback):/ { s += $2 } END { print s + 0 }' /proc/meminfo
}

# wait_until SECS CMD...: poll CMD every 0.2 s for up to SECS seconds.
wait_until() {
	local end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.2
	done
}

dirty_above_kb() {
	[ "$(dirty_wb_kb)" -gt "$1" ]
}

# show [FILE]: echo a log into the console, marked as a comment
show() {
	sed 's/^/# | /' "$@"
}

# ---- f2fs_packed: reach a target ----------------------------------------
mkfs_f2fs "$DISK1"
mount_fs f2fs_packed "$DISK1" /mnt/p
SYSP=$(sysfs_dev f2fs_packed "$DISK1")
fill_punch /mnt/p 85
sha_record /mnt/p/data /tmp/p.sha

free0=$(cat "$SYSP/free_segments")
dirty0=$(cat "$SYSP/dirty_segments")
log "before: free $free0 dirty $dirty0 segments"
check "holes punched: at least 40 dirty segments" [ "$dirty0" -ge 40 ]
step=$((dirty0 / 3))
[ "$step" -le 30 ] || step=30
target=$((free0 + step))

rc=0
"$GC" --target-free "$target" --max-dirty 64M /mnt/p > /tmp/a.log 2>&1 || rc=$?
show /tmp/a.log
check "f2fs_packed: exit 0 at --target-free $target" [ "$rc" -eq 0 ]
check "f2fs_packed: summary says target reached" grep -q "target reached" /tmp/a.log
check "f2fs_packed: free_segments >= $target" \
	[ "$(cat "$SYSP/free_segments")" -ge "$target" ]
check "f2fs_packed: summary shows segment counts, not n/a" \
	grep -qE "free segments: +[0-9]+ -> [0-9]+" /tmp/a.log

# ---- SIGINT mid-run -------------------------------------------------------
log "[${SECONDS}s] SIGINT mid-run"
# Idle calls never end this run (the volume is collected in well under a
# second now), so only the signal can, however fast or slow the machine.
"$GC" --verbose --max-idle 1000000 --duration 10m /mnt/p > /tmp/c.log 2>&1 &
pid=$!
if wait_until 60 grep -q "call 3 " /tmp/c.log && kill -0 "$pid" 2>/dev/null; then
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	check "SIGINT: exit status 130" [ "$rc" -eq 130 ]
else
	fail "SIGINT: the run ended or made no calls before it could be interrupted"
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" || true
fi
tail -n 12 /tmp/c.log | show
check "SIGINT: summary printed" grep -q "interrupted by" /tmp/c.log
check "SIGINT: summary counts calls" grep -qE "GC calls: +[0-9]+" /tmp/c.log
umount_fsck "$DISK1" /mnt/p
mount_fs f2fs_packed "$DISK1" /mnt/p
check "SIGINT: files intact after remount" sha_verify /mnt/p/data /tmp/p.sha

# ---- dirty-page bound -----------------------------------------------------
log "[${SECONDS}s] dirty-page bound"
# A buffered writer to the raw second disk leaves 96 MiB dirty; the tool
# must wait with --max-dirty 8M until a sync drains it, then run. The
# kernel's flusher is held back (no periodic writeback, limits far above
# 96 MiB) so the pages stay dirty however slow the machine is, and the
# disk is held open so that dd's close does not write them either.
# Restoring the ratios puts the kernel back from byte limits to them.
sysctls="dirty_writeback_centisecs dirty_expire_centisecs dirty_background_ratio dirty_ratio"
saved=
for k in $sysctls; do
	saved="$saved $k=$(cat "/proc/sys/vm/$k")"
done
echo 0 > /proc/sys/vm/dirty_writeback_centisecs
echo 360000 > /proc/sys/vm/dirty_expire_centisecs
echo $((1024 << 20)) > /proc/sys/vm/dirty_bytes
echo $((512 << 20)) > /proc/sys/vm/dirty_background_bytes
exec 8< "$DISK2"
dd if=/dev/zero of="$DISK2" bs=1M count=96 status=none
must "dirty bound: 96 MiB written stay dirty ($(dirty_wb_kb) KiB)" dirty_above_kb 65536
"$GC" --verbose --max-dirty 8M --max-calls 5 /mnt/p > /tmp/b.log 2>&1 &
pid=$!
sleep 3
check "dirty bound: the tool still waits while the pages are dirty" kill -0 "$pid"
sync
rc=0
wait "$pid" || rc=$?
exec 8<&-
for kv in $saved; do
	echo "${kv#*=}" > "/proc/sys/vm/${kv%%=*}"
done
show /tmp/b.log
check "dirty bound: exit 0 after --max-calls" [ "$rc" -eq 0 ]
check "dirty bound: log shows the tool waiting" \
	grep -q "waiting: dirty+writeback" /tmp/b.log
check "dirty bound: resumed once the cache drained" \
	grep -q "resumed after waiting" /tmp/b.log
check "dirty bound: no GC call before the wait ended" \
	awk '/resumed after waiting/ { r = 1 } / call [0-9]+ / && !r { exit 1 }' /tmp/b.log
check "dirty bound: 5 calls made" grep -qE "GC calls: +5 " /tmp/b.log

# ---- --packing --------------------------------------------------------------
log "[${SECONDS}s] --packing"
KNOB=$SYSP/gc_inode_local_packing
if [ -e "$KNOB" ]; then
	old=$(cat "$KNOB")
	# flip it, so that "set" is visible whatever the default is
	mode=on want=1
	[ "$old" != 1 ] || { mode=off want=0; }
	# dirty pages on the raw disk; holding it open keeps the last close
	# from syncing them
	exec 9< "$DISK2"
	dd if=/dev/zero of="$DISK2" bs=1M count=64 status=none
	# Held in the dirty wait with the knob set, then stopped by SIGTERM.
	"$GC" --packing "$mode" --max-dirty 1M /mnt/p > /tmp/f.log 2>&1 &
	pid=$!
	if wait_until 30 grep -q "waiting: dirty" /tmp/f.log; then
		check "packing: knob is $want during the run" \
			[ "$(cat "$KNOB")" = "$want" ]
	else
		fail "packing: the run did not reach the dirty wait"
	fi
	kill -TERM "$pid" 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	show /tmp/f.log
	check "packing: exit status 143 on SIGTERM" [ "$rc" -eq 143 ]
	check "packing: knob restored to $old" [ "$(cat "$KNOB")" = "$old" ]
	exec 9<&-
	sync
else
	log "packing knob not present yet"
	rc=0
	"$GC" --packing on --max-calls 1 /mnt/p > /tmp/f.log 2>&1 || rc=$?
	show /tmp/f.log
	check "packing: refused (exit 2) while the knob is missing" [ "$rc" -eq 2 ]
	check "packing: says the knob is missing" grep -q "no gc_inode_local_packing" /tmp/f.log
fi

check "f2fs_packed: files intact" sha_verify /mnt/p/data /tmp/p.sha
umount_fsck "$DISK1" /mnt/p

# ---- refusals ---------------------------------------------------------------
log "[${SECONDS}s] refusals"
rc=0
"$GC" /tmp > /tmp/d.log 2>&1 || rc=$?
show /tmp/d.log
check "tmpfs refused with exit 2" [ "$rc" -eq 2 ]
check "tmpfs refusal says why" grep -q "not f2fs or f2fs_packed" /tmp/d.log
rc=0
"$GC" --max-dirty lots /tmp > /tmp/d.log 2>&1 || rc=$?
check "bad argument: exit 2" [ "$rc" -eq 2 ]
check "bad argument: usage printed" grep -q "^Usage: " /tmp/d.log

# ---- stock f2fs ---------------------------------------------------------------
log "[${SECONDS}s] stock f2fs"
mkfs_f2fs "$DISK2"
mount_fs f2fs "$DISK2" /mnt/s
SYSS=$(sysfs_dev f2fs "$DISK2")
fill_punch /mnt/s 70
sha_record /mnt/s/data /tmp/s.sha
free0=$(cat "$SYSS/free_segments")
target=$((free0 + 10))
rc=0
"$GC" --json --target-free "$target" /mnt/s > /tmp/e.json 2> /tmp/e.log || rc=$?
show /tmp/e.log
show /tmp/e.json
check "stock f2fs: exit 0 at --target-free $target" [ "$rc" -eq 0 ]
check "stock f2fs: JSON names the fs type" grep -q '"fstype": "f2fs"' /tmp/e.json
check "stock f2fs: JSON stop reason target" grep -q '"stop_reason": "target"' /tmp/e.json
check "stock f2fs: JSON has counters" grep -qE '"free_segments_after": [0-9]+' /tmp/e.json
check "stock f2fs: JSON names no error" grep -q '"error": null,' /tmp/e.json
check "stock f2fs: free_segments >= $target" \
	[ "$(cat "$SYSS/free_segments")" -ge "$target" ]
rc=0
"$GC" --packing on --max-calls 1 /mnt/s > /tmp/e2.log 2>&1 || rc=$?
show /tmp/e2.log
check "stock f2fs: --packing refused with exit 2" [ "$rc" -eq 2 ]
check "stock f2fs: files intact" sha_verify /mnt/s/data /tmp/s.sha
umount_fsck "$DISK2" /mnt/s

log "[${SECONDS}s] done"
finish
