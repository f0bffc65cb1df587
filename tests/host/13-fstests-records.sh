#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fstests lane's storm counters (tests/lib/fstests-records.awk) read
# the mount logs of every series alike: 6.1's sysfs gc_urgent prints the
# mode's name, 6.12's and 7.x's its number; GC's moved blocks are the
# same counters in every series, where gc_foreground_calls counts
# victims in 6.1 but f2fs_gc() calls in 6.12 and 7.x.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib/host.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

records() { awk -v t="$1" -f tests/lib/fstests-records.awk "$2"; }
is() { [ "$1" = "$2" ] || { log "got '$1', want '$2'"; return 1; }; }

# As tests/lib/fstests-mount recorded them on 6.1 and on 6.12, a storm
# mount each of TEST_DEV and SCRATCH_DEV, then one normal mount.
cat > "$tmp/6.1.log" <<'LOG'
mount generic/013 vda f2fs_packed bggc=sync urgent=GC_URGENT_HIGH pack_sections=16
mount generic/013 vdb f2fs_packed bggc=sync urgent=GC_URGENT_HIGH pack_sections=16
umount generic/013 vdb bg_gc=97 moved=4096 packed_blocks=2048
umount generic/013 vda bg_gc=666 moved=12 packed_blocks=0
mount generic/013 vdb f2fs_packed bggc=on urgent=GC_NORMAL pack_sections=1
umount generic/013 vdb bg_gc=3 moved=0 packed_blocks=0
mount generic/014 vda f2fs_packed bggc=sync urgent=GC_URGENT_HIGH pack_sections=16
LOG
sed -e 's/urgent=GC_URGENT_HIGH/urgent=4/' -e 's/urgent=GC_NORMAL/urgent=0/' \
	"$tmp/6.1.log" > "$tmp/6.12.log"
sed -e 's/ packed_blocks=[0-9]*/ packed_blocks=-/' -e 's/f2fs_packed/f2fs/' \
	"$tmp/6.12.log" > "$tmp/stock.log"

check "6.1: 2 of 3 mounts stormed, GC's calls and moved blocks summed" \
	is "$(records generic/013 "$tmp/6.1.log")" "3 2 766 4108 2048"
check "6.12, 7.x (gc_urgent reads 4): the same" \
	is "$(records generic/013 "$tmp/6.12.log")" "3 2 766 4108 2048"
check "stock: no packed blocks" \
	is "$(records generic/013 "$tmp/stock.log")" "3 2 766 4108 -"
check "a test still mounted: its mount counted, no counters" \
	is "$(records generic/014 "$tmp/6.12.log")" "1 1 0 0 -"
check "a test with no records" is "$(records generic/015 "$tmp/6.12.log")" "0 0 0 0 -"
finish
