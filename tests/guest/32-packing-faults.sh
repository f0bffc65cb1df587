# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Packing under stress, each with data (sha256), fsck and dmesg checked:
#  - FAULT_SLAB_ALLOC injected during packed FG_GC: blocks without a record
#    are migrated at once (fallback counter moves), nothing is lost;
#  - a tiny gc_pack_max_blocks: the queue drains early and still packs;
#  - the knobs toggled while GC runs: nothing lost, no record left over;
#  - fsfreeze while GC loops: on 6.1 and 6.12 each GC ioctl holds the
#    superblock's write reference, so the freeze waits for the running
#    call and the loop's next call waits for the thaw; no exit inside GC
#    is reached (that is 7.x's freezing() exit). Checked: no deadlock,
#    the loop goes on after the thaw, data intact.
#  - a shutdown (checkpoint error) in the middle of GC: no record left
#    (gc_pack_queued 0, rmmod's slab check clean), synced data intact.
# dmesg-expected: Stopped filesystem due to reason
# vm: -d 3 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool
FAULT_SLAB_ALLOC=$((1 << 15))

# prepare MNT DIR: an interleaved, half deleted set of 32 x 512 KiB files
# in MNT/DIR, recorded in /tmp/DIR.sha.
prepare() {
	fragment "$1/$2" 32 512 "/tmp/$2.sha"
}

## fault injection
mkfs_f2fs "$DISK1" -s 8
mount_fs f2fs_packed "$DISK1" /mnt/a gc_packing=on
prepare /mnt/a faults
sys=$(sysfs_dev f2fs_packed "$DISK1")
before=$(total_extents /mnt/a/faults)
echo "$FAULT_SLAB_ALLOC" > "$sys/inject_type"
echo 4 > "$sys/inject_rate"
gc_until_idle /mnt/a >/dev/null || true
echo 0 > "$sys/inject_rate"
after=$(total_extents /mnt/a/faults)
log "faults: extents $before -> $after, $(pack_stats /mnt/a)"
check "fault injection: allocation fallbacks counted" test "$(pack_stat /mnt/a gc_pack_alloc_fallbacks)" -gt 0
check "fault injection: blocks still packed" test "$(pack_stat /mnt/a gc_pack_blocks)" -gt 0
check "fault injection: data intact" sha_verify /mnt/a/faults /tmp/faults.sha
check "fault injection: no record left after GC" test "$(queued_records /mnt/a)" -eq 0

## fsfreeze while GC loops
prepare /mnt/a freeze
gc_until_idle /mnt/a > /tmp/freeze.json &
gc=$!
sleep 1
check "fsfreeze during GC" fsfreeze -f /mnt/a
sleep 2
check "thaw after GC" fsfreeze -u /mnt/a
check "GC loop ends after thaw" wait $gc
check "freeze: data intact" sha_verify /mnt/a/freeze /tmp/freeze.sha

## checkpoint error (shutdown) in the middle of GC
prepare /mnt/a shutdown
gc_until_idle /mnt/a > /dev/null 2>&1 &
gc=$!
sleep 0.5
check "shutdown during GC" f2fs_io shutdown 2 /mnt/a
wait $gc || true
log "shutdown: $(pack_stats /mnt/a)"
check "shutdown: no record left after GC" test "$(queued_records /mnt/a)" -eq 0
umount /mnt/a
mount_fs f2fs_packed "$DISK1" /mnt/a
for d in faults freeze shutdown; do
	check "$d: data intact after recovery mount" sha_verify /mnt/a/$d /tmp/$d.sha
done
umount_fsck "$DISK1" /mnt/a

## early drain
mkfs_f2fs "$DISK2" -s 8
mount_fs f2fs_packed "$DISK2" /mnt/b gc_packing=on
echo 64 > "$(sysfs_dev f2fs_packed "$DISK2")/gc_pack_max_blocks"
prepare /mnt/b drain
before=$(total_extents /mnt/b/drain)
gc_until_idle /mnt/b >/dev/null
after=$(total_extents /mnt/b/drain)
log "early drain: extents $before -> $after, $(pack_stats /mnt/b)"
check "early drain: drains counted" test "$(pack_stat /mnt/b gc_pack_early_drains)" -gt 0
check "early drain: peak queue bounded by max + one segment" \
	test "$(pack_stat /mnt/b gc_pack_peak_queued)" -le $((64 + 512))
check "early drain: extents still drop by half ($before -> $after)" test $((after * 2)) -le "$before"
check "early drain: data intact" sha_verify /mnt/b/drain /tmp/drain.sha
umount_fsck "$DISK2" /mnt/b

## knobs toggled while GC runs
mkfs_f2fs "$DISK3" -s 8
mount_fs f2fs_packed "$DISK3" /mnt/c gc_packing=on
sys=$(sysfs_dev f2fs_packed "$DISK3")
prepare /mnt/c toggle
(
	for ((i = 0; i < 400; i++)); do
		echo $((i % 2)) > "$sys/gc_inode_local_packing"
		echo $((i / 2 % 2)) > "$sys/gc_pack_order"
	done
) &
toggler=$!
gc_until_idle /mnt/c >/dev/null
wait $toggler
log "toggle: $(pack_stats /mnt/c)"
check "toggle: data intact" sha_verify /mnt/c/toggle /tmp/toggle.sha
check "toggle: no record left after GC" test "$(queued_records /mnt/c)" -eq 0
umount_fsck "$DISK3" /mnt/c
mount_fs f2fs_packed "$DISK3" /mnt/c
check "toggle: data intact after remount" sha_verify /mnt/c/toggle /tmp/toggle.sha
umount_fsck "$DISK3" /mnt/c
# A record still allocated would make kmem_cache_destroy() complain.
check "rmmod f2fs_packed: every record freed" rmmod f2fs_packed
finish
