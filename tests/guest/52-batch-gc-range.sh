# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# GC_RANGE keeps upstream's meaning whatever gc_pack_sections says (issue
# 20, finding 1): F2FS_IOC_GARBAGE_COLLECT_RANGE advances one section per
# f2fs_gc() call, whatever that call collected. Under free-space pressure
# a sync call goes on past its range section with greedy victims; the
# batch once advanced the range past each of them too, and the ioctl
# returned 0 with range sections never collected.
#
# The same layout on stock f2fs and on ours (packing on with 1 and with 16
# sections per call, packing off with 16): 256 MiB, -s 1, mode=lfs; a run
# of sections 5/8 valid (8 files written 4 KiB at a time round-robin, 3
# deleted), after it sections 1/8 valid that greedy GC prefers; then
# reserved_segments raised to the free sections, so that every f2fs_gc()
# call goes on after its range section (has_enough_free_secs() false).
# One sync GC_RANGE over the 5/8-valid run: every variant leaves the same
# range sections valid, with the same valid blocks, and returns what
# stock returns. Data intact, fsck
# clean, dmesg clean (finish).
# vm: -d 2 -s 256M
set -eu
. "$REPO/tests/lib/pack.sh"

load_stock
load_packed
need_gc_tool

LFS=mode=lfs,background_gc=off
# 6.1's sync GC_RANGE stops after its range section whatever the free
# space (f2fs_gc() ends a FG_GC-initiated call once it freed what it was
# asked), and 6.1 has no reserved_segments knob: the path under test is
# not there. 65 compares 6.1's GC_RANGE with stock's all the same.
kernel_at_least 6 12 ||
	skip_test "6.1's sync GC_RANGE never goes on past its range section: no pressure path"

# sections_valid TYPE MNT: "SECNO VALID" per section (-s 1).
sections_valid() {
	section_valid "/proc/fs/$1/$(basename "$(findmnt -no SOURCE "$2")")" 1
}

# free_sections TYPE DEV: free sections, from the mount's debugfs status.
free_secs() {
	awk -v n="partition info($(basename "$2"))" '
		/=====\[ partition info\(/ { on = index($0, n) > 0 }
		on && /^  - Free: / { f = $NF; gsub(/[()]/, "", f) }
		END { print f }' "/sys/kernel/debug/$1/status"
}

## the layout, written once ###################################################
mkfs_f2fs "$DISK1" -s 1
mount_fs f2fs_packed "$DISK1" /mnt/l "gc_packing=off,$LFS"
# 8 x 1536 KiB round-robin: 6 sections' worth; 3 of 8 deleted: 5/8 valid
interleave /mnt/l/r 8 1536
rm /mnt/l/r/f.0.1 /mnt/l/r/f.0.4 /mnt/l/r/f.0.6
# 8 x 1024 KiB round-robin after them, 7 of 8 deleted: 1/8 valid
interleave /mnt/l/g 8 1024
rm /mnt/l/g/f.0.[1-7]
sync
sha_record /mnt/l /tmp/l.sha
umount /mnt/l

# range MAIN: "FIRST N" the longest run of consecutive 5/8-valid sections
range_of() {
	awk '$2 == 320 { print $1 }' /tmp/valid.before | sort -n | awk '{
		if ($1 == last + 1 && run) run++; else { run = 1; s = $1 }
		if (run > best) { best = run; bs = s }; last = $1 }
		END { print bs + 0, best + 0 }'
}

# variant NAME TYPE PACKING SECTIONS: copy the layout, raise the reserve,
# one sync GC_RANGE over the run; sets NAME_rc, NAME_left, NAME_n
variant() {
	local name=$1 type=$2 mnt=/mnt/$1 opts=$LFS sys main first n rc=0 out free
	dd if="$DISK1" of="$DISK2" bs=1M count=256 conv=fsync status=none
	[ "$type" = f2fs ] || opts="gc_packing=$3,$LFS"
	mount_fs "$type" "$DISK2" "$mnt" "$opts"
	sys=$(sysfs_dev "$type" "$DISK2")
	[ "$type" = f2fs ] || echo "$4" > "$sys/gc_pack_sections"
	sections_valid "$type" "$mnt" > /tmp/valid.before
	read -r first n < <(range_of)
	main=$(f2fs_sb_u32 "$DISK2" 92)
	free=$(free_secs "$type" "$DISK2")
	echo "$free" > "$sys/reserved_segments" ||
		fail "$name: reserved_segments=$free refused"
	out=$("$GC_TOOL" -q -j -n -d off -c 1 -i 1 \
		-r "$((main + first * 512)):$((n * 512))" "$mnt") || rc=$?
	sections_valid "$type" "$mnt" > /tmp/valid.after
	eval "${name}_rc=$rc ${name}_n=$n ${name}_res=$(json_field "$out" successes)/$(json_field "$out" eagain)/$(json_field "$out" errors)"
	eval "${name}_left=$(awk -v f="$first" -v n="$n" '$1 >= f && $1 < f + n { printf "%s:%s,", $1, $2 }' /tmp/valid.after)"
	eval "${name}_greedy=$(awk '$2 == 64' /tmp/valid.before | wc -l)/$(awk '$2 == 64' /tmp/valid.after | wc -l)"
	log "$name: range sections $first..$((first + n - 1)), $free free sections made reserved: exit $rc, $(echo "$out" | tr -d '\n ' | cut -c1-160); range sections left valid $(eval echo "\$${name}_left"), 1/8-valid sections before/after $(eval echo "\$${name}_greedy")"
	check "$name: data intact" sha_verify "$mnt" /tmp/l.sha
	umount_fsck "$DISK2" "$mnt"
}

variant stock f2fs
variant one f2fs_packed on 1
variant multi f2fs_packed on 16
variant off16 f2fs_packed off 16

# shellcheck disable=SC2154
{
check "layout: a run of at least 4 range sections ($stock_n)" test "$stock_n" -ge 4
check "layout: the calls went on past the range (greedy victims collected: $stock_greedy)" \
	test "${stock_greedy%/*}" -gt "${stock_greedy#*/}"
check "stock: the call collected range sections (left valid: ${stock_left:-none})" \
	test "$(echo "$stock_left" | tr ',' '\n' | grep -c .)" -lt "$stock_n"
for v in one multi off16; do
	eval "l=\$${v}_left rc=\$${v}_rc res=\$${v}_res"
	check "$v: the range sections stock left valid, no other (${l:-none} = ${stock_left:-none})" \
		test "$l" = "$stock_left"
	check "$v: the ioctl returned what stock's did ($rc/$res = $stock_rc/$stock_res)" \
		test "$rc" -eq "$stock_rc" -a "$res" = "$stock_res"
done
}
finish
