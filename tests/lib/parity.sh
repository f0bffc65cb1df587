# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The differential parity lane (issue 39, item 2), sourced inside the VM
# by tests/steps/parity.sh (make parity) and tests/guest/65-parity-short.sh.
#
# parity_seed SEED STEPS MKFS_OPTS: the sequence of SEED (tests/lib/parity.py:
# writes buffered, O_DIRECT and fsync'd, overwrites, spread (every file's
# blocks in turn), punch, truncate, fallocate, unlink, rename, sync;
# remounts checkpoint=disable/enable; the sync and background GC ioctl,
# GC_RANGE sync and async from the K-th dirty section, gc_urgent,
# RESIZE_FS, a pinned file's fallocate; reserved_segments raised) on a
# fresh volume of DISK1 each time, single-threaded, timers held still
# (background_gc=off, nodiscard, vm.dirty_writeback_centisecs=0, the
# checkpoint, idle and discard intervals an hour, background GC greedy):
# on stock f2fs, then on f2fs_packed with the knobs off (gc_packing=off,
# gc_pack_sections=1, gc_inode_local_packing=0), with packing on x 1 and
# with packing on x 64 sections. Knobs off against stock, step by step:
# return code, free sections and free/dirty/prefree segments after the
# step, the f2fs_get_victim, f2fs_gc_begin and f2fs_gc_end events, a
# GC_RANGE's range record (timer-bound steps, the GC thread's urgent mode
# and a remount's own GC: return code and counts at their end), the
# FIEMAP block map and sha256 of every file at the end. Packing on
# against stock: return codes (0 and ENODATA of a GC call alike once the
# volumes part), the counts until the step blocks first move, GC_RANGE's
# sections by upstream's rule, and the written files' contents (see
# tests/README.md). Named divergences (tests/lib/parity-divergences) are
# what ours must show instead of stock's, and nothing else is let
# through. Logs in tests/out/.../parity/.

[ -z "${PARITY_LIB_LOADED:-}" ] || return 0
PARITY_LIB_LOADED=1
# shellcheck source=tests/lib/pack.sh
. "$REPO/tests/lib/pack.sh"

PARITY_PY=$REPO/tests/lib/parity.py
PARITY_DIV=$REPO/tests/lib/parity-divergences
PARITY_VARIANTS=${PARITY_VARIANTS:-off on1 on64}
SERIES=$(echo "$KVER" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
PARITY_FAILED=0
# The logs, in the shared output directory (tests/out/.../parity).
PARITY_LOGS=${F2FS_PACKED_OUT:-/tmp}/parity

# parity_setup: both modules, their GC events traced, writeback still.
parity_setup() {
	load_stock
	load_packed
	echo 0 > /proc/sys/vm/dirty_writeback_centisecs
	trace_start {f2fs,f2fs_packed}/{f2fs_get_victim,f2fs_gc_begin,f2fs_gc_end}
	mkdir -p "$PARITY_LOGS"
}

# parity_variant NAME SEED STEPS MKFS_OPTS: one run; the log in
# $PARITY_LOGS/SEED.NAME.
parity_variant() {
	local name=$1 fs=f2fs_packed opts=background_gc=off,nodiscard sys k
	local sections=1 local_packing=1
	case $name in
	stock) fs=f2fs ;;
	off) opts=$opts,gc_packing=off local_packing=0 ;;
	on*) opts=$opts,gc_packing=on sections=${name#on} ;;	# on<N>: x N
	*) fail "parity variant $name: want stock, off or on<N>"; finish ;;
	esac
	# shellcheck disable=SC2086 # options are words
	mkfs_f2fs "$DISK1" $4
	mount_fs "$fs" "$DISK1" /mnt/p "$opts"
	sys=$(sysfs_dev "$fs" "$DISK1")
	for k in cp_interval idle_interval discard_idle_interval gc_idle_interval; do
		[ ! -e "$sys/$k" ] || echo 3600 > "$sys/$k"
	done
	# Background GC greedy, not cost-benefit: its ages are the clock's
	# seconds, so whether it finds a victim at all is the clock's.
	echo 2 > "$sys/gc_idle"
	if [ "$fs" = f2fs_packed ]; then
		echo "$sections" > "$sys/gc_pack_sections"
		echo "$local_packing" > "$sys/gc_inode_local_packing"
	fi
	python3 "$PARITY_PY" run "$2" "$3" "$SERIES" "$fs" /mnt/p "$DISK1" \
		"$PARITY_LOGS/$2.$name" ||
		fail "seed $2, $name: the sequence's runner stopped"
	umount_fsck "$DISK1" /mnt/p
}

# parity_seed SEED STEPS MKFS_OPTS: every variant, each against stock.
parity_seed() {
	local v start=$SECONDS mode
	for v in stock $PARITY_VARIANTS; do
		parity_variant "$v" "$@"
	done
	grep -h '# left out' "$PARITY_LOGS/$1.stock" | sed 's/^S[0-9]* /# seed '"$1"': /' | sort -u
	for v in $PARITY_VARIANTS; do
		mode=packing
		[ "$v" != off ] || mode=full
		if python3 "$PARITY_PY" compare "$mode" "$1" "$SERIES" "$PARITY_DIV" \
			"$PARITY_LOGS/$1.stock" "$PARITY_LOGS/$1.$v"; then
			echo "ok - seed $1, $v ($mode) matches stock: $(grep -c '^S[0-9]* [a-z]' "$PARITY_LOGS/$1.stock") steps, $(grep -c 'f2fs_gc_end' "$PARITY_LOGS/$1.stock") f2fs_gc() calls"
		else
			fail "seed $1, $v ($mode) diverges from stock"
			PARITY_FAILED=$((PARITY_FAILED + 1))
		fi
	done
	log "seed $1: $((SECONDS - start)) s"
}
