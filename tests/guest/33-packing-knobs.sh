# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The packing policy and its knobs: gc_packing=on|off|auto (auto = large
# sections only), shown in /proc/mounts, rejected when malformed, applied
# again on remount; sysfs knobs reject out-of-range values with EINVAL and
# keep their value; counters are read-only; debugfs shows the status.
# vm: -d 2 -s 256M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
mkfs_f2fs "$DISK1" -s 1
mkfs_f2fs "$DISK2" -s 4

knob() { cat "$(sysfs_dev f2fs_packed "$1")/$2"; }
opt_shown() { grep -q "^$1 .* f2fs_packed .*gc_packing=$2[, ]" /proc/mounts; }

## mount option and its default
mount_fs f2fs_packed "$DISK1" /mnt/a
mount_fs f2fs_packed "$DISK2" /mnt/b
check "default is gc_packing=auto in /proc/mounts" opt_shown "$DISK1" auto
check "auto: off with one segment per section" test "$(knob "$DISK1" gc_inode_local_packing)" = 0
check "auto: on with 4 segments per section" test "$(knob "$DISK2" gc_inode_local_packing)" = 1
check "default order is file offset (1)" test "$(knob "$DISK1" gc_pack_order)" = 1
check "default max records is 16384 on 2 MiB sections (the floor; test 48: larger sections)" test "$(knob "$DISK1" gc_pack_max_blocks)" = 16384

mount -o remount,gc_packing=on /mnt/a
check "remount gc_packing=on shown" opt_shown "$DISK1" on
check "remount gc_packing=on enables packing" test "$(knob "$DISK1" gc_inode_local_packing)" = 1
mount -o remount,gc_packing=off /mnt/b
check "remount gc_packing=off shown" opt_shown "$DISK2" off
check "remount gc_packing=off disables packing" test "$(knob "$DISK2" gc_inode_local_packing)" = 0
check "malformed gc_packing on remount is refused" \
	not mount -o remount,gc_packing=maybe /mnt/b
check "refused remount keeps gc_packing=off" opt_shown "$DISK2" off
umount /mnt/b
check "malformed gc_packing on mount is refused" \
	not mount -t f2fs_packed -o gc_packing=yes "$DISK2" /mnt/b
check "empty gc_packing on mount is refused" \
	not mount -t f2fs_packed -o gc_packing= "$DISK2" /mnt/b
# 6.x: gc_pack.c's own line; 7.x: fs_parser's, naming the fs type.
check "dmesg names the bad value" sh -c \
	"dmesg | grep -qE \"gc_packing=yes: expected on, off or auto|\\] f2fs_packed: Bad value for 'gc_packing'\""
mount_fs f2fs_packed "$DISK2" /mnt/b gc_packing=on
check "gc_packing=on at mount shown" opt_shown "$DISK2" on

## sysfs knobs
sys=$(sysfs_dev f2fs_packed "$DISK1")
rejects() {	# KNOB VALUE: the write fails with EINVAL, the value stays
	local old err
	old=$(cat "$sys/$1")
	if err=$( (echo "$2" > "$sys/$1") 2>&1); then
		return 1
	fi
	echo "$err" | grep -q "Invalid argument" && [ "$(cat "$sys/$1")" = "$old" ]
}
accepts() { echo "$2" > "$sys/$1" && [ "$(cat "$sys/$1")" = "$2" ]; }
for v in 2 -1 abc 4294967296; do
	check "gc_inode_local_packing rejects $v" rejects gc_inode_local_packing "$v"
	check "gc_pack_order rejects $v" rejects gc_pack_order "$v"
done
for v in 0 63 1048577; do
	check "gc_pack_max_blocks rejects $v" rejects gc_pack_max_blocks "$v"
done
check "gc_inode_local_packing accepts 0" accepts gc_inode_local_packing 0
check "gc_inode_local_packing accepts 1" accepts gc_inode_local_packing 1
check "gc_pack_order accepts 0" accepts gc_pack_order 0
check "gc_pack_max_blocks accepts 64" accepts gc_pack_max_blocks 64
check "gc_pack_max_blocks accepts 1048576" accepts gc_pack_max_blocks 1048576
for c in blocks inodes packed_sections early_drains alloc_fallbacks dropped stale peak_queued queued; do
	check "counter gc_pack_$c is read-only" not sh -c "echo 0 > '$sys/gc_pack_$c'"
done
check "debugfs status shows packing" grep -q "GC packing: on (gc_packing=on)" /sys/kernel/debug/f2fs_packed/status

umount /mnt/a
umount /mnt/b
finish
