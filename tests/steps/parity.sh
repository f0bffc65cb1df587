# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest side of `make parity` (scripts/parity boots it with scripts/vm):
# the differential lane of tests/lib/parity.sh over SEEDS.
# Arguments: STEPS "MKFS_OPTS" "VARIANTS" SEED...
set -eu
. "$REPO/tests/lib/parity.sh"

steps=$1 mkfs=$2
# shellcheck disable=SC2034 # read by tests/lib/parity.sh
PARITY_VARIANTS=$3
shift 3
parity_setup
for seed in "$@"; do
	parity_seed "$seed" "$steps" "$mkfs"
done
log "parity: $# seeds, $PARITY_FAILED divergences"
finish
