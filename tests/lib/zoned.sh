# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Emulated host-managed zoned block devices for the zoned tests and the
# benchmarks (sourced inside the VM; they bring tests/lib/pack.sh along):
# null_blk devices made through configfs, memory backed (the written zones
# live in guest RAM and are freed again when a zone is reset).

[ -z "${ZONED_LIB_LOADED:-}" ] || return 0
ZONED_LIB_LOADED=1
# shellcheck source=tests/lib/pack.sh
. "$REPO/tests/lib/pack.sh"

NULLB_CONFIG=/sys/kernel/config/nullb

# setup_zoned_nullb NAME ZONES ZONE_MB CAP_MB CONV [BS]: a zoned null_blk
# device of ZONES zones of ZONE_MB MiB (a power of two, as f2fs needs),
# each with CAP_MB MiB of capacity (CAP_MB < ZONE_MB makes the tail of
# every sequential zone unwritable), the first CONV of them conventional
# (for f2fs's metadata), with BS-byte logical blocks (default 4096; 512
# to pair with a virtio disk in a multi-device volume: mkfs.f2fs wants
# one sector size). Prints the device node: /dev/NAME on this kernel
# (/dev/nullbN where null_blk names disks by index).
setup_zoned_nullb() {
	local name=$1 zones=$2 zone_mb=$3 cap_mb=$4 conv=$5 bs=${6:-4096}
	local d=$NULLB_CONFIG/$1 i dev

	if [ ! -d "$NULLB_CONFIG" ]; then
		modprobe null_blk nr_devices=0 || return 1
	fi
	mkdir "$d" || return 1
	if ! { echo "$bs" > "$d/blocksize" &&
	       echo $((zones * zone_mb)) > "$d/size" &&
	       echo 1 > "$d/memory_backed" &&
	       echo 1 > "$d/zoned" &&
	       echo "$zone_mb" > "$d/zone_size" &&
	       echo "$cap_mb" > "$d/zone_capacity" &&
	       echo "$conv" > "$d/zone_nr_conv" &&
	       echo 1 > "$d/power"; }; then
		rmdir "$d"
		return 1
	fi
	# The disk is named after the configfs directory on 6.1 (nullbN, by
	# index, on older kernels). No udev: devtmpfs makes the node.
	for ((i = 0; i < 50; i++)); do
		for dev in "$name" "nullb$(cat "$d/index")"; do
			[ -b "/dev/$dev" ] && break 2
		done
		sleep 0.1
	done
	[ -b "/dev/$dev" ] || return 1
	# f2fs needs a scheduler that keeps zone writes in order on 6.1.
	echo mq-deadline > "/sys/block/$dev/queue/scheduler" 2>/dev/null
	echo "/dev/$dev"
}

# remove_zoned_nullb NAME: power the device off and remove it (its memory
# is freed).
remove_zoned_nullb() {
	local d=$NULLB_CONFIG/$1

	[ -d "$d" ] || return 0
	echo 0 > "$d/power" && rmdir "$d"
}

# zoned_nullb VAR NAME ZONES ZONE_MB CAP_MB CONV [BS]: setup_zoned_nullb for a
# test, the device node into VAR; the test fails (and finishes) if the
# device cannot be made.
zoned_nullb() {
	local zoned_nullb_dev
	# shellcheck disable=SC2034 # read by the eval below
	zoned_nullb_dev=$(setup_zoned_nullb "${@:2}") ||
		{ fail "null_blk zoned device $2 ($3 x $4 MiB, cap $5, conv $6)"; finish; }
	eval "$1=\$zoned_nullb_dev"
}

# zone_report DEV: "start wptr cap cond type" per zone as blkzone prints
# them: start in 512 B sectors, wptr and cap relative to the zone start;
# cond em (empty), oi/oe (open), cl (closed), fu (full), nw (conventional).
zone_report() {
	blkzone report "$1" | sed -n \
		's/^ *start: \(0x[0-9a-f]*\), len 0x[0-9a-f]*, cap \(0x[0-9a-f]*\), wptr \(0x[0-9a-f]*\) .*zcond: *[0-9]*(\([a-z]*\)) \[type: [0-9]*(\([A-Z_-]*\)).*/\1 \3 \2 \4 \5/p'
}

# written_zones DEV: start sectors (decimal) of the sequential zones whose
# write pointer is past their start, one a line.
written_zones() {
	local start wptr _ type

	zone_report "$1" | while read -r start wptr _ _ type; do
		[ "$type" = CONVENTIONAL ] || [ $((wptr)) -eq 0 ] ||
			echo $((start))
	done
}

# interleave_buffered DIR NFILES KIB [BS]: write NFILES files of KIB KiB
# round robin, BS (default 4k) at a time, each write pushed to the device
# at once (sync_file_range), so that on disk the files' blocks alternate. On a
# zoned volume f2fs turns O_DIRECT into buffered writes, so interleave
# (tests/lib/pack.sh) would leave placement to writeback, which writes
# each file in one piece. Files are DIR/f.0.<i>; one fio process, no
# fsync (no node block per write). roundrobin:2 because fio counts the
# sync as an I/O of its own and would otherwise sync the next file.
interleave_buffered() {
	mkdir -p "$1"
	fio --name=f --directory="$1" --nrfiles="$2" --filesize="${3}k" \
		--size="$(($2 * $3))k" --bs="${4:-4k}" --rw=write --ioengine=psync \
		--file_service_type=roundrobin:2 --sync_file_range=write:1 \
		--randrepeat=1 --eta=never --output=/dev/null ||
		{ fail "fio could not write the interleaved files"; finish; }
}

# zoned_dmesg_clean: no I/O error, failed zone operation or f2fs error in
# the kernel log (writes out of write pointer order end as I/O errors).
# 6.12 says "Checking entire write pointers" at every mount.
ZONED_DMESG_BAD="I/O error|blk_update_request|critical (medium|target)|Unaligned zone|write pointer|zone.*(fail|error)|F2FS(_PACKED)?-fs.*(error|fail|inconsistent|corrupt)|$F2FS_ERROR_LINES"
zoned_dmesg_clean() {
	! dmesg | grep -v 'Checking entire write pointers' | grep -Ei "$ZONED_DMESG_BAD" |
		grep -vE "${DMESG_EXPECTED:-^$}"
}

# log_sections STATUS NAME: the section of each log's current segment
# (the six logs, and the pinned and ATGC ones when open), from the
# debugfs status file STATUS (of f2fs or f2fs_packed) for the volume
# whose first device is /dev/NAME. The column comes from the header:
# 7.2 put a blkoff column before segno, so secno moved from $5 to $6.
log_sections() {
	awk -v n="partition info($2)" '
		/=====\[ partition info\(/ { on = index($0, n) > 0; col = 0 }
		on && /^    TYPE / { for (i = 2; i <= NF; i++) if ($i == "secno") col = i + 2 }
		on && col && /^  - (HOT|WARM|COLD) +data:|^  - (Dir|File) +dnode:|^  - Indir nodes:|^  - Pinned file:|^  - ATGC +data:/ {
			if ($col >= 0)
				print $col
		}' "$1"
}

# zone_resets DEV DEV_START MAIN_BLKADDR BLKS_PER_SEC LOGSECS SECVALID:
# check DEV's zones now (after umount) against f2fs's view of its
# sections just before umount, and count the f2fs_packed:
# f2fs_issue_reset_zone events for DEV in the trace buffer. DEV_START:
# the f2fs block address of DEV's first block (0 unless DEV is a later
# device of a multi-device volume); LOGSECS: the logs' current sections
# (log_sections); SECVALID: section_valid's output. Prints "RESETS EMPTY
# REUSED STALE": zones reset, how many of those are empty now, how many
# were written again (f2fs took the freed zone for a log), and the zones
# whose state contradicts f2fs: written although their section is free
# (holds no valid block and is no log's current section: its reset was
# missed) or empty although their section holds valid blocks.
zone_resets() {
	local dev=$1 dev_start=$2 main=$3 bps=$4 logsecs=$5
	local id blk sector secno start wptr type
	local resets=0 empty=0 reused=0 stale=0
	local -A written=() valid=() current=()

	for secno in $logsecs; do
		current[$secno]=1
	done
	while read -r secno blk; do
		valid[$secno]=$blk
	done <<< "$6"
	while read -r start wptr _ _ type; do
		[ "$type" != CONVENTIONAL ] || continue
		sector=$((start))
		secno=$(((sector / 8 + dev_start - main) / bps))
		[ "$secno" -ge 0 ] || continue
		if [ $((wptr)) -ne 0 ]; then
			written[$sector]=1
			[ -n "${valid[$secno]:-}" ] || [ -n "${current[$secno]:-}" ] ||
				{ stale=$((stale + 1)); log "zone at sector $sector written, section $secno free"; }
		elif [ -n "${valid[$secno]:-}" ]; then
			stale=$((stale + 1))
			log "zone at sector $sector empty, section $secno holds ${valid[$secno]} blocks"
		fi
	done < <(zone_report "$dev")

	id=$(($(stat -c '0x%t' "$dev"))),$(($(stat -c '0x%T' "$dev")))
	while read -r blk; do
		resets=$((resets + 1))
		if [ -n "${written[$((blk * 8))]:-}" ]; then
			reused=$((reused + 1))
		else
			empty=$((empty + 1))
		fi
	# 6.1 prints "reset zone at block", 6.12 "zone at block".
	done < <(sed -n "s/.*f2fs_issue_reset_zone: dev = ($id), \\(reset \\)\\{0,1\\}zone at block = \\(0x[0-9a-f]*\\).*/\\2/p" \
			/sys/kernel/tracing/trace)
	echo "$resets $empty $reused $stale"
}

# zoned_packing_run NAME PACKING ZDEV ZDEV_START MOUNTDEV MKFS_ARGS...: the
# packing workload of the zoned tests on a new volume: mkfs.f2fs
# MKFS_ARGS, mount MOUNTDEV (gc_packing=PACKING), ZONED_FILL_MB MiB
# written in order first if set (to fill a conventional device, so that
# what follows lands in zones), ZONED_FILES (default 32) files of 1 MiB
# interleaved, every even one deleted, sync foreground GC until idle,
# then data, fsck (zoned_umount_fsck) and the zone resets on ZDEV
# (zone_resets; ZDEV_START as there) checked; remount, data and fsck
# again. Sets NAME_before,
# NAME_after (extents), NAME_seg, NAME_sec (f2fs_gc_end sums),
# NAME_blocks (packed), NAME_reset, NAME_empty, NAME_reused, NAME_stale.
zoned_packing_run() {
	local name=$1 packing=$2 zdev=$3 zdev_start=$4 mdev=$5
	local mnt=/mnt/$1 nfiles=${ZONED_FILES:-32} before after out logsecs
	local counts main bps secvalid
	shift 5

	mkfs.f2fs -q -f "$@" >/dev/null || { fail "mkfs.f2fs $*"; finish; }
	mount_fs f2fs_packed "$mdev" "$mnt" "gc_packing=$packing,background_gc=off"
	[ "${ZONED_FILL_MB:-0}" -eq 0 ] || in_order "$mnt/fill" "$ZONED_FILL_MB" 1024
	interleave_buffered "$mnt/d" "$nfiles" 1024
	delete_even "$mnt/d" "$nfiles"
	sync
	sha_record "$mnt" "/tmp/$name.sha"
	before=$(total_extents "$mnt/d")
	log "$name: written at ${SECONDS}s"

	trace_start f2fs_gc_end f2fs_issue_reset_zone
	out=$(gc_until_idle "$mnt")
	sync
	after=$(total_extents "$mnt/d")
	log "$name: extents $before -> $after, $(pack_stats "$mnt")"
	log "$name: gc $(echo "$out" | tr -d '\n ') (done at ${SECONDS}s)"
	eval "${name}_before=$before ${name}_after=$after"
	eval "${name}_seg=$(trace_gc_end_sum seg_freed)"
	eval "${name}_sec=$(trace_gc_end_sum sec_freed)"
	eval "${name}_blocks=$(pack_stat "$mnt" gc_pack_blocks)"
	check "$name: data intact after GC" sha_verify "$mnt" "/tmp/$name.sha"
	logsecs=$(log_sections /sys/kernel/debug/f2fs_packed/status \
		"$(basename "$mdev")")
	secvalid=$(section_valid "/proc/fs/f2fs_packed/$(basename "$mdev")" \
		"$(f2fs_sb_u32 "$mdev" 24)")
	zoned_umount_fsck "$name" "$mdev" "$mnt"
	# Traced until after umount: 6.12 queues the zone resets of freed
	# sections and issues them from the discard thread or at umount.
	trace_stop

	main=$(f2fs_sb_u32 "$mdev" 92)
	bps=$(($(f2fs_sb_u32 "$mdev" 24) << $(f2fs_sb_u32 "$mdev" 20)))
	counts=$(zone_resets "$zdev" "$zdev_start" "$main" "$bps" "$logsecs" \
		"$secvalid")
	[ "$counts" = "${counts##*$'\n'}" ] || echo "${counts%$'\n'*}"
	log "$name: zones reset, empty now, written again, stale: ${counts##*$'\n'} (at ${SECONDS}s)"
	# shellcheck disable=SC2086 # four numbers
	set -- ${counts##*$'\n'}
	eval "${name}_reset=$1 ${name}_empty=$2 ${name}_reused=$3 ${name}_stale=$4"

	mount_fs f2fs_packed "$mdev" "$mnt"
	check "$name: data intact after remount" sha_verify "$mnt" "/tmp/$name.sha"
	zoned_umount_fsck "$name" "$mdev" "$mnt"
}

# zoned_umount_fsck NAME DEV MNT: umount_fsck, or, with ZONED_FSCK_AS_STOCK
# set (where stock fsck.f2fs is known to disagree with the kernel, see
# 43-zoned-side-by-side), umount and keep fsck's verdicts in NAME_fsck
# and its extra free segments in NAME_extra for the test to compare with
# stock f2fs's.
zoned_umount_fsck() {
	local out

	if [ -z "${ZONED_FSCK_AS_STOCK:-}" ]; then
		umount_fsck "$2" "$3"
		return
	fi
	umount "$3" || { fail "umount $3"; return; }
	out=$(fsck_dry "$2")
	eval "$1_fsck=\$(fsck_verdicts \"\$out\")"
	eval "$1_extra=$(fsck_extra_free "$out")"
}

# zoned_packing_checks USABLE MIN_SECS: the verdicts on the variants "off"
# and "on" of zoned_packing_run, for sections of USABLE usable segments
# (zone capacity / 2 MiB) and a workload that frees at least MIN_SECS.
# shellcheck disable=SC2154 # off_* and on_* are set by zoned_packing_run
zoned_packing_checks() {
	local v seg sec reset empty reused stale

	# each remaining file of 256 blocks is in >= 200 pieces
	check "workload is interleaved (>= $((${ZONED_FILES:-32} / 2 * 200)) extents before GC: $off_before)" \
		test "$off_before" -ge $((${ZONED_FILES:-32} / 2 * 200))
	check "packing off: extents stay (>= 90%: $off_before -> $off_after)" \
		test $((off_after * 10)) -ge $((off_before * 9))
	check "packing off: no block packed" test "$off_blocks" -eq 0
	check "packing on: extents drop by >= 90% ($on_before -> $on_after)" \
		test $((on_after * 10)) -le "$on_before"
	check "packing on: blocks packed counted" test "$on_blocks" -gt 0
	for v in off on; do
		eval "seg=\$${v}_seg sec=\$${v}_sec reset=\$${v}_reset"
		eval "empty=\$${v}_empty reused=\$${v}_reused stale=\$${v}_stale"
		check "$v: GC freed sections (sec_freed $sec >= $2)" test "$sec" -ge "$2"
		check "$v: seg_freed counts the $1 usable segments of each freed section ($seg = $1 x $sec)" \
			test "$seg" -eq $(($1 * sec))
		check "$v: a zone reset for every freed section ($reset >= $sec)" \
			test "$reset" -ge "$sec"
		check "$v: zones match f2fs: free sections' zones empty, none lost ($stale stale)" \
			test "$stale" -eq 0
		check "$v: blkzone report shows reset zones empty ($empty; $reused written again)" \
			test "$empty" -ge 1
	done
	check "no I/O or zone errors in dmesg" zoned_dmesg_clean
}

# fsck_dry DEV: fsck.f2fs's full output for DEV (-d 1: with the checkpoint
# printed), checked without repairing anything, whatever it finds. The
# helpers below read it.
fsck_dry() {
	fsck.f2fs -d 1 --dry-run "$1" 2>&1 || :
}

# fsck_verdicts OUT: fsck.f2fs's verdict lines ("[FSCK] ...") in OUT.
fsck_verdicts() {
	echo "$1" | grep '^\[FSCK\]'
}

# fsck_fails_only_free_count VERDICTS: whether the only failing verdict
# in VERDICTS (fsck_verdicts' output) is "free segment_count matched with
# CP", the one where stock fsck.f2fs disagrees with the kernel.
fsck_fails_only_free_count() {
	[ "$(echo "$1" | grep Fail | grep -vc 'free segment_count matched with CP')" -eq 0 ]
}

# fsck_same_verdicts A B: whether the verdicts A and B (fsck_verdicts'
# output) are the same, values aside.
fsck_same_verdicts() {
	[ "$(echo "$1" | sed 's/\[0x[0-9a-f]*\]//')" = "$(echo "$2" | sed 's/\[0x[0-9a-f]*\]//')" ]
}

# fsck_extra_free OUT: how many more free segments fsck.f2fs counted (the
# value on its "free segment_count matched with CP" line) than the
# checkpoint's free_segment_count, in fsck_dry's output OUT (negative if
# fewer).
fsck_extra_free() {
	local cp hex

	cp=$(echo "$1" | sed -n 's/^free_segment_count[[:space:]]*\[0x *[0-9a-f]* : \([0-9]*\)\]/\1/p' |
		head -1)
	hex=$(echo "$1" | sed -n 's/^\[FSCK\] free segment_count matched with CP.*\[0x\([0-9a-f]*\)\]$/\1/p')
	echo $((16#$hex - cp))
}
