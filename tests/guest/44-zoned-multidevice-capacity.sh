# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# 42-zoned-multidevice with zone capacity < zone size (6 MiB of 8), and
# stock f2fs for comparison. f2fs_packed, packing on: 24 files interleaved
# (four sections' capacity), every even one deleted, sync FG_GC until
# idle: extents drop, seg_freed counts the 3 usable segments of each
# freed section, blkzone report agrees with f2fs's sections, data intact.
#
# The kernel gives every section the zone capacity, the virtio disk's
# too; fsck.f2fs 1.15 counts the disk's sections whole (see
# 43-zoned-side-by-side) and so fails its free segment check after any
# checkpoint. Stock f2fs runs the same workload on the same layout:
# f2fs_packed must get stock's fsck verdicts, with the same difference
# (the disk sections' unusable segments, or none for an fsck.f2fs that
# agrees with the kernel).
# vm: -d 1 -s 48M
set -eu
. "$REPO/tests/lib/zoned.sh"

load_stock
load_packed
need_gc_tool
zoned_nullb dev zmcap 64 8 6 0 512
start=$(($(blockdev --getsz "$DISK1") / 8))

ZONED_FILES=24 ZONED_FSCK_AS_STOCK=1 \
	zoned_packing_run cap on "$dev" "$start" "$DISK1" -m -c "$dev" "$DISK1"

mkfs.f2fs -q -f -m -c "$dev" "$DISK1" >/dev/null || fail "mkfs.f2fs for stock f2fs"
mount_fs f2fs "$DISK1" /mnt/stock background_gc=off
interleave_buffered /mnt/stock/d 24 1024
delete_even /mnt/stock/d 24
sync
sha_record /mnt/stock /tmp/stock.sha
gc_until_idle /mnt/stock >/dev/null
check "stock: data intact after GC" sha_verify /mnt/stock /tmp/stock.sha
umount /mnt/stock || fail "umount /mnt/stock"
out=$(fsck_dry "$DISK1")
stock_fsck=$(fsck_verdicts "$out")
stock_extra=$(fsck_extra_free "$out")
# the disk's main area: sections from main_blkaddr up to the zoned device
disk_secs=$(((start - $(f2fs_sb_u32 "$DISK1" 92)) / 2048))

# shellcheck disable=SC2154 # cap_* are set by zoned_packing_run
{
check "packing on: extents drop by >= 90% ($cap_before -> $cap_after)" \
	test $((cap_after * 10)) -le "$cap_before"
check "GC freed sections (sec_freed $cap_sec >= 4)" test "$cap_sec" -ge 4
check "seg_freed counts the 3 usable segments of each freed section ($cap_seg = 3 x $cap_sec)" \
	test "$cap_seg" -eq $((3 * cap_sec))
check "zones match f2fs ($cap_stale stale), reset zones empty ($cap_empty)" \
	test "$cap_stale" -eq 0 -a "$cap_empty" -ge 1
log "stock fsck.f2fs: failing: $(echo "$stock_fsck" | grep Fail | tr -s ' '); $stock_extra free segment(s) more than the checkpoint"
log "f2fs_packed fsck.f2fs: failing: $(echo "$cap_fsck" | grep Fail | tr -s ' '); $cap_extra free segment(s) more than the checkpoint"
check "stock: fsck.f2fs fails nothing but the free segment count" \
	fsck_fails_only_free_count "$stock_fsck"
check "stock: fsck.f2fs's extra free segments are the unusable tails of the disk's $disk_secs section(s) ($stock_extra)" \
	test "$stock_extra" -eq "$disk_secs" -o "$stock_extra" -eq 0
check "f2fs_packed gets stock's fsck.f2fs verdicts" \
	fsck_same_verdicts "$cap_fsck" "$stock_fsck"
check "f2fs_packed gets stock's fsck.f2fs free segment difference ($cap_extra, $stock_extra)" \
	test "$cap_extra" -eq "$stock_extra"
}
check "no I/O or zone errors in dmesg" zoned_dmesg_clean
finish
