# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The batch's SSR floor follows f2fs_need_SSR() (issue 39, item 4):
# outside mode=lfs f2fs sends GC's writes to SSR under checkpoint=disable
# and under gc_urgent high (GC_URGENT_HIGH) whatever the free space, so a
# batch takes no further victim there: one section per step, as upstream.
# Shown here for gc_urgent; checkpoint=disable takes the same branch of
# gc_batch_needs_ssr(), but this layout written under it gave the sync
# call no victim at all (on main too), so it is not shown yet.
# One layout on a fresh volume per case (512 MiB, -s 1, 16 files of 2 MiB
# written round-robin, every other one deleted: 16 half-valid sections),
# one sync GC call with gc_pack_sections 16:
#  - plain mount: the batch holds sections (the layout can batch);
#  - gc_urgent 1: no section held, the batch stopped on space;
#  - mode=lfs with gc_urgent 1: LFS never turns to SSR, it batches.
# On main the gc_urgent call held 15 sections.
# Data intact, fsck clean.
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool

one() {	# NAME MOUNT-OPTIONS URGENT
	local held stops out
	mkfs_f2fs "$DISK1" -s 1
	mount_fs f2fs_packed "$DISK1" /mnt/s "gc_packing=on,background_gc=off$2"
	sys=$(sysfs_dev f2fs_packed "$DISK1")
	fragment /mnt/s/d 16 2048 /tmp/s.sha
	echo "$3" > "$sys/gc_urgent"
	held=$(cat "$sys/gc_pack_held_sections")
	stops=$(cat "$sys/gc_pack_space_stops")
	out=$("$GC_TOOL" -q -j -n -d off -S 16 -c 1 -i 1 /mnt/s) || true
	echo 0 > "$sys/gc_urgent"
	held=$(($(cat "$sys/gc_pack_held_sections") - held))
	stops=$(($(cat "$sys/gc_pack_space_stops") - stops))
	log "$1: $(echo "$out" | tr -d '\n ' | cut -c1-120); held $held, space stops $stops; $(pack_stats /mnt/s)"
	eval "${1}_held=$held ${1}_stops=$stops"
	check "$1: data intact" sha_verify /mnt/s/d /tmp/s.sha
	case $2 in
	*checkpoint=disable*)
		check "$1: checkpoint=enable" mount -o remount,checkpoint=enable /mnt/s ;;
	esac
	umount_fsck "$DISK1" /mnt/s
}

one plain "" 0
one urgent "" 1
one lfs ",mode=lfs" 1
# shellcheck disable=SC2154 # set by one()
{
check "plain: the batch holds sections ($plain_held)" test "$plain_held" -gt 0
check "gc_urgent high: no section held, a space stop ($urgent_held, $urgent_stops)" \
	test "$urgent_held" -eq 0 -a "$urgent_stops" -ge 1
check "mode=lfs, gc_urgent high: the batch holds sections ($lfs_held)" \
	test "$lfs_held" -gt 0
}
finish
