# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The cost run ("costs that repeat"): GC instructions per moved
# block and the latency of each sync GC call, per variant, measured so
# that two runs agree. Opt-in: `bench/run cost` (not among the w*
# workloads). It boots with scripts/vm -I (the "# vm:" line below), where
# the guest's clock advances one nanosecond per executed instruction, and
# keeps every volume in guest RAM (null_blk, memory backed, completions
# inline; golden copies as sparse files in tmpfs), so no figure waits for
# the host. Then:
#   - the f2fs_gc_begin -> f2fs_gc_end interval of each call, on the
#     x86-tsc trace clock, is the instructions the guest executed during
#     that f2fs_gc() call (GC work, and the bios it completes inline);
#   - f2fs-gc's cpu_ns is its process CPU time, i.e. instructions too.
# Cases: the QUICK layouts of workloads 1, 2 and 5 (each variant measured
# COST_REPS times, interleaved, default 2), and a scaling series, one
# layout (64 files x COST_SCALE_KIB KiB written 4 KiB at a time
# round-robin, even files deleted) on sections of 1, 4, 32 and 128
# segments (COST_SCALE_REPS runs each, default 1). A warm-up runs every
# variant once first: a boot's first GC costs ~20% more (cold caches).
#
# Arguments (KEY=VALUE): COST_CASES (default: all of the list below),
# COST_REPS, COST_SCALE_REPS, COST_SCALE_KIB, VARIANTS (default stock
# off offset sections; the scaling series skips stock, which is off's
# code), PACK_SECTIONS, COST_SCHED=1 (sched_switch events too: which
# tasks ran inside the GC calls; a diagnosis, it adds to the counts),
# COST_VERIFY=1 (checksums and fsck.f2fs around every run; slower).
# size: 64 64
# vm: -I -d 1 -m 4G -t 2700
. "$REPO/bench/guest/lib.sh"
. "$REPO/tests/lib/zoned.sh"

for arg in "$@"; do
	case $arg in
	COST_*=*) export "${arg?}" ;;
	esac
done

W_NAME=cost	# progress lines and errors (lib.sh)
export W_NAME
W_VARIANTS="stock off offset sections"
VARIANTS=${VARIANTS:-$W_VARIANTS}
COST_REPS=${COST_REPS:-2}
COST_SCALE_REPS=${COST_SCALE_REPS:-1}
COST_SCALE_KIB=${COST_SCALE_KIB:-8192}
COST_ALL="w1-large-4k w2-default-4k w5-zoned-large scale-s1 scale-s4 scale-s32 scale-s128"
COST_CASES=${COST_CASES:-$COST_ALL}
TRACE=/sys/kernel/tracing

# case NAME -> "MKFS|VOLUME_MIB|FILES|KIB|WRITE|ZONED|SEGS_PER_SEC"
# WRITE: direct (O_DIRECT 4 KiB round-robin, bench/interleave.fio) or
# buffered (workload 5's pushed-out buffered writes); ZONED: null_blk's
# "ZONES ZONE_MB CAP_MB CONV" or empty. Volumes hold their reserved and
# overprovisioned sections besides the data (mkfs.f2fs -s 128 wants
# several GiB); only written blocks take guest memory.
case_spec() {
	case $1 in
	w1-large-4k) echo "-s 4|256|64|256|direct||4" ;;
	w2-default-4k) echo "-s 1|256|128|64|direct||1" ;;
	w5-zoned-large) echo "|256|64|256|buffered|32 8 8 3|4" ;;
	scale-s1) echo "-s 1|1024|64|$COST_SCALE_KIB|direct||1" ;;
	scale-s4) echo "-s 4|1024|64|$COST_SCALE_KIB|direct||4" ;;
	scale-s32) echo "-s 32 -o 30|4096|64|$COST_SCALE_KIB|direct||32" ;;
	scale-s128) echo "-s 128 -o 30|8192|64|$COST_SCALE_KIB|direct||128" ;;
	*) return 1 ;;
	esac
}

# nullb NAME MIB [BS] [ZONES ZONE_MB CAP_MB CONV]: a memory-backed
# null_blk device whose bios complete inline in the submitter
# (irqmode=0): the I/O of a GC call is guest instructions inside the
# call, never a wait. Prints the device node.
nullb() {
	local name=$1 mib=$2 bs=${3:-512} d=$NULLB_CONFIG/$1 i
	[ -d "$NULLB_CONFIG" ] || modprobe null_blk nr_devices=0 || return 1
	mkdir "$d" || return 1
	echo "$bs" > "$d/blocksize" && echo "$mib" > "$d/size" &&
		echo 1 > "$d/memory_backed" && echo 0 > "$d/irqmode" &&
		echo 0 > "$d/completion_nsec" || return 1
	if [ $# -gt 3 ]; then
		echo 1 > "$d/zoned" && echo "$5" > "$d/zone_size" &&
			echo "$6" > "$d/zone_capacity" &&
			echo "$7" > "$d/zone_nr_conv" || return 1
	fi
	echo 1 > "$d/power" || return 1
	for ((i = 0; i < 50; i++)); do
		[ -b "/dev/$name" ] && break
		sleep 0.1
	done
	[ -b "/dev/$name" ] || return 1
	# zoned: f2fs on 6.1 needs mq-deadline to keep zone writes in
	# order; else none, as on NVMe (no scheduler's instructions counted)
	if [ $# -gt 3 ]; then
		echo mq-deadline > "/sys/block/$name/queue/scheduler"
	else
		echo none > "/sys/block/$name/queue/scheduler"
	fi
	echo "/dev/$name"
}

nullb_remove() {
	remove_zoned_nullb "$1"
}

# write_case DEV: mkfs, the files written by stock f2fs, even ones deleted.
write_case() {
	local dev=$1 zopt=
	[ -z "$C_ZONED" ] || zopt=-m
	# shellcheck disable=SC2086
	mkfs.f2fs -q -f $C_MKFS $zopt "$dev" > /dev/null || die_bench "mkfs.f2fs $C_MKFS $zopt $dev"
	mount_f2fs f2fs "$dev" $MNT background_gc=off || die_bench "mount -t f2fs $dev"
	if [ "$C_WRITE" = buffered ]; then
		interleave_buffered "$MNT/$W_DIR" "$C_FILES" "$C_KIB"
	else
		fio_interleave "$MNT/$W_DIR" "$C_FILES" "$C_KIB" 4k
	fi
	sync
	# shellcheck disable=SC2046
	rm -f $(seq -f "$MNT/$W_DIR/f.0.%.0f" 0 2 $((C_FILES - 1)))
	sync
	umount $MNT
}

# The golden volume of a regular case: a sparse file in tmpfs, written
# once through a loop device.
golden_case() {
	local loop
	rm -f /dev/shm/golden.img
	truncate -s "${C_MIB}M" /dev/shm/golden.img
	loop=$(losetup -f --show /dev/shm/golden.img) || die_bench "losetup"
	write_case "$loop"
	losetup -d "$loop"
}

# The work device of one run, fresh: the golden volume copied onto a new
# null_blk device, or (zoned) the case written afresh.
work_device() {
	local dev
	nullb_remove cwork
	if [ -n "$C_ZONED" ]; then
		# shellcheck disable=SC2086
		dev=$(nullb cwork $((${C_ZONED%% *} * $(echo "$C_ZONED" | cut -d' ' -f2))) 4096 $C_ZONED) ||
			die_bench "null_blk zoned $C_ZONED"
		write_case "$dev"
	else
		dev=$(nullb cwork "$C_MIB") || die_bench "null_blk $C_MIB MiB"
		/usr/bin/python3 "$BENCH/guest/sparse-copy.py" /dev/shm/golden.img "$dev" \
			> /dev/null || die_bench "sparse-copy to $dev"
	fi
	echo "$dev"
}

trace_gc_on() {	# FS
	echo 0 > $TRACE/tracing_on
	echo > $TRACE/trace
	echo 1 > "$TRACE/events/$1/f2fs_gc_begin/enable"
	echo 1 > "$TRACE/events/$1/f2fs_gc_end/enable"
	# COST_SCHED=1: who runs during a call (report.py: other_tasks)
	[ "${COST_SCHED:-0}" = 0 ] || echo 1 > $TRACE/events/sched/sched_switch/enable
	echo 1 > $TRACE/tracing_on
}

# "TIMESTAMP EVENT FIELDS" per event.
trace_gc_off() {	# FS FILE
	echo 0 > "$TRACE/events/$1/f2fs_gc_begin/enable"
	echo 0 > "$TRACE/events/$1/f2fs_gc_end/enable"
	echo 0 > $TRACE/events/sched/sched_switch/enable
	sed -n 's/^.* \([0-9][0-9]*\): \(f2fs_gc_[a-z]*\|sched_switch\): /\1 \2 /p' $TRACE/trace > "$2"
	echo > $TRACE/trace
}

# cost_run CASE VARIANT REP [DIR]: one measurement.
cost_run() {
	local c=$1 v=$2 rep=$3 d=${4:-$OUT/$1/$2.$3} dev fs opts order sys
	fs=$(variant_fs "$v")
	opts=$(variant_opts "$v")
	order=$(variant_order "$v")
	rm -rf "$d"
	mkdir -p "$d"
	progress "$c: $v run $rep"
	dev=$(work_device)
	sys=/sys/fs/$fs/$(devname "$dev")
	mount_f2fs "$fs" "$dev" $MNT "$opts" || die_bench "mount -t $fs -o $opts $dev"
	[ -z "$order" ] || echo "$order" > "$sys/gc_pack_order"
	{
		echo "case $c"
		echo "variant $v"
		echo "rep $rep"
		echo "fs $fs"
		echo "mount_options $opts"
		echo "gc_pack_order ${order:--}"
		echo "device $(devname "$dev")"
	} > "$d/run.txt"
	if [ "$v" = sections ]; then
		echo "$PACK_SECTIONS" > "$sys/gc_pack_sections" ||
			die_bench "gc_pack_sections=$PACK_SECTIONS refused"
		echo "gc_pack_sections $PACK_SECTIONS" >> "$d/run.txt"
	fi
	# the layouts are counts that repeat: mapped on the first run only
	[ "$rep" != 1 ] || frag_map "$MNT/$W_DIR" "$d/before.frag"
	# COST_VERIFY=1: checksums before GC and after it (outside the
	# measured calls: the page cache is dropped in between), fsck after
	[ "${COST_VERIFY:-0}" = 0 ] || sha_record "$MNT/$W_DIR" /tmp/cost.sha
	sync
	echo 3 > /proc/sys/vm/drop_caches
	snap_sysfs "$sys" "$d/sysfs.before"
	trace_gc_on "$fs"
	gc_until_idle $MNT > "$d/gc.json" 2> "$d/gc.err" || :
	trace_gc_off "$fs" "$d/trace.txt"
	# as bench/guest/lib.sh does: what GC left dirty reaches the disk
	# (and filefrag's map) before the counters and the layout are read
	sync
	snap_sysfs "$sys" "$d/sysfs.after"
	[ "$rep" != 1 ] || frag_map "$MNT/$W_DIR" "$d/after.frag"
	snap_debugfs "$fs" "$d/status.after"
	if [ "${COST_VERIFY:-0}" != 0 ]; then
		if sha_verify "$MNT/$W_DIR" /tmp/cost.sha > /dev/null 2>&1; then
			echo "data_intact 1" >> "$d/run.txt"
		else
			echo "data_intact 0" >> "$d/run.txt"
			progress "$c: $v run $rep: WARNING: data changed by GC"
		fi
	fi
	umount $MNT
	if [ "${COST_VERIFY:-0}" != 0 ]; then
		if fsck_clean "$dev" > "$d/fsck.txt"; then
			echo "fsck_clean 1" >> "$d/run.txt"
		else
			echo "fsck_clean 0" >> "$d/run.txt"
			progress "$c: $v run $rep: WARNING: fsck.f2fs found errors"
		fi
	fi
	nullb_remove cwork
}

cost_case() {
	local c=$1 spec r v reps=$COST_REPS variants=$VARIANTS
	spec=$(case_spec "$c") || die_bench "no such cost case: $c"
	IFS='|' read -r C_MKFS C_MIB C_FILES C_KIB C_WRITE C_ZONED C_SPS <<< "$spec"
	case $c in
	scale-*)
		reps=$COST_SCALE_REPS
		variants=$(echo " $VARIANTS " | sed 's/ stock / /; s/^ //; s/ $//')
		;;
	esac
	mkdir -p "$OUT/$c"
	cat > "$OUT/$c/params.json" <<EOF
{
  "case": "$c",
  "mkfs_options": "$C_MKFS${C_ZONED:+ -m}",
  "volume_mib": $C_MIB,
  "files": $C_FILES,
  "file_kib": $C_KIB,
  "writes": "$C_WRITE",
  "zoned": "$C_ZONED",
  "segs_per_sec": $C_SPS,
  "blocks_per_seg": 512,
  "reps": $reps,
  "variants": "$variants"
}
EOF
	progress "$c: writing ($C_FILES x $C_KIB KiB, mkfs.f2fs $C_MKFS${C_ZONED:+ -m, zones $C_ZONED}, $C_MIB MiB)"
	[ -n "$C_ZONED" ] || golden_case
	for ((r = 1; r <= reps; r++)); do
		for v in $variants; do
			cost_run "$c" "$v" "$r"
		done
	done
	rm -f /dev/shm/golden.img
}

main() {
	local c t0 dmesg_start
	mkdir -p "$OUT" $MNT
	dmesg_start=$(dmesg | wc -l)
	load_modules
	modprobe loop || die_bench "modprobe loop"
	need_gc_tool
	# The tool from tmpfs: drop_caches before each GC would otherwise
	# drop its pages, read back over 9p in the measured calls.
	cp "$GC_TOOL" /tmp/f2fs-gc && GC_TOOL=/tmp/f2fs-gc
	# x86-tsc: the raw TSC, which under -icount shift=0 is the guest's
	# instruction count (1 GHz); "local" would be the same in ns.
	echo x86-tsc > $TRACE/trace_clock || die_bench "no x86-tsc trace clock"
	echo 8192 > $TRACE/buffer_size_kb
	{
		echo "accel ${F2FS_PACKED_ACCEL:-unknown}"
		echo "trace_clock x86-tsc"
		echo "tsc_khz $(dmesg | sed -n 's/.*tsc: Refined TSC clocksource calibration: \([0-9.]*\) MHz.*/\1/p; s/.*tsc: Detected \([0-9.]*\) MHz.*/\1/p' | tail -1)"
		echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
		echo "kernel $(uname -r)"
		echo "cases $COST_CASES"
		echo "variants $VARIANTS"
		echo "pack_sections $PACK_SECTIONS"
	} > "$OUT/cost.txt"
	t0=$(now)
	# The warm-up: every variant once on workload 1's layout, thrown away.
	IFS='|' read -r C_MKFS C_MIB C_FILES C_KIB C_WRITE C_ZONED C_SPS <<< "$(case_spec w1-large-4k)"
	golden_case
	for c in $VARIANTS; do
		cost_run warm "$c" 1 "/tmp/warm/$c"
	done
	for c in $COST_CASES; do
		cost_case "$c"
	done
	echo "total_seconds $(elapsed_since "$t0")" >> "$OUT/cost.txt"
	dmesg | tail -n +$((dmesg_start + 1)) > "$OUT/dmesg.txt"
	if "$REPO/scripts/kernel-log" filter < "$OUT/dmesg.txt" |
		grep -E "$DMESG_BAD" | grep -qv CONFIG_F2FS_FAULT_INJECTION; then
		progress "finished, WARNING: kernel warnings in dmesg"
		exit 1
	fi
	progress "finished, dmesg clean"
}

main
