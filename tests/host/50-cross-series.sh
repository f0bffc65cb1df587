#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# On-disk compatibility across kernel series: one volume goes from boot to
# boot. f2fs_packed of the newest series creates it (fragmented, packing
# GC), then in one boot per series, oldest first, stock f2fs and then
# f2fs_packed mount it, verify every file's sha256, add files and run GC;
# the newest series comes last, so it reads back what every older one
# wrote. fsck.f2fs is clean after every module's turn.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/lib.sh
. tests/lib/host.sh

out=${TEST_OUT:-$top/tests/out/50-cross-series}
mkdir -p "$out"
img=$out/volume.img
rm -f "$img" "$out/sums" "$out"/console-*.log
truncate -s 512M "$img"

series=$(supported_series | tr ' ' '\n' | sort -V)
newest=$(echo "$series" | tail -1)
kernel_of() {
	series_test_kernel "$1"
}
for s in $series; do
	must "$s: a kernel resolved ($(kernel_of "$s"))" test -n "$(kernel_of "$s")"
	# tests/run has built every series' module; alone, a missing one is
	# built here
	[ -f "build/$(kernel_of "$s")/f2fs_packed.ko" ] ||
		must "f2fs_packed built for $(kernel_of "$s")" \
			make -s KVER="$(kernel_of "$s")" module
done

# boot SERIES STEP MODULE...: one step in a VM of SERIES, console log
# kept as console-<n>-<series>-<step>.log.
nboot=0
boot() {
	local k rc=0 log
	k=$(kernel_of "$1")
	nboot=$((nboot + 1))
	log=$out/console-$nboot-$1-$2.log
	VM_DISK_1=$img scripts/vm -k "$k" -d 1 -l "$log" \
		-o "$out" tests/steps/cross-series.sh "${@:2}" \
		> "$out/step.log" 2>&1 || rc=$?
	grep -hE '^(not )?ok ' "$log" | sed 's/^/# /'
	sed 's/^/# /' "$out/step.log"
	return $rc
}

must "f2fs_packed of $newest creates the volume" boot "$newest" create f2fs_packed
for s in $series; do
	check "stock f2fs and f2fs_packed of $s read and extend it" \
		boot "$s" extend f2fs f2fs_packed
done
rm -f "$img"
finish
