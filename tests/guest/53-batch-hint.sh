# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A batch whose first victim starts in the middle of its section (issue 20,
# finding 2). An async GC_RANGE over one segment with migration_granularity
# 1 migrates that segment alone and leaves the victim hint
# (next_victim_seg[BG_GC]) on the section's second segment; the next
# foreground GC resumes there. With gc_pack_sections 16 its batch once
# mapped the next victim's first segments onto the first victim (the
# records were counted as belonging to it): a WARN in the pass, blocks
# never moved, sections not freed.
# Layout: 512 MiB, -s 4 (8 MiB sections), 16 files x 2 MiB written 4 KiB
# at a time round-robin, every other one deleted: 4 half-valid victims.
# One sync GC call with gc_pack_sections 16 after the hint is left:
#  - every record of the pass moved or found stale, none lost
#    (records = moved + stale, from the pass's trace event)
#  - the call resumed at the hint: its first victim is the section's
#    second segment
#  - every victim the call selected emptied, and f2fs_gc_end's sec_freed
#    counts them by upstream's rule: a section counts when every usable
#    segment of it was found free or emptied in this call, so the hinted
#    one, whose first segment the earlier call emptied, does not
# Data intact, fsck clean, dmesg clean: no WARN (finish).
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

load_packed
need_gc_tool
SEGS=4

mkfs_f2fs "$DISK1" -s "$SEGS"
mount_fs f2fs_packed "$DISK1" /mnt/h gc_packing=on,background_gc=off
sys=$(sysfs_dev f2fs_packed "$DISK1")
fragment /mnt/h/d 16 2048 /tmp/h.sha
main=$(pack_stat /mnt/h main_blkaddr)
section_valid "/proc/fs/f2fs_packed/$(basename "$DISK1")" "$SEGS" > /tmp/h.before
# the first half-valid section: where the hint is left
first=$(awk '$2 >= 900 && $2 <= 1100 { print $1 }' /tmp/h.before | sort -n | head -1)
must "layout: a half-valid section" test -n "$first"
log "layout: sections (valid): $(sort -n /tmp/h.before | tr '\n' ' ')"

echo 1 > "$sys/migration_granularity"
must "an async GC_RANGE over the section's first segment" \
	"$GC_TOOL" -q -j -n -d off -m bg -c 1 -i 1 \
	-r "$((main + first * SEGS * 512)):512" /mnt/h
# background GC only dirtied the segment's pages: write them out, so that
# the segment is empty and the hint the only trace of the call
sync
section_valid "/proc/fs/f2fs_packed/$(basename "$DISK1")" "$SEGS" > /tmp/h.mid
log "after the async one-segment GC_RANGE: section $first holds $(awk -v s="$first" '$1 == s { print $2 }' /tmp/h.mid) valid blocks"

stale=$(pack_stat /mnt/h gc_pack_stale)
trace_start f2fs_gc_end f2fs_gc_pack_end f2fs_get_victim
out=$("$GC_TOOL" -q -j -n -d off -S 16 -c 1 -i 1 /mnt/h) || true
trace_stop
stale=$(($(pack_stat /mnt/h gc_pack_stale) - stale))
section_valid "/proc/fs/f2fs_packed/$(basename "$DISK1")" "$SEGS" > /tmp/h.after
records=$(sed -n 's/.*f2fs_gc_pack_end: .* records = \([0-9]*\),.*/\1/p' \
	/sys/kernel/tracing/trace | awk '{ n += $1 } END { print n + 0 }')
moved=$(sed -n 's/.*f2fs_gc_pack_end: .* moved = \([0-9]*\),.*/\1/p' \
	/sys/kernel/tracing/trace | awk '{ n += $1 } END { print n + 0 }')
# the victims' sections (segno / SEGS) and how many of them are empty now
sed -n 's/.*f2fs_get_victim: .*LFS-mode.* victim = \([0-9]*\),.*/\1/p' \
	/sys/kernel/tracing/trace | awk -v s="$SEGS" '{ print int($1 / s) }' |
	sort -un > /tmp/h.victims
left=$(awk 'FILENAME == ARGV[1] { v[$1] = 1; next } ($1 in v)' \
	/tmp/h.victims /tmp/h.after | wc -l)
nvict=$(wc -l < /tmp/h.victims)
resumed=$(sed -n 's/.*f2fs_get_victim: .*LFS-mode.* victim = \([0-9]*\),.*/\1/p' \
	/sys/kernel/tracing/trace | head -1)
sec=$(trace_gc_end_sum sec_freed)
log "one call x 16: $(echo "$out" | tr -d '\n ' | cut -c1-120); victims $(tr '\n' ' ' < /tmp/h.victims); $records records, $moved moved, $stale stale; victims left valid $left; sec_freed $sec; held_sections $(cat "$sys/gc_pack_held_sections")"
check "the call resumed at the hint ($resumed = $((first * SEGS + 1)))" \
	test "$resumed" = $((first * SEGS + 1))
check "the call batched more than one section" test "$nvict" -ge 2
check "every record moved or stale ($records = $moved + $stale)" \
	test "$records" -eq $((moved + stale)) -a "$records" -gt 0
check "every victim emptied ($left of $nvict left valid)" test "$left" -eq 0
check "sec_freed counts the victims emptied but the hinted one ($sec = $nvict - 1)" \
	test "$sec" -eq $((nvict - 1))
check "data intact" sha_verify /mnt/h/d /tmp/h.sha
umount_fsck "$DISK1" /mnt/h
finish
