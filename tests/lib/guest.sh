# SPDX-License-Identifier: GPL-2.0
#
# Helpers for guest test scripts (sourced inside the VM, see scripts/vm).
# A test prints "ok - ..." / "not ok - ..." lines and ends with `finish`,
# which fails the test on any recorded failure or a kernel warning.

# The variables set here are for the tests that source this file.
# shellcheck disable=SC2034
[ -z "${GUEST_LIB_LOADED:-}" ] || return 0
GUEST_LIB_LOADED=1

DISK1=/dev/vda
DISK2=/dev/vdb
DISK3=/dev/vdc
# Built for this kernel by make module (scripts/vm passes KVER).
MODULE=$REPO/build/$KVER/f2fs_packed.ko
# dmesg patterns that fail any test: the one list of kernel reports and
# f2fs error lines (tests/lib/errors.sh), and what the console check
# cannot use but dmesg can: any stack dump ("Call Trace", which a dump
# with no report line of its own prints, f2fs_handle_critical_error()'s
# say) and sysfs's duplicate names.
# shellcheck source=tests/lib/errors.sh
. "$REPO/tests/lib/errors.sh"
DMESG_BAD="$KERNEL_BUG_LINES|Call Trace|duplicate|cannot create|$F2FS_ERROR_LINES"
# What this test expects of them: its "# dmesg-expected:" lines (the host's
# console check reads the same); a library may add more.
DMESG_EXPECTED=$(expected_lines "$0")

# shellcheck source=tests/lib/tap.sh
. "$REPO/tests/lib/tap.sh"

load_stock() {
	modprobe f2fs || { fail "modprobe f2fs"; finish; }
}

load_packed() {
	local deps out=
	grep -q '^f2fs_packed ' /proc/modules && return 0
	# insmod does not load dependencies (the compressors)
	# shellcheck disable=SC2046
	deps=$(modinfo -F depends "$MODULE" 2>&1) &&
		out=$(modprobe -a $(echo "$deps" | tr , ' ') 2>&1) &&
		out=$(insmod "$MODULE" 2>&1) && return 0
	# What failed, as lines the suite's summary shows (fail_lines).
	fail "insmod $MODULE"
	{
		echo "depends: $deps"
		[ -z "$out" ] || echo "$out"
		ls -l "$MODULE"
		dmesg | tail -n 8
	} 2>&1 | sed 's/^/# /'
	finish
}

mkfs_f2fs() {
	local dev=$1
	shift
	mkfs.f2fs -q -f "$@" "$dev" >/dev/null || { fail "mkfs.f2fs $* $dev"; finish; }
}

# mount_f2fs TYPE DEV MNT [OPTIONS]: mount, status of mount(8).
# background_gc=off keeps GC to what a test asks for, but 6.12 refuses it
# on zoned volumes ("zoned devices need bggc"). There the GC thread runs
# and gc_no_zoned_gc_percent=0 tells it that free space is always enough,
# written right after the mount: the thread's first look, 10 ms in, sees
# a volume far above its default 60% free and sleeps for a minute.
mount_f2fs() {
	local opts=${4:-}
	mkdir -p "$3"
	mount -t "$1" ${opts:+-o "$opts"} "$2" "$3" 2>/dev/null && return 0
	case ,$opts, in
	*,background_gc=off,*)
		dmesg | grep -q "zoned devices need bggc" || return 1 ;;
	*) return 1 ;;
	esac
	opts=$(echo ",$opts," | sed 's/,background_gc=off,/,background_gc=on,nogc_merge,/;s/^,//;s/,$//')
	mount -t "$1" -o "$opts" "$2" "$3" || return 1
	echo 0 > "$(sysfs_dev "$1" "$2")/gc_no_zoned_gc_percent" ||
		{ umount "$3"; return 1; }
}

# mount_fs TYPE DEV MNT [OPTIONS]: mount_f2fs, or fail the test.
mount_fs() {
	mount_f2fs "$@" || { fail "mount -t $1 $2 $3 ${4:-}"; finish; }
}

fsck_clean() {
	local out
	if out=$(fsck.f2fs "$1" 2>&1) && ! echo "$out" | grep -q '\[Fail\]'; then
		return 0
	fi
	echo "$out" | grep -E 'Fail|error|Error' | head -10 | sed 's/^/# fsck: /'
	return 1
}

umount_fsck() {
	umount "$2" || { fail "umount $2"; return; }
	check "fsck.f2fs clean on $1" fsck_clean "$1"
}

sha_record() {
	(cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum) > "$2"
}

sha_verify() {
	(cd "$1" && sha256sum --quiet -c "$2")
}

# Extents of every file under DIR, summed (filefrag counts extents).
total_extents() {
	find "$1" -type f -print0 | xargs -0 -r filefrag |
		awk '{ n += $(NF-2) } END { print n + 0 }'
}

# kernel_at_least MAJOR MINOR: the running kernel is MAJOR.MINOR or later.
kernel_at_least() {
	local maj min
	IFS=. read -r maj min _ < <(uname -r)
	[ "$maj" -gt "$1" ] || { [ "$maj" -eq "$1" ] && [ "${min%%[!0-9]*}" -ge "$2" ]; }
}

# sysfs attribute of the mount's device for either module.
sysfs_dev() {
	local dev
	dev=$(basename "$(readlink -f "$2")")
	echo "/sys/fs/$1/$dev"
}

# wait_for SECS CMD...: poll CMD every 0.2 s until it succeeds; false
# once SECS have passed (a precondition waited for, not slept for).
wait_for() {
	local n=$(($1 * 5))
	shift
	until "$@"; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		sleep 0.2
	done
}

# DMESG_EXPECTED: lines of DMESG_BAD a test expects (an extended regex;
# the test's "# dmesg-expected:" lines, none by default). Lockup, RCU stall and hung-task reports whose stacks hold
# no f2fs code are left out (scripts/kernel-log: the emulator starved of
# host CPU, which scripts/vm reports on the host); ours still count. An
# f2fs checkpoint-latency report counts unless stock was seen making it in
# this test on this series (latency_excused, tests/lib/errors.sh).
dmesg_clean() {
	local line bad=0 hung=${F2FS_PACKED_HUNG_TASK:-60} series
	series=$(echo "$KVER" | cut -d. -f1-2)
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		if latency_excused "$series" "$0" "$hung" "$line"; then
			echo "# a checkpoint-latency report stock makes here too, not counted: $line"
		else
			echo "# a checkpoint-latency report stock was not seen making here on $series (no '# stock-latency: $series' line), or a wait as long as the hung-task timeout ($hung s): $line"
			bad=1
		fi
	done <<EOF
$(dmesg | "$REPO/scripts/kernel-log" reports | sed -n 's/^latency: //p')
EOF
	[ $bad = 0 ] || return 1
	! dmesg | "$REPO/scripts/kernel-log" filter | grep -E "$DMESG_BAD" |
		grep -v 'CONFIG_F2FS_FAULT_INJECTION' |
		grep -vE "${DMESG_EXPECTED:-^$}"
}

# dmesg_check_clear WHAT [EXPECTED]: the check of finish over what the
# kernel logged up to here, lines of EXPECTED (an extended regex) allowed
# besides the test's own, then the log cleared (dmesg -C): a test that
# clears the log says what it expected in the part it clears.
dmesg_check_clear() {
	local keep=$DMESG_EXPECTED
	DMESG_EXPECTED=${DMESG_EXPECTED:-^$}${2:+|$2}
	check "dmesg before $1 free of WARN/BUG/Oops and f2fs errors${2:+ but the expected}" dmesg_clean
	DMESG_EXPECTED=$keep
	dmesg -C
}

# unload_packed: every f2fs_packed mount left unmounted, the module
# removed, and no slab cache of ours left (kmem_cache_destroy() keeps a
# cache that still has objects and says so): a leak fails the test that
# made it (issue 40, item 7). PROC: where /proc is (host test 06 feeds
# it made-up files).
unload_packed() {
	local m proc=${PROC:-/proc}
	grep -q '^f2fs_packed ' "$proc/modules" || return 0
	for m in $(awk '$3 == "f2fs_packed" { print $2 }' "$proc/mounts" | sort -r); do
		check "$m, left mounted, unmounts" umount "$m"
	done
	check "rmmod f2fs_packed" rmmod f2fs_packed
	check "no slab cache of ours left after rmmod" \
		not grep -q "^f2fs_packed" "$proc/slabinfo"
}

# The test's end: after a test that went wrong, only the log is checked
# (unmounting a damaged or stuck mount could hang, hiding the failure).
finish() {
	[ "$TEST_FAILURES" -ne 0 ] || unload_packed
	check "dmesg free of WARN/BUG/Oops and f2fs errors" dmesg_clean
	report
}

