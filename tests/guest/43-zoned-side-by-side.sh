# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Stock f2fs and f2fs_packed side by side on zoned devices, and what stock
# fsck.f2fs says about zone capacity < zone size. Three null_blk devices
# (64 zones of 8 MiB, 6 MiB capacity, the first 4 conventional: f2fs's
# metadata takes zones 0-2, so zone 3 is a conventional section of the
# main area) mounted at once: stock f2fs, f2fs_packed with gc_packing=off
# and with gc_packing=on. The same workload on each (24 files of 1 MiB
# interleaved, every even one deleted, sync FG_GC until idle): packing
# drops the extents only on f2fs_packed with packing on; data intact
# everywhere.
#
# fsck.f2fs 1.15 then fails "free segment_count matched with CP" on all
# three, stock included: since "f2fs: apply zone capacity to all zone
# type" (in 6.1.y) the kernel gives every section the zone capacity,
# conventional ones too, and never writes past it; fsck (is_usable_seg())
# still counts a conventional zone's segments as all usable, so it finds
# one more free segment per conventional main section than the kernel's
# checkpoint records. The test asserts that f2fs_packed gives exactly
# stock's fsck report (packing off: the same lines, values included;
# packing on: the same verdicts and the same difference) and that the
# difference is exactly that tail of the conventional sections (or none,
# for an fsck.f2fs that agrees with the kernel).
# vm: -d 0
set -eu
. "$REPO/tests/lib/zoned.sh"

load_stock
load_packed
need_gc_tool

declare -A dev type opts before after gc report
type=([stock]=f2fs [off]=f2fs_packed [on]=f2fs_packed)
opts=([stock]="background_gc=off" [off]="gc_packing=off,background_gc=off"
      [on]="gc_packing=on,background_gc=off")
vols="stock off on"

for v in $vols; do
	zoned_nullb "dev[$v]" "z$v" 64 8 6 4
	mkfs_f2fs "${dev[$v]}" -m
done
# (mkfs.f2fs 1.15 also counts the segments of zone 0, before the
# metadata, as free: fsck.f2fs finds fewer than its checkpoint says.)
log "after mkfs.f2fs, fsck.f2fs counts $(fsck_extra_free "$(fsck_dry "${dev[on]}")") free segment(s) more than the checkpoint"
for v in $vols; do
	mount_fs "${type[$v]}" "${dev[$v]}" "/mnt/$v" "${opts[$v]}"
done
for v in $vols; do
	interleave_buffered "/mnt/$v/d" 24 1024
	delete_even "/mnt/$v/d" 24
done
sync
for v in $vols; do
	sha_record "/mnt/$v/d" "/tmp/$v.sha"
	before[$v]=$(total_extents "/mnt/$v/d")
	gc[$v]=$(gc_until_idle "/mnt/$v")
	after[$v]=$(total_extents "/mnt/$v/d")
	log "$v (${type[$v]}): extents ${before[$v]} -> ${after[$v]}, gc $(echo "${gc[$v]}" | tr -d '\n ')"
	check "$v: data intact after GC" sha_verify "/mnt/$v/d" "/tmp/$v.sha"
done
for v in $vols; do
	umount "/mnt/$v" || fail "umount /mnt/$v"
done

check "workload is interleaved (>= 2000 extents: ${before[stock]})" test "${before[stock]}" -ge 2000
check "stock: extents stay (${before[stock]} -> ${after[stock]})" \
	test $((after[stock] * 10)) -ge $((before[stock] * 9))
check "f2fs_packed, packing off: extents stay (${before[off]} -> ${after[off]})" \
	test $((after[off] * 10)) -ge $((before[off] * 9))
check "f2fs_packed, packing on: extents drop by >= 90% (${before[on]} -> ${after[on]})" \
	test $((after[on] * 10)) -le "${before[on]}"
for v in stock off on; do
	check "$v: GC freed sections" test "$(json_field "${gc[$v]}" free_sections_after)" -gt \
		"$(json_field "${gc[$v]}" free_sections_before)"
done

# The fsck reports, and the tool's view of the conventional sections:
# main area from zone main_blkaddr / 2048 on, zones 0-3 conventional, 3
# usable segments of 4 in every section for the kernel.
conv_secs=$((4 - $(f2fs_sb_u32 "${dev[stock]}" 92) / 2048))
declare -A delta
for v in $vols; do
	out=$(fsck_dry "${dev[$v]}")
	report[$v]=$(fsck_verdicts "$out")
	delta[$v]=$(fsck_extra_free "$out")
	log "$v: fsck.f2fs: $(echo "${report[$v]}" | grep -c 'Ok\.\.') ok, failing: $(echo "${report[$v]}" | grep Fail | tr -s ' '); it counts ${delta[$v]} free segment(s) more than the checkpoint"
	check "$v: fsck.f2fs fails nothing but the free segment count" \
		fsck_fails_only_free_count "${report[$v]}"
done
# 0 once fsck.f2fs gives conventional sections the zone capacity too
check "stock: fsck.f2fs's extra free segments are the unusable tails of the $conv_secs conventional main section(s) (${delta[stock]})" \
	test "${delta[stock]}" -eq "$conv_secs" -o "${delta[stock]}" -eq 0
check "f2fs_packed gives fsck.f2fs stock's free segment count, packing off and on (${delta[off]}, ${delta[on]})" \
	test "${delta[off]}" -eq "${delta[stock]}" -a "${delta[on]}" -eq "${delta[stock]}"
check "fsck.f2fs: f2fs_packed (packing off) reports exactly what stock reports" \
	test "${report[off]}" = "${report[stock]}"
check "fsck.f2fs: f2fs_packed (packing on) gives stock's verdicts" \
	fsck_same_verdicts "${report[on]}" "${report[stock]}"

for v in $vols; do
	mount_fs "${type[$v]}" "${dev[$v]}" "/mnt/$v"
	check "$v: data intact after remount" sha_verify "/mnt/$v/d" "/tmp/$v.sha"
	umount "/mnt/$v" || fail "umount /mnt/$v"
done
check "no I/O or zone errors in dmesg" zoned_dmesg_clean
finish
