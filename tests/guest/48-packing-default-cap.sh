# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The default record cap (gc_pack_max_blocks) follows the section size:
# one section's blocks, never below 16384 (kept by small sections), at
# most 1/128 of RAM in records (the record size from debugfs status,
# RAM from MemTotal, which is totalram_pages()), so that a victim
# section is packed in one pass. Shapes: 2 MiB sections (a virtio disk,
# -s 1: 16384), SMR-like zones of 256 MiB (null_blk: 65536), ZNS-like
# zones of 2 GiB with 1 GiB capacity (the cap follows the zone size,
# 524288 blocks, bounded by RAM in this 2 GiB guest). A value written to
# sysfs survives a remount; the next mount takes the default again.
# Packing a whole zone with that default: bench workloads w6 and w7.
# vm: -d 1 -s 256M
set -eu
. "$REPO/tests/lib/zoned.sh"

load_packed
need_gc_tool

zns='' smr=''	# set by zoned_nullb
knob() { cat "$(sysfs_dev f2fs_packed "$1")/$2"; }
status() { cat /sys/kernel/debug/f2fs_packed/status; }
[ -d /sys/kernel/debug/f2fs_packed ] ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || :

# expected_cap BLOCKS_PER_SECTION: the default the module must choose.
expected_cap() {
	local ram rec bound cap=$1
	ram=$(($(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) * 1024))
	rec=$(status | sed -n 's/.* record: \([0-9]*\) bytes.*/\1/p' | head -1)
	bound=$((ram / 128 / rec))
	[ "$cap" -le "$bound" ] || cap=$bound
	[ "$cap" -ge 16384 ] || cap=16384
	[ "$cap" -le 1048576 ] || cap=1048576
	echo "$cap"
}

## 2 MiB sections: the former fixed default, the floor
mkfs_f2fs "$DISK1" -s 1
mount_fs f2fs_packed "$DISK1" /mnt/a
check "debugfs status shows the record size" \
	sh -c "cat /sys/kernel/debug/f2fs_packed/status | grep -qE ' record: [0-9]+ bytes, peak record memory: 0 KiB'"
check "2 MiB sections: default max records 16384" \
	test "$(knob "$DISK1" gc_pack_max_blocks)" = "$(expected_cap 512)"
check "2 MiB sections: 16384 indeed" test "$(knob "$DISK1" gc_pack_max_blocks)" = 16384
umount /mnt/a

## ZNS-like: 2 GiB zones of 1 GiB capacity
zoned_nullb zns zcapns 24 2048 1024 2
mkfs_f2fs "$zns" -m -o 30
mount_fs f2fs_packed "$zns" /mnt/a
cap=$(knob "$zns" gc_pack_max_blocks)
log "2 GiB zones: gc_pack_max_blocks $cap, MemTotal $(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) kB"
check "2 GiB zones: default max records is 524288 blocks or the RAM bound" \
	test "$cap" = "$(expected_cap 524288)"
check "2 GiB zones: the default holds the zone's 1 GiB capacity (262144)" \
	test "$cap" -ge 262144
umount /mnt/a
remove_zoned_nullb zcapns

## SMR-like: 256 MiB zones
zoned_nullb smr zsmr 20 256 256 2
mkfs_f2fs "$smr" -m -o 30
mount_fs f2fs_packed "$smr" /mnt/a gc_packing=on
check "256 MiB zones: default max records 65536" \
	test "$(knob "$smr" gc_pack_max_blocks)" = "$(expected_cap 65536)"
check "256 MiB zones: 65536 indeed (2 GiB guest)" \
	test "$(knob "$smr" gc_pack_max_blocks)" = 65536
echo 20000 > "$(sysfs_dev f2fs_packed "$smr")/gc_pack_max_blocks"
mount -o remount,gc_packing=on /mnt/a
check "a written gc_pack_max_blocks survives a remount" \
	test "$(knob "$smr" gc_pack_max_blocks)" = 20000
umount /mnt/a
mount_fs f2fs_packed "$smr" /mnt/a gc_packing=on
check "a new mount takes the default again" \
	test "$(knob "$smr" gc_pack_max_blocks)" = 65536

umount /mnt/a
remove_zoned_nullb zsmr
check "no zone errors in dmesg" zoned_dmesg_clean
finish
