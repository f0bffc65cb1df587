# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Workload 2: default sections. mkfs.f2fs -s 1 (2 MiB sections), 128 files
# x 256 KiB written block by block round-robin (4 KiB, O_DIRECT), every
# even file deleted, then sync foreground GC until idle. With one segment
# per section an inode's blocks can only be regrouped within 2 MiB.
# QUICK: 128 x 64 KiB.
# size: 256 256
. "$REPO/bench/guest/lib.sh"

W_NAME=w2-default-4k

W_MKFS="-s 1"
W_FILES=128
W_KIB=$(quick 256 64)
W_BS=4k
W_TITLE="default section (mkfs $W_MKFS), $W_FILES x $W_KIB KiB block-interleaved, half deleted"
W_PARAMS="$W_FILES files x $W_KIB KiB, round-robin $W_BS O_DIRECT writes, even files deleted"

bench_main
