# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest side of `make torture` (scripts/torture boots it with scripts/vm):
# the seeded GC torture run of tests/lib/torture.sh over the three
# geometries. Arguments: SECONDS SEED [ROUND_SECONDS [BREAK [FS]]] (BREAK
# and FS: see TORTURE_BREAK and TORTURE_FS in tests/lib/torture.sh).
# dmesg-expected: Stopped filesystem due to reason
# dmesg-expected: Unaligned curseg\[[0-9]+\] with write pointer
set -eu
# shellcheck disable=SC2034 # both read by tests/lib/torture.sh
TORTURE_ROUND=${3:-30}
# shellcheck disable=SC2034
TORTURE_BREAK=${4:-}
# shellcheck disable=SC2034
TORTURE_FS=${5:-packed}
. "$REPO/tests/lib/torture.sh"

log "torture: $1 s, seed $2 (replay: TORTURE_SEED=$2)"
torture_all "$1" "$2"
