# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Packed foreground GC racing user I/O: fio random overwrites (verified as
# it goes) and files created and deleted in a loop, while sync GC calls
# loop on the same volume. The race must have packed: the pass moved
# blocks while the writers ran (gc_pack_blocks). No WARN or lockup; files
# nobody touched keep their sha256; fsck is clean.
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool
mkfs_f2fs "$DISK1" -s 8
mount_fs f2fs_packed "$DISK1" /mnt/a gc_packing=on

fragment /mnt/a/keep 32 512 /tmp/keep.sha
packed=$(pack_stat /mnt/a gc_pack_blocks)

SECS=45
fio --eta=never --output=/tmp/fio.log --directory=/mnt/a \
	--time_based --runtime=$SECS --ioengine=psync \
	--name=overwrite --rw=randwrite --bs=4k --direct=1 --nrfiles=8 \
	--filesize=2m --size=16m --verify=crc32c --verify_backlog=256 \
	--verify_fatal=1 --randrepeat=1 \
	--name=churn --rw=write --bs=64k --nrfiles=8 --filesize=256k \
	--size=2m --unlink_each_loop=1 &
fio_pid=$!
"$GC_TOOL" -q -j -d off -i 1000000 -D "${SECS}s" /mnt/a > /tmp/gc.json &
gc_pid=$!

check "fio overwrites verified and churn ran under GC" wait $fio_pid
check "GC loop ran to its deadline" wait $gc_pid
log "gc: $(tr -d '\n ' < /tmp/gc.json | cut -c1-200)"
log "$(pack_stats /mnt/a)"
check "GC calls succeeded during the race" test "$(json_field "$(cat /tmp/gc.json)" successes)" -gt 0
packed=$(($(pack_stat /mnt/a gc_pack_blocks) - packed))
check "the race packed: $packed blocks through the pack pass" test "$packed" -gt 0
check "untouched files intact" sha_verify /mnt/a/keep /tmp/keep.sha
check "no record left after GC" test "$(queued_records /mnt/a)" -eq 0
umount_fsck "$DISK1" /mnt/a
mount_fs f2fs_packed "$DISK1" /mnt/a
check "untouched files intact after remount" sha_verify /mnt/a/keep /tmp/keep.sha
umount_fsck "$DISK1" /mnt/a
finish
