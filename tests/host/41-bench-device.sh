#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/run-device's refusals, on loop devices (the only part of it this
# host can run: it cannot load f2fs): no device, a missing path, a regular
# file, a device too small, one holding a file system or a partition table
# (refused without --force, saying what it would destroy, and left as it
# was), a mounted one (refused even with --force); and a blank device, or
# --force, gets past those checks but stops at the missing module before
# writing anything; a zoned workload is left out for a device that is not
# zoned, and refused when named.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib/host.sh

tmp=$(mktemp -d /var/tmp/bench-device.XXXXXX)
loops=
mnt=
cleanup() {
	[ -z "$mnt" ] || umount "$mnt" 2>/dev/null || :
	for l in $loops; do
		losetup -d "$l" 2>/dev/null || :
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

# refused STATUS MSG ARGS...: bench/run-device ARGS exits STATUS, saying MSG.
refused() {
	local status=$1 msg=$2 rc=0
	shift 2
	bench/run-device "$@" > "$tmp/out" 2>&1 || rc=$?
	sed 's/^/# /' "$tmp/out" | tail -3
	[ $rc -eq "$status" ] && grep -qF -- "$msg" "$tmp/out"
}

# loop SIZE: LOOP= a new loop device over a sparse file.
loop() {
	local f
	f=$(mktemp "$tmp/img.XXXXXX")
	truncate -s "$1" "$f"
	LOOP=$(losetup -f --show "$f") || return 1
	loops="$loops $LOOP"
}

# dos_label DEV: an MBR with one Linux partition (no sfdisk needed).
dos_label() {
	/usr/bin/python3 - "$1" <<'PY'
import struct, sys
entry = struct.pack('<B3sB3sII', 0, b'\x00\x02\x00', 0x83, b'\xff\xff\xff', 2048, 204800)
with open(sys.argv[1], 'r+b') as f:
    f.seek(446)
    f.write(entry)
    f.seek(510)
    f.write(b'\x55\xaa')
PY
}

# blank DEV: no signature, first MiB all zeros.
blank() {
	[ -z "$(wipefs --no-act --noheadings "$1" 2>/dev/null)" ] &&
		cmp -s -n 1048576 "$1" /dev/zero
}

check "no device: usage" refused 2 "no device given"
check "a missing path" refused 2 "does not exist" /dev/f2fs-packed-no-such-device
touch "$tmp/plain"
check "a regular file" refused 2 "is not a block device" "$tmp/plain"
check "an unknown option" refused 2 "unknown option --frobnicate" --frobnicate /dev/null

if ! losetup -f > /dev/null 2>&1 || ! loop 64M; then
	echo "ok - loop-device cases # SKIP no loop devices here"
	finish
fi

small=$LOOP
check "a device smaller than the workloads" refused 2 "smaller than the 2048 MiB" "$small"

loop 2100M
ext4=$LOOP
mkfs.ext4 -q -F "$ext4"
check "a file system is refused without --force, and named" \
	refused 2 "holds data (signatures: ext4" "$ext4"
check "the refusal says how to override" grep -qF -- "pass --force" "$tmp/out"
check "the refused device still holds its ext4" \
	sh -c "wipefs --no-act --noheadings '$ext4' | grep -q ext4"

loop 2100M
part=$LOOP
dos_label "$part"
check "a partition table is refused without --force" \
	refused 2 "holds data (signatures: dos" "$part"

if mnt=$(mktemp -d "$tmp/mnt.XXXXXX") && mount "$ext4" "$mnt" 2>/dev/null; then
	check "a mounted device is refused, even with --force" \
		refused 2 "is mounted" --force "$ext4"
	umount "$mnt"
else
	mnt=
	echo "ok - a mounted device is refused # SKIP cannot mount ext4 here"
fi

# Past the device checks, the run needs the modules this host cannot load:
# it must stop there, before writing.
if ! modprobe -n f2fs 2>/dev/null || ! modprobe -n f2fs_packed 2>/dev/null; then
	check "--force gets past the file system check, stops at the missing module" \
		refused 2 "module" --force "$ext4"
	check "... before writing: the ext4 is still there" \
		sh -c "wipefs --no-act --noheadings '$ext4' | grep -q ext4"
	check "... and before saying it destroys anything" \
		sh -c "! grep -q destroying '$tmp/out'"
	loop 2100M
	empty=$LOOP
	check "a blank device passes the device checks, stops at the missing module" \
		refused 2 "module" "$empty"
	check "... and is left blank" blank "$empty"
	check "... leaving out the zoned workload on a device that is not zoned" \
		grep -q "skipping w5-zoned-large: it needs a zoned device" "$tmp/out"
	check "a zoned workload named for a device that is not zoned is refused" \
		refused 2 "w5-zoned-large needs a host-managed zoned device" "$empty" w5-zoned-large
	check "... and the device is left blank" blank "$empty"
else
	echo "ok - stops at the missing module # SKIP the modules are installed here"
fi
finish
