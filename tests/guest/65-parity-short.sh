# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The parity lane's short form (make parity, tests/lib/parity.sh): one
# seeded sequence of 40 operations on stock f2fs and on f2fs_packed
# (knobs off, packing on x 64) on fresh 128 MiB volumes, -s 1. Knobs
# off: every step's return code, free/dirty/prefree counts and GC events,
# then the block map and contents, as stock's, apart from the named
# divergences (tests/lib/parity-divergences). Packing on: the same return
# codes and contents, and GC_RANGE's sections as upstream's rule frees
# them. Seed 13's sequence has two spread steps, a sync GC_RANGE over a
# dirty section and a sync GC that collects under checkpoint=disable
# (issue 39's case).
# vm: -d 1 -s 128M
set -eu
# shellcheck disable=SC2034 # read by tests/lib/parity.sh
PARITY_VARIANTS="off on64"
. "$REPO/tests/lib/parity.sh"

parity_setup
parity_seed "${PARITY_SHORT_SEED:-13}" 40 "-s 1"
finish
