#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS on the host: `scripts/dkms-install` builds and installs f2fs_packed
# for every installed kernel of a supported series; run again on the same
# tree it keeps that install and builds nothing (idempotent, and cheap); a
# kernel of an unsupported series is refused by DKMS's
# BUILD_EXCLUSIVE_KERNEL; the kernel hook DKMS installs rebuilds it for a
# kernel that lost it (as after an upgrade within a series). A kernel in a
# build root (scripts/suite-root) gets it from dkms-install through the
# root's DKMS; the hook is exercised on the host's own. The install is
# left in place for guest test 15-dkms. The Debian package is host test
# 20's (built from the release tarball, purged at its end); `dkms add .`
# from a clone is host test 21's.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/lib.sh
. tests/lib/host.sh

kernels=$(installed_supported_kernels)
version=$(cat VERSION)
name=f2fs_packed
pkg=f2fs-packed-dkms
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log "kernels $(echo $kernels), $name $version"

# Start from a machine without the package: it owns the same DKMS entry.
if dpkg-query -W -f '${Status}\n' "$pkg" 2>/dev/null | grep -q ' installed$'; then
	must "earlier $pkg removed" quietly pkg_wait dpkg -P "$pkg"
fi

# Kernels in build roots (scripts/suite-root) as ROOT:KVER; their DKMS is
# the root's own, run by scripts/dkms-install.
rooted=
for root in $(suite_roots); do
	for d in "$root"/lib/modules/*/build; do
		[ -d "$d" ] && rooted="$rooted $root:$(basename "$(dirname "$d")")"
	done
done
log "kernels in build roots:${rooted:- none}"
check "headers of every supported series installed ($(supported_series))" \
	test "$(for k in $kernels $rooted; do series_of_kver "${k#*:}"; done | sort -u | paste -sd ' ')" = \
		"$(supported_series | tr ' ' '\n' | sort | paste -sd ' ')"

# rooted_installed: the root's DKMS installed ours for each of its kernels,
# where its modprobe finds it.
rooted_installed() {
	local rk root k f
	for rk in $rooted; do
		root=${rk%%:*} k=${rk#*:}
		in_root "$root" dkms status -m "$name" -v "$version" -k "$k" |
			grep -q ': installed$' || { log "not installed in $root for $k"; return 1; }
		f=$(modinfo -b "$root" -k "$k" -n "$name") || return 1
		log "in $root: modinfo -n $name: $f"
		case $f in
		*/lib/modules/"$k"/updates/dkms/"$name".ko*) ;;
		*) return 1 ;;
		esac
		modinfo -b "$root" -k "$k" -F version "$name" | grep -qx "$version" || return 1
	done
}

must "scripts/dkms-install" quietly scripts/dkms-install
check "dkms status: installed for every kernel" dkms_installed "$name" "$version" $kernels
check "module in /lib/modules/<kernel>/updates/dkms of each, ours" ko_from_dkms "$name" "$version" $kernels
check "build roots: installed for each of their kernels by their DKMS" rooted_installed
# ko_stamps: the installed modules' paths and mtimes, host and roots.
ko_stamps() {
	local k rk
	for k in $kernels; do
		stat -c '%n %Y' "/lib/modules/$k/updates/dkms/$name".ko* 2>/dev/null
	done
	for rk in $rooted; do
		stat -c '%n %Y' "${rk%%:*}/lib/modules/${rk#*:}/updates/dkms/$name".ko* 2>/dev/null
	done
	return 0
}
ko_stamps > "$tmp/stamps1"
check "scripts/dkms-install again (idempotent)" \
	sh -c 'scripts/dkms-install > "$1" 2>&1 || { tail -20 "$1" | sed "s/^/# /"; exit 1; }' sh "$tmp/out"
kept() {
	ko_stamps > "$tmp/stamps2"
	sed 's/^/# /' "$tmp/stamps2"
	[ -s "$tmp/stamps1" ] && cmp -s "$tmp/stamps1" "$tmp/stamps2" &&
		grep -q 'is unchanged: keeping it' "$tmp/out"
}
check "it kept the install: no module rebuilt, host or build root" kept
check "dkms status: still installed for every kernel" dkms_installed "$name" "$version" $kernels
check "build roots: still installed" rooted_installed
tree_ok() {
	local d=/usr/src/$name-$version s
	for s in $(supported_series); do
		test -f "$d/upstream/$s/fs/f2fs/gc.c" || { log "no upstream/$s"; return 1; }
	done
	test ! -e "$d/src/f2fs" &&
		grep -qxF "BUILD_EXCLUSIVE_KERNEL=\"$(series_kernel_regex)\"" "$d/dkms.conf"
}
check "/usr/src/$name-$version: upstream f2fs of every series, BUILD_EXCLUSIVE_KERNEL of META" tree_ok

# What the kernel packages run after installing a kernel's headers: a
# kernel that has no module (as after an upgrade within a series) gets it.
last=$(echo "$kernels" | tail -1)
must "dkms uninstall for $last" quietly dkms uninstall -m "$name" -v "$version" -k "$last"
check "the kernel hook rebuilds it for $last" \
	quietly /etc/kernel/header_postinst.d/dkms "$last"
check "dkms status: installed for $last again" dkms_installed "$name" "$version" "$last"

# A kernel of a series we have no patches for: fake headers of 5.10,
# handed to DKMS the way a rig with headers elsewhere would.
unsupported_refused() {
	local hdr=$tmp/headers-5.10
	mkdir -p "$hdr/include"
	printf 'VERSION = 5\nPATCHLEVEL = 10\nSUBLEVEL = 0\n' > "$hdr/Makefile"
	if dkms build -m "$name" -v "$version" -k 5.10.0-f2fs-packed-test \
		--kernelsourcedir "$hdr" > "$tmp/out" 2>&1; then
		log "dkms build for 5.10 succeeded"
		return 1
	fi
	sed 's/^/# dkms: /' "$tmp/out" | head -5
	grep -q BUILD_EXCLUSIVE "$tmp/out"
}
check "dkms build for a 5.10 kernel is refused (BUILD_EXCLUSIVE)" unsupported_refused
check "dkms status: 5.10 attempt left every kernel installed" dkms_installed "$name" "$version" $kernels

# The install stays for guest test 15-dkms (`dkms remove -m f2fs_packed
# -v VERSION --all` clears it; host test 20 does, before its package).
finish
