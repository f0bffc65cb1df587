# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The one list of kernel error lines (issue 40, item 4), sourced by
# scripts/lib.sh (the console check on the host, console_verdict),
# tests/lib/guest.sh (dmesg_clean in every guest test), tests/lib/zoned.sh
# (zoned_dmesg_clean) and host test 06. Extended regexes, no anchors: each
# user adds its own (the console check wants the kernel's timestamp).

# The kernel's own reports. The debug kernel's (scripts/debug-kernel) are
# among them: lockdep ("WARNING: possible circular locking dependency
# detected", "WARNING: suspicious RCU usage", "INFO: trying to register
# non-static key"), "BUG: sleeping function called from invalid context",
# "BUG: KASAN: ...", and DEBUG_LIST's and debugobjects', which WARN.
# shellcheck disable=SC2034 # for the files that source this one
KERNEL_BUG_LINES='Kernel panic|BUG:|Oops|WARNING:|general protection|INFO: trying to register non-static key|soft lockup|blocked for more than|detected (expedited )?stall'

# f2fs's own lines that say the file system is damaged, or stopped, under
# our prefix or stock's: "Stopped filesystem due to reason" (6.12 on)
# only in a test that shuts down on purpose, which says so with a
# "# dmesg-expected:" line (below); "Cannot recover all fsync data" is
# roll-forward giving up. "Magic Mismatch" is a device that holds no f2fs
# (the bad-input test mounts one): not an error.
# shellcheck disable=SC2034
F2FS_ERROR_LINES='F2FS(_PACKED)?-fs \([^)]*\) ?: .*(mismatch|[Ii]nconsistent|[Cc]orrupt|run fsck|Unaligned|Stopped filesystem due to reason|Cannot recover all fsync data)'

# expected_lines SCRIPT: what a test expects of the lists above, from its
# "# dmesg-expected: REGEX" lines (one regex a line, joined with "|"), or
# nothing. The guest's dmesg check and the host's console check both read
# them, from the test's own file.
expected_lines() {
	sed -n 's/^# dmesg-expected: //p' "$1" 2>/dev/null | paste -sd'|' -
}

# latency_excused SERIES SCRIPT HUNG_SECS LINE: whether f2fs's
# checkpoint-latency report LINE (scripts/kernel-log's "latency:" class,
# 7.2 on) is no error in the test SCRIPT on SERIES (issue 40, item 3).
# Only where stock f2fs was seen making the same report in the same test
# on that series, which the test names in a "# stock-latency: SERIES
# WHERE-RECORDED" line; and never a wait of HUNG_SECS (the guest's
# hung-task timeout; 0: none) or longer, which is a hang.
latency_excused() {
	local ms
	ms=$(echo "$4" | sed -n 's/.*blocked on checkpoint for \([0-9]*\) ms.*/\1/p')
	[ -z "$ms" ] || [ "$3" -eq 0 ] || [ "$ms" -lt $(($3 * 1000)) ] || return 1
	sed -n 's/^# stock-latency: \([^ ]*\).*/\1/p' "$2" 2>/dev/null | grep -qxF "$1"
}
