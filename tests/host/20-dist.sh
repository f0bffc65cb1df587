#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The release tarball and the Debian packages, without git. `make dist`
# writes build/f2fs_packed-<VERSION>.tar.xz with our files only (no
# imported f2fs, no build output, no .git); unpacked, with git not on
# PATH, `make check`, the tree's host checks (05, 06, 10),
# `scripts/bootstrap help` and `make deb` work there. The two packages
# make deb builds there are lintian-clean but for the tags docs/install.md accepts;
# f2fs-packed-tools installs f2fs-gc, its man page, the units (which
# `systemd-analyze verify` passes, nothing enabled) and its options file,
# and is removed and purged without a trace; f2fs-packed-dkms, with no
# linux-source to be seen, has DKMS build and install the module for every
# kernel, and is removed and purged cleanly (modules and /usr/src tree
# gone). Host test 22 then installs with make dkms-install, and leaves that
# install for guest test 15-dkms.
#
# Not run again from the tarball, for their cost: host tests 21 and 22
# (DKMS builds), 30 (a VM boot), 40, 41 (the bench) and 50 (a VM per
# series); they do not use git (checked below).
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/lib.sh
. tests/lib/host.sh

kver=${KVER:-$(default_kver)}
version=$(cat VERSION)
name=f2fs_packed
pkg=f2fs-packed-dkms
tools=f2fs-packed-tools
arch=$(dpkg --print-architecture)
kernels=$(installed_supported_kernels)
tarball=build/$name-$version.tar.xz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log "$name $version, kernel $kver; DKMS kernels $(echo $kernels)"

# The tags lintian may report (docs/install.md, "Debian packages"): pedantic
# repeated-path-segment for /usr/src/f2fs_packed-<version>/src/, the
# layout DKMS and the module's own tree have.
accepted_tags="repeated-path-segment"

# ---- make dist ------------------------------------------------------
rm -f "$tarball"
must "make dist" quietly make -s dist
must "$tarball written" test -f "$tarball"
tar -tJf "$tarball" > "$tmp/list"
log "$(wc -l < "$tmp/list") files"
check "every path under $name-$version/" \
	sh -c "! grep -v '^$name-$version/' '$tmp/list'"
sed "s|^$name-$version/||" "$tmp/list" | LC_ALL=C sort > "$tmp/files"
check "the tarball holds our files (our_files), no other" \
	cmp -s "$tmp/files" <(our_files)
check "no imported f2fs, build output, upstream/ or .git in it" \
	sh -c "! grep -E '^(src/f2fs/|include/linux/|include/uapi/|include/trace/events/f2fs_packed\.h|build/|upstream/|results/|tests/out/|\.git(/|$))|\.(o|ko|mod|cmd)$' '$tmp/files'"
check "dkms.conf, VERSION, the units and the man page in it" \
	sh -c "grep -qx dkms.conf '$tmp/files' && grep -qx VERSION '$tmp/files' &&
		grep -qx 'tools/f2fs-gc/systemd/f2fs-gc@.service' '$tmp/files' &&
		grep -qx 'tools/f2fs-gc/systemd/f2fs-gc@.timer' '$tmp/files' &&
		grep -qx tools/f2fs-gc/f2fs-gc.8 '$tmp/files'"
if command -v git > /dev/null && git rev-parse -q --verify HEAD > /dev/null 2>&1; then
	# git's own view of the checkout: tracked and new files, not ignored.
	git ls-files --cached --others --exclude-standard |
		while read -r f; do [ -e "$f" ] && echo "$f"; done | LC_ALL=C sort > "$tmp/git"
	check "our_files lists what git does (tracked + new, not ignored)" \
		cmp -s "$tmp/git" <(our_files)
else
	echo "ok - our_files lists what git does # SKIP not a git checkout"
fi
broken_version() {
	local d=$tmp/badver rc=0
	mkdir -p "$d"
	tar -C "$d" -xJf "$tarball"
	echo "$version.1" > "$d/$name-$version/VERSION"
	"$d/$name-$version/scripts/dist" > "$tmp/out" 2>&1 || rc=$?
	sed 's/^/# /' "$tmp/out"
	[ $rc -ne 0 ] && grep -q "set PACKAGE_VERSION=\"$version.1\" in dkms.conf" "$tmp/out"
}
check "make dist refuses a VERSION that dkms.conf does not say" broken_version

# ---- the unpacked tarball, git not on PATH ----------------------------
tar -C "$tmp" -xJf "$tarball"
tree=$tmp/$name-$version
# Every command of PATH but git's.
nogit=$tmp/nogit-bin
mkdir -p "$nogit"
IFS=: read -ra dirs <<< "$PATH"
for d in "${dirs[@]}"; do
	for f in "$d"/*; do
		b=${f##*/}
		case $b in git | git-*) continue ;; esac
		[ -x "$f" ] && [ ! -e "$nogit/$b" ] && ln -s "$f" "$nogit/$b"
	done
done
# in_tree CMD...: CMD in the unpacked tree with that PATH.
in_tree() {
	(cd "$tree" && PATH=$nogit KVER=$kver "$@")
}
must "git is not on that PATH, no .git in the tree" \
	in_tree sh -c '! command -v git && test ! -e .git'
# A script may run git only where it asks whether git is there first
# (scripts/refresh falls back to diff -p, IMPORT_TRAIL=1 stops with an
# error, bench/ says 'unknown'): the tarball works without it.
unguarded_git() {
	grep -rlE --exclude='*.md' '(^|[;&|($])[[:space:]]*git[[:space:]]' "$tree/scripts" "$tree/tests" \
		"$tree/Makefile" "$tree/tools" "$tree/.ci" |
		grep -v '/tests/host/20-dist.sh$' |
		while read -r f; do
			grep -q 'command -v git' "$f" || echo "# runs git unguarded: ${f#"$tree"/}"
		done
}
no_unguarded_git() {
	local u
	u=$(unguarded_git)
	[ -z "$u" ] || { echo "$u"; return 1; }
}
check "no script of the tarball runs git without asking whether it is there" no_unguarded_git
trail_needs_git() {
	! in_tree env IMPORT_TRAIL=1 scripts/import "$kver" > "$tmp/trail" 2>&1 &&
		grep -q 'IMPORT_TRAIL=1 needs git' "$tmp/trail"
}
check "IMPORT_TRAIL=1 without git: a clear error" trail_needs_git

start=$SECONDS
check "make check, from the tarball" quietly in_tree make -s check
log "make check: $((SECONDS - start)) s"
# `make` (module and tools) is not run here on its own: make deb below
# builds the tools from the tarball (f2fs-gc of the package must run),
# and the package's DKMS builds the module from the tree the tarball gave
# it, with make module.
for t in 05-meta 06-dmesg-checks 10-import-errors; do
	mkdir -p "$tmp/out-$t"
	check "host test $t, from the tarball" \
		quietly in_tree env TEST_OUT="$tmp/out-$t" bash "tests/host/$t.sh"
done
check "scripts/bootstrap help (install-deps, then make), from the tarball" \
	quietly in_tree scripts/bootstrap help

start=$SECONDS
must "make deb, from the tarball" quietly in_tree make -s deb
log "make deb: $((SECONDS - start)) s"
deb=$tree/build/${pkg}_${version}_all.deb
tdeb=$tree/build/${tools}_${version}_$arch.deb
must "both packages built" test -f "$deb" -a -f "$tdeb"

# ---- lintian --------------------------------------------------------
lintian_clean() {
	command -v lintian > /dev/null || { log "lintian not installed (apt-get install lintian)"; return 1; }
	lintian -I -E --pedantic --tag-display-limit 0 "$deb" "$tdeb" > "$tmp/lintian" 2>&1 || :
	sed 's/^/# lintian: /' "$tmp/lintian"
	# "X: package: tag [context]"; anything else it prints is no tag.
	! awk -v ok=" $accepted_tags " '
		/^[EWIPXO]: [^ ]+: / { t = $3; if (index(ok, " " t " ") == 0) bad = 1 }
		END { exit !bad }' "$tmp/lintian"
}
check "lintian: both packages clean, but for the accepted ($accepted_tags)" lintian_clean

# ---- f2fs-packed-tools ----------------------------------------------
if dpkg-query -W -f '${Status}\n' "$tools" 2>/dev/null | grep -q ' installed$'; then
	must "earlier $tools removed" quietly pkg_wait dpkg -P "$tools"
fi
must "dpkg -i $tools" quietly pkg_wait dpkg -i "$tdeb"
check "f2fs-gc in /usr/sbin runs" quietly /usr/sbin/f2fs-gc --help
check "man page, units and options file where the package puts them" \
	test -f /usr/share/man/man8/f2fs-gc.8.gz -a -f "/lib/systemd/system/f2fs-gc@.service" \
		-a -f "/lib/systemd/system/f2fs-gc@.timer" -a -f /etc/default/f2fs-gc
check "the units are the tree's, ExecStart on /usr/sbin/f2fs-gc" \
	sh -c "cmp -s '$tree/tools/f2fs-gc/systemd/f2fs-gc@.service' '/lib/systemd/system/f2fs-gc@.service' &&
		cmp -s '$tree/tools/f2fs-gc/systemd/f2fs-gc@.timer' '/lib/systemd/system/f2fs-gc@.timer' &&
		grep -q '^ExecStart=/usr/sbin/f2fs-gc ' '/lib/systemd/system/f2fs-gc@.service'"
inst=$(systemd-escape --path /srv/f2fs-data)
verify_units() {
	systemd-analyze verify "f2fs-gc@$inst.service" "f2fs-gc@$inst.timer" > "$tmp/verify" 2>&1 ||
		{ sed 's/^/# /' "$tmp/verify"; return 1; }
	sed 's/^/# /' "$tmp/verify"
	[ ! -s "$tmp/verify" ]
}
check "systemd-analyze verify f2fs-gc@$inst.service and .timer: silent" verify_units
timer_ok() {
	grep -qx 'OnCalendar=daily' "$1" && grep -q '^RandomizedDelaySec=' "$1" &&
		grep -qx 'Persistent=true' "$1" && grep -qx 'WantedBy=timers.target' "$1"
}
check "the timer: daily, randomized delay, persistent, for timers.target" \
	timer_ok "/lib/systemd/system/f2fs-gc@.timer"
check "nothing enabled by the package" \
	sh -c "! ls /etc/systemd/system/*.wants/f2fs-gc@* 2>/dev/null &&
		! dpkg-deb -I '$tdeb' postinst 2>/dev/null | grep -q 'enable'"
must "dpkg -r $tools" quietly pkg_wait dpkg -r "$tools"
check "removed: program, man page and units gone, options file kept (conffile)" \
	sh -c "test ! -e /usr/sbin/f2fs-gc -a ! -e /usr/share/man/man8/f2fs-gc.8.gz &&
		test ! -e '/lib/systemd/system/f2fs-gc@.service' -a -f /etc/default/f2fs-gc"
must "dpkg -P $tools" quietly pkg_wait dpkg -P "$tools"
check "purged: options file gone, dpkg knows no $tools" \
	sh -c "test ! -e /etc/default/f2fs-gc && ! dpkg-query -W '$tools' 2>/dev/null"

# ---- f2fs-packed-dkms -----------------------------------------------
gone() {
	local k
	[ -z "$(dkms status -m "$name" -v "$version")" ] || { log "dkms still has it"; return 1; }
	[ ! -e "/usr/src/$name-$version" ] || { log "/usr/src/$name-$version left"; return 1; }
	for k in $kernels; do
		! ls "/lib/modules/$k/updates/dkms/$name.ko"* 2>/dev/null || return 1
		! modinfo -k "$k" -n "$name" 2>/dev/null || { log "modinfo still finds it for $k"; return 1; }
	done
}
deb_ok() {
	dpkg-deb -f "$deb" Package | grep -qx "$pkg" &&
		dpkg-deb -f "$deb" Architecture | grep -qx all &&
		dpkg-deb -c "$deb" > "$tmp/list" &&
		grep -q " ./usr/src/$name-$version/dkms.conf$" "$tmp/list" &&
		grep -q "^-rwxr-xr-x .* ./usr/src/$name-$version/scripts/import$" "$tmp/list" ||
		return 1
	for s in $(supported_series); do
		grep -q " ./usr/src/$name-$version/upstream/$s/fs/f2fs/gc.c$" "$tmp/list" ||
			{ log "no upstream/$s in the package"; return 1; }
	done
}
check "$pkg: installs /usr/src/$name-$version with upstream f2fs of every series" deb_ok
# As on a rig without linux-source: the tarballs hidden from dpkg -i.
no_source_dpkg() {
	unshare -m bash -c '. "$2/scripts/lib.sh"
		for t in /usr/src/linux-source-*.tar.xz; do
			[ -e "$t" ] && mount --bind /dev/null "$t"; done
		pkg_wait dpkg -i "$1"' sh "$1" "$top"
}
# From a machine without the module: make dkms-install (host test 22)
# owns the same DKMS entry and /usr/src tree.
if dpkg-query -W -f '${Status}\n' "$pkg" 2>/dev/null | grep -q ' installed$'; then
	must "earlier $pkg removed" quietly pkg_wait dpkg -P "$pkg"
fi
if [ -n "$(dkms status -m "$name" -v "$version")" ] || [ -e "/usr/src/$name-$version" ]; then
	must "make dkms-install's $name/$version removed" \
		quietly sh -c "dkms remove -m $name -v $version --all && rm -rf /usr/src/$name-$version"
fi
must "dpkg -i $pkg, linux-source hidden" quietly no_source_dpkg "$deb"
check "dkms status after dpkg -i: installed for every kernel" dkms_installed "$name" "$version" $kernels
check "module from the package in updates/dkms, ours" ko_from_dkms "$name" "$version" $kernels
refuses() {
	! scripts/dkms-install > "$tmp/out" 2>&1 &&
		grep -q "f2fs-packed-dkms package is installed" "$tmp/out"
}
check "scripts/dkms-install refuses while the package owns the install" refuses
must "dpkg -r $pkg" quietly pkg_wait dpkg -r "$pkg"
check "removed: no DKMS entry, no /usr/src tree, no module for any kernel" gone
must "dpkg -P $pkg" quietly pkg_wait dpkg -P "$pkg"
check "purged: dpkg knows no $pkg" sh -c "! dpkg-query -W '$pkg' 2>/dev/null"
finish
