# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Guest side of scripts/demo.
set -eu
. "$REPO/tests/lib/pack.sh"

FILES=32
KIB=1024
load_stock
load_packed
echo "== stock f2fs and f2fs_packed loaded side by side:"
grep -E '^f2fs(_packed)? ' /proc/modules | cut -d' ' -f1-2 | sed 's/^/   /'
echo "== workload: mkfs.f2fs -s 8 (16 MiB sections); $FILES files x $KIB KiB"
echo "   written 4 KiB at a time round-robin (O_DIRECT), every other file"
echo "   deleted; then sync foreground GC (F2FS_IOC_GARBAGE_COLLECT) until idle"

row() {	# DEV TYPE OPTIONS LABEL
	local dev=$1 mnt=/mnt/$4 before after out
	mkfs_f2fs "$dev" -s 8
	mount_fs "$2" "$dev" "$mnt" "$3"
	fragment "$mnt/d" $FILES $KIB "/tmp/$4.sha"
	before=$(total_extents "$mnt/d")
	out=$(gc_until_idle "$mnt")
	sync
	after=$(total_extents "$mnt/d")
	check "$4: data intact after GC" sha_verify "$mnt/d" "/tmp/$4.sha"
	printf '%-26s %8s -> %-8s %8s %8s\n' "$4" "$before" "$after" \
		"$(json_field "$out" successes)" \
		"$(($(json_field "$out" bytes_moved) / 4096))" >> /tmp/table
	umount_fsck "$dev" "$mnt"
}

row "$DISK1" f2fs "" "stock-f2fs"
row "$DISK2" f2fs_packed gc_packing=off "f2fs_packed,packing=off"
row "$DISK3" f2fs_packed gc_packing=on "f2fs_packed,packing=on"

echo
printf '%-26s %20s %8s %8s\n' variant "extents before->after" "GC ok" "blocks"
cat /tmp/table
echo
echo "(blocks = blocks moved by GC; GC ok = sync GC calls that freed a section)"
finish
