# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Packing on a host-managed zoned device (null_blk, zoned, memory backed:
# 64 zones of 8 MiB, the first three conventional for f2fs's metadata;
# mkfs.f2fs -m makes one section of each zone, 4 segments). 32 files are
# interleaved 4 KiB at a time (buffered writes pushed out one by one with
# sync_file_range: on zoned f2fs O_DIRECT is buffered), every even one
# deleted, then sync foreground GC until idle, with gc_packing=off and on.
# Packing off: the extents stay; on: they drop by 90%. Both: GC frees the
# half-valid sections and f2fs resets their zones (trace
# f2fs_issue_reset_zone; after umount blkzone report shows each of them
# empty, or holding a log's current section where f2fs took the zone
# again), seg_freed counts the 4 segments of each freed section, no I/O
# error in dmesg, data intact, fsck clean.
# vm: -d 0
set -eu
. "$REPO/tests/lib/zoned.sh"

load_packed
need_gc_tool
zoned_nullb dev zpack 64 8 8 3

zoned_packing_run off off "$dev" 0 "$dev" -m "$dev"
zoned_packing_run on on "$dev" 0 "$dev" -m "$dev"
zoned_packing_checks 4 4
finish
