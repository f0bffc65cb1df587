# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A sync GC call whose batch (gc_pack_sections=16) holds three victim
# sections, for tests that stop it at a known point (49, 55). The victims
# are three consecutive one-segment sections S0..S2 (-s 1), each half
# valid, which greedy selection takes in that order (equal costs, searched
# from the volume's start): file a (64 blocks) opens S0, eleven 64-block
# files of d/ survive in the rest. The volume is a dm linear device (DM)
# mounted nobarrier on MNT; one block goes through a second dm device
# (HOLD), which a test suspends to hold the call: a's first block (the
# pack pass waits on it, rewritten in place and under write-back) or S2's
# summary block (the call waits reading it, with S0's and S1's records
# held, before S2 joins the batch).

# shellcheck source=tests/lib/pack.sh
. "$REPO/tests/lib/pack.sh"

SEGS=1
MNT=/mnt/a
# shellcheck disable=SC2034 # read by the tests that source this
HELD='wait_on_page_writeback|folio_wait_writeback'
# f2fs_get_sum_page() tail-calls f2fs_get_meta_page_retry(): not on the
# stack; 7.x reads folios (f2fs_get_sum_folio(), f2fs_get_meta_folio_retry())
SUM_READ='f2fs_get_sum_(page|folio)|f2fs_get_meta_(page|folio)_retry'
NFILES=23	# 23 x 64 blocks after a's 64: S0..S2 exactly

# batch_devices: the dm devices hold and race over DISK1; sets HOLD, DM.
batch_devices() {
	local d
	modprobe dm_mod || { fail "modprobe dm_mod"; finish; }
	for d in hold race; do
		dmsetup create "$d" --table "0 $(blockdev --getsz "$DISK1") linear $DISK1 0" ||
			{ fail "dmsetup create $d"; finish; }
	done
	# no udev in the guest: the dm-N nodes
	HOLD=/dev/$(dmsetup info -c --noheadings -o blkdevname hold)
	DM=/dev/$(dmsetup info -c --noheadings -o blkdevname race)
}

# layout: a fresh volume on $DM, mounted on $MNT, with a at the start of
# section S0 (first block S0BLK) and d/'s survivors after it up to S2's
# end; sets MAIN, S0BLK, V0, V1, V2 (valid blocks per section) and records
# the data (/tmp/d.sha, /tmp/a.orig).
layout() {
	local first last f lo='' hi='' b _
	route_block race "$DISK1" "$HOLD" '' || { fail "dm reload"; finish; }
	mkfs_f2fs "$DM" -s 1
	mount_fs f2fs_packed "$DM" "$MNT" gc_packing=on,background_gc=off,nobarrier
	mkdir -p "$MNT/a" "$MNT/d"
	sync
	must "the data log at a section's end" fill_to_section_end "$MNT/start"
	dd if=/dev/urandom of="$MNT/a/a" bs=64k count=4 iflag=fullblock \
		oflag=direct conv=fsync status=none
	# d/f.0.<i>, 64 blocks each, one after the other with O_DIRECT
	python3 - "$MNT/d" "$NFILES" <<-'PY' || { fail "writing d/"; finish; }
	import mmap, os, sys
	buf = mmap.mmap(-1, 64 << 12)
	for i in range(int(sys.argv[2])):
	    buf.seek(0)
	    buf.write(os.urandom(64 << 12))
	    fd = os.open(f"{sys.argv[1]}/f.0.{i}", os.O_WRONLY | os.O_CREAT | os.O_DIRECT, 0o644)
	    os.write(fd, buf)
	    os.fsync(fd)
	    os.close(fd)
	PY
	delete_even "$MNT/d" "$NFILES"
	sync
	MAIN=$(pack_stat "$MNT" main_blkaddr)
	for f in "$MNT/a/a" "$MNT"/d/*; do
		read -r first last < <(file_span "$f")
		first=$(((first - MAIN) / 512)) last=$(((last - MAIN) / 512))
		[ -n "$lo" ] && [ "$lo" -le "$first" ] || lo=$first
		[ -n "$hi" ] && [ "$hi" -ge "$last" ] || hi=$last
	done
	read -r b _ < <(file_span "$MNT/a/a")
	for f in "$MNT/start" "$MNT/a/a" "$MNT"/d/*; do
		echo "# ${f#"$MNT"/}: $(file_span "$f")"
	done | paste -sd' '
	S0BLK=$((MAIN + lo * 512))
	must "layout: the files fill 3 sections from a's first block ($lo..$hi, a at $b)" \
		test $((hi - lo)) -eq 2 -a "$b" -eq "$S0BLK"
	V0=$(valid_in_section "$MNT" "$S0BLK")
	V1=$(valid_in_section "$MNT" $((S0BLK + 512)))
	V2=$(valid_in_section "$MNT" $((S0BLK + 1024)))
	log "layout: sections $lo..$hi at block $S0BLK: $V0, $V1, $V2 valid blocks"
	must "layout: every section partly valid" test "$V0" -gt 64 -a "$V0" -lt 512 \
		-a "$V1" -gt 0 -a "$V1" -lt 512 -a "$V2" -gt 0 -a "$V2" -lt 512
	sha_record "$MNT/d" /tmp/d.sha
	cp "$MNT/a/a" /tmp/a.orig
}

# counters PREFIX: PREFIX_dropped, _blocks, _stale, _left, _held now.
counters() {
	eval "${1}_dropped=$(pack_stat "$MNT" gc_pack_dropped)"
	eval "${1}_blocks=$(pack_stat "$MNT" gc_pack_blocks)"
	eval "${1}_stale=$(pack_stat "$MNT" gc_pack_stale)"
	eval "${1}_left=$(pack_stat "$MNT" gc_pack_left)"
	eval "${1}_held=$(pack_stat "$MNT" gc_pack_held_sections)"
}

# start_gc: the sync GC call, 16 sections per call, in the background
# (GC). GC_RANGE would not batch: it keeps upstream's section-by-section
# progress.
start_gc() {
	"$GC_TOOL" -q -j -n -d off -S 16 -c 1 -i 1 "$MNT" > /tmp/gc.json 2>&1 &
	GC=$!
}

# hold_summary_read WHAT: the caches dropped, S2's summary block goes
# through the suspended hold device; start_gc, which must then wait
# reading it.
hold_summary_read() {
	local ssa
	ssa=$(f2fs_sb_u32 "$DM" 88)	# ssa_blkaddr
	sync
	echo 3 > /proc/sys/vm/drop_caches
	must "$1: S2's summary block through the hold device" \
		route_block race "$DISK1" "$HOLD" $((ssa + (S0BLK - MAIN) / 512 + 2))
	dmsetup suspend hold
	start_gc
	# Not held there: resumed, or the call and the checkpoint behind it
	# would hang on the suspended device until the guest times out.
	wait_for 120 blocked_in "$GC" "$SUM_READ" || dmsetup resume hold
	must "$1: the call waits reading S2's summary" blocked_in "$GC" "$SUM_READ"
}

batch_devices_remove() {
	dmsetup remove race
	dmsetup remove hold
}
