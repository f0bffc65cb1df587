#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A torture mount that fails (tests/lib/torture.sh, torture_mount) must
# say why where the suite's summary looks: tests/run prints a failed
# test's "not ok" lines and the "# " lines after them (scripts/lib.sh,
# fail_lines), which is all CI shows of a guest test. Run on the host,
# mount, dmesg and the sysfs path stubbed.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib/host.sh
. scripts/lib.sh

# summary CASE [FS [OPTS]]: what tests/run would print of torture_mount's
# output in CASE: "mount" fails the mount, "urgent" leaves no sysfs
# directory; FS is TORTURE_FS (default packed), OPTS the mount options
# (default mode=lfs).
summary() {
	local log
	log=$(mktemp)
	REPO=$top KVER=none CASE=$1 TORTURE_FS=${2:-packed} \
		OPTS=${3:-mode=lfs} bash -c '
		. tests/lib/torture.sh
		mount() { [ "$CASE" != mount ] || { echo "wrong fs type" >&2; return 32; }; }
		dmesg() { echo "[ 9.9] F2FS_PACKED-fs (vdb): Cannot recover all fsync data errno=-22"; }
		sysfs_dev() { echo /nonexistent/f2fs_packed/vdb; }
		findmnt() { echo /dev/vdb; }
		echo "ok - a check before"
		torture_mount "s4lfs: recovery mount after shutdown 1" /dev/vdb \
			"$(mktemp -d)" "$OPTS"
		echo "ok - a check after"' > "$log" 2>/dev/null || :
	fail_lines "$log"
	rm -f "$log"
}

out=$(summary mount)
check "a failed mount is the failure named" \
	grep -qx "not ok - s4lfs: recovery mount after shutdown 1" <<< "$out"
check "mount's own message follows it" \
	grep -q "^# mount -t f2fs_packed -o mode=lfs /dev/vdb: wrong fs type" <<< "$out"
check "the kernel's last lines follow it" \
	grep -q "^# dmesg: .*Cannot recover all fsync data" <<< "$out"
out=$(summary urgent)
check "a mount whose gc_urgent cannot be set is the failure named" \
	grep -qx "not ok - s4lfs: recovery mount after shutdown 1" <<< "$out"
check "and says gc_urgent could not be set, and why" \
	grep -q "^# mounted, but gc_urgent could not be set: .*/nonexistent/" <<< "$out"
# TORTURE_FS=stock: the kernel's f2fs, every gc_packing= left out (a
# remount adds one to the phase's own; the first version kept the second)
out=$(summary mount stock background_gc=on,gc_packing=on,gc_packing=auto)
check "stock: mounted as f2fs without gc_packing=" \
	grep -q "^# mount -t f2fs -o background_gc=on /dev/vdb: wrong fs type" <<< "$out"
finish
