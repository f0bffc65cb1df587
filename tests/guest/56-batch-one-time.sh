# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# One-time foreground GC with gc_pack_sections > 1 (issue 20, finding 3).
# From 6.12 on, the zoned GC thread's calls are one_time: each migrates
# one window of its victim section and leaves next_victim_seg[] to carry
# the rest of the section to the next call; background_gc=sync makes
# them FG_GC. A batch inside such a call cleared that hint and ended the
# call, and the thread then went on between windows already emptied, each
# call reporting success, while the victims stayed. One-time calls never
# batch now. On a zoned null_blk device (64 zones of 8 MiB, 3 conventional
# for the metadata; a section per zone, 4 segments), 16 files written
# interleaved and every even one deleted, the GC thread made urgent
# (gc_urgent high, 50 ms apart) under background_gc=sync with
# migration_window_granularity 1 (a segment per call), first with
# gc_pack_sections 1, then 16 on a fresh volume: each must leave no
# data section partly valid but the logs' current ones within 120 s, the GC
# thread having packed, data intact, fsck clean. 6.1 has no one_time GC:
# skipped there.
# vm: -d 0 -t 900
set -eu
. "$REPO/tests/lib/zoned.sh"

case $KVER in
6.1.*)
	skip_test "6.1's GC thread makes no one_time calls"
	;;
esac

load_packed
zoned_nullb dev zonce 64 8 8 3
mnt=/mnt/z

# data_partial [all]: data sections partly valid now that are not a
# log's current one (with "all", those too), "SECNO VALID" each
# (segment_info: "type|valid" per segment, types 0-2 data). Node sections
# are left out: the victims are the files' data sections, and the
# checkpoints keep rewriting a few node blocks.
data_partial() {
	local logs=
	[ "${1:-}" = all ] ||
		logs=$(log_sections /sys/kernel/debug/f2fs_packed/status "$(basename "$dev")" |
			paste -sd' ')
	awk -v sps=4 -v logs=" $logs " -v full=2048 'NR > 2 {
			for (i = 2; i <= NF; i++) {
				split($i, tv, "|")
				s = int(($1 + i - 2) / sps)
				v[s] += tv[2]
				if (tv[1] > 2)
					node[s] = 1
			}
		}
		END {
			for (s in v)
				if (v[s] && v[s] < full && !(s in node) &&
				    index(logs, " " s " ") == 0)
					print s, v[s]
		}' "/proc/fs/f2fs_packed/$(basename "$dev")/segment_info"
}
partial() {
	data_partial | wc -l
}
reclaimed() {
	[ "$(partial)" -eq 0 ]
}

# run SECTIONS: a fresh volume, the layout, then the urgent GC thread.
run() {
	local sys before after blocks
	mkfs.f2fs -q -f -m "$dev" > /dev/null || { fail "mkfs.f2fs -m"; finish; }
	mount_fs f2fs_packed "$dev" $mnt background_gc=sync,gc_packing=on
	sys=$(sysfs_dev f2fs_packed "$dev")
	interleave_buffered $mnt/d 16 4096
	delete_even $mnt/d 16
	sync
	sha_record $mnt /tmp/z.sha
	before=$(partial)
	log "gc_pack_sections $1: layout partly valid (section valid): $(data_partial all | paste -sd' '); logs' sections: $(log_sections /sys/kernel/debug/f2fs_packed/status "$(basename "$dev")" | paste -sd' ')"
	echo 1 > "$sys/migration_window_granularity"
	echo "$1" > "$sys/gc_pack_sections"
	echo 50 > "$sys/gc_urgent_sleep_time"
	# A call that finds nothing to do (a victim's inode locked, its
	# blocks under write-back) sends the thread to sleep for
	# gc_no_gc_sleep_time, 300 s by default, even in urgent mode:
	# short, so that the wait below measures GC, not one such sleep.
	echo 50 > "$sys/gc_no_gc_sleep_time"
	echo 1 > "$sys/gc_urgent"
	check "gc_pack_sections $1: the GC thread reclaims every victim" \
		wait_for 120 reclaimed
	echo 0 > "$sys/gc_urgent"
	after=$(partial)
	[ "$after" -eq 0 ] ||
		log "gc_pack_sections $1: left partly valid (section valid): $(data_partial | paste -sd' ')"
	blocks=$(pack_stat $mnt gc_pack_blocks)
	log "gc_pack_sections $1: sections partly valid $before -> $after, $(pack_stats $mnt)"
	# The survivors' 32 MiB lie half-valid in 8 sections or more, in
	# the HOT data log (each block is pushed alone, and f2fs writes a
	# file with at most min_hot_blocks dirty pages there), which may
	# still be writing the last of them: GC never takes a log's current
	# section, so 7 victims or 8 (7 in one of two runs on 7.3's debug
	# kernel, its current section holding 1025 survivors).
	check "gc_pack_sections $1: there were victims ($before)" test "$before" -ge 7
	check "gc_pack_sections $1: the thread packed ($blocks blocks)" test "$blocks" -gt 0
	check "gc_pack_sections $1: data intact" sha_verify $mnt /tmp/z.sha
	umount_fsck "$dev" $mnt
}

run 1
run 16
remove_zoned_nullb zonce
check "no zone or f2fs error in dmesg" zoned_dmesg_clean
finish
