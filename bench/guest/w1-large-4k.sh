# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Workload 1: large sections. mkfs.f2fs -s 32 (64 MiB sections), 64 files
# written block by block round-robin (4 KiB, O_DIRECT), every even file
# deleted so each section is about half valid, then sync foreground GC
# until idle. Files of 2 MiB (two victim sections) to keep TCG runs short;
# FULL=1: the seed's 4 MiB; QUICK=1: -s 4, 64 x 256 KiB.
# size: 2048 256
. "$REPO/bench/guest/lib.sh"

W_NAME=w1-large-4k

W_MKFS=$(quick "-s 32 -o 30" "-s 4")
W_FILES=64
W_KIB=$(quick 2048 256 4096)
W_BS=4k
W_TITLE="large section (mkfs $W_MKFS), $W_FILES x $W_KIB KiB block-interleaved, half deleted"
W_PARAMS="$W_FILES files x $W_KIB KiB, round-robin $W_BS O_DIRECT writes, even files deleted"

bench_main
