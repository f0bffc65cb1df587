#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `dkms add .` from a clone: in a copy of the tree as a clone or an
# unpacked release tarball has it (our files only, no imported f2fs, no
# build output, no upstream/), `dkms add .`, `dkms build
# f2fs_packed/<VERSION>` and `dkms install` for one kernel (KVER, the first
# series' test kernel), the import from Debian's linux-source tarball
# running inside DKMS's MAKE. DKMS works in trees of this test's own
# (--sourcetree, --dkmstree, --installtree), so the install that
# f2fs-packed-dkms owns (host test 22, guest test 15) stays as it is, and
# only one kernel is built: host test 22 builds for every kernel.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/lib.sh
. tests/lib/host.sh

kver=${KVER:-$(default_kver)}
series=$(series_of_kver "$kver")
version=$(cat VERSION)
name=f2fs_packed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clone=$tmp/clone
dk=(--sourcetree "$tmp/src" --dkmstree "$tmp/dkms" --installtree "$tmp/modules")
mkdir -p "$clone" "$tmp/src" "$tmp/dkms" "$tmp/modules/$kver"
log "kernel $kver, $name $version"

must "headers of $kver installed" test -d "/lib/modules/$kver/build"
must "linux-source-$series installed (the import reads it)" \
	test -f "$(linux_source_tarball "$series")"
our_files | tar -cf - -T - | tar -C "$clone" -xf -
must "the copy has dkms.conf at the top, no imported tree" \
	sh -c "test -f '$clone/dkms.conf' && test ! -e '$clone/src/f2fs' && test ! -e '$clone/upstream'"

must "dkms add . (in the copy)" quietly sh -c 'cd "$1" && shift && dkms add "$@" .' sh "$clone" "${dk[@]}"
check "dkms status: $name/$version added" \
	sh -c "dkms status ${dk[*]} -m $name -v $version | grep -q ': added$'"
must "dkms build $name/$version -k $kver" \
	quietly dkms build "${dk[@]}" "$name/$version" -k "$kver"
make_log=$(ls "$tmp/dkms/$name/$version/$kver"/*/log/make.log 2>/dev/null | head -1)
log "${make_log:-no make.log}: $(grep -m1 '^imported f2fs' "${make_log:-/dev/null}" || echo 'no import line')"
check "MAKE imported fs/f2fs from $(linux_source_tarball "$series") and patched it" \
	grep -q "^imported f2fs from kernel $series\\.[0-9]* ($(linux_source_tarball "$series") (linux-source-$series .*)), renamed, patches/$series applied$" \
		"${make_log:-/dev/null}"
must "dkms install $name/$version -k $kver" \
	quietly dkms install "${dk[@]}" --no-depmod "$name/$version" -k "$kver"
ko=$(ls "$tmp/modules/$kver/updates/dkms/$name.ko"* 2>/dev/null | head -1)
log "installed: ${ko:-nothing}"
check "module installed in updates/dkms" test -n "$ko"
check "the module is ours: version $version, alias fs-f2fs_packed, vermagic $kver" \
	sh -c "modinfo -F version '$ko' | grep -qx '$version' &&
		modinfo -F alias '$ko' | grep -qx fs-f2fs_packed &&
		modinfo -F vermagic '$ko' | grep -q '^$kver '"
check "dkms status: installed for $kver" \
	sh -c "dkms status ${dk[*]} -m $name -v $version -k $kver | grep -q ': installed$'"
check "dkms remove --all" quietly dkms remove "${dk[@]}" --no-depmod -m "$name" -v "$version" --all
check "the module is gone" sh -c "! ls '$tmp/modules/$kver/updates/dkms/$name.ko'* 2>/dev/null"
finish
