# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The seed's sanity run: mkfs.f2fs -s 8, 16 x 4 MiB files, GC (sync
# foreground with packing, then gc_urgent background) and remount: data
# intact, fsck clean, no warning; BG_GC does not pack.
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool
mkfs_f2fs "$DISK1" -s 8
mount_fs f2fs_packed "$DISK1" /mnt/a gc_packing=on
interleave /mnt/a/d 16 4096 64k
delete_even /mnt/a/d 16
in_order /mnt/a/e 8 4096
sync
sha_record /mnt/a /tmp/all.sha

gc_until_idle /mnt/a >/dev/null
packed=$(pack_stat /mnt/a gc_pack_blocks)
check "foreground GC packed blocks" test "$packed" -gt 0

# Background GC must not pack: new holes, then gc_urgent only.
rm /mnt/a/e/f.0.1 /mnt/a/e/f.0.3
sync
sha_record /mnt/a /tmp/all.sha
sys=$(sysfs_dev f2fs_packed "$DISK1")
echo 1 > "$sys/gc_urgent"
sleep 10
echo 0 > "$sys/gc_urgent"
sync
check "background GC ran" test "$(cat "$sys/moved_blocks_background")" -gt 0
check "background GC did not pack" test "$(pack_stat /mnt/a gc_pack_blocks)" -eq "$packed"
check "data intact after GC" sha_verify /mnt/a /tmp/all.sha
umount_fsck "$DISK1" /mnt/a
mount_fs f2fs_packed "$DISK1" /mnt/a
check "data intact after remount" sha_verify /mnt/a /tmp/all.sha
umount_fsck "$DISK1" /mnt/a
finish
