#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS and the Debian package, on the host: `scripts/dkms-install` builds
# and installs f2fs_packed for KVER (twice: it must be idempotent), a
# kernel of an unsupported series fails the DKMS build naming the supported
# series, then `scripts/mkdeb` builds f2fs-packed-dkms and `dpkg -i` has
# DKMS build and install it. The package stays installed: the guest test
# 15-dkms loads the module from the DKMS location in the VM.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/lib.sh
. tests/lib/host.sh

kver=${KVER:-$(default_kver)}
version=$(cat VERSION)
name=f2fs_packed
pkg=f2fs-packed-dkms
deb=build/${pkg}_${version}_all.deb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log "kernel $kver, $name $version"

# run CMD...: run quietly, show the tail of its output if it fails.
run() {
	if "$@" > "$tmp/out" 2>&1; then
		return 0
	fi
	tail -15 "$tmp/out" | sed 's/^/# /'
	return 1
}

dkms_installed() {
	dkms status -m "$name" -v "$version" -k "$kver" | grep -q ': installed$'
}

# The installed module, as modinfo (and so modprobe) finds it after depmod.
ko_from_dkms() {
	local f
	f=$(modinfo -k "$kver" -n "$name") || return 1
	log "modinfo -n $name: $f"
	case $f in
	/lib/modules/"$kver"/updates/dkms/"$name".ko*) ;;
	*) return 1 ;;
	esac
	modinfo -k "$kver" -F version "$name" | grep -qx "$version" &&
		modinfo -k "$kver" -F alias "$name" | grep -qx fs-f2fs_packed &&
		! modinfo -k "$kver" -F alias "$name" | grep -qx fs-f2fs
}

# Start from a machine without the package: it owns the same DKMS entry.
if dpkg-query -W -f '${Status}\n' "$pkg" 2>/dev/null | grep -q ' installed$'; then
	must "earlier $pkg removed" run dpkg -P "$pkg"
fi

must "scripts/dkms-install $kver" run scripts/dkms-install "$kver"
check "dkms status: installed for $kver" dkms_installed
check "module in /lib/modules/$kver/updates/dkms, ours" ko_from_dkms
check "scripts/dkms-install again (idempotent)" run scripts/dkms-install "$kver"
check "dkms status: still installed for $kver" dkms_installed
check "/usr/src/$name-$version holds the imported f2fs" \
	test -f "/usr/src/$name-$version/src/f2fs/ORIGIN"

# A kernel of a series we have no patches for: fake headers of 5.10,
# handed to DKMS the way a rig with headers elsewhere would.
unsupported_fails() {
	local hdr=$tmp/headers-5.10 makelog
	mkdir -p "$hdr/include"
	printf 'VERSION = 5\nPATCHLEVEL = 10\nSUBLEVEL = 0\n' > "$hdr/Makefile"
	if dkms build -m "$name" -v "$version" -k 5.10.0-f2fs-packed-test \
		--kernelsourcedir "$hdr" > "$tmp/out" 2>&1; then
		log "dkms build for 5.10 succeeded"
		return 1
	fi
	makelog=/var/lib/dkms/$name/$version/build/make.log
	grep -h 'supports' "$makelog" | sed 's/^/# make.log: /'
	grep -q "series 5.10; f2fs_packed supports: $(supported_series)" "$makelog"
}
check "dkms build for a 5.10 kernel fails naming the supported series" unsupported_fails
check "dkms status: 5.10 attempt left $kver installed" dkms_installed

# The package path: the source tree must come from the package alone.
must "dkms remove + /usr/src cleared before the package" \
	run sh -c "dkms remove -m $name -v $version --all && rm -rf /usr/src/$name-$version"
must "scripts/mkdeb" run scripts/mkdeb
check "$deb built" test -f "$deb"
deb_ok() {
	dpkg-deb -f "$deb" Package | grep -qx "$pkg" &&
		dpkg-deb -f "$deb" Architecture | grep -qx all &&
		dpkg-deb -c "$deb" > "$tmp/list" &&
		grep -q " ./usr/src/$name-$version/dkms.conf$" "$tmp/list" &&
		grep -q " ./usr/src/$name-$version/src/f2fs/ORIGIN$" "$tmp/list" &&
		grep -q "^-rwxr-xr-x .* ./usr/src/$name-$version/scripts/import$" "$tmp/list"
}
check "$deb: package $pkg, installs /usr/src/$name-$version" deb_ok
must "dpkg -i $deb" run dpkg -i "$deb"
check "dkms status after dpkg -i: installed for $kver" dkms_installed
check "module from the package in updates/dkms, ours" ko_from_dkms
refuses() {
	! scripts/dkms-install "$kver" > "$tmp/out" 2>&1 &&
		grep -q "f2fs-packed-dkms package is installed" "$tmp/out"
}
check "scripts/dkms-install refuses while the package owns the install" refuses
check "dkms status: still installed from the package" dkms_installed
finish
