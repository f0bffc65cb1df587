#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kbuild's object list, common to every series, is that of each supported
# series' fs/f2fs/Makefile (kbuild_objects_check in scripts/lib.sh, which
# scripts/import also runs): the same objects under the same CONFIG_
# conditions, so an object a new series adds or drops fails here, naming
# it, rather than at link or load time. The Makefile of a series is the
# imported one when src/f2fs is of that series, else upstream/<series>/
# (a DKMS tree), else that of its linux-source tarball. No VM: seconds
# (one tarball member read per series).
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/lib.sh
. tests/lib/host.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

imported=$(sed -n 's/^series: //p' src/f2fs/ORIGIN 2>/dev/null || :)
for s in $(supported_series); do
	mk=
	if [ "$imported" = "$s" ] && [ -f src/f2fs/Makefile ]; then
		mk=src/f2fs/Makefile
	elif [ -f "upstream/$s/fs/f2fs/Makefile" ]; then
		mk=upstream/$s/fs/f2fs/Makefile
	else
		t=$(linux_source_tarball "$s")
		if [ -f "$t" ] &&
		   nice -n 10 tar -C "$tmp" -xJf "$t" "linux-source-$s/fs/f2fs/Makefile" 2>/dev/null; then
			mk=$tmp/linux-source-$s/fs/f2fs/Makefile
		fi
	fi
	if [ -z "$mk" ]; then
		echo "ok - $s: Kbuild's objects are its fs/f2fs/Makefile's # SKIP no source of $s here"
		continue
	fi
	log "$s: $mk"
	check "$s: Kbuild's objects are its fs/f2fs/Makefile's" \
		kbuild_objects_check Kbuild "$mk"
done

# The check itself: an object added upstream, and one Kbuild lacks.
printf 'f2fs-y := dir.o\nf2fs-$(CONFIG_F2FS_STAT_FS) += \\\n\tdebug.o\n' > "$tmp/Makefile"
printf 'f2fs_packed-y := $(addprefix src/f2fs/, \\\n\tdir.o)\nf2fs_packed-$(CONFIG_F2FS_STAT_FS) += src/f2fs/debug.o\nf2fs_packed-y += src/module.o\n' > "$tmp/Kbuild"
check "kbuild_objects_check: a matching pair passes" \
	kbuild_objects_check "$tmp/Kbuild" "$tmp/Makefile"
echo 'f2fs-y += scrub.o' >> "$tmp/Makefile"
lacks_named() {
	! kbuild_objects_check "$tmp/Kbuild" "$tmp/Makefile" 2> "$tmp/err" &&
		grep -q '> y scrub.o' "$tmp/err"
}
check "kbuild_objects_check: an object Kbuild lacks fails, named" lacks_named
finish
