# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Workload 5: workload 1 on a host-managed zoned device, where a section
# is a zone. In the VM: null_blk, memory backed, 32 zones of 64 MiB (the
# first two conventional: mkfs.f2fs wants more than one zone's worth of
# metadata here), so that mkfs.f2fs -m makes sections of 32 segments, as
# mkfs -s 32 does for workload 1; under
# bench/run-device: the zoned drive itself. 64 files interleaved 4 KiB at
# a time with buffered writes each pushed to the device at once (zoned
# f2fs turns O_DIRECT into buffered writes, which writeback would lay out
# per file), every even file deleted, then sync foreground GC until idle.
# Files of 2 MiB (FULL=1: 4 MiB); QUICK=1: 32 zones of 8 MiB, 64 x 256 KiB.
# size: 2048 256
. "$REPO/bench/guest/lib.sh"

W_NAME=w5-zoned-large

W_ZONED=$(quick "32 64 64 2" "32 8 8 3")
W_MKFS=$(quick "-o 30" "")
W_FILES=64
W_KIB=$(quick 2048 256 4096)
W_TITLE="zoned, section = zone ($(echo "$W_ZONED" | awk '{ print $1 " x " $2 " MiB zones" }')), $W_FILES x $W_KIB KiB block-interleaved, half deleted"
W_PARAMS="$W_FILES files x $W_KIB KiB, round-robin 4k buffered writes each pushed out with sync_file_range, even files deleted"

w_write() {
	interleave_buffered "$1" "$W_FILES" "$W_KIB"
}

bench_main
