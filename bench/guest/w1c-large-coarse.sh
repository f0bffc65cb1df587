# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Workload 1, coarse: as workload 1 (mkfs.f2fs -s 32, 64 files of 2 MiB,
# FULL=1 4 MiB, even files deleted, sync foreground GC until idle), but
# the files are interleaved in 4 coarse cycles: round-robin writes of a
# quarter file each. QUICK=1: -s 4, 64 x 256 KiB.
# size: 2048 256
. "$REPO/bench/guest/lib.sh"

W_NAME=w1c-large-coarse

W_MKFS=$(quick "-s 32 -o 30" "-s 4")
W_FILES=64
W_KIB=$(quick 2048 256 4096)
W_BS=$((W_KIB / 4))k
W_TITLE="large section (mkfs $W_MKFS), $W_FILES x $W_KIB KiB in 4 coarse cycles, half deleted"
W_PARAMS="$W_FILES files x $W_KIB KiB, round-robin $W_BS O_DIRECT writes (4 cycles), even files deleted"

bench_main
