# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The benchmark driver, sourced by bench/guest/<workload>.sh. It runs
# inside the VM (scripts/vm, started by bench/run) or, for bench/run-device,
# on the real machine. A workload script sets W_* variables and w_write,
# w_delete (and for the rewrite workload w_run), then calls bench_main.
#
# It writes raw figures only (filefrag -v maps, sysfs and debugfs
# snapshots, trace lines, tool summaries, fio output) to one directory per
# variant; bench/report.py turns them into results.json, results.md and
# plots.
#
# Every workload sets W_NAME. Defaults it may override: W_MOUNT
# (background_gc=off), W_VARIANTS (stock off found offset urgent),
# w_write (W_FILES files of W_KIB KiB interleaved W_BS at a time with
# O_DIRECT) and w_delete (every even file). W_ZONED="ZONES ZONE_MB CAP_MB
# CONV" makes it a zoned workload (zoned_work_dev).
#
# Environment (the defaults are the VM's):
#   OUT         where the raw figures go ($F2FS_PACKED_OUT in the VM)
#   WORK_DEV    the volume under test, /dev/vdb
#   GOLDEN_DEV  /dev/vda: the workload is written there once and copied to
#               WORK_DEV for every variant, so that all variants start from
#               the very same layout; empty: written afresh per variant
#   READ_DEV    /dev/vdc, the IOPS-throttled disk: the volume after GC is
#               copied there for the read-back; empty: read WORK_DEV itself
#   WARM_DEV    /dev/vdc: scratch disk for warm_up; empty: no warm-up
#   BENCH_MODULE  "installed": modprobe f2fs_packed; else insmod $REPO's
#   QUICK       1: the workload's small scale
# Script arguments of the form KEY=VALUE set these too (scripts/vm passes
# arguments, not environment).

for arg in "$@"; do
	case $arg in
	QUICK=* | FULL=* | IOPS=* | OUT=* | VARIANTS=* | PACK_SECTIONS=*) export "${arg?}" ;;
	esac
done

. "$REPO/tests/lib/pack.sh"

BENCH=$REPO/bench
QUICK=${QUICK:-0}
OUT=${OUT:-${F2FS_PACKED_OUT:-/tmp/bench}}
WORK_DEV=${WORK_DEV-/dev/vdb}
GOLDEN_DEV=${GOLDEN_DEV-/dev/vda}
READ_DEV=${READ_DEV-/dev/vdc}
WARM_DEV=${WARM_DEV-/dev/vdc}
MNT=/mnt/bench
W_DIR=d		# the workload's files live in $MNT/$W_DIR
W_MOUNT=background_gc=off
W_VARIANTS="stock off found offset urgent"
# the "sections" variant (not in the default list yet): offset order with
# gc_pack_sections=PACK_SECTIONS, each sync call packing that many victims
PACK_SECTIONS=${PACK_SECTIONS:-64}
# the "fixedcap" variant (zoned workloads 6 and 7): offset order with
# gc_pack_max_blocks at the former fixed default, to set beside the
# section-sized default
FIXED_CAP=16384

progress() {
	echo "BENCH: $W_NAME: $*"
}

# quick A B [C]: A for the default run, B for QUICK=1, C (else A) for
# FULL=1, the seed's full scale where the default is scaled for TCG.
quick() {
	if [ "$QUICK" = 1 ]; then
		echo "$2"
	elif [ "${FULL:-0}" = 1 ] && [ $# -ge 3 ]; then
		echo "$3"
	else
		echo "$1"
	fi
}

# The volume size in MiB, from the workload script's "# size: A B" line
# (bench/run reads the same line to size the VM's disks).
volume_mib() {
	local line
	line=$(sed -n 's/^# size: //p' "$0" | head -1)
	# shellcheck disable=SC2086
	quick $line
}

now() {
	date +%s.%N
}

elapsed_since() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'
}

devname() {
	basename "$(readlink -f "$1")"
}

load_modules() {
	modprobe f2fs || die_bench "modprobe f2fs (the stock module) failed"
	if [ "${BENCH_MODULE:-}" = installed ]; then
		modprobe f2fs_packed || die_bench "modprobe f2fs_packed failed"
	else
		load_packed
	fi
}

die_bench() {
	echo "BENCH: $W_NAME: error: $*"
	echo "bench: $W_NAME: $*" >&2
	exit 1
}

# Variants: name -> file system type, mount options, gc_pack_order, GC.
variant_fs() {
	case $1 in
	stock | urgent) echo f2fs ;;
	*) echo f2fs_packed ;;
	esac
}

variant_opts() {
	case $1 in
	off) echo "$W_MOUNT,gc_packing=off" ;;
	found | offset | sections | fixedcap) echo "$W_MOUNT,gc_packing=on" ;;
	*) echo "$W_MOUNT" ;;
	esac
}

variant_order() {
	case $1 in
	found) echo 0 ;;
	offset | sections | fixedcap) echo 1 ;;
	esac
}

is_zoned() {	# DEV
	[ "$(cat "/sys/block/$(devname "$1")/queue/zoned" 2>/dev/null)" = host-managed ]
}

mkfs_opts() {
	echo "$W_MKFS$(is_zoned "$WORK_DEV" && echo " -m")"
}

mkfs_volume() {
	local sectors
	sectors=$(($(volume_mib) * 1048576 / $(blockdev --getss "$1")))
	# shellcheck disable=SC2046
	mkfs.f2fs -q -f $(mkfs_opts) "$1" "$sectors" >/dev/null ||
		die_bench "mkfs.f2fs $(mkfs_opts) $1 $sectors failed"
}

# A zoned workload runs on a host-managed zoned WORK_DEV: the drive given
# to bench/run-device, or in the VM a null_blk device of W_ZONED's shape
# (tests/lib/zoned.sh). Every variant writes it afresh (a copy could not
# keep the zones' write pointers) and reads it back in place (a volume
# made with -m mounts only on a zoned device), so neither GOLDEN_DEV nor
# READ_DEV is used.
zoned_work_dev() {
	. "$REPO/tests/lib/zoned.sh"
	if ! is_zoned "$WORK_DEV"; then
		[ -n "${F2FS_PACKED_OUT:-}" ] ||
			die_bench "needs a host-managed zoned device; $WORK_DEV is not one"
		# shellcheck disable=SC2086
		WORK_DEV=$(setup_zoned_nullb bench $W_ZONED) ||
			die_bench "cannot make a null_blk zoned device ($W_ZONED)"
	fi
	GOLDEN_DEV=
	READ_DEV=
}

# A new volume on DEV with the workload written (by stock f2fs, the
# control) and, where the workload says so, half of it deleted.
write_workload() {
	local dev=$1 t0
	mkfs_volume "$dev"
	mkdir -p $MNT
	mount_f2fs f2fs "$dev" $MNT background_gc=off ||
		die_bench "mount -t f2fs $dev"
	t0=$(now)
	w_write "$MNT/$W_DIR"
	sync
	w_delete "$MNT/$W_DIR"
	sync
	echo "write_seconds $(elapsed_since "$t0")" >> "$OUT/golden.txt"
	df -B1 --output=size,used,avail $MNT | tail -1 |
		awk '{ print "df_size " $1 "\ndf_used " $2 "\ndf_avail " $3 }' >> "$OUT/golden.txt"
	umount $MNT
}

# copy_volume FROM TO: the volume's bytes. When TO can be discarded (the
# VM's disks are sparse files, discard=unmap: they then read as zeros),
# only the non-zero 4 MiB blocks are written.
copy_volume() {
	local sparse=
	if blkdiscard -l $(($(volume_mib) * 1048576)) "$2" 2>/dev/null; then
		sparse=conv=sparse
	fi
	dd if="$1" of="$2" bs=4M count=$(($(volume_mib) / 4)) \
		iflag=direct oflag=direct $sparse status=none ||
		die_bench "dd $1 -> $2 failed"
}

# The volume under test for one variant: a copy of the golden volume, or
# the workload written afresh.
fresh_volume() {
	if [ -n "$GOLDEN_DEV" ]; then
		copy_volume "$GOLDEN_DEV" "$WORK_DEV"
	else
		write_workload "$WORK_DEV"
	fi
}

# fio_interleave DIR NFILES KIB BS: bench/interleave.fio.
fio_interleave() {
	mkdir -p "$1"
	DIR=$1 NRFILES=$2 FILESIZE=${3}k SIZE=$(($2 * $3))k BS=$4 \
		fio --eta=never --output=/dev/null "$BENCH/interleave.fio" ||
		die_bench "fio interleave.fio failed"
}

# fio_in_order DIR NFILES KIB: bench/in-order.fio.
fio_in_order() {
	mkdir -p "$1"
	DIR=$1 NRFILES=$2 FILESIZE=${3}k SIZE=$(($2 * $3))k \
		fio --eta=never --output=/dev/null "$BENCH/in-order.fio" ||
		die_bench "fio in-order.fio failed"
}

# The default workload, with every even file deleted in one rm (forks are
# slow under TCG).
w_write() {
	fio_interleave "$1" "$W_FILES" "$W_KIB" "$W_BS"
}

w_delete() {
	# shellcheck disable=SC2046
	rm -f $(seq -f "$1/f.0.%.0f" 0 2 $((W_FILES - 1)))
}

# frag_map DIR FILE: filefrag -v of every file under DIR, in name order.
frag_map() {
	(cd "$1" && find . -type f | sort -V | xargs -r filefrag -v) > "$2"
}

# snap_sysfs DIR FILE: "name value" for every readable attribute (its
# first line). One grep: forks are slow under TCG.
snap_sysfs() {
	grep -sH -m1 . "$1"/* | sed "s|^$1/||; s|:| |" > "$2" || :
}

snap_debugfs() {	# FS FILE
	cat "/sys/kernel/debug/$1/status" > "$2" 2>/dev/null || :
}

# f2fs_gc_begin and f2fs_gc_end of every f2fs_gc() call. FILE gets the
# end events' fields (seg_freed, sec_freed); FILE.calls the whole lines of
# both, with the calling task and the time stamp: how long each call took
# and who waited for it (a writer in f2fs_balance_fs(), the GC thread, the
# GC ioctl's caller).
trace_on() {	# FS
	local e
	echo 0 > /sys/kernel/tracing/tracing_on
	echo > /sys/kernel/tracing/trace
	echo 8192 > /sys/kernel/tracing/buffer_size_kb
	for e in f2fs_gc_begin f2fs_gc_end; do
		echo 1 > "/sys/kernel/tracing/events/$1/$e/enable"
	done
	echo 1 > /sys/kernel/tracing/tracing_on
}

trace_off() {	# FS FILE
	local e
	for e in f2fs_gc_begin f2fs_gc_end; do
		echo 0 > "/sys/kernel/tracing/events/$1/$e/enable"
	done
	grep -E 'f2fs_gc_(begin|end): ' /sys/kernel/tracing/trace > "$2.calls" || :
	grep -o 'f2fs_gc_end: .*' "$2.calls" > "$2" || :
	echo > /sys/kernel/tracing/trace
}

# The GC kthread of the one mounted volume, and its CPU seconds.
gc_kthread() {
	local p c
	for p in /proc/[0-9]*; do
		{ read -r c < "$p/comm"; } 2>/dev/null || continue
		case $c in
		f2fs_gc-* | f2fs_packed_gc*) echo "${p#/proc/}"; return ;;
		esac
	done
}

cpu_seconds() {	# PID
	[ -n "$1" ] && [ -r "/proc/$1/stat" ] || { echo 0; return; }
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' \
		"/proc/$1/stat"
}

gc_what() {
	if [ -n "${W_GC_CALLS:-}" ]; then
		echo "x $W_GC_CALLS calls"
	else
		echo "until idle (f2fs-gc -i 3 -c 400)"
	fi
}

# gc_sync D: sync foreground GC through the ioctl until idle (f2fs-gc), or
# W_GC_CALLS calls exactly; the tool's JSON summary and its CPU time.
gc_sync() {
	local t
	TIMEFORMAT='%R %U %S'
	if [ -n "${W_GC_CALLS:-}" ]; then
		t=$({ time gc_calls $MNT "$W_GC_CALLS" > "$1/gc.json" 2> "$1/gc.err"; } 2>&1) || :
	else
		t=$({ time gc_until_idle $MNT > "$1/gc.json" 2> "$1/gc.err"; } 2>&1) || :
	fi
	echo "$t" | awk '{ print "gc_wall_seconds " $1 "\ngc_cpu_seconds " $2 + $3 }' >> "$1/run.txt"
}

# gc_urgent D SYSDIR FS: stock f2fs's background GC at gc_urgent=1. Left
# alone it never stops (it keeps picking sections with any invalid block,
# including the ones its own writeback just filled), so it runs until the
# volume has as many free sections as the sync ioctl's GC left (the first
# variant's f2fs-gc summary), or until it moved nothing for 5 s, or for
# W_URGENT_MAX seconds. A sync every 3 s writes back the pages it dirtied
# and checkpoints, which is what frees its victims.
gc_urgent() {
	local d=$1 sys=$2 fs=$3 t0 pid cpu0 last=-1 m idle=0 polls=0 free=0
	local target=${SYNC_FREE_SECS:-} why=time
	# Mounted without the GC thread so that it could not run before
	# the snapshots: start it now, and make it urgent before its first
	# (30 s) sleep ends.
	mount -o remount,background_gc=on $MNT || die_bench "remount background_gc=on"
	echo 10 > "$sys/gc_urgent_sleep_time"
	pid=$(gc_kthread)
	cpu0=$(cpu_seconds "$pid")
	t0=$(now)
	echo 1 > "$sys/gc_urgent"
	while [ "$(elapsed_since "$t0" | cut -d. -f1)" -lt "${W_URGENT_MAX:-300}" ]; do
		sleep 1
		polls=$((polls + 1))
		m=$(cat "$sys/moved_blocks_background")
		if [ "$m" = "$last" ]; then
			idle=$((idle + 1))
		else
			idle=0
		fi
		last=$m
		[ $((polls % 3)) = 0 ] || [ $idle -ge 5 ] || continue
		sync
		free=$(free_sections "$fs")
		if [ -n "$target" ] && [ "$free" -ge "$target" ]; then
			why=target
			break
		fi
		if [ $idle -ge 5 ]; then
			why=idle
			break
		fi
	done
	echo 0 > "$sys/gc_urgent"
	sync
	{
		echo "gc_wall_seconds $(elapsed_since "$t0")"
		echo "gc_cpu_seconds $(awk -v a="$cpu0" -v b="$(cpu_seconds "$pid")" 'BEGIN { printf "%.2f", b - a }')"
		echo "gc_cpu_source kthread"
		echo "urgent_polls $polls"
		echo "urgent_stop $why"
		echo "urgent_target_free_sections ${target:--}"
		echo "urgent_free_sections $(free_sections "$fs")"
	} >> "$d/run.txt"
}

# Free sections of the one mounted volume of FS, from debugfs.
free_sections() {
	sed -n 's/^  - Free: [0-9]* (\([0-9]*\))/\1/p' "/sys/kernel/debug/$1/status" | head -1
}

# 1m, or the smallest file's size in KiB when that is less.
readback_bs() {
	find "$1" -type f -printf '%s\n' |
		awk 'NR == 1 || $1 < m { m = $1 } END { k = int(m / 1024); print (k < 1024 ? k : 1024) "k" }'
}

# The read-back: the volume after GC, on the throttled disk when there is
# one, every file read once with fio; the disk's I/O counters around it.
readback() {	# D FS
	local d=$1 fs=$2 dev=$WORK_DEV stat
	if [ -n "$READ_DEV" ]; then
		copy_volume "$WORK_DEV" "$READ_DEV"
		dev=$READ_DEV
	fi
	blockdev --flushbufs "$dev"
	mount -t "$fs" -o ro "$dev" $MNT || die_bench "mount -o ro $dev"
	echo 3 > /proc/sys/vm/drop_caches
	stat=/sys/class/block/$(devname "$dev")/stat
	cat "$stat" > "$d/diskstat.before"
	DIR=$MNT/$W_DIR BS=$(readback_bs "$MNT/$W_DIR") \
		fio --eta=never --output-format=json --output="$d/readback.json" \
		"$BENCH/readback.fio" > /dev/null
	cat "$stat" > "$d/diskstat.after"
	umount $MNT
	echo "readback_dev $(devname "$dev")" >> "$d/run.txt"
}

# Everything about one variant, in $OUT/<variant>/.
run_variant() {
	local v=$1 d=$OUT/$1 fs opts order dev sys t0
	fs=$(variant_fs "$v")
	opts=$(variant_opts "$v")
	order=$(variant_order "$v")
	dev=$(devname "$WORK_DEV")
	sys=/sys/fs/$fs/$dev
	rm -rf "$d"
	mkdir -p "$d"
	{
		echo "variant $v"
		echo "fs $fs"
		echo "mount_options $opts"
		echo "gc_pack_order ${order:--}"
	} > "$d/run.txt"

	progress "$v: fresh volume"
	t0=$(now)
	fresh_volume
	echo "fresh_seconds $(elapsed_since "$t0")" >> "$d/run.txt"
	mount_f2fs "$fs" "$WORK_DEV" $MNT "$opts" || die_bench "mount -t $fs -o $opts"
	[ -z "$order" ] || echo "$order" > "$sys/gc_pack_order"
	if [ "$v" = sections ]; then
		echo "$PACK_SECTIONS" > "$sys/gc_pack_sections" ||
			die_bench "gc_pack_sections=$PACK_SECTIONS refused"
		echo "gc_pack_sections $PACK_SECTIONS" >> "$d/run.txt"
	fi
	if [ "$v" = fixedcap ]; then
		echo "$FIXED_CAP" > "$sys/gc_pack_max_blocks" ||
			die_bench "gc_pack_max_blocks=$FIXED_CAP refused"
	fi
	grep " $MNT " /proc/mounts >> "$d/run.txt"
	frag_map "$MNT/$W_DIR" "$d/before.frag"
	snap_sysfs "$sys" "$d/sysfs.before"
	snap_debugfs "$fs" "$d/status.before"
	sha_record "$MNT/$W_DIR" "/tmp/$v.sha"
	sync
	echo 3 > /proc/sys/vm/drop_caches

	trace_on "$fs"
	if [ "$v" = urgent ]; then
		progress "$v: gc_urgent=1 background GC until it stops moving blocks"
		gc_urgent "$d" "$sys" "$fs"
	elif declare -F w_run > /dev/null; then
		w_run "$d" "$sys"
	else
		progress "$v: sync GC ioctl $(gc_what)"
		gc_sync "$d"
		# what gc_urgent aims at
		: "${SYNC_FREE_SECS:=$(json_field "$(cat "$d/gc.json")" free_sections_after)}"
	fi
	trace_off "$fs" "$d/trace.txt"
	sync
	snap_sysfs "$sys" "$d/sysfs.after"
	snap_debugfs "$fs" "$d/status.after"
	frag_map "$MNT/$W_DIR" "$d/after.frag"
	if [ -n "${W_VERIFY:-}" ]; then
		grep -E "$W_VERIFY" "/tmp/$v.sha" > "/tmp/$v.sha.part"
		mv "/tmp/$v.sha.part" "/tmp/$v.sha"
	fi
	if sha_verify "$MNT/$W_DIR" "/tmp/$v.sha" > /dev/null 2>&1; then
		echo "data_intact 1" >> "$d/run.txt"
	else
		echo "data_intact 0" >> "$d/run.txt"
		progress "$v: WARNING: data changed by GC"
	fi
	umount $MNT
	if fsck_clean "$WORK_DEV" > "$d/fsck.txt"; then
		echo "fsck_clean 1" >> "$d/run.txt"
	else
		echo "fsck_clean 0" >> "$d/run.txt"
		progress "$v: WARNING: fsck.f2fs found errors ($d/fsck.txt)"
	fi

	progress "$v: read-back"
	readback "$d" "$fs"
	progress "$v: done ($(awk '$1 == "gc_wall_seconds" { print "GC " $2 " s" }
		$1 == "rewrite_seconds" { print "rewrites " $2 " s" }' "$d/run.txt"))"
}

json_escape() {
	local s=${1//\\/\\\\}
	echo "${s//\"/\\\"}"
}

params_json() {
	local mod=$MODULE
	[ "${BENCH_MODULE:-}" != installed ] || mod=f2fs_packed
	cat <<EOF
{
  "workload": "$W_NAME",
  "title": "$W_TITLE",
  "quick": $QUICK,
  "full": ${FULL:-0},
  "volume_mib": $(volume_mib),
  "mkfs_options": "$(mkfs_opts)",
  "mount_options": "$W_MOUNT",
  "workload_parameters": "$W_PARAMS",
  "count_files": "$(json_escape "${W_COUNT:-.*}")",
  "gc": "${W_GC_DESC:-sync GC ioctl $(gc_what)}",
  "variants": "$VARIANTS",
  "golden_copy": $([ -n "$GOLDEN_DEV" ] && echo true || echo false),
  "zoned": $(is_zoned "$WORK_DEV" && echo true || echo false),
  "work_device": "$(devname "$WORK_DEV")",
  "readback_throttled_iops": ${IOPS:-null},
  "kernel": "$(uname -r)",
  "kernel_version": "$(uname -v)",
  "f2fs_packed_module": "$(modinfo -n "$mod" 2>/dev/null || echo "$mod")",
  "f2fs_packed_version": "$(modinfo -F version "$mod" 2>/dev/null)",
  "f2fs_packed_srcversion": "$(modinfo -F srcversion "$mod" 2>/dev/null)",
  "f2fs_stock_module": "$(modinfo -n f2fs 2>/dev/null)",
  "f2fs_tools": "$(mkfs.f2fs -V 2>&1 | head -1)",
  "fio": "$(fio --version)",
  "segs_per_sec": $SEGS_PER_SEC,
  "main_blkaddr": $MAIN_BLKADDR,
  "blocks_per_seg": 512
}
EOF
}

# Geometry of the volume, for mapping blocks to sections.
volume_geometry() {
	local dev=$1
	SEGS_PER_SEC=$(dump.f2fs "$dev" 2>/dev/null |
		sed -n 's/^Info: Segments per section = \([0-9]*\).*/\1/p')
	mount -t f2fs -o ro "$dev" $MNT || die_bench "mount -o ro $dev"
	MAIN_BLKADDR=$(cat "/sys/fs/f2fs/$(devname "$dev")/main_blkaddr")
	umount $MNT
}

# The first variant measured used to pay for loading the tools over 9p
# and for the GC paths' first run (up to twice the GC CPU of the same code
# measured second): run a small interleave-and-GC on a scratch disk (WARM_DEV)
# with both modules first. Not on a real device (no spare disk).
warm_up() {
	local fs
	[ -n "$WARM_DEV" ] || return 0
	for fs in f2fs f2fs_packed; do
		mkfs.f2fs -q -f -s 1 "$WARM_DEV" $((64 * 1048576 / $(blockdev --getss "$WARM_DEV"))) \
			> /dev/null || return 0
		mount_f2fs "$fs" "$WARM_DEV" $MNT background_gc=off || return 0
		fio_interleave $MNT/w 8 256 4k
		rm -f $MNT/w/f.0.[0246]
		sync
		gc_until_idle $MNT > /dev/null 2>&1 || :
		filefrag $MNT/w/* > /dev/null
		sha_record $MNT/w /tmp/warm.sha
		umount $MNT
	done
}

bench_main() {
	local v t0 dmesg_start
	VARIANTS=${VARIANTS:-$W_VARIANTS}
	mkdir -p "$OUT" $MNT
	rm -f "$OUT/golden.txt"
	# On a real machine the log may hold older warnings: judge ours only.
	dmesg_start=$(dmesg | wc -l)
	[ -d /sys/kernel/tracing/events ] ||
		mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null || :
	[ -d /sys/kernel/debug/block ] ||
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || :
	load_modules
	need_gc_tool
	[ -z "${W_ZONED:-}" ] || zoned_work_dev
	t0=$(now)
	if [ -n "$GOLDEN_DEV" ]; then
		progress "writing the workload once ($W_PARAMS; mkfs.f2fs $(mkfs_opts), $(volume_mib) MiB)"
		write_workload "$GOLDEN_DEV"
		volume_geometry "$GOLDEN_DEV"
	else
		mkfs_volume "$WORK_DEV"
		volume_geometry "$WORK_DEV"
	fi
	params_json > "$OUT/params.json"
	progress "warm-up: a small GC with each module"
	warm_up
	for v in $VARIANTS; do
		run_variant "$v"
	done
	echo "total_seconds $(elapsed_since "$t0")" >> "$OUT/golden.txt"
	dmesg | tail -n +$((dmesg_start + 1)) > "$OUT/dmesg.txt"
	if ! "$REPO/scripts/kernel-log" filter < "$OUT/dmesg.txt" |
		grep -E "$DMESG_BAD" | grep -qv CONFIG_F2FS_FAULT_INJECTION; then
		progress "finished, dmesg clean"
	else
		progress "finished, WARNING: kernel warnings in dmesg"
		exit 1
	fi
}
