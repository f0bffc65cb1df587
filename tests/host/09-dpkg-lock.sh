#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A package manager running beside us (unattended-upgrades, another apt
# run) holds the dpkg lock for a while: every apt-get and dpkg that
# changes packages in our scripts and host tests waits for it (pkg_wait in
# scripts/lib.sh) instead of failing at once (issue 21: the dist test's
# dpkg -i failed on a lock another apt run held). On a scratch dpkg root,
# never the machine's: a tiny package, its admin directory's
# lock-frontend held by a background process as dpkg and apt hold it (an
# fcntl lock); dpkg -i, dpkg -r and apt-get through pkg_wait wait and
# succeed once it is released, give up after DPKG_LOCK_TIMEOUT; bare ones
# fail at once (so the lock held here is the real thing). And no call in
# our scripts and host tests goes round pkg_wait.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib/host.sh
. scripts/lib.sh

tmp=$(mktemp -d)
holder=
trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null; rm -rf "$tmp"' EXIT
root=$tmp/root
admin=$root/var/lib/dpkg
mkdir -p "$admin/updates" "$admin/info" "$tmp/pkg/DEBIAN" \
	"$tmp/pkg/usr/share/doc/f2fs-lock-probe" "$tmp/apt/lists/partial" \
	"$tmp/apt/cache" "$tmp/apt/parts"
: > "$admin/status"
: > "$tmp/apt/sources.list"
cat > "$tmp/pkg/DEBIAN/control" <<'EOF'
Package: f2fs-lock-probe
Version: 1
Architecture: all
Maintainer: f2fs-packed <f2fs-packed@lists.invalid>
Description: dpkg lock probe of f2fs_packed's host test 09
EOF
echo probe > "$tmp/pkg/usr/share/doc/f2fs-lock-probe/probe"
must "a probe package built" quietly dpkg-deb -b --root-owner-group "$tmp/pkg" "$tmp/probe.deb"
# apt on the scratch root: its status file names the admin directory
# whose lock-frontend apt takes.
apt_scratch=(-o "Dir::State::status=$admin/status" -o "Dir::Cache=$tmp/apt/cache"
	-o "Dir::State::Lists=$tmp/apt/lists" -o "Dir::Etc::SourceList=$tmp/apt/sources.list"
	-o "Dir::Etc::SourceParts=$tmp/apt/parts")

# hold SECS: the scratch root's frontend lock held for SECS by a
# background process (an fcntl lock, as dpkg's), returns once it is held.
hold() {
	rm -f "$tmp/held"
	python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[3]))' "$admin/lock-frontend" "$tmp/held" "$1" &
	holder=$!
	wait_file "$tmp/held"
}
wait_file() {
	local n=100
	until [ -e "$1" ]; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		sleep 0.1
	done
}
release() {
	kill "$holder" 2>/dev/null || :
	wait "$holder" 2>/dev/null || :
	holder=
}
# timed VAR CMD...: CMD's status; its seconds in VAR
timed() {
	local var=$1 s rc=0
	shift
	s=$(date +%s)
	"$@" > "$tmp/out" 2>&1 || rc=$?
	printf -v "$var" %s $(($(date +%s) - s))
	return $rc
}

export DPKG_LOCK_POLL=1
secs=0
hold 30
check "bare dpkg -i fails at once on the held lock (the lock is real)" \
	sh -c '! dpkg --root="$1" -i "$2" > /dev/null 2>&1' sh "$root" "$tmp/probe.deb" # lock: bare
check "bare apt-get fails at once on the held lock" \
	sh -c '! apt-get "$@" check > /dev/null 2>&1' sh "${apt_scratch[@]}" # lock: bare
release

hold 4
ok=0
timed secs pkg_wait dpkg --root="$root" -i "$tmp/probe.deb" || ok=$?
check "pkg_wait dpkg -i: waited for the lock held 4 s (${secs}s), then installed" \
	sh -c '[ "$1" = 0 ] && [ "$2" -ge 3 ] && grep -q f2fs-lock-probe "$3/status" &&
		grep -q "waiting for the lock" "$4"' sh "$ok" "$secs" "$admin" "$tmp/out"
release

hold 4
ok=0
timed secs pkg_wait apt-get "${apt_scratch[@]}" check || ok=$?
check "pkg_wait apt-get: waited for the lock held 4 s (${secs}s), then ran" \
	sh -c '[ "$1" = 0 ] && [ "$2" -ge 3 ]' sh "$ok" "$secs"
release

hold 4
ok=0
timed secs pkg_wait dpkg --root="$root" -r f2fs-lock-probe || ok=$?
check "pkg_wait dpkg -r: waited (${secs}s), then removed" \
	sh -c '[ "$1" = 0 ] && [ "$2" -ge 3 ] && [ ! -e "$3/usr/share/doc/f2fs-lock-probe/probe" ]' \
	sh "$ok" "$secs" "$root"
release

hold 60
ok=0
DPKG_LOCK_TIMEOUT=3 timed secs pkg_wait dpkg --root="$root" -i "$tmp/probe.deb" || ok=$?
check "DPKG_LOCK_TIMEOUT=3, lock held 60 s: pkg_wait gives up (${secs}s), dpkg's error shown" \
	sh -c '[ "$1" != 0 ] && [ "$2" -ge 3 ] && [ "$2" -lt 20 ] &&
		grep -q "locked by another process" "$3"' sh "$ok" "$secs" "$tmp/out"
release

# Every call that changes packages goes through pkg_wait (or gives apt
# its lock timeout itself). Quoted strings (messages) and comments left
# out; a line meant to run bare says "# lock: bare".
unwaited() {
	local f
	for f in $(our_files 'scripts/*' 'tests/*' 'bench/*' '.ci/*' Makefile); do
		[ -f "$f" ] || continue
		grep -nE '(apt-get|dpkg)' "$f" | grep -v '# lock: bare' |
			sed "s|^|$f:|"
	done | awk '{
		line = $0
		code = line; sub(/^[^:]*:[0-9]+:/, "", code)
		sub(/^[ \t]*#.*/, "", code)
		gsub(/"[^"]*"/, "", code)
		if (code ~ /apt-get([ \t]+-[^ \t]+)*[ \t]+(update|install|remove|purge|upgrade|dist-upgrade|check)/ ||
		    code ~ /dpkg[ \t]+(--root=[^ \t]*[ \t]+)?(-i|-r|-P|--install|--remove|--purge|--configure|--unpack)/)
			if (code !~ /pkg_wait/ && code !~ /DPkg::Lock::Timeout/)
				print line
	}'
}
no_unwaited() {
	local u
	u=$(unwaited)
	[ -z "$u" ] || { echo "$u" | sed 's/^/# not waiting for the dpkg lock: /'; return 1; }
}
check "every apt-get/dpkg that changes packages waits for the lock" no_unwaited
finish
