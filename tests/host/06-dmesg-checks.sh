#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel-log checks every guest test ends with (tests/lib/guest.sh,
# dmesg_clean; tests/lib/zoned.sh, zoned_dmesg_clean) catch f2fs's own
# error lines, under our prefix F2FS_PACKED-fs as well as stock's F2FS-fs,
# and let the lines a healthy run prints pass; and log_sections
# (tests/lib/zoned.sh) reads the logs' sections from debugfs status as
# every series prints it. Fed sample lines here, on the host, so that a
# check that cannot fail shows up without a VM.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib/host.sh

# The patterns as the guest libraries define them.
patterns=$(REPO=$top KVER=none bash -c '. tests/lib/zoned.sh
	printf "%s\n%s\n" "$DMESG_BAD" "$ZONED_DMESG_BAD"')
dmesg_bad=$(echo "$patterns" | sed -n 1p)
zoned_bad=$(echo "$patterns" | sed -n 2p)
must "guest.sh defines DMESG_BAD" test -n "$dmesg_bad"
must "zoned.sh defines ZONED_DMESG_BAD" test -n "$zoned_bad"

# catches PATTERN LINE / passes PATTERN LINE
catches() { echo "$2" | grep -qE "$1"; }
passes() { ! echo "$2" | grep -qE "$1"; }

while IFS= read -r line; do
	check "DMESG_BAD catches: ${line#*] }" catches "$dmesg_bad" "$line"
done <<'LINES'
[   12.345678] F2FS_PACKED-fs (vda): mismatched blkaddr 8192 (source_blkaddr 4096) in seg 3
[   12.345678] F2FS_PACKED-fs (vda): Inconsistent segment (70) type [0, 1] in SIT and SSA
[   12.345678] F2FS-fs (vdb): inconsistent node block, nid:5, node_footer[nid:5,ino:5,ofs:0]
[   12.345678] F2FS_PACKED-fs (vda): corrupted summary footer, run fsck to fix.
[   12.345678] F2FS_PACKED-fs (zpack): (0) : Unaligned zone reset attempted (block 3000 + 800)
[   12.345678] WARNING: CPU: 1 PID: 77 at fs/f2fs/gc.c:1234 do_garbage_collect+0x1/0x2
LINES

# Issue 40, item 7: every guest test ends with unload_packed (finish):
# what was left mounted unmounted, rmmod, and no slab cache of ours left.
# Fed a made-up /proc; umount and rmmod only say what they were asked.
unload() {	# MODULES MOUNTS SLABINFO: the checks' failures and the calls
	local p
	p=$(mktemp -d)
	printf '%b' "$1" > "$p/modules"
	printf '%b' "$2" > "$p/mounts"
	printf '%b' "$3" > "$p/slabinfo"
	REPO=$top KVER=none PROC=$p bash -c '. tests/lib/guest.sh
		umount() { echo "call: umount $*"; }
		rmmod() { echo "call: rmmod $*"; }
		unload_packed; echo "failures: $TEST_FAILURES"' | grep -E '^(call|failures):' | tr '\n' ' '
	rm -rf "$p"
}
loaded='f2fs_packed 1 0 - Live\n'
slab_ok='f2fs_inode_cache 0 0\n'
check "unload_packed: nothing of ours loaded, nothing done" \
	test "$(unload '' '' '')" = "failures: 0 "
check "unload_packed: unmounts what is left, deepest first, then rmmod" \
	test "$(unload "$loaded" '/dev/vda /mnt/a f2fs_packed rw 0 0\n/dev/vdb /mnt/a/b f2fs_packed rw 0 0\n/dev/vdc /mnt/c f2fs rw 0 0\n' "$slab_ok")" = \
	"call: umount /mnt/a/b call: umount /mnt/a call: rmmod f2fs_packed failures: 0 "
check "unload_packed: a slab cache of ours left after rmmod fails" \
	test "$(unload "$loaded" '' "${slab_ok}f2fs_packed_inode_cache 12 40\n")" = \
	"call: rmmod f2fs_packed failures: 1 "

# Issue 40, item 4: one list, in every check, the console's too; these two
# f2fs lines say damage and were in none before.
. scripts/lib.sh
while IFS= read -r line; do
	check "DMESG_BAD catches: ${line#*] }" catches "$dmesg_bad" "$line"
	check "ZONED_DMESG_BAD catches: ${line#*] }" catches "$zoned_bad" "$line"
	check "the console check (KERNEL_ERROR) catches: ${line#*] }" catches "$KERNEL_ERROR" "$line"
done <<'LINES'
[    5.123456] F2FS_PACKED-fs (vda): Stopped filesystem due to reason: 3
[    5.123456] F2FS-fs (vdb): Cannot recover all fsync data errno=-28
[   12.345678] F2FS_PACKED-fs (vda): Inconsistent segment (70) type [0, 1] in SIT and SSA
LINES
shares() { case $1 in *"$F2FS_ERROR_LINES"*) return 0 ;; esac; return 1; }
check "DMESG_BAD holds the one list of f2fs error lines" shares "$dmesg_bad"
check "ZONED_DMESG_BAD holds it" shares "$zoned_bad"
check "the console's KERNEL_ERROR holds it" shares "$KERNEL_ERROR"
# "Stopped filesystem" passes only where the test says it shuts down on
# purpose ("# dmesg-expected:" lines, read by the guest and the host).
ctmp=$(mktemp -d)
printf '%s\n' '[    5.1] F2FS_PACKED-fs (vda): Stopped filesystem due to reason: 3' \
	'F2FS_PACKED_EXIT=0' > "$ctmp/console.log"
printf '%s\n' '# SPDX-License-Identifier: GPL-2.0' 'true' > "$ctmp/plain.sh"
printf '%s\n' '# SPDX-License-Identifier: GPL-2.0' \
	'# dmesg-expected: Stopped filesystem due to reason' 'true' > "$ctmp/shutdown.sh"
console_says() {
	cp "$ctmp/$1.sh" "$ctmp/.guest-script"
	[ "$(console_verdict "$ctmp/console.log" 0 "$ctmp" 2>/dev/null)" = "$2" ]
}
check "console: a stop in a test that does not shut down: 125" console_says plain 125
check "console: a stop in a test that expects it: 0" console_says shutdown 0
guest_says() {
	REPO=$top KVER=none bash -c 'log=$1
		. tests/lib/guest.sh
		dmesg() { cat "$log"; }
		dmesg_clean' "$ctmp/$1.sh" "$ctmp/console.log" > /dev/null
}
check "guest dmesg_clean: a stop in a test that does not shut down: not clean" not guest_says plain
check "guest dmesg_clean: a stop in a test that expects it: clean" guest_says shutdown
# Every `dmesg -C` of a guest test checks what it clears
# (dmesg_check_clear, tests/lib/guest.sh).
no_bare_clear() { ! grep -nE '(^|[;&|[:space:]])dmesg -C' tests/guest/*.sh tests/lib/*.sh tests/steps/*.sh | grep -v 'tests/lib/guest.sh'; }
check "no guest test clears dmesg unchecked" no_bare_clear
rm -rf "$ctmp"

while IFS= read -r line; do
	check "ZONED_DMESG_BAD catches: ${line#*] }" catches "$zoned_bad" "$line"
done <<'LINES'
[   12.345678] F2FS_PACKED-fs (zpack): Failed to reset zone 12: error -5
[   12.345678] I/O error, dev nullb0, sector 24576 op 0x1:(WRITE) flags 0x8800
[   12.345678] F2FS_PACKED-fs (zpack): write pointer of zone 3 is inconsistent
[   12.345678] F2FS_PACKED-fs (zpack): Issue discard(3000, 3000, 800) failed, ret: -5
LINES

while IFS= read -r line; do
	check "both pass: ${line#*] }" sh -c '! echo "$3" | grep -qE "$1" &&
		! echo "$3" | grep -v "Checking entire write pointers" | grep -qE "$2"' \
		sh "$dmesg_bad" "$zoned_bad" "$line"
done <<'LINES'
[    5.123456] F2FS_PACKED-fs (vda): Mounted with checkpoint version = 7a8b9c
[    5.123456] F2FS_PACKED-fs (zpack): Checking entire write pointers
[    5.123456] F2FS_PACKED-fs (zpack): zoned devices need bggc
[    5.123456] F2FS_PACKED-fs (vda) : inject kmalloc in f2fs_kmalloc of f2fs_gc_pack_queue+0x5c/0x120
[    5.123456] F2FS_PACKED-fs (vdb): Magic Mismatch, valid(0xf2f52010) - read(0x4a08a9c2)
[    5.123456] f2fs_packed: loading out-of-tree module taints kernel.
LINES

# ---- log_sections (tests/lib/zoned.sh): the logs' current sections ----
# from debugfs status as 6.1/6.12 print it, and as 7.2/7.3 do, with a
# blkoff column before segno; unopened pinned/ATGC logs print -1.
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cat > "$tmp" <<'STATUS'
=====[ partition info(vda). #0, RW, CP: Good]=====
    TYPE             segno    secno   zoneno  dirty_seg   full_seg  valid_blk
  - COLD   data:       20        5        5          0          0          0
  - WARM   data:       16        4        4          0          0          0
  - HOT    data:       52       13       13         33          0       8193
  - Dir   dnode:        0        0        0          1          0          2
  - File  dnode:        4        1        1          1          0         16
  - Indir nodes:        8        2        2          0          0          0
  - Pinned file:       -1       -1       -1
  - ATGC   data:       -1       -1       -1
=====[ partition info(nullb0). #1, RW, CP: Good]=====
    TYPE         blkoff    segno    secno   zoneno  dirty_seg   full_seg  valid_blk
  - COLD   data:        0       67       16       16          0          0          0
  - WARM   data:        0       16        4        4          0          0          0
  - HOT    data:        2       52       13       13         33          0       8193
  - Dir   dnode:        4        0        0        0          1          0          2
  - File  dnode:       16        4        1        1          1          0         16
  - Indir nodes:        0        8        2        2          0          0          0
  - Pinned file:        0       24        6        6
  - ATGC   data:        0       -1       -1       -1
STATUS
logs_of() { [ "$(REPO=$top KVER=none bash -c '. tests/lib/zoned.sh; log_sections "$1" "$2"' sh "$tmp" "$1" | paste -sd' ')" = "$2" ]; }
check "log_sections, 6.1/6.12 columns: the secno column" logs_of vda "5 4 13 0 1 2"
check "log_sections, 7.2/7.3 columns (blkoff first): secno, and the open pinned log" \
	logs_of nullb0 "16 4 13 0 1 2 6"
finish
