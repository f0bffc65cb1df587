#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm from a repository the guest's own tmpfs mounts would hide:
# a clone below /tmp (the same holds for /root, /run, /mnt and /var/tmp,
# where a user may well have cloned it). The guest must still find
# scripts/guest-init and the repository's files, and the script's exit
# status must come back.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib/host.sh

tmp=$(mktemp -d /tmp/f2fs-packed-repo.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo
mkdir -p "$repo/build"
cp -a scripts "$repo/"
mkdir -p "$repo/tests/lib"
cp tests/lib/errors.sh "$repo/tests/lib/"
# the accelerator probe's verdict, so that the copy does not probe again
cp -a build/accel-* "$repo/build/" 2>/dev/null || :
echo "marker $$" > "$repo/marker"
cat > "$tmp/probe.sh" <<'PROBE'
test -x "$REPO/scripts/guest-init" && echo "guest: scripts/guest-init found"
grep -q "^marker " "$REPO/marker" && echo "guest: repository files readable"
exit 7
PROBE

rc=0
"$repo/scripts/vm" -d 0 -t 300 -l "$tmp/console.log" -o "$tmp/out" \
	"$tmp/probe.sh" > "$tmp/vm.out" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/vm.out"
grep -v '^\[ *[0-9]' "$tmp/console.log" | sed 's/^/# console: /' | tail -5
check "the guest boots into scripts/guest-init from $repo" \
	grep -q "guest: scripts/guest-init found" "$tmp/console.log"
check "the guest reads the repository's files" \
	grep -q "guest: repository files readable" "$tmp/console.log"
check "the guest script's exit status comes back (7: $rc)" test $rc -eq 7
finish
