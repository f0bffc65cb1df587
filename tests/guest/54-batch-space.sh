# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The batch's free-space bound at the limit (issue 20, finding 4): one-block
# files, so that every block the pass moves dirties a node page of its own
# (its inode), on a volume whose free sections barely take one victim's
# blocks and nodes. The bound once counted the data blocks alone, at join
# time: one call with gc_pack_sections 64 moved 6710 blocks and dirtied as
# many inodes, leaving the checkpoint after it without room (6.1: an oops
# in update_sit_entry; 6.12: a checkpoint error).
# Layout: 128 MiB, -s 1, mode=lfs; one-block files written in order until
# the user space is full, every 8th deleted: victims 7/8 valid (448
# blocks, 448 inodes each), the free sections about the overprovision.
# Variants from the same layout: gc_pack_sections 1 and 64, one sync GC
# call each while a buffered writer overwrites a 16 MiB file three times
# and fsyncs it (mode=lfs: every overwrite takes new blocks, from free
# sections, with no GC until they run low: it takes them while a batch is
# held). Each: the call and the writer succeed, the checkpoint after them
# (sync) sets no checkpoint error, GC moved blocks, and the free sections
# stay at NR_GC_CHECKPOINT_SECS (3) or more after the checkpoint. Data intact, fsck clean, dmesg clean (finish).
# vm: -d 2 -s 128M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool

LFS=mode=lfs,background_gc=off

free_secs() {
	awk -v n="partition info($(basename "$1"))" '
		/=====\[ partition info\(/ { on = index($0, n) > 0 }
		on && /^  - Free: / { f = $NF; gsub(/[()]/, "", f) }
		END { print f }' /sys/kernel/debug/f2fs_packed/status
}

mkfs_f2fs "$DISK1" -s 1
mount_fs f2fs_packed "$DISK1" /mnt/l "gc_packing=on,$LFS"
# a 16 MiB file the writer overwrites, then one-block files until the
# user space is full (fio stops on ENOSPC)
direct_write /mnt/l/hot 16384
mkdir -p /mnt/l/s
fio --name=s --directory=/mnt/l/s --nrfiles=12288 --filesize=4k --size=48m \
	--bs=4k --rw=write --direct=1 --file_service_type=sequential \
	--refill_buffers --eta=never --output=/dev/null > /dev/null 2>&1 || :
must "layout: at least 4096 one-block files" \
	test "$(find /mnt/l/s -type f -size 4k | wc -l)" -ge 4096
find /mnt/l/s -type f ! -size 4k -delete
(cd /mnt/l/s && ls | sort -V | awk 'NR % 8 == 0' | xargs rm -f)
sync
sha_record /mnt/l/s /tmp/l.sha
log "layout: $(find /mnt/l/s -type f | wc -l) one-block files left, $(free_secs "$DISK1") free sections, $(cat "$(sysfs_dev f2fs_packed "$DISK1")/reserved_segments") reserved segments"
umount /mnt/l

variant() {	# NAME SECTIONS
	local mnt=/mnt/$1 sys out wpid wrc=0 rc=0 moved
	dd if="$DISK1" of="$DISK2" bs=1M count=128 conv=fsync status=none
	mount_fs f2fs_packed "$DISK2" "$mnt" "gc_packing=on,$LFS"
	sys=$(sysfs_dev f2fs_packed "$DISK2")
	echo "$2" > "$sys/gc_pack_sections"
	moved=$(pack_stat "$mnt" moved_blocks_foreground)
	fio --name=w --filename="$mnt/hot" --size=16m --bs=64k --rw=write \
		--loops=3 --end_fsync=1 --refill_buffers --eta=never \
		--output=/dev/null &
	wpid=$!
	out=$("$GC_TOOL" -q -j -n -d off -c 1 -i 1 "$mnt") || rc=$?
	wait "$wpid" || wrc=$?
	sync
	eval "${1}_ok=$(json_field "$out" successes) ${1}_rc=$rc ${1}_wrc=$wrc"
	eval "${1}_moved=$(($(pack_stat "$mnt" moved_blocks_foreground) - moved))"
	eval "${1}_free=$(free_secs "$DISK2") ${1}_stops=$(cat "$sys/gc_pack_space_stops")"
	eval "${1}_cperr=0"
	cp_error "$mnt" && eval "${1}_cperr=1"
	log "$1: gc exit $rc ($(echo "$out" | tr -d '\n ' | cut -c1-120)), writer exit $wrc, moved $(eval echo "\$${1}_moved"), free sections after sync $(eval echo "\$${1}_free"), space stops $(eval echo "\$${1}_stops"), held $(cat "$sys/gc_pack_held_sections")"
	check "$1: data intact" sha_verify "$mnt/s" /tmp/l.sha
	umount_fsck "$DISK2" "$mnt"
}

variant one 1
variant multi 64

# shellcheck disable=SC2154
{
for v in one multi; do
	eval "ok=\$${v}_ok rc=\$${v}_rc wrc=\$${v}_wrc cperr=\$${v}_cperr moved=\$${v}_moved"
	check "$v: the GC call succeeded ($rc, $ok)" test "$rc" -eq 0 -a "$ok" -eq 1
	check "$v: the writer succeeded ($wrc)" test "$wrc" -eq 0
	check "$v: no checkpoint error" test "$cperr" -eq 0
	check "$v: GC moved blocks ($moved)" test "$moved" -gt 0
	eval "free=\$${v}_free"
	check "$v: free sections after the checkpoint >= 3 ($free)" test "$free" -ge 3
done
}
finish
