# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Foreground GC at the physical limit (issue 39, item 3): 15 one-section
# sync GC calls, no checkpoint of the caller's between them, then sync.
# Layout (test 54's, without its hot file): 128 MiB, -s 1, mode=lfs,
# noatime, one-block files written with O_DIRECT until ENOSPC, every 8th
# deleted, the node sections compacted by GC_RANGE: data victims 7/8
# valid, each moved block dirtying an inode of its own (448 a victim).
# 6.1.192's f2fs_gc() never writes a checkpoint in a call that starts as
# FG_GC: the calls left 6,706 dirty node pages and 9 free sections
# against 18 reserved, and the checkpoint of the sync after them had no
# room for those nodes (WARN in new_curseg(), a NULL pointer dereference,
# sync never returned), stock 6.1 alike. Upstream's 2d3f197bad97 ("f2fs:
# refactor f2fs_gc to call checkpoint in urgent condition", in 6.12)
# checkpoints in FG_GC whenever free sections are short; 6.1 gets it as
# patches/6.1/0007.
# Ours (gc_packing=off) on every kernel; stock f2fs beside it, in the same
# boot from the same layout, where the kernel's own f2fs has that commit
# (6.4 and later: stock 6.1 would oops and stop the test). Each: every
# call returns; the sync after them returns, with no checkpoint error;
# free sections at the end at least the reserved ones; data intact, fsck
# clean, dmesg clean (finish).
# vm: -d 3 -s 128M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool

LFS=mode=lfs,background_gc=off,noatime
CALLS=15

# segments TYPE DEV: "segno type valid" for every segment of DEV
segments() {
	tail -n +2 "/proc/fs/$1/$(basename "$2")/segment_info" |
		tr -s ' ' '\n' | grep '|' | awk -F'|' '{ print NR - 1, $1, $2 }'
}

# layout DEV: the layout, built with ours (gc_packing=off: upstream's GC)
layout() {
	local dev=$1 mnt=/mnt/l main seg victims
	mkfs_f2fs "$dev" -s 1
	mount_fs f2fs_packed "$dev" $mnt "gc_packing=off,$LFS"
	mkdir -p $mnt/s
	fio --name=s --directory=$mnt/s --nrfiles=12288 --filesize=4k --size=48m \
		--bs=4k --rw=write --direct=1 --fallocate=none --create_on_open=1 \
		--file_service_type=sequential --refill_buffers --eta=never \
		--output=/dev/null > /dev/null 2>&1 || :
	must "layout: at least 4096 one-block files" \
		test "$(find $mnt/s -type f -size 4k | wc -l)" -ge 4096
	find $mnt/s -type f ! -size 4k -delete
	(cd $mnt/s && find . -type f | sort -V | awk 'NR % 8 == 0' | xargs rm -f)
	sync
	main=$(pack_stat $mnt main_blkaddr)
	for seg in $(segments f2fs_packed "$dev" | awk '$2 >= 3 && $3 > 0 && $3 < 512 { print $1 }'); do
		gc_blocks $mnt $((main + seg * 512)) 512 > /dev/null || :
	done
	sync
	sha_record $mnt/s /tmp/layout.sha
	victims=$(segments f2fs_packed "$dev" | awk '$2 < 3 && $3 == 448' | wc -l)
	log "layout: $(find $mnt/s -type f | wc -l) one-block files, $victims data segments 7/8 valid, $(status f2fs_packed "$dev" free) free sections, $(status f2fs_packed "$dev" resv) reserved"
	must "layout: at least $CALLS data victims 7/8 valid ($victims)" \
		test "$victims" -ge "$CALLS"
	umount $mnt
}

# run TYPE DEV OPTS: the calls and the sync on a copy of the layout
run() {
	local type=$1 dev=$2 mnt=/mnt/$1 i rc rcs='' trail='' spid cperr=0 rsvd free
	dd if="$DISK1" of="$dev" bs=1M count=128 conv=fsync status=none
	mount_fs "$type" "$dev" "$mnt" "${3:+$3,}$LFS"
	rsvd=$(status "$type" "$dev" resv)
	trail="$(status "$type" "$dev" free)/$(status "$type" "$dev" nodes)"
	for ((i = 1; i <= CALLS; i++)); do
		rc=$(sync_gc "$mnt")
		rcs="$rcs $rc"
		trail="$trail $(status "$type" "$dev" free)/$(status "$type" "$dev" nodes)"
	done
	log "$type: $CALLS sync GC calls returned:$rcs; free sections/dirty node pages before and after each: $trail; $rsvd reserved"
	check "$type: all $CALLS calls succeeded" \
		test "$(echo "$rcs" | tr -s ' ' '\n' | grep -cx 0)" -eq "$CALLS"
	sync &
	spid=$!
	if ! wait_for 300 gone "$spid"; then
		fail "$type: the sync after the calls returns (5 min)"
		dmesg | grep -E 'WARNING|BUG|Oops|RIP' | head -8 | sed 's/^/# /'
		finish
	fi
	echo "ok - $type: the sync after the calls returns"
	# an oops kills the syncing task with the checkpoint's locks held:
	# stop before umount would wait on them
	if dmesg | grep -qE 'WARNING:|BUG:|Oops'; then
		fail "$type: no WARN or Oops in the calls and the sync"
		dmesg | grep -E 'WARNING|BUG|Oops|RIP' | head -8 | sed 's/^/# /'
		finish
	fi
	cp_error_of "$type" "$dev" && cperr=1
	check "$type: no checkpoint error" test "$cperr" -eq 0
	free=$(status "$type" "$dev" free)
	log "$type: after sync: $free free sections, $(status "$type" "$dev" nodes) dirty node pages"
	check "$type: free sections after the sync >= reserved ($free >= $rsvd)" \
		test "$free" -ge "$rsvd"
	check "$type: data intact" sha_verify "$mnt/s" /tmp/layout.sha
	umount_fsck "$dev" "$mnt"
}

# cp_error_of TYPE DEV: the checkpoint error flag (CP_ERROR_FLAG, 0x8)
cp_error_of() {
	local flags
	flags=$(cat "$(sysfs_dev "$1" "$2")/stat/cp_status") &&
		[ $((0x$flags & 0x8)) -ne 0 ]
}

layout "$DISK1"
run f2fs_packed "$DISK2" gc_packing=off

# stock: where the kernel's f2fs checkpoints in FG_GC (2d3f197bad97, 6.4)
if kernel_at_least 6 4; then
	load_stock
	run f2fs "$DISK3" ''
else
	log "stock f2fs not run: $(uname -r) lacks 2d3f197bad97 (stock 6.1 oopses here)"
fi
finish
