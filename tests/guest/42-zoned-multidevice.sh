# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# 40-zoned-packing on a multi-device volume: a regular virtio disk
# ($DISK1, 48 MiB) holds the metadata and the node logs, a host-managed
# zoned null_blk device (64 zones of 8 MiB, none conventional, 512 B
# sectors like the virtio disk) the data: mkfs.f2fs -m -c ZONED $DISK1,
# mounted through $DISK1. 24 files interleaved (three sections), every
# even one deleted, sync FG_GC until idle, packing off and on: extents,
# sha256, fsck, and the zone resets on the zoned device (trace, blkzone
# report against f2fs's sections) as there; seg_freed counts 4 segments
# per freed section.
# vm: -d 1 -s 48M
set -eu
. "$REPO/tests/lib/zoned.sh"

load_packed
need_gc_tool
zoned_nullb dev zmulti 64 8 8 0 512
# the zoned device's blocks follow the disk's in f2fs's address space
start=$(($(blockdev --getsz "$DISK1") / 8))

ZONED_FILES=24
zoned_packing_run off off "$dev" "$start" "$DISK1" -m -c "$dev" "$DISK1"
zoned_packing_run on on "$dev" "$start" "$DISK1" -m -c "$dev" "$DISK1"
zoned_packing_checks 4 3
finish
