# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/host/50-cross-series.sh: one step on the volume
# /dev/vda, which that test hands from boot to boot of different kernel
# series. The sha256 of every file is kept in OUT/sums, beside the image.
#
# usage (as a scripts/vm script): cross-series.sh create|extend MODULE...
#   create  mkfs, write interleaved files, delete half, packing GC
#   extend  verify every file, add a generation of files, GC, verify
#   MODULE  f2fs (stock) or f2fs_packed, one after the other in one boot:
#           the two modules load beside each other
# Every module's turn ends with umount and fsck.f2fs clean; the boot ends
# with dmesg clean.
set -eu
. "$REPO/tests/lib/pack.sh"

step=$1
shift
dev=$DISK1
mnt=/mnt/cross
sums=$F2FS_PACKED_OUT/sums
log "kernel $(uname -r), $step with $*"

# gc MODULE: sync foreground GC until idle, packing on for ours.
gc() {
	if [ "$1" = f2fs_packed ]; then
		echo 1 > "$(sysfs_dev f2fs_packed "$dev")/gc_inode_local_packing"
	fi
	gc_until_idle $mnt > /dev/null || { fail "GC on $(uname -r)"; return; }
}

for module; do
	case $module in
	f2fs) load_stock ;;
	f2fs_packed) load_packed ;;
	*) fail "unknown module $module"; finish ;;
	esac
	if [ "$step" = create ]; then
		mkfs_f2fs "$dev" -s 4
		mount_fs "$module" "$dev" $mnt
		interleave "$mnt/gen0" 16 512
		delete_even "$mnt/gen0" 16
		sync
		gc "$module"
		sha_record $mnt "$sums"
		step=extend
	else
		mount_fs "$module" "$dev" $mnt
		check "every file intact under $module of $(uname -r)" sha_verify $mnt "$sums"
		gen=gen$(find $mnt -maxdepth 1 -name 'gen*' | wc -l)
		interleave "$mnt/$gen" 8 256
		delete_even "$mnt/$gen" 8
		sync
		gc "$module"
		sha_record $mnt "$sums"
		check "every file intact after GC by $module of $(uname -r)" sha_verify $mnt "$sums"
	fi
	umount_fsck "$dev" $mnt
done
finish
