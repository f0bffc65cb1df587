# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A foreground GC call that checkpoints in its loop stops with the free
# sections it needs (6.1's patch 0008, upstream's 36ded4c106db "f2fs: Fix
# over-estimating free section during FG GC", in 6.5 and 6.12).
#
# A sync F2FS_IOC_GARBAGE_COLLECT that starts short of free sections
# loops: at the top of each round it checkpoints (prefree sections, the
# ones it freed, turn free), then collects a victim and counts it in
# sec_freed, and it stops once free sections plus sec_freed are enough by
# has_not_enough_free_secs(). Without a reset of sec_freed at each
# checkpoint, a section freed before one is counted twice (free, and in
# sec_freed), and the call returns success that many sections short.
#
# Layout: 256 MiB, -s 1, mode=lfs, background_gc=off: a 40 MiB file D,
# 48 MiB of a file V with 7 blocks of every 8 punched out (victims 1/8
# valid), a filler file written until ENOSPC (or free sections down to
# the reserved ones plus 4), checkpointed: 30 free sections, 21 reserved.
# Then D is overwritten in one buffered write() with write-back held off
# (LFS counts dirty data in the sections needed: 20 more; the write's
# own balance runs before its pages are dirty), and one sync GC call
# runs. When it returns 0, its free plus prefree sections (what it freed
# since its last checkpoint is prefree) must exceed the reserved ones
# plus the lower bound of has_not_enough_free_secs() over the dirty pages
# (debugfs status) at its end. On 6.1 with 0008 the call took 13
# victims and 12 checkpoints and ended with 41 free + 1 prefree > 41;
# without 0008, 7 victims and 6 checkpoints, 36 + 1: five sections
# short, sec_freed still counting the six freed before its last
# checkpoint. Then sync, a remount, data intact, fsck clean, dmesg clean
# (finish). Ours (gc_packing=off) on every kernel; stock f2fs beside it
# where the kernel's f2fs has the fix (6.5 and later; stock 6.1 lacks the
# in-loop checkpoint too). About 2 minutes on 6.1.
# vm: -d 2 -s 256M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed

LFS=mode=lfs,background_gc=off,noatime

# need TYPE DEV: the lower bound of has_not_enough_free_secs(): reserved
# sections plus the whole sections of dirty node+dent+imeta, dent and
# (mode=lfs) data pages (512 blocks a section: -s 1)
need() {
	local n d i a r
	n=$(status "$1" "$2" nodes) d=$(status "$1" "$2" dents)
	i=$(status "$1" "$2" imeta) a=$(status "$1" "$2" datas)
	r=$(status "$1" "$2" resv)
	echo $((r + (n + d + i) / 512 + d / 512 + a / 512))
}

# punch FILE: punch blocks 1-7 of every 8 of FILE out (size kept)
punch() {
	python3 -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_long, ctypes.c_long]
fd = os.open(sys.argv[1], os.O_RDWR)
for off in range(0, os.fstat(fd).st_size, 32768):
	if libc.fallocate(fd, 3, off + 4096, 28672):
		sys.exit(os.strerror(ctypes.get_errno()))
' "$1"
}

# overwrite FILE: FILE's whole size rewritten in one buffered write()
overwrite() {
	python3 -c '
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
n = os.fstat(fd).st_size
b = os.urandom(n)
if os.pwrite(fd, b, 0) != n:
	sys.exit("short write")
' "$1"
}

# run TYPE DEV OPTS: the layout, the dirty overwrite, the call
run() {
	local type=$1 dev=$2 mnt=/mnt/$1 rsv free i rc cp0 need0 free1 pre1 need1 sec
	mkfs_f2fs "$dev" -s 1
	mount_fs "$type" "$dev" "$mnt" "${3:+$3,}$LFS"
	rsv=$(status "$type" "$dev" resv)
	dd if=/dev/urandom of="$mnt/D" bs=1M count=40 conv=fsync status=none
	dd if=/dev/urandom of="$mnt/V" bs=1M count=48 oflag=direct conv=fsync status=none
	for ((i = 0; i < 512; i++)); do
		free=$(status "$type" "$dev" free)
		[ "$free" -gt $((rsv + 4)) ] || break
		dd if=/dev/urandom of="$mnt/F" bs=1M count=2 oflag=direct,append \
			conv=notrunc,fsync status=none 2>/dev/null || break
	done
	punch "$mnt/V" || { fail "$type: V punched to 1/8"; finish; }
	sync
	free=$(status "$type" "$dev" free)
	log "$type: layout: $free free sections, $rsv reserved, $(status "$type" "$dev" prefree) prefree"

	# write-back held off: D's overwrite stays dirty through the call
	sysctl -qw vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000 \
		vm.dirty_background_bytes=1073741824 vm.dirty_bytes=1610612736
	overwrite "$mnt/D"
	sha_record "$mnt" "/tmp/$type.sha"
	cp0=$(status "$type" "$dev" cp)
	need0=$(need "$type" "$dev")
	free=$(status "$type" "$dev" free)
	log "$type: before the call: $free free sections, $(status "$type" "$dev" datas) dirty data pages, need > $need0 (lower bound)"
	must "$type: the call starts short ($free <= $need0)" test "$free" -le "$need0"

	trace_start "${type}/f2fs_gc_end"
	rc=$(sync_gc "$mnt")
	trace_stop
	free1=$(status "$type" "$dev" free)
	pre1=$(status "$type" "$dev" prefree)
	need1=$(need "$type" "$dev")
	sec=$(grep -o 'f2fs_gc_end: .*' /sys/kernel/tracing/trace | tail -n 1 |
		sed -n 's/.* sec_freed = \([0-9-]*\),.*/\1/p')
	log "$type: the call returned $rc: sec_freed $sec, $(($(status "$type" "$dev" cp) - cp0)) checkpoints; after it $free1 free + $pre1 prefree sections, need > $need1 (lower bound), $(status "$type" "$dev" datas) dirty data pages"
	check "$type: the sync GC call succeeds" test "$rc" -eq 0
	check "$type: the call stops with enough sections ($free1 free + $pre1 prefree > $need1)" \
		test $((free1 + pre1)) -gt "$need1"

	sysctl -qw vm.dirty_writeback_centisecs=500 vm.dirty_expire_centisecs=3000 \
		vm.dirty_background_ratio=10 vm.dirty_ratio=20
	sync
	umount "$mnt"
	mount_fs "$type" "$dev" "$mnt" "${3:+$3,}$LFS"
	check "$type: data intact after a remount" sha_verify "$mnt" "/tmp/$type.sha"
	umount_fsck "$dev" "$mnt"
}

run f2fs_packed "$DISK1" gc_packing=off

# stock: where the kernel's f2fs has the fix (36ded4c106db, 6.5)
if kernel_at_least 6 5; then
	load_stock
	run f2fs "$DISK2" ''
else
	log "stock f2fs not run: $(uname -r) lacks 36ded4c106db and 2d3f197bad97"
fi
finish
