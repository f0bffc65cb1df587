# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Workload 6: SMR-like zones. Workload 5 with the zone size of real
# host-managed SMR drives, 256 MiB (one section of 128 segments, 65536
# blocks, four times the former fixed record cap of 16384): null_blk,
# memory backed, 24 zones of 256 MiB, the first two conventional for the
# metadata (mkfs.f2fs -o 30 reserves 15 sections of this size: 24 zones
# leave room for the data). 16 files of 16 MiB interleaved 64 KiB at a
# time (buffered writes each pushed out with sync_file_range), so that
# they fill one zone, every even file deleted: the victim zone is half
# valid (32768 blocks: twice the former cap). Then sync foreground GC
# until idle. 16 files, not 32: in one run with 32 files of 64 KiB
# writes the odd files' blocks came out apart from the even ones' (one
# dirty segment after the deletes; the cause is not established, maybe
# the COLD/HOT log split noted in README's Results). Only the written
# zones take guest memory (about 0.5 GiB).
# QUICK=1: 32 zones of 8 MiB, 32 x 256 KiB, 4 KiB at a time.
# Not in the QUICK default list (bench/run).
# size: 6144 256
# mem: 2G 2G
. "$REPO/bench/guest/lib.sh"

W_NAME=w6-zoned-smr

W_ZONED=$(quick "24 256 256 2" "32 8 8 3")
W_MKFS=$(quick "-o 30" "")
W_FILES=$(quick 16 32)
# one 64 KiB write per file more than a zone: the zone fills and the
# data log moves on (a log's current section is never a victim)
W_KIB=$(quick 16448 256)
W_BS=$(quick 64k 4k)
# packing's default settings beside the former fixed record cap
W_VARIANTS="stock off offset fixedcap"
W_TITLE="SMR-like zones ($(echo "$W_ZONED" | awk '{ print $1 " x " $2 " MiB" }')), $W_FILES x $W_KIB KiB interleaved $W_BS at a time, half deleted"
W_PARAMS="$W_FILES files x $W_KIB KiB, round-robin $W_BS buffered writes each pushed out with sync_file_range, even files deleted"

w_write() {
	interleave_buffered "$1" "$W_FILES" "$W_KIB" "$W_BS"
}

bench_main
