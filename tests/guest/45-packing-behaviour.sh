# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Packing on files and volumes of every kind GC meets, each on a fresh
# volume with a known victim section collected by one sync GC_RANGE call.
# Each: data intact (sha256, read back from the device), fsck.f2fs clean
# and no fsck flag in the checkpoint after umount, the counters consistent
# with the victim (blocks migrated == its valid blocks before), dmesg
# clean (finish).
#  - file-offset order: 16 files whose blocks were written shuffled (fixed
#    seed) and interleaved: found order leaves each file in as many
#    extents as it had pieces, offset order must leave one extent per file
#  - encrypted files (test_dummy_encryption) and compressed files (lz4
#    clusters): their blocks take phase 4's move_data_block() path
#  - a pinned file in the victim: GC may not move it; packing must leave
#    exactly what legacy GC leaves (packing off), and move the rest (on
#    6.1, which pins a file with blocks, beside two other files; from 6.12
#    on a pinned file fills sections of its own: that section, left whole)
#  - checkpoint=disable: the same, then checkpoint=enable
#  - foreground GC starting in the middle of a section (GC_RANGE from its
#    third segment): packing must move exactly what legacy GC moves
#  - gc_pack_max_blocks at its maximum (1 << 20, GC_PACK_MAX_MAX_BLOCKS):
#    one over is refused, and a 128 MiB section whose valid blocks exceed
#    the default bound is packed in one pass, without an early drain
# vm: -d 2 -s 4G,8G
# queue: first
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool
SEGS=4
bps=$((SEGS * 512))
MNT=/mnt/a

# fresh DEV MOUNTOPTS [MKFSOPTS...]: a new 512 MiB volume of 4-segment
# sections on DEV mounted at $MNT (the disks are 4 GiB for the last part;
# mkfs, fsck and dump of a smaller volume are quicker).
fresh() {
	local dev=$1 opts=$2
	shift 2
	log "--- $opts $* (at ${SECONDS}s)"
	mkfs.f2fs -q -f -s "$SEGS" "$@" "$dev" $((512 << 11)) > /dev/null ||
		{ fail "mkfs.f2fs $* $dev"; finish; }
	mount_fs f2fs_packed "$dev" "$MNT" "background_gc=off,$opts"
}

# collect TAG SECSTART [LEN]: one sync GC_RANGE over the victim (or LEN
# blocks of it); sets before/after (valid blocks in the victim), moved,
# stale, inodes (counter deltas) and logs them.
collect() {
	local tag=$1 sec=$2 len=${3:-$bps} b0 s0 i0 out
	before=$(valid_in_section "$MNT" "$sec")
	b0=$(pack_stat "$MNT" gc_pack_blocks)
	s0=$(pack_stat "$MNT" gc_pack_stale)
	i0=$(pack_stat "$MNT" gc_pack_inodes)
	# the ioctl goes on to the next section while start <= start + LEN:
	# LEN - 1 keeps it to this one
	out=$(gc_blocks "$MNT" $((sec + bps - len)) $((len - 1))) || true
	after=$(valid_in_section "$MNT" "$sec")
	moved=$(($(pack_stat "$MNT" gc_pack_blocks) - b0))
	stale=$(($(pack_stat "$MNT" gc_pack_stale) - s0))
	inodes=$(($(pack_stat "$MNT" gc_pack_inodes) - i0))
	log "$tag: victim valid $before -> $after, moved $moved, stale $stale, inodes $inodes; $(pack_stats "$MNT")"
	log "$tag: gc $(echo "$out" | grep -E '"(successes|eagain|errors)"' | tr -d '\n ')"
}

# collect_all TAG DIR MIN: collect the section that holds every file of
# DIR: packing must move all its valid blocks (at least MIN), none stale,
# the victim must end empty and DIR's data (recorded in /tmp/<DIR's
# name>.sha) read back intact.
collect_all() {
	local tag=$1 dir=$2 sha=/tmp/${2##*/}.sha
	victim_of "$MNT" "$dir"/*
	sha_record "$dir" "$sha"
	collect "$tag" "$VICTIM"
	check "$tag: victim emptied" test "$after" -eq 0
	check "$tag: moved == victim's valid blocks before ($before)" \
		test "$moved" -eq "$before" -a "$before" -ge "$3"
	check "$tag: no stale record" test "$stale" -eq 0
	check "$tag: data intact" reread "$dir" "$sha"
}

# reread DIR SHA: DIR's data matches SHA, read from the device.
reread() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sha_verify "$1" "$2"
}

# done_with DEV TAG: unmount; fsck clean and no fsck flag.
done_with() {
	umount "$MNT" || { fail "$2: umount"; return; }
	check "$2: no fsck flag in the checkpoint" no_fsck_flag "$1"
	check "$2: fsck.f2fs clean" fsck_clean "$1"
}

# to_section_end MNT FILE: fill the warm data log to the end of its
# section with FILE (a probe block, then the rest in one write), so that
# the next O_DIRECT write starts a section; FILE removed, that is a hole
# (GC leaves a fully valid section alone).
to_section_end() {
	local b _ n
	dd if=/dev/zero of="$2" bs=4k count=1 oflag=direct conv=fsync status=none
	read -r b _ < <(file_span "$2")
	n=$((bps - 1 - (b - $(pack_stat "$1" main_blkaddr)) % bps))
	[ "$n" -eq 0 ] || dd if=/dev/zero of="$2" bs=$((n * 4))k seek=4096 count=1 \
		oflag=direct,seek_bytes conv=fsync,notrunc status=none
}

# end_layout MNT NAME: the victim's files are written: the rest of its
# section a hole, the log at the next section's start.
end_layout() {
	to_section_end "$1" "$1/hole.$2"
	rm "$1/hole.$2"
}

# seg_valid MNT SEGNO COUNT: valid blocks in COUNT segments from SEGNO.
seg_valid() {
	awk -v a="$2" -v n="$3" 'NR > 2 {
			for (i = 2; i <= NF; i++) {
				s = $1 + i - 2
				split($i, tv, "|")
				if (s >= a && s < a + n) v += tv[2]
			}
		} END { print v + 0 }' "/proc/fs/f2fs_packed/$(basename "$(readlink -f \
		"$(findmnt -no SOURCE "$1")")")/segment_info"
}

## one volume, six victim sections laid out one after the other (each
## starts a section), collected one by one with the knobs each wants:
## shuffled writes (offset order, then found order), a pinned file
## (packing off, then on), a 4 MiB file and 4 files interleaved
## collected from the section's third segment on (packing off, then on)
fresh "$DISK1" gc_packing=on
sys=$(sysfs_dev f2fs_packed "$DISK1")
end_layout "$MNT" start
declare -A sec ext maxext pre left mv head vb
for order in 1 0; do
	shuffled_write "$MNT/o$order" 8 64 $((12 + order))
	end_layout "$MNT" "o$order"
	victim_of "$MNT" "$MNT/o$order"/s.*
	sec[o$order]=$VICTIM
	pre[$order]=$(for f in "$MNT/o$order"/s.*; do file_extents "$f"; done | awk '{ n += $1 } END { print n }')
done
# 6.1 pins a file that has blocks: x, pinned and y share the victim.
# 6.12 on refuse that (EFBIG) and allocate a pinned file only by
# fallocate, a whole section at a time (CURSEG_COLD_DATA_PINNED), and
# write it only in place: its victim is its own section, full of it.
pin_shared=1
for mode in off on; do
	mkdir -p "$MNT/p$mode"
	direct_write "$MNT/p$mode/x" 1024
	direct_write "$MNT/p$mode/pinned" 1024
	direct_write "$MNT/p$mode/y" 1024
	if ! f2fs_io pinfile set "$MNT/p$mode/pinned" > /dev/null 2>&1; then
		pin_shared=0
		rm "$MNT/p$mode/pinned"
		touch "$MNT/p$mode/pinned"
		must "pinned, packing $mode: pinfile set on the empty file" \
			sh -c "f2fs_io pinfile set $MNT/p$mode/pinned > /dev/null"
		must "pinned, packing $mode: fallocate a section" \
			fallocate -l $((bps * 4))KiB "$MNT/p$mode/pinned"
		must "pinned, packing $mode: written in place" \
			dd if=/dev/urandom of="$MNT/p$mode/pinned" bs=1M \
			count=$((bps / 256)) oflag=direct conv=notrunc,fsync status=none
	fi
	end_layout "$MNT" "p$mode"
	if [ "$pin_shared" = 1 ]; then
		victim_of "$MNT" "$MNT/p$mode"/*
	else
		victim_of "$MNT" "$MNT/p$mode/pinned"
	fi
	sec[p$mode]=$VICTIM
done
# 6.12 unpins a file GC failed on more than gc_pin_file_thresh times
[ ! -w "$sys/gc_pin_file_thresh" ] || echo 65535 > "$sys/gc_pin_file_thresh"
for mode in off on; do
	mkdir -p "$MNT/m$mode"
	direct_write "$MNT/m$mode/head" 4096
	interleave "$MNT/m$mode/i" 4 256
	end_layout "$MNT" "m$mode"
	victim_of "$MNT" "$MNT/m$mode"/head "$MNT/m$mode"/i/*
	sec[m$mode]=$VICTIM
done
sha_record "$MNT" /tmp/plain.sha

# file-offset order, on a fresh cold log first: GC's destination, where
# 8 files of 64 blocks fit in one section
for order in 1 0; do
	tag="shuffled, gc_pack_order=$order"
	echo "$order" > "$sys/gc_pack_order"
	collect "$tag" "${sec[o$order]}"
	ext[$order]=0 maxext[$order]=0
	for f in "$MNT/o$order"/s.*; do
		e=$(file_extents "$f")
		ext[$order]=$((ext[$order] + e))
		[ "$e" -le "${maxext[$order]}" ] || maxext[$order]=$e
	done
	log "$tag: extents ${pre[$order]} -> ${ext[$order]} (at most ${maxext[$order]} per file)"
	check "$tag: layout shuffled (>= 400 extents before)" test "${pre[$order]}" -ge 400
	check "$tag: victim emptied" test "$after" -eq 0
	check "$tag: moved == victim's valid blocks before" test "$moved" -eq "$before"
done
echo 1 > "$sys/gc_pack_order"
check "found order keeps each file in pieces (> 4 extents per file)" \
	test "${ext[0]}" -gt $((8 * 4))
check "offset order: one extent per file (8 files: ${ext[1]} extents)" \
	test "${ext[1]}" -eq 8 -a "${maxext[1]}" -eq 1

# a pinned file in the victim: legacy (packing off) against packing on
for mode in off on; do
	tag="pinned, packing $mode"
	knob=0
	[ "$mode" = off ] || knob=1
	echo "$knob" > "$sys/gc_inode_local_packing"
	collect "$tag" "${sec[p$mode]}"
	left[$mode]=$after
	mv[$mode]=$moved
	vb[$mode]=$before
	for f in x pinned y; do
		log "$tag: $f at $(file_span "$MNT/p$mode/$f")"
	done
	check "$tag: still pinned" sh -c "f2fs_io pinfile get $MNT/p$mode/pinned | grep -q 'pinned'"
done
check "pinned: legacy GC leaves blocks (${left[off]})" test "${left[off]}" -gt 0
check "pinned: packing leaves exactly what legacy GC leaves" test "${left[on]}" -eq "${left[off]}"
if [ "$pin_shared" = 1 ]; then
	check "pinned: packing moved all the others (${mv[on]})" test "${mv[on]}" -eq $((vb[on] - left[on])) -a "${mv[on]}" -gt 0
else
	check "pinned: its own section, left whole (${left[on]} of ${vb[on]}, ${mv[on]} moved)" \
		test "${left[on]}" -eq "${vb[on]}" -a "${mv[on]}" -eq 0 -a "${vb[on]}" -eq "$bps"
fi

# foreground GC from the middle of a section, legacy against packing
for mode in off on; do
	tag="mid-section, packing $mode"
	knob=0
	[ "$mode" = off ] || knob=1
	echo "$knob" > "$sys/gc_inode_local_packing"
	segno=$(((${sec[m$mode]} - $(pack_stat "$MNT" main_blkaddr)) / 512))
	head[$mode]=$(seg_valid "$MNT" "$segno" 2)
	collect "$tag" "${sec[m$mode]}" 1024
	left[$mode]=$after
	mv[$mode]=$moved
	vb[$mode]=$before
	ext[$mode]=$(total_extents "$MNT/m$mode/i")
	log "$tag: first two segments held ${head[$mode]}, interleaved files in ${ext[$mode]} extents"
	check "$tag: the first two segments untouched" \
		test "$(seg_valid "$MNT" "$segno" 2)" -eq "${head[$mode]}"
	check "$tag: the last two segments emptied" \
		test "$(seg_valid "$MNT" $((segno + 2)) 2)" -eq 0
done
check "mid-section: legacy GC leaves the first two segments' blocks" test "${left[off]}" -eq "${head[off]}" -a "${head[off]}" -gt 0
check "mid-section: packing leaves exactly what legacy GC leaves" test "${left[on]}" -eq "${left[off]}" -a "${head[on]}" -eq "${head[off]}"
check "mid-section: packing moved the last two segments' blocks" test "${mv[on]}" -eq $((vb[on] - head[on]))
check "mid-section: packed the interleaved files (${ext[on]} < ${ext[off]} extents)" test "${ext[on]}" -lt "${ext[off]}"
check "plain volume: data intact" reread "$MNT" /tmp/plain.sha
done_with "$DISK1" "plain volume"

## encrypted files
tag=encrypted
fresh "$DISK1" gc_packing=on,test_dummy_encryption -O encrypt
shuffled_write "$MNT/e" 8 128 7
pad_out "$MNT"
check "$tag: the files are encrypted" sh -c "lsattr $MNT/e/s.0 | cut -d' ' -f1 | grep -q E"
collect_all "$tag" "$MNT/e" 1024
done_with "$DISK1" "$tag"
mount_fs f2fs_packed "$DISK1" "$MNT" test_dummy_encryption
check "$tag: data intact after remount" sha_verify "$MNT/e" /tmp/e.sha
done_with "$DISK1" "$tag, remounted"

## compressed files: 16 KiB clusters of 4 KiB random data and 12 KiB of
## zeros, written cluster by cluster round-robin with an fsync each
tag=compressed
fresh "$DISK1" gc_packing=on,compress_algorithm=lz4,compress_extension=cz \
	-O extra_attr,compression
mkdir -p "$MNT/c"
python3 - "$MNT/c" <<'PY' || fail "$tag: writing the files"
import os, random, sys
rnd = random.Random(5)
fds = [os.open(f"{sys.argv[1]}/f{i}.cz", os.O_WRONLY | os.O_CREAT, 0o644)
       for i in range(8)]
for c in range(48):
	for fd in fds:
		os.pwrite(fd, rnd.randbytes(4096) + bytes(12288), c * 16384)
		os.fsync(fd)
PY
pad_out "$MNT" 8192 .cz
cblocks=$(f2fs_io get_cblocks "$MNT/c/f0.cz" 2>/dev/null || echo 0)
check "$tag: the files are compressed ($cblocks blocks of f0 saved)" test "${cblocks:-0}" -gt 0
collect_all "$tag" "$MNT/c" 512
check "$tag: still compressed" test "$(f2fs_io get_cblocks "$MNT/c/f0.cz")" -eq "$cblocks"
done_with "$DISK1" "$tag"

## checkpoint=disable: laid out with checkpoints (with them disabled,
## f2fs writes SSR, into any hole), then remounted checkpoint=disable:100%
## (no GC needed to disable them), collected, checkpoint=enable
tag=checkpoint=disable
fresh "$DISK1" gc_packing=on
end_layout "$MNT" start
interleave "$MNT/d" 8 256
end_layout "$MNT" d
victim_of "$MNT" "$MNT"/d/*
vsec=$VICTIM
sha_record "$MNT/d" /tmp/d.sha
must "$tag: remount" mount -o remount,checkpoint=disable:100% "$MNT"
check "$tag: in force" grep -q "$MNT .*checkpoint=disable" /proc/mounts
collect "$tag" "$vsec"
# emptied segments stay unusable, but GC's own log may write into the
# victim's: "all moved" is told by the counters
check "$tag: moved == victim's valid blocks before ($before)" test "$moved" -eq "$before" -a "$before" -ge 512
check "$tag: no stale record" test "$stale" -eq 0
check "$tag: data intact" reread "$MNT/d" /tmp/d.sha
check "$tag: checkpoint=enable" mount -o remount,checkpoint=enable "$MNT"
check "$tag: data intact after checkpoint=enable" reread "$MNT/d" /tmp/d.sha
done_with "$DISK1" "$tag"

## gc_pack_max_blocks at its maximum, on 128 MiB sections
# An 8 GiB disk: on 4 GiB (32 such sections, most of them reserved and
# over-provisioned) the writers' own GC could collect the victim before
# the test did (seen once under load: victim valid 0 -> 0).
tag="gc_pack_max_blocks=1048576"
log "--- $tag (at ${SECONDS}s)"
SEGS=64
bps=$((SEGS * 512))
mkfs_f2fs "$DISK2" -s "$SEGS"
mount_fs f2fs_packed "$DISK2" "$MNT" background_gc=off,gc_packing=on
sys=$(sysfs_dev f2fs_packed "$DISK2")
check "$tag: one over the maximum is refused" not sh -c "echo 1048577 > $sys/gc_pack_max_blocks"
check "$tag: set" sh -c "echo 1048576 > $sys/gc_pack_max_blocks"
check "$tag: reads back" test "$(cat "$sys/gc_pack_max_blocks")" -eq 1048576
end_layout "$MNT" start
mkdir -p "$MNT/d"
for i in 0 1 2 3 4 5 6 7 8; do
	dd if=/dev/urandom of="$MNT/d/$i" bs=8M count=1 oflag=direct status=none
done
end_layout "$MNT" d
victim_of "$MNT" "$MNT"/d/*
vsec=$VICTIM
sha_record "$MNT/d" /tmp/d.sha
ed0=$(pack_stat "$MNT" gc_pack_early_drains)
collect "$tag" "$vsec"
peak=$(pack_stat "$MNT" gc_pack_peak_queued)
log "$tag: peak queued $peak"
check "$tag: more valid blocks than the default bound ($before > 16384)" test "$before" -gt 16384
check "$tag: victim emptied" test "$after" -eq 0
check "$tag: moved == victim's valid blocks before" test "$moved" -eq "$before"
check "$tag: one pass held them all (peak $peak == $before)" test "$peak" -eq "$before"
check "$tag: no early drain" test "$(pack_stat "$MNT" gc_pack_early_drains)" -eq "$ed0"
check "$tag: no allocation fallback" test "$(pack_stat "$MNT" gc_pack_alloc_fallbacks)" -eq 0
check "$tag: no record left" test "$(queued_records "$MNT")" -eq 0
check "$tag: data intact" reread "$MNT/d" /tmp/d.sha
done_with "$DISK2" "$tag"
log "--- end (at ${SECONDS}s)"
finish
