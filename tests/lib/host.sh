# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for host test scripts (tests/host/*.sh, run by tests/run on this
# machine).

# shellcheck source=tests/lib/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"

finish() {
	report
}
