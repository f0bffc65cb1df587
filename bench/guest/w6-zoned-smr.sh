# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Workload 6: SMR-like zones. Workload 5 with the zone size of real
# host-managed SMR drives, 256 MiB (one section of 128 segments, 65536
# blocks, four times the former fixed record cap of 16384): null_blk,
# memory backed, 40 zones of 256 MiB, the first two conventional for the
# metadata. 16 files of 16 MiB interleaved 64 KiB at a time (buffered
# writes each pushed out with sync_file_range) fill exactly one zone,
# their data log's first (HOT in the 6.1 runs: debugfs status), which
# then opens the next; every even file deleted: the victim zone is half
# valid (32767 blocks: twice the former cap). Then sync foreground GC until idle.
# 40 zones, not 24: mkfs.f2fs -o 30 reserves 15 sections of this size,
# and with 22 main sections only 16 were free after mkfs, so the data
# log's move to its second section left 15 and f2fs_balance_fs() ran
# foreground GC during the write, which moved the layout into the COLD
# log (GC's destination) and left that log's current segment in the
# zone: sync GC then found no victim (EAGAIN; runs of 2026-12-01 in
# bench/RESULTS.md, w6 and w7). With 38 main sections the write stays above the
# reserve. 16 files, not 32: a 32-file run also came apart on the 24
# zones (likely the same GC; not rerun). Only the written zones take guest memory (about 0.5 GiB).
# QUICK=1: 32 zones of 8 MiB, 32 x 256 KiB, 4 KiB at a time.
# Not in the QUICK default list (bench/run).
# size: 10240 256
# mem: 2G 2G
. "$REPO/bench/guest/lib.sh"

W_NAME=w6-zoned-smr

W_ZONED=$(quick "40 256 256 2" "32 8 8 3")
W_MKFS=$(quick "-o 30" "")
W_FILES=$(quick 16 32)
# one zone exactly: its last block sends the data log to a new section
# (a log's current section is never a victim)
W_KIB=$(quick 16384 256)
W_BS=$(quick 64k 4k)
# packing's default settings beside the former fixed record cap
W_VARIANTS="stock off offset fixedcap"
W_TITLE="SMR-like zones ($(echo "$W_ZONED" | awk '{ print $1 " x " $2 " MiB" }')), $W_FILES x $W_KIB KiB interleaved $W_BS at a time, half deleted"
W_PARAMS="$W_FILES files x $W_KIB KiB, round-robin $W_BS buffered writes each pushed out with sync_file_range, even files deleted"

w_write() {
	interleave_buffered "$1" "$W_FILES" "$W_KIB" "$W_BS"
}

bench_main
