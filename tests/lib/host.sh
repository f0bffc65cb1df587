# SPDX-License-Identifier: GPL-2.0
#
# Helpers for host test scripts (tests/host/*.sh, run by tests/run on this
# machine): "ok - ..." / "not ok - ..." lines, `finish` sets the status.

HOST_FAILURES=0

fail() {
	echo "not ok - $*"
	HOST_FAILURES=$((HOST_FAILURES + 1))
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

log() {
	echo "# $*"
}

finish() {
	if [ "$HOST_FAILURES" -eq 0 ]; then
		echo "# result: pass"
		exit 0
	fi
	echo "# result: $HOST_FAILURES failure(s)"
	exit 1
}
