# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The seeded GC torture run (issue 21, part 3), sourced inside the VM by
# tests/steps/torture.sh (make torture) and tests/guest/62-torture-smoke.sh.
#
# torture_phase NAME SECS SEED DEV MKFS_OPTS MOUNT_OPTS: on DEV made
# nearly full (a kept data set written by fio with crc32c headers, and a
# fragmented set: files written interleaved, every other one deleted), in
# rounds of TORTURE_ROUND seconds until SECS have passed, all at once:
#   - fsstress (build/fsstress, fstests' ltp tool; skipped with a note
#     when it is not built) in a directory of its own, emptied when the
#     volume passes 90% used;
#   - two fio writers, random 4 KiB writes with fsync every 8 writes and
#     verify=crc32c: each fio run writes its files then reads them back;
#   - sync foreground GC calls (tools/f2fs-gc, -c 4);
#   - GC_RANGE calls over random block ranges (f2fs-gc -r);
#   - the GC thread in urgent mode (gc_urgent=1, 50 ms sleeps);
#   - random flips of gc_inode_local_packing, gc_pack_sections,
#     gc_pack_max_blocks and gc_pack_order;
# and between rounds, by the seed: nothing, a remount with a random
# gc_packing= (on, off, auto), or f2fs_io shutdown (level 0, 1 or 2)
# followed by the recovery mount and fsck.f2fs. At the end the kept set
# is verified by fio (verify_only), fsck.f2fs must be clean, the GC
# calls got only the answers of TORTURE_GC_ALLOWED, every fsstress run
# ended by its time limit or op count with no error line, and (the whole
# run) the pack pass moved TORTURE_PACK_SHARE_MIN% of the foreground GC's
# data blocks; the caller checks dmesg and rmmod, and scripts/torture
# bounds the fio runs cut short by ENOSPC by stock's. Figures add up in
# TORTURE_* variables.
# TORTURE_FS=stock runs the same against the kernel's own f2fs, to tell
# upstream's failures from ours: no packing knobs, no gc_packing=.
# Everything random comes from SEED (bash's RANDOM, fio's randseed,
# fsstress -s), so a seed replays the same choices; the interleaving of
# the concurrent workers is the scheduler's.

[ -z "${TORTURE_LIB_LOADED:-}" ] || return 0
TORTURE_LIB_LOADED=1
# shellcheck source=tests/lib/zoned.sh
. "$REPO/tests/lib/zoned.sh"

FSSTRESS=$REPO/build/fsstress
case ${TORTURE_FS:-packed} in
packed) FS=f2fs_packed ;;
stock) FS=f2fs ;;
*) fail "TORTURE_FS=$TORTURE_FS: want packed or stock"; finish ;;
esac
TORTURE_ROUND=${TORTURE_ROUND:-30}
TORTURE_GC_CALLS=0 TORTURE_GC_OK=0 TORTURE_RANGE_CALLS=0 TORTURE_RANGE_OK=0
TORTURE_GC_NODATA=0 TORTURE_GC_BUSY=0 TORTURE_GC_ERR=0
TORTURE_RANGE_NODATA=0 TORTURE_RANGE_BUSY=0 TORTURE_RANGE_ERR=0
TORTURE_FIO_ENOSPC=0 TORTURE_FIO_FAILED=0
TORTURE_FSSTRESS_TIMEOUT=0 TORTURE_FSSTRESS_DONE=0 TORTURE_FSSTRESS_BAD=0
TORTURE_DATA_MOVED=0 TORTURE_DATA_MOVED_FG=0 TORTURE_DATA_UNKNOWN=
TORTURE_FLIPS=0 TORTURE_REMOUNTS=0 TORTURE_SHUTDOWNS=0 TORTURE_FIO_RUNS=0
TORTURE_ROUNDS=0 TORTURE_PACKED_BLOCKS=0 TORTURE_PACKED_INODES=0
TORTURE_PACKED_SECTIONS=0 TORTURE_FSSTRESS_RUNS=0

# The answers a GC call (the w_gc and w_range workers' f2fs-gc) may get,
# stated once (issue 40, item 6); f2fs-gc counts each without stopping
# ("eagain", "ebusy" in its JSON) and stops at any other, naming it
# ("error"), which fails the phase:
#   EAGAIN  the sync call freed no section (f2fs_gc's err_gc_skipped), or
#           GC_RANGE met a section in use (its EBUSY, turned into EAGAIN);
#   ENODATA no victim: __get_victim() found none, or GC_RANGE's segment
#           holds no valid block;
#   EBUSY   the GC lock taken (bg calls) or the range's victim is a
#           current section (sec_usage_check).
# Not allowed, although upstream's f2fs_ioc_gc / f2fs_ioc_gc_range /
# f2fs_gc can return them: on a nearly full volume f2fs_gc has no ENOSPC
# (a full volume is EAGAIN: nothing freed); EIO comes only with a
# checkpoint error (f2fs_cp_error, a shutdown) and EROFS only on a
# read-only mount, and the shutdowns and remounts happen between rounds,
# with the workers stopped; EINVAL is a range outside the main area
# (w_range keeps inside it) or an unmounting volume (SB_ACTIVE clear,
# never with our open fd); EPERM, EFAULT, ENOTTY are the harness's own.
TORTURE_GC_ALLOWED="EAGAIN ENODATA EBUSY"
# The pack pass's share of the foreground GC's moved data blocks below
# which a run did not drive packing, in percent (see torture_all): seed 7,
# 90 s on 6.1 measured 77% over the run (s1 0%: that phase packed
# nothing; s4lfs 100%, zoned 60%), so 40 leaves room for a run whose knob
# flips and remounts keep packing off longer, and still fails one where
# packing stayed off (TORTURE_BREAK=nopack).
TORTURE_PACK_SHARE_MIN=${TORTURE_PACK_SHARE_MIN:-40}

# torture_data_moved MNT: "ALL BG", the data blocks the mount's GC has
# moved (counted from the mount on), all and background only, from the
# debugfs status ("  - data blocks : N (BG)"); nothing when unreadable.
# The pack pass moves its blocks through the same helper, so they count
# here too; node blocks are never packed and are left out.
torture_data_moved() {
	awk -v n="partition info($(basename "$(findmnt -no SOURCE "$1")"))" '
		/=====\[ partition info\(/ { on = index($0, n) > 0 }
		on && /^  - data blocks :/ {
			gsub(/[()]/, "", $6); print $5, $6; exit }' \
		"/sys/kernel/debug/$FS/status" 2>/dev/null
}

# torture_counters MNT: add the mount's gc_pack_* counters and its GC's
# moved data blocks (all start from 0 at every mount) to the
# TORTURE_PACKED_* and TORTURE_DATA_MOVED* totals.
torture_counters() {
	local s d
	[ "$FS" = f2fs_packed ] || return 0
	d=$(torture_data_moved "$1")
	if [ -n "$d" ]; then
		# shellcheck disable=SC2086 # d: two numbers
		set -- "$1" $d
		TORTURE_DATA_MOVED=$((TORTURE_DATA_MOVED + $2))
		TORTURE_DATA_MOVED_FG=$((TORTURE_DATA_MOVED_FG + $2 - $3))
	else
		TORTURE_DATA_UNKNOWN=1
	fi
	s=$(sysfs_dev f2fs_packed "$(findmnt -no SOURCE "$1")")
	TORTURE_PACKED_BLOCKS=$((TORTURE_PACKED_BLOCKS + $(cat "$s/gc_pack_blocks")))
	TORTURE_PACKED_INODES=$((TORTURE_PACKED_INODES + $(cat "$s/gc_pack_inodes")))
	TORTURE_PACKED_SECTIONS=$((TORTURE_PACKED_SECTIONS + $(cat "$s/gc_pack_packed_sections")))
}

# torture_urgent MNT: the GC thread in urgent mode, collecting every 50 ms.
torture_urgent() {
	local s
	s=$(sysfs_dev "$FS" "$(findmnt -no SOURCE "$1")")
	echo 50 > "$s/gc_urgent_sleep_time" && echo 1 > "$s/gc_urgent"
}

# torture_mount WHAT DEV MNT OPTS: mount (on stock, OPTS without
# gc_packing=), the GC thread made urgent. A mount that fails is the
# test's failure WHAT, followed by why: mount's own message and the
# kernel's last lines (after the "not ok" line, where the suite's
# summary looks for them).
torture_mount() {
	local err opts=$4
	[ "$FS" = f2fs_packed ] ||
		opts=$(echo "$opts" | sed 's/,*gc_packing=[a-z]*//g')
	mkdir -p "$3"
	if ! err=$(mount -t "$FS" -o "$opts" "$2" "$3" 2>&1); then
		fail "$1"
		echo "# mount -t $FS -o $opts $2: $err"
		dmesg | tail -12 | sed 's/^/# dmesg: /'
		return 1
	fi
	if ! err=$(torture_urgent "$3" 2>&1); then
		fail "$1"
		echo "# mounted, but gc_urgent could not be set: $err"
		return 1
	fi
}

# torture_gc NAME ARGS...: one f2fs-gc run on $MNT, its JSON summary
# appended to $TDIR/NAME.json; a run that failed without naming the errno
# that stopped it (no summary: the tool refused) leaves its exit status
# and standard error in $TDIR/NAME.fail.
torture_gc() {
	local name=$1 rc=0
	shift
	"$GC_TOOL" -q -j -d off "$@" "$MNT" > "$TDIR/$name.one" \
		2> "$TDIR/$name.err" || rc=$?
	cat "$TDIR/$name.one" >> "$TDIR/$name.json"
	[ "$rc" -eq 0 ] || grep -q '"error": "' "$TDIR/$name.one" || {
		echo "f2fs-gc $* exited $rc without a summary's error:"
		cat "$TDIR/$name.err"
	} >> "$TDIR/$name.fail"
}

# torture_break NAME: TORTURE_BREAK (scripts/torture's; a comma list)
# names NAME, a check broken on purpose to see it fail.
torture_break() {
	case ",${TORTURE_BREAK:-}," in
	*",$1,"*) return 0 ;;
	esac
	return 1
}

# The workers: each loops until the file $TDIR/stop exists, its own
# RANDOM seeded from the round's seed, and appends one line per call to
# its log in $TDIR for the figures.
w_gc() {
	set +e
	RANDOM=$1
	while [ ! -e "$TDIR/stop" ]; do
		torture_gc gc -i 4 -c 4
		sleep "0.$((RANDOM % 10))"
	done
}
w_range() {
	set +e
	local blocks=$2 main=$3 proc=$4 seg start len
	RANDOM=$1
	while [ ! -e "$TDIR/stop" ]; do
		# A range from a random segment that holds valid blocks, not
		# full (GC_RANGE stops with ENODATA at the first segment with
		# none); half the time a random one inside the main area (the
		# kernel refuses the rest), which may well be free.
		seg=$(awk -v r=$RANDOM 'NR > 2 { for (i = 2; i <= NF; i++) {
				split($i, tv, "|")
				if (tv[2] > 0 && tv[2] < 512) c[n++] = $1 + i - 2 } }
			END { if (n) print c[r % n] }' "$proc/segment_info")
		# GC_RANGE goes on section after section while start <= end,
		# so a range shorter than a section collects just one.
		if [ -n "$seg" ] && [ $((RANDOM % 2)) -eq 0 ]; then
			start=$((main + seg * 512))
			len=$((1 + RANDOM % 500))
		else
			start=$((main + (RANDOM * 32768 + RANDOM) % (blocks - main - 8193)))
			len=$((512 * (1 + RANDOM % 4)))
		fi
		# TORTURE_BREAK=gc: once a phase, a range below the main
		# area, which the kernel answers EINVAL, to see the allowlist
		# check fail.
		if torture_break gc && [ ! -e "$TDIR/broken" ]; then
			touch "$TDIR/broken"
			start=1 len=1
		fi
		torture_gc range -i 2 -c 2 -r "$start:$len"
		sleep "0.$((RANDOM % 10))"
	done
}
w_knobs() {
	set +e
	local s=$2 v k
	RANDOM=$1
	while [ ! -e "$TDIR/stop" ]; do
		case $((RANDOM % 4)) in
		0) k=gc_inode_local_packing; v=$((RANDOM % 10 < 7 ? 1 : 0)) ;;
		1) k=gc_pack_sections; v=$((1 + RANDOM % 8)) ;;
		2) k=gc_pack_max_blocks
		   set -- 64 256 1024 4096 65536
		   shift $((RANDOM % 5)); v=$1 ;;
		3) k=gc_pack_order; v=$((RANDOM % 2)) ;;
		esac
		# TORTURE_BREAK=nopack: packing off at every flip, to see the
		# pack share check fail.
		! torture_break nopack || { k=gc_inode_local_packing; v=0; }
		echo "$v" > "$s/$k" 2>/dev/null && echo "$k=$v" >> "$TDIR/knobs"
		sleep "$((1 + RANDOM % 3))"
	done
}
w_fio() {
	set +e
	local seed=$1 mb=$2 n=0
	mkdir -p "$MNT/fio"
	while [ ! -e "$TDIR/stop" ]; do
		n=$((n + 1))
		if fio --name=w --directory="$MNT/fio" --numjobs=2 --size="${mb}M" \
			--bs=4k --rw=randwrite --ioengine=psync --fsync=8 \
			--verify=crc32c --do_verify=1 --verify_fatal=1 \
			--randseed=$((seed + n)) --group_reporting \
			--eta=never --output="$TDIR/fio.out" > /dev/null 2>&1; then
			echo ok >> "$TDIR/fio"
		elif ! grep -qiE 'verify|bad magic|crc32c' "$TDIR/fio.out" &&
		     grep -q 'No space left' "$TDIR/fio.out"; then
			# fsstress took the room first: no verdict on the data
			echo enospc >> "$TDIR/fio"
		else
			echo "fail run $n" >> "$TDIR/fio"
			cp "$TDIR/fio.out" "$TDIR/fio.fail.$n"
		fi
	done
}
w_fsstress() {
	set +e
	local seed=$1 rc n brk=''
	mkdir -p "$MNT/fss"
	# TORTURE_BREAK=fsstress: the phase's first run given an op
	# fsstress does not know, which it refuses with exit 1, to see the
	# fsstress check fail.
	! torture_break fsstress || [ -e "$TDIR/fsstress" ] ||
		brk="-f nosuchop=1"
	while [ ! -e "$TDIR/stop" ]; do
		# Room for the others: fsstress starts over above 90% used.
		[ "$(df --output=pcent "$MNT" | tail -1 | tr -dc 0-9)" -lt 90 ] ||
			rm -rf "$MNT/fss"/*
		seed=$((seed + 1))
		n=$(($(lines "$TDIR/fsstress") + 1))
		rc=0
		# shellcheck disable=SC2086 # brk: words or nothing
		timeout -s TERM 20 "$FSSTRESS" -d "$MNT/fss" -p 2 -n 400 \
			-s "$seed" $brk > "$TDIR/fsstress.$n.log" 2>&1 || rc=$?
		brk=''
		# One line a run: how it ended (124: stopped by the timeout).
		echo "$rc $n" >> "$TDIR/fsstress"
	done
}

# count TEXT: the lines of TEXT, 0 when empty.
count() {
	[ -n "$1" ] || { echo 0; return; }
	echo "$1" | wc -l
}

# lines FILE [PATTERN]: lines of FILE (matching PATTERN), 0 without FILE.
lines() {
	[ -e "$1" ] || { echo 0; return; }
	grep -c -- "${2:-}" "$1" || :
}

# torture_gc_check NAME WHAT: the phase's f2fs-gc runs of worker NAME
# ($TDIR/NAME.json) answered only TORTURE_GC_ALLOWED, every run with a
# summary; the failing runs' lines shown when not.
torture_gc_check() {
	local name=$1 what=$2 codes bad='' c
	codes=$(sed -n 's/^ *"error": "\([A-Z0-9]*\)".*/\1/p' \
		"$TDIR/$name.json" 2>/dev/null | sort | uniq -c |
		awk '{ printf "%s%s:%d", (NR > 1 ? "," : ""), $2, $1 }')
	for c in $(echo "$codes" | tr ',' ' '); do
		case " $TORTURE_GC_ALLOWED " in
		*" ${c%%:*} "*) ;;
		*) bad="$bad $c" ;;
		esac
	done
	[ ! -s "$TDIR/$name.fail" ] || bad="$bad no-summary:$(lines "$TDIR/$name.fail" 'exited')"
	check "$what: f2fs-gc answered only $TORTURE_GC_ALLOWED ($(json_sum "$TDIR/$name.json" calls) calls: $(json_sum "$TDIR/$name.json" successes) ok, $(json_sum "$TDIR/$name.json" eagain) EAGAIN/ENODATA, $(json_sum "$TDIR/$name.json" ebusy) EBUSY; stopped by: ${codes:-nothing})" \
		test -z "$bad"
	[ -z "$bad" ] || {
		echo "outside the allowlist:$bad"
		grep -h -B14 -A12 '"error": "' "$TDIR/$name.json" | head -30
		head -10 "$TDIR/$name.fail" 2>/dev/null || :
	} | sed 's/^/# /'
	TORTURE_GC_CODES="${TORTURE_GC_CODES:+$TORTURE_GC_CODES,}${TDIR##*-}/$name:${codes:-none}"
}

# torture_fsstress_check WHAT: every fsstress run of the phase ended by
# its time limit (timeout's 124) or its op count (0), and no log of theirs
# has an error line; the offending lines shown when not.
torture_fsstress_check() {
	local bad errs n
	[ -x "$FSSTRESS" ] || return 0
	bad=$(awk '$1 != 0 && $1 != 124' "$TDIR/fsstress" 2>/dev/null)
	errs=$(grep -iE "$TORTURE_FSSTRESS_ERRORS" "$TDIR"/fsstress.*.log 2>/dev/null || :)
	n=$(lines "$TDIR/fsstress")
	check "$1: fsstress runs ended by their time limit or op count ($n runs: $(lines "$TDIR/fsstress" '^124 ') timed out, $(lines "$TDIR/fsstress" '^0 ') done, $(count "$bad") otherwise; $(count "$errs") error lines)" \
		test -z "$bad$errs"
	[ -z "$bad$errs" ] || {
		echo "$bad" | awk 'NF { print "run " $2 " exited " $1 }'
		echo "$errs" | head -10
	} | sed 's/^/# /'
	TORTURE_FSSTRESS_TIMEOUT=$((TORTURE_FSSTRESS_TIMEOUT + $(lines "$TDIR/fsstress" '^124 ')))
	TORTURE_FSSTRESS_DONE=$((TORTURE_FSSTRESS_DONE + $(lines "$TDIR/fsstress" '^0 ')))
	TORTURE_FSSTRESS_BAD=$((TORTURE_FSSTRESS_BAD + $(count "$bad")))
}
# What counts as an error line in an fsstress log: fsstress prints
# nothing without -v but its own failures ("fsstress: check_cwd failure",
# "Detected EIO", "can't find op type", a usage text).
TORTURE_FSSTRESS_ERRORS='fsstress:|error|fail|detected|cannot|can.t|yikes|abort|bad |invalid|usage|assert|segfault|killed'

# json_sum FILE KEY: KEY summed over the JSON summaries in FILE.
json_sum() {
	sed -n "s/^ *\"$2\": *\\([0-9]*\\).*/\\1/p" "$1" 2>/dev/null |
		awk '{ n += $1 } END { print n + 0 }'
}

# torture_round SEED BLOCKS FIO_MB: one round of all the workers.
torture_round() {
	local seed=$1 s pids=() p
	s=$(sysfs_dev "$FS" "$(findmnt -no SOURCE "$MNT")")
	rm -f "$TDIR/stop"
	w_gc $((seed + 1)) &
	pids+=($!)
	w_range $((seed + 2)) "$2" "$(cat "$s/main_blkaddr")" \
		"/proc/fs/$FS/$(basename "$s")" &
	pids+=($!)
	if [ "$FS" = f2fs_packed ]; then
		w_knobs $((seed + 3)) "$s" &
		pids+=($!)
	fi
	w_fio $((seed + 4)) "$3" &
	pids+=($!)
	if [ -x "$FSSTRESS" ]; then
		w_fsstress $((seed + 5)) &
		pids+=($!)
	fi
	sleep "$TORTURE_ROUND"
	touch "$TDIR/stop"
	for p in "${pids[@]}"; do
		wait "$p"
	done
	TORTURE_ROUNDS=$((TORTURE_ROUNDS + 1))
}

torture_phase() {
	local name=$1 secs=$2 seed=$3 dev=$4 mkfs_opts=$5 opts=$6
	local end avail keep_mb frag_files fio_mb blocks ev lvl fails first
	MNT=/mnt/torture-$name
	TDIR=/tmp/torture-$name
	rm -rf "$TDIR"
	mkdir -p "$TDIR"
	RANDOM=$seed
	log "torture $name: seed $seed, $secs s, mkfs.f2fs $mkfs_opts, mount $opts"
	# shellcheck disable=SC2086 # options are words
	mkfs_f2fs "$dev" $mkfs_opts
	torture_mount "$name: mount $dev $opts" "$dev" "$MNT" "$opts" || return 1

	# Nearly full: 55% of the free space a kept set, 2 x 15% written
	# interleaved and one half deleted.
	avail=$(($(df --output=avail -k "$MNT" | tail -1) / 1024))
	keep_mb=$((avail * 55 / 100 / 4))
	frag_files=$((avail * 30 / 100))
	fio_mb=$((avail / 100))
	[ "$fio_mb" -ge 2 ] || fio_mb=2
	fio --name=keep --directory="$MNT" --filename_format='keep.$jobnum' \
		--numjobs=4 --size="${keep_mb}M" --bs=64k --rw=write \
		--verify=crc32c --do_verify=0 --randseed="$seed" \
		--eta=never --output=/dev/null ||
		{ fail "$name: fio could not write the kept set"; return 1; }
	interleave "$MNT/frag" "$frag_files" 1024 16k
	delete_even "$MNT/frag" "$frag_files"
	sync
	log "$name: $(df -h --output=size,used,pcent "$MNT" | tail -1) used after the fill (avail ${avail} MiB; kept 4 x ${keep_mb} MiB, fio 2 x ${fio_mb} MiB)"
	blocks=$(($(blockdev --getsize64 "$dev") / 4096))

	end=$((SECONDS + secs))
	first=1
	while [ $SECONDS -lt "$end" ]; do
		torture_round $((seed + 100 * TORTURE_ROUNDS)) "$blocks" "$fio_mb"
		ev=$((RANDOM % 10))
		# Every phase has at least one: its first round ends in a
		# remount (even seed) or a shutdown (odd); the three phases'
		# seeds follow each other, so a run has both.
		[ "$first" = 0 ] || ev=$((seed % 2 ? 4 : 0))
		first=0
		if [ $ev -lt 3 ]; then
			set -- on off auto
			shift $((RANDOM % 3))
			torture_counters "$MNT"
			umount "$MNT" || { fail "$name: umount for a remount"; return 1; }
			torture_mount "$name: remount gc_packing=$1" \
				"$dev" "$MNT" "$opts,gc_packing=$1" || return 1
			TORTURE_REMOUNTS=$((TORTURE_REMOUNTS + 1))
			log "$name: round $TORTURE_ROUNDS: remount gc_packing=$1 (${SECONDS}s)"
		elif [ $ev -lt 5 ]; then
			lvl=$((RANDOM % 3))
			torture_counters "$MNT"
			sync
			f2fs_io shutdown "$lvl" "$MNT" > /dev/null ||
				{ fail "$name: f2fs_io shutdown $lvl"; return 1; }
			umount "$MNT" || { fail "$name: umount after shutdown"; return 1; }
			torture_mount "$name: recovery mount after shutdown $lvl" \
				"$dev" "$MNT" "$opts" || return 1
			umount "$MNT" || { fail "$name: umount after recovery"; return 1; }
			check "$name: fsck.f2fs clean after shutdown $lvl and recovery" fsck_clean "$dev"
			torture_mount "$name: mount after recovery" \
				"$dev" "$MNT" "$opts" || return 1
			TORTURE_SHUTDOWNS=$((TORTURE_SHUTDOWNS + 1))
			log "$name: round $TORTURE_ROUNDS: shutdown $lvl, recovered (${SECONDS}s)"
		fi
	done

	fails=$(lines "$TDIR/fio" '^fail')
	check "$name: fio writers' verify clean ($(lines "$TDIR/fio" '^ok') runs, $(lines "$TDIR/fio" '^enospc') cut short by ENOSPC, $fails failed)" \
		test "$fails" -eq 0
	[ "$fails" -eq 0 ] || sed 's/^/# /' "$TDIR"/fio.fail.* | grep -iE 'verify|bad|err' | head -10
	# TORTURE_BREAK=keep (scripts/torture's TORTURE_BREAK): one block
	# of the kept set overwritten, to see this check fail.
	! torture_break keep ||
		dd if=/dev/urandom of="$MNT/keep.0" bs=4k count=1 seek=3 \
			conv=notrunc,fsync status=none
	check "$name: kept set verified by fio" \
		fio --name=keep --directory="$MNT" --filename_format='keep.$jobnum' \
		--numjobs=4 --size="${keep_mb}M" --bs=64k --rw=write \
		--verify=crc32c --verify_only --verify_fatal=1 --randseed="$seed" \
		--eta=never --output="$TDIR/keep.out"
	torture_counters "$MNT"
	torture_gc_check gc "$name: sync GC calls"
	torture_gc_check range "$name: GC_RANGE calls"
	torture_fsstress_check "$name"
	TORTURE_GC_CALLS=$((TORTURE_GC_CALLS + $(json_sum "$TDIR/gc.json" calls)))
	TORTURE_GC_OK=$((TORTURE_GC_OK + $(json_sum "$TDIR/gc.json" successes)))
	TORTURE_GC_NODATA=$((TORTURE_GC_NODATA + $(json_sum "$TDIR/gc.json" eagain)))
	TORTURE_GC_BUSY=$((TORTURE_GC_BUSY + $(json_sum "$TDIR/gc.json" ebusy)))
	TORTURE_GC_ERR=$((TORTURE_GC_ERR + $(json_sum "$TDIR/gc.json" errors)))
	TORTURE_RANGE_CALLS=$((TORTURE_RANGE_CALLS + $(json_sum "$TDIR/range.json" calls)))
	TORTURE_RANGE_OK=$((TORTURE_RANGE_OK + $(json_sum "$TDIR/range.json" successes)))
	TORTURE_RANGE_NODATA=$((TORTURE_RANGE_NODATA + $(json_sum "$TDIR/range.json" eagain)))
	TORTURE_RANGE_BUSY=$((TORTURE_RANGE_BUSY + $(json_sum "$TDIR/range.json" ebusy)))
	TORTURE_RANGE_ERR=$((TORTURE_RANGE_ERR + $(json_sum "$TDIR/range.json" errors)))
	TORTURE_FLIPS=$((TORTURE_FLIPS + $(lines "$TDIR/knobs")))
	TORTURE_FIO_RUNS=$((TORTURE_FIO_RUNS + $(lines "$TDIR/fio" '^ok')))
	TORTURE_FIO_ENOSPC=$((TORTURE_FIO_ENOSPC + $(lines "$TDIR/fio" '^enospc')))
	TORTURE_FIO_FAILED=$((TORTURE_FIO_FAILED + fails))
	TORTURE_FSSTRESS_RUNS=$((TORTURE_FSSTRESS_RUNS + $(lines "$TDIR/fsstress")))
	umount_fsck "$dev" "$MNT"
	log "$name: done at ${SECONDS}s; so far: $(torture_report | sed 's/^# torture figures: //')"
}

# torture_report: the figures so far, one line.
torture_report() {
	echo "# torture figures: rounds=$TORTURE_ROUNDS gc_calls=$TORTURE_GC_CALLS gc_ok=$TORTURE_GC_OK gc_eagain_enodata=$TORTURE_GC_NODATA gc_ebusy=$TORTURE_GC_BUSY gc_errors=$TORTURE_GC_ERR range_calls=$TORTURE_RANGE_CALLS range_ok=$TORTURE_RANGE_OK range_eagain_enodata=$TORTURE_RANGE_NODATA range_ebusy=$TORTURE_RANGE_BUSY range_errors=$TORTURE_RANGE_ERR gc_stopped_by=${TORTURE_GC_CODES:-none} knob_flips=$TORTURE_FLIPS remounts=$TORTURE_REMOUNTS shutdowns=$TORTURE_SHUTDOWNS fio_runs=$TORTURE_FIO_RUNS fio_enospc=$TORTURE_FIO_ENOSPC fio_failed=$TORTURE_FIO_FAILED fsstress_runs=$TORTURE_FSSTRESS_RUNS fsstress_timeout=$TORTURE_FSSTRESS_TIMEOUT fsstress_done=$TORTURE_FSSTRESS_DONE fsstress_other=$TORTURE_FSSTRESS_BAD packed_blocks=$TORTURE_PACKED_BLOCKS packed_inodes=$TORTURE_PACKED_INODES packed_sections=$TORTURE_PACKED_SECTIONS data_moved=${TORTURE_DATA_UNKNOWN:+?}$TORTURE_DATA_MOVED data_moved_fg=${TORTURE_DATA_UNKNOWN:+?}$TORTURE_DATA_MOVED_FG"
}

# torture_share_check: the pack pass moved TORTURE_PACK_SHARE_MIN% of the
# data blocks the foreground GC moved over the run.
torture_share_check() {
	local share=0
	[ "$TORTURE_DATA_MOVED_FG" -eq 0 ] ||
		share=$((TORTURE_PACKED_BLOCKS * 100 / TORTURE_DATA_MOVED_FG))
	check "packing drove the foreground GC: $TORTURE_PACKED_BLOCKS of its ${TORTURE_DATA_UNKNOWN:+(unknown: no debugfs status) }$TORTURE_DATA_MOVED_FG moved data blocks packed ($share%; floor $TORTURE_PACK_SHARE_MIN%; $TORTURE_DATA_MOVED moved with the background GC's)" \
		test -z "$TORTURE_DATA_UNKNOWN" -a "$share" -ge "$TORTURE_PACK_SHARE_MIN"
}

# torture_all SECS SEED: the three geometries, SECS/3 each: -s 1 on
# /dev/vda, -s 4 mode=lfs on /dev/vdb, a zoned null_blk device in guest
# RAM (48 zones of 8 MiB, 3 conventional for the metadata, as test 40's);
# then rmmod.
torture_all() {
	local secs=$1 seed=$2 per zdev
	per=$((secs / 3))
	# After a shutdown on a zoned device, recovery moves the current
	# segments past the zones' write pointers and says so: the scripts
	# that run the torture (62, tests/steps/torture.sh) expect it in their
	# "# dmesg-expected:" lines.
	if [ "$FS" = f2fs_packed ]; then
		load_packed
	else
		load_stock
	fi
	need_gc_tool
	[ -x "$FSSTRESS" ] ||
		log "NOTE: $FSSTRESS not built (make fsstress): fio writers only, no fsstress"
	torture_phase s1 "$per" "$seed" "$DISK1" "-s 1" "background_gc=on,gc_packing=on"
	torture_phase s4lfs "$per" $((seed + 1)) "$DISK2" "-s 4" \
		"background_gc=on,mode=lfs,gc_packing=on"
	zoned_nullb zdev ztort 48 8 8 3
	torture_phase zoned "$per" $((seed + 2)) "$zdev" "-m" "background_gc=on,gc_packing=on"
	remove_zoned_nullb ztort
	torture_report
	# A run that packed nothing tortured nothing; nor one whose
	# foreground GC moved its data blocks mostly past the pack pass
	# (the knob flips and gc_packing=off/auto remounts turn it off part
	# of the time; background GC never packs and is left out).
	if [ "$FS" = f2fs_packed ]; then
		check "packed GC was driven: $TORTURE_GC_OK successful GC calls, $TORTURE_PACKED_BLOCKS blocks packed" \
			test "$TORTURE_GC_OK" -gt 0 -a "$TORTURE_PACKED_BLOCKS" -gt 0
		torture_share_check
	else
		check "stock GC was driven: $TORTURE_GC_OK successful GC calls" \
			test "$TORTURE_GC_OK" -gt 0
	fi
	check "rmmod $FS" rmmod "$FS"
	check "no slab of ours left behind" \
		sh -c '! dmesg | grep -E "Objects remaining|still has objects"'
	finish
}
