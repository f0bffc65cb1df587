# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A candidate the batch does not take keeps upstream's victim hints
# (issue 39, item 4). f2fs_get_victim() consumes what it selects from: a
# foreground selection takes the sections background GC chose first
# (victim_secmap, check_bg_victims() clears the bit). A batch that then
# rejects the candidate (here the record cap: gc_pack_max_blocks 64,
# every victim holds more) must put the bit back, so that the next call
# selects what upstream's would.
# Layout: 512 MiB, -s 1; 16 old files of 2 MiB written round-robin, every
# other one deleted (half-valid sections); three seconds later 8 young
# files of 512 KiB round-robin, 3 of 4 deleted (sections a quarter valid,
# the youngest: cost-benefit never takes them, greedy takes them first).
# Two background GC calls mark two old sections (no writeback: their
# pages stay dirty, the bits stay). Then three sync calls, each one
# section (plenty free): with gc_pack_sections 1 and with 16 (max_blocks
# 64) on fresh copies of the layout, the first two calls must select the
# two marked sections, lowest first, as upstream does; the third a young
# one. On main, 16's second call took a young section: the first call's
# batch had consumed the second bit. Data intact, fsck clean.
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool
SEGS=1
echo 0 > /proc/sys/vm/dirty_writeback_centisecs

# victims KIND: the sections of the f2fs_get_victim events of KIND
# (Background or Foreground GC) in the trace, in order
victims() {
	sed -n "s/.*f2fs_get_victim: .*$1 GC.* victim = \\([0-9]*\\),.*/\\1/p" \
		/sys/kernel/tracing/trace | awk -v s="$SEGS" '{ print int($1 / s) }'
}

run() {	# SECTIONS
	local i bg got
	mkfs_f2fs "$DISK1" -s "$SEGS"
	mount_fs f2fs_packed "$DISK1" /mnt/h gc_packing=on,background_gc=off
	sys=$(sysfs_dev f2fs_packed "$DISK1")
	interleave /mnt/h/old 16 2048
	delete_even /mnt/h/old 16
	sync
	sleep 3
	interleave /mnt/h/young 8 512
	rm -f /mnt/h/young/f.0.[0-2] /mnt/h/young/f.0.[4-6]
	sync
	sha_record /mnt/h /tmp/h.sha
	[ "$1" -eq 1 ] || echo 64 > "$sys/gc_pack_max_blocks"
	trace_start f2fs_get_victim
	for i in 1 2; do
		"$GC_TOOL" -q -n -d off -m bg -c 1 -i 1 /mnt/h > /dev/null || true
	done
	trace_stop
	bg=$(victims Background | sort -n | paste -sd' ')
	got=
	for i in 1 2 3; do
		trace_start f2fs_get_victim
		"$GC_TOOL" -q -n -d off -S "$1" -c 1 -i 1 /mnt/h > /dev/null || true
		trace_stop
		got="$got $(victims Foreground | head -1)"
		log "x $1, call $i: foreground selections $(victims Foreground | paste -sd' ')"
	done
	got=${got# }
	log "x $1: background GC marked $bg; the calls took $got; cap stops $(cat "$sys/gc_pack_cap_stops")"
	must "x $1: background GC marked two sections" test "$(echo "$bg" | wc -w)" -eq 2
	check "x $1: the first two calls take the marked sections ($got; $bg)" \
		test "${got% *}" = "$bg"
	check "x $1: the third call takes another ($got)" \
		test -n "${got##* }" -a "$(echo "$bg" | grep -cw "${got##* }")" -eq 0
	check "x $1: data intact" sha_verify /mnt/h /tmp/h.sha
	umount_fsck "$DISK1" /mnt/h
}

run 1
run 16
finish
