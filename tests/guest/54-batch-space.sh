# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The batch's free-space bound at the limit (issue 20, finding 4): one-block
# files, so that every block the pass moves dirties a node page of its own
# (its inode), on a volume whose free sections cannot take many victims'
# blocks and nodes. The bound once counted the data blocks alone, at join
# time, and no checkpoint runs inside a batch: on 10d47f2 one call with
# gc_pack_sections 64 held 14 victims, moved 6272 blocks and left free
# sections 23 -> 10 with 6272 dirty inodes; the checkpoint after it
# (sync) then had no room for them (6.12: WARN in new_curseg, "Stopped
# filesystem due to reason: 7", a checkpoint error, 0 free sections;
# 6.1: WARNs in new_curseg, a NULL dereference in update_sit_entry, panic).
# Layout: 128 MiB, -s 1, mode=lfs, noatime; a 16 MiB file, then one-block
# files written with O_DIRECT in order until ENOSPC, every 8th deleted:
# data victims 7/8 valid (448 blocks, 448 inodes each). The node sections
# the deletions left with holes are compacted first (GC_RANGE,
# gc_pack_sections 1), so that greedy GC takes data victims, which batch,
# and not node ones, which end a batch (the first layout of this test
# had fio fallocate() the files: their blocks never reached a data
# segment, only node victims were left and 10d47f2 passed).
# Variants from the same layout, one sync GC call each:
#  - one (gc_pack_sections 1) and multi (64), while a buffered writer
#    overwrites the 16 MiB file three times and fsyncs it (mode=lfs:
#    every overwrite takes new blocks from free sections, with no GC
#    until they run low: it takes them while a batch is held);
#  - still (64, no writer): the reported overdraw, which 10d47f2 fails.
# Each: the call (and the writer) succeed, the checkpoint after them
# (sync) sets no checkpoint error, GC moved blocks, and the free sections
# stay at NR_GC_CHECKPOINT_SECS (3) or more after the checkpoint; multi's
# and still's batches held sections and were ended by the bound (the
# counters gc_pack_held_sections and gc_pack_space_stops), one's never. Data
# intact, fsck clean, dmesg clean (finish).
# vm: -d 3 -s 128M
# stock-latency: 7.3 tests/README.md, "debug kernel, stock control of 54": its layout fill blocked a checkpoint 5.6-6.8 s in every fill, stock's as ours
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool

LFS=mode=lfs,background_gc=off,noatime

free_secs() {
	awk -v n="partition info($(basename "$1"))" '
		/=====\[ partition info\(/ { on = index($0, n) > 0 }
		on && /^  - Free: / { f = $NF; gsub(/[()]/, "", f) }
		END { print f }' /sys/kernel/debug/f2fs_packed/status
}

# segments DEV: "segno type valid" for every segment of DEV
segments() {
	tail -n +2 "/proc/fs/f2fs_packed/$(basename "$1")/segment_info" |
		tr -s ' ' '\n' | grep '|' | awk -F'|' '{ print NR - 1, $1, $2 }'
}

# layout DEV HOT_KIB: the layout on DEV, with a file of HOT_KIB KiB first
# (0: none) that a writer can overwrite
layout() {
	local dev=$1 mnt=/mnt/l main seg victims holes
	mkfs_f2fs "$dev" -s 1
	mount_fs f2fs_packed "$dev" $mnt "gc_packing=on,$LFS"
	# one-block files until the user space is full (fio stops on
	# ENOSPC), created as they are written, and written, not
	# fallocate()d: their blocks are in data segments in file order
	[ "$2" -eq 0 ] || direct_write $mnt/hot "$2"
	mkdir -p $mnt/s
	fio --name=s --directory=$mnt/s --nrfiles=12288 --filesize=4k --size=48m \
		--bs=4k --rw=write --direct=1 --fallocate=none --create_on_open=1 \
		--file_service_type=sequential --refill_buffers --eta=never \
		--output=/dev/null > /dev/null 2>&1 || :
	must "layout $2: at least 4096 one-block files" \
		test "$(find $mnt/s -type f -size 4k | wc -l)" -ge 4096
	find $mnt/s -type f ! -size 4k -delete
	(cd $mnt/s && ls | sort -V | awk 'NR % 8 == 0' | xargs rm -f)
	sync
	# compact the node segments the deletions left with holes
	main=$(pack_stat $mnt main_blkaddr)
	for seg in $(segments "$dev" | awk '$2 >= 3 && $3 > 0 && $3 < 512 { print $1 }'); do
		gc_blocks $mnt $((main + seg * 512)) 512 > /dev/null || :
	done
	sync
	sha_record $mnt/s "/tmp/$(basename "$dev").sha"
	victims=$(segments "$dev" | awk '$2 < 3 && $3 == 448' | wc -l)
	holes=$(segments "$dev" | awk '$2 >= 3 && $3 > 0 && $3 < 512' | wc -l)
	log "layout $2: $(find $mnt/s -type f | wc -l) one-block files left, $victims data segments 7/8 valid, node segments not full (segno type valid): $(segments "$dev" | awk '$2 >= 3 && $3 > 0 && $3 < 512' | tr '\n' ' '), $(free_secs "$dev") free sections, $(cat "$(sysfs_dev f2fs_packed "$dev")/reserved_segments") reserved segments"
	must "layout $2: at least 8 data victims 7/8 valid ($victims)" \
		test "$victims" -ge 8
	must "layout $2: node segments compacted ($holes not full: the node logs' own)" \
		test "$holes" -le 3
	umount $mnt
}

# dirty_nodes DEV: the dirty node pages (debugfs status)
dirty_nodes() {
	awk -v n="partition info($(basename "$1"))" '
		/=====\[ partition info\(/ { on = index($0, n) > 0 }
		on && /^  - nodes: / { f = $3 }
		END { print f }' /sys/kernel/debug/f2fs_packed/status
}

layout "$DISK1" 16384
layout "$DISK3" 0

variant() {	# NAME SECTIONS WRITER(0|1)
	local mnt=/mnt/$1 sys out wpid='' wrc=0 rc=0 moved src=$DISK1
	[ "$3" = 1 ] || src=$DISK3
	dd if="$src" of="$DISK2" bs=1M count=128 conv=fsync status=none
	mount_fs f2fs_packed "$DISK2" "$mnt" "gc_packing=on,$LFS"
	sys=$(sysfs_dev f2fs_packed "$DISK2")
	echo "$2" > "$sys/gc_pack_sections"
	moved=$(pack_stat "$mnt" moved_blocks_foreground)
	eval "${1}_before=$(free_secs "$DISK2")"
	if [ "$3" = 1 ]; then
		fio --name=w --filename="$mnt/hot" --size=16m --bs=64k --rw=write \
			--loops=3 --end_fsync=1 --refill_buffers --eta=never \
			--output=/dev/null &
		wpid=$!
	fi
	out=$("$GC_TOOL" -q -j -n -d off -c 1 -i 1 "$mnt") || rc=$?
	[ -z "$wpid" ] || wait "$wpid" || wrc=$?
	eval "${1}_moved=$(($(pack_stat "$mnt" moved_blocks_foreground) - moved))"
	eval "${1}_gcfree=$(free_secs "$DISK2")"
	eval "${1}_nodes=$(dirty_nodes "$DISK2")"
	sync
	eval "${1}_ok=$(json_field "$out" successes) ${1}_rc=$rc ${1}_wrc=$wrc"
	eval "${1}_free=$(free_secs "$DISK2") ${1}_stops=$(cat "$sys/gc_pack_space_stops")"
	eval "${1}_held=$(cat "$sys/gc_pack_held_sections")"
	eval "${1}_cperr=0"
	cp_error "$mnt" && eval "${1}_cperr=1"
	log "$1: gc exit $rc ($(echo "$out" | tr -d '\n ' | cut -c1-120)), writer exit $wrc, moved $(eval echo "\$${1}_moved"), free sections $(eval echo "\$${1}_before") before, $(eval echo "\$${1}_gcfree") after the call with $(eval echo "\$${1}_nodes") dirty node pages, $(eval echo "\$${1}_free") after sync, space stops $(eval echo "\$${1}_stops"), held $(cat "$sys/gc_pack_held_sections")"
	check "$1: data intact" sha_verify "$mnt/s" "/tmp/$(basename "$src").sha"
	umount_fsck "$DISK2" "$mnt"
}

variant one 1 1
variant multi 64 1
variant still 64 0

# shellcheck disable=SC2154
{
for v in one multi still; do
	eval "ok=\$${v}_ok rc=\$${v}_rc wrc=\$${v}_wrc cperr=\$${v}_cperr moved=\$${v}_moved"
	check "$v: the GC call succeeded ($rc, $ok)" test "$rc" -eq 0 -a "$ok" -eq 1
	check "$v: the writer succeeded ($wrc)" test "$wrc" -eq 0
	check "$v: no checkpoint error" test "$cperr" -eq 0
	check "$v: GC moved blocks ($moved)" test "$moved" -gt 0
	eval "free=\$${v}_free"
	check "$v: free sections after the checkpoint >= 3 ($free)" test "$free" -ge 3
done
# What the test is for: the batches held sections and the space bound
# ended them; a call of one section never does either.
for v in multi still; do
	eval "held=\$${v}_held stops=\$${v}_stops"
	check "$v: the batch held sections ($held) and stopped on space ($stops)" \
		test "$held" -gt 0 -a "$stops" -gt 0
done
check "one: no batch (held $one_held, space stops $one_stops)" \
	test "$one_held" -eq 0 -a "$one_stops" -eq 0
}
finish
