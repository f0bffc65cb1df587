# SPDX-License-Identifier: GPL-2.0
#
# A short run of the seeded GC torture (make torture, tests/lib/torture.sh)
# with a fixed seed: about 20 s on each of -s 1, -s 4 mode=lfs and a
# zoned null_blk device, fsstress (when build/fsstress is built: make
# fsstress) and fio writers with crc32c verify, sync GC, GC_RANGE, the
# urgent GC thread, knob flips, remounts and shutdowns at once; fio
# verify, fsck.f2fs, dmesg and rmmod clean at the end. The figures line
# shows packed GC was driven.
# dmesg-expected: Stopped filesystem due to reason
# dmesg-expected: Unaligned curseg\[[0-9]+\] with write pointer
# vm: -d 2 -s 256M -t 900
set -eu
# Before the library, which defaults it to 30.
# shellcheck disable=SC2034 # read by tests/lib/torture.sh
TORTURE_ROUND=10
. "$REPO/tests/lib/torture.sh"

torture_all "${TORTURE_SMOKE_SECS:-60}" 20261202
