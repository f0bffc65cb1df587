# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Workload 4: seg_freed accounting. mkfs.f2fs -s 4 (8 MiB sections), 400
# files x 1 MiB written one after the other, every even file deleted (each
# segment half valid), then exactly 24 sync foreground GC ioctl calls:
# successes, and seg_freed / sec_freed summed over f2fs_gc_end.
# QUICK: the same (the writes are large and quick).
# size: 1024 1024
. "$REPO/bench/guest/lib.sh"

W_NAME=w4-seg-freed

W_MKFS="-s 4"
W_FILES=400
W_KIB=1024
W_GC_CALLS=24
W_VARIANTS="stock off found offset"
W_TITLE="seg_freed accounting (mkfs $W_MKFS), $W_FILES x $W_KIB KiB in order, even deleted, $W_GC_CALLS sync GC calls"
W_PARAMS="$W_FILES files x $W_KIB KiB written in order, even files deleted, $W_GC_CALLS sync GC calls"

w_write() {
	fio_in_order "$1" $W_FILES $W_KIB
}

bench_main
