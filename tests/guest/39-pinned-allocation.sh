# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The crash stock 6.1 has (xfstests f2fs/011): under checkpoint=disable,
# fallocate() of a pinned file until no free section is left runs GC,
# whose emptied segments stay unusable until a checkpoint, and then
# allocated past the last section and oopsed in update_sit_entry().
# swapon's block migration allocated pinned sections the same way. Both
# must fail with ENOSPC, warn (rate-limited), and lose nothing: packing
# off and on, one and four segments per section (the crash needs four,
# see below). 6.12 had upstream's fix
# already; 6.1 gets ours (patches/6.1/0004).
# vm: -d 1 -s 1G
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
PIN_WARN='no free section left for a pinned file|reclaim enough free segment'

# warnings: how many pinned-allocation warnings dmesg holds (ten per five
# seconds pass the rate limit; this test makes two per volume).
warnings() {
	dmesg | grep -cE "$PIN_WARN" || true
}

# enospc CMD...: CMD fails, and says "No space left on device".
enospc() {
	local out
	if out=$("$@" 2>&1); then
		echo "# $* succeeded"
		return 1
	fi
	echo "$out" | grep -q 'No space left on device' ||
		{ echo "# $*: $out"; return 1; }
}

for segs in 1 4; do
	for packing in off on; do
		tag="-s $segs, packing $packing"
		mkfs_f2fs "$DISK1" -s "$segs"
		mount_fs f2fs_packed "$DISK1" /mnt/a \
			"background_gc=off,checkpoint=disable:10%,gc_packing=$packing"
		# f2fs/011's layout: 1 MiB files, every other one deleted after
		# a checkpoint, as work for the GC the allocation loop runs
		# (whose emptied segments stay unusable); and a swap file
		# whose 4 KiB extents swapon must migrate to whole sections
		in_order /mnt/a/data 256 1024
		sync	# checkpointed, the deleted half stays unusable
		delete_even /mnt/a/data 256
		sync
		sha_record /mnt/a/data /tmp/data.sha
		interleave /mnt/a/swap 2 8192
		chmod 600 /mnt/a/swap/f.0.0
		mkswap /mnt/a/swap/f.0.0 > /dev/null
		sync
		sha_record /mnt/a/swap /tmp/swap.sha
		warned=$(warnings)
		touch /mnt/a/pinned
		f2fs_io pinfile set /mnt/a/pinned > /dev/null
		check "$tag: pinned fallocate to full fails with ENOSPC" \
			enospc fallocate -l 768M /mnt/a/pinned
		# With one segment per section the block count runs out first
		# and stock refuses as well; with four, the free sections do,
		# where stock oopsed and our check must refuse and say why.
		if [ "$segs" -gt 1 ]; then
			check "$tag: it warns" test "$(warnings)" -gt "$warned"
			check "$tag: swapon that must migrate fails with ENOSPC" \
				enospc swapon /mnt/a/swap/f.0.0
		elif swapon /mnt/a/swap/f.0.0 2>/dev/null; then
			log "$tag: swapon found room to migrate"
			swapoff /mnt/a/swap/f.0.0
		fi
		check "$tag: data intact" sha_verify /mnt/a/data /tmp/data.sha
		check "$tag: swap file intact" sha_verify /mnt/a/swap /tmp/swap.sha
		check "$tag: no record left" test "$(queued_records /mnt/a)" -eq 0
		# before the rm: freeing a whole section while checkpoints are
		# disabled trips a stock 6.1 warning in __locate_dirty_segment()
		check "$tag: checkpoint=enable" \
			mount -o remount,checkpoint=enable /mnt/a
		rm /mnt/a/pinned
		umount_fsck "$DISK1" /mnt/a
		mount_fs f2fs_packed "$DISK1" /mnt/a
		check "$tag: data intact after remount" sha_verify /mnt/a/data /tmp/data.sha
		umount /mnt/a
	done
done
finish
