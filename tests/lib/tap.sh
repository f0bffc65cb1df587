# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# "ok - ..." / "not ok - ..." reporting shared by host and guest test
# scripts (sourced by tests/lib/host.sh and tests/lib/guest.sh).

TEST_FAILURES=0
TEST_SKIP=

fail() {
	echo "not ok - $*"
	TEST_FAILURES=$((TEST_FAILURES + 1))
}

# check "description" CMD...: one assertion, recorded, never aborts.
check() {
	local what=$1
	shift
	if "$@"; then
		echo "ok - $what"
	else
		fail "$what"
	fi
}

# must "description" CMD...: a step the rest of the test depends on.
must() {
	local what=$1
	shift
	if "$@"; then
		echo "ok - $what"
	else
		fail "$what"
		finish
	fi
}

# not CMD...: succeeds when CMD fails (check "... is refused" not ...).
not() {
	! "$@" 2>/dev/null
}

log() {
	echo "# $*"
}

# skip_test WHY: the test cannot run here (a series without what it
# tests): "# SKIP WHY", then `finish`, whose other checks still count;
# without a failure it ends with status 77, which tests/run counts as
# skipped, never as passed (scripts/lib.sh, TEST_SKIPPED).
skip_test() {
	TEST_SKIP=$*
	echo "# SKIP $*"
	finish
}

# The test's verdict; `finish` (defined by host.sh / guest.sh) ends here.
report() {
	if [ "$TEST_FAILURES" -eq 0 ] && [ -n "$TEST_SKIP" ]; then
		echo "# result: skip"
		exit 77
	fi
	if [ "$TEST_FAILURES" -eq 0 ]; then
		echo "# result: pass"
		exit 0
	fi
	echo "# result: $TEST_FAILURES failure(s)"
	exit 1
}
