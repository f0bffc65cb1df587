#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/import on bad build input, in a temporary copy of the repository
# (scripts, META and patches from the working tree): headers of an
# unsupported series, missing headers, missing kernel source, a KSRC that
# is no kernel tree or of another series, a patch that does not apply, a
# stock f2fs name the rename rules leave (a new kthread, as a later release
# might add); each stops with a message that says what to do. And a KSRC
# import works, is renamed, records its origin, and is a no-op the second
# time; scripts/refresh of the unchanged tree gives its patches back;
# IMPORT_TRAIL=1 leaves a git trail of its steps, also when a
# patch fails. The kernel tree is extracted once, only the members the import
# reads.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/lib.sh
. tests/lib/host.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kver=${KVER:-$(default_kver)}
series=$(series_of_kver "$kver")
supported=$(supported_series)
tarball=$(linux_source_tarball "$series")

# A fresh copy of what scripts/import needs.
copy_repo() {
	local dst=$1
	mkdir -p "$dst/scripts"
	cp scripts/import scripts/lib.sh scripts/check-rename "$dst/scripts/"
	cp -r META patches "$dst/"
}

# fake_headers DIR VERSION PATCHLEVEL: a headers dir as Debian splits it.
fake_headers() {
	mkdir -p "$1/common" "$1/include"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\n' "$2" "$3" > "$1/common/Makefile"
	echo "include $1/common/Makefile" > "$1/Makefile"
}

# fails_with MSG CMD...: CMD fails and its stderr contains MSG.
fails_with() {
	local msg=$1 rc=0
	shift
	"$@" > "$tmp/out" 2>&1 || rc=$?
	sed 's/^/# /' "$tmp/out" | tail -4
	[ $rc -ne 0 ] && grep -qF -- "$msg" "$tmp/out"
}

repo=$tmp/repo
copy_repo "$repo"

fake_headers "$tmp/h510" 5 10
check "headers of series 5.10: error names the supported series ($supported)" \
	fails_with "series 5.10; f2fs_packed supports: $supported" \
	env KDIR="$tmp/h510" "$repo/scripts/import" 5.10.0-fake
check "missing headers: error names the headers package" \
	fails_with "install linux-headers-9.9.9-nowhere" \
	"$repo/scripts/import" 9.9.9-nowhere
check "unsupported series leaves no imported tree" test ! -e "$repo/src/f2fs"

# No kernel source: /usr/src hidden in a private mount namespace, and no
# build root of a suite (scripts/suite-root) to be found either.
fake_headers "$tmp/hs" "${series%.*}" "${series#*.}"
if unshare -m true 2>/dev/null; then
	check "missing source: error names linux-source-$series" \
		fails_with "install linux-source-$series" \
		unshare -m sh -c 'mount -t tmpfs none /usr/src && exec "$@"' sh \
		env KDIR="$tmp/hs" F2FS_PACKED_CACHE="$tmp/no-cache" \
		"$repo/scripts/import" "$series.0-fake"
else
	echo "ok - missing source: error names linux-source-$series # SKIP no mount namespace here"
fi

# One extraction of the members the import reads.
ksrc=$tmp/linux
mkdir -p "$ksrc"
must "extract the f2fs members of $tarball" \
	tar -C "$ksrc" --strip-components=1 -xJf "$tarball" \
		"linux-source-$series/Makefile" "linux-source-$series/fs/f2fs" \
		"linux-source-$series/include/linux/f2fs_fs.h" \
		"linux-source-$series/include/uapi/linux/f2fs.h" \
		"linux-source-$series/include/trace/events/f2fs.h"

check "KSRC without fs/f2fs: error says so" \
	fails_with "is not an unpacked kernel tree with fs/f2fs" \
	env KSRC="$tmp/hs" "$repo/scripts/import" "$kver"
# 5.4: a series that is none of ours, whichever the headers are.
mkdir -p "$tmp/k54"
ln -s "$ksrc/fs" "$ksrc/include" "$tmp/k54/"
sed -e 's/^VERSION = .*/VERSION = 5/' -e 's/^PATCHLEVEL = .*/PATCHLEVEL = 4/' \
	"$ksrc/Makefile" > "$tmp/k54/Makefile"
check "KSRC of another series: error names both versions" \
	fails_with "kernel source is 5.4." \
	env KSRC="$tmp/k54" "$repo/scripts/import" "$kver"

# A patch whose context no longer matches: the first context line of
# the first gc.c hunk of the first patch is changed in a copy.
bad=$tmp/bad
copy_repo "$bad"
first=$(grep -v '^#' "$bad/patches/$series/series" | head -1)
awk '
	/^\+\+\+ b\/fs\/f2fs\/gc.c/ { insuper = 1 }
	insuper && /^@@/ { inhunk = 1 }
	inhunk && !done && /^ ./ { $0 = " CORRUPTED" substr($0, 2); done = 1 }
	{ print }
' "$repo/patches/$series/$first" > "$bad/patches/$series/$first"
check "corrupted copy of $first differs" \
	sh -c "! cmp -s '$repo/patches/$series/$first' '$bad/patches/$series/$first'"
check "patch that does not apply: error names $first and fs/f2fs/gc.c" \
	fails_with "patch $first does not apply to fs/f2fs/gc.c" \
	env KSRC="$ksrc" "$bad/scripts/import" "$kver"
check "failed patch leaves no half-imported tree" test ! -e "$bad/src/f2fs"
# IMPORT_TRAIL=1 (needs git; host 20 runs this test without git): the
# failed import leaves its trail up to the rename.
trail_of() { sed -n 's/^import trail: \([^ ]*\) .*/\1/p' "$tmp/out"; }
if command -v git > /dev/null; then
	check "IMPORT_TRAIL=1, failing patch: the trail is printed" \
		fails_with "import trail: $tmp/f2fs_packed-trail-$series." \
		env TMPDIR="$tmp" IMPORT_TRAIL=1 KSRC="$ksrc" "$bad/scripts/import" "$kver"
	btrail=$(trail_of)
	check "the failed import's trail: upstream and the rename, 2 steps" \
		test "$(git -C "$btrail" rev-list --count HEAD 2>/dev/null)" = 2
else
	echo "ok - IMPORT_TRAIL=1, failing patch # SKIP no git"
fi

# A kthread the rules do not know, registered over two lines as upstream
# writes them: the import refuses the tree and names the name.
knew=$tmp/knew
mkdir -p "$knew/fs"
cp -r "$ksrc/fs/f2fs" "$knew/fs/"
ln -s "$ksrc/include" "$ksrc/Makefile" "$knew/"
cat >> "$knew/fs/f2fs/gc.c" <<'EOF'

static int f2fs_start_scrub_thread(struct f2fs_sb_info *sbi, dev_t dev)
{
	return PTR_ERR_OR_ZERO(kthread_run(NULL, sbi,
			"f2fs_scrub-%u", MINOR(dev)));
}
EOF
check "a stock kthread name the rules leave: the import names it" \
	fails_with 'stock name "f2fs_scrub-%u"' \
	env KSRC="$knew" "$repo/scripts/import" "$kver"
check "refused rename leaves no imported tree" test ! -e "$repo/src/f2fs"

# A good import from KSRC.
check "KSRC import works" env KSRC="$ksrc" "$repo/scripts/import" "$kver"
origin=$repo/src/f2fs/ORIGIN
check "ORIGIN names the tree and the series" \
	sh -c "grep -qx 'source: tree $ksrc' '$origin' && grep -qx 'series: $series' '$origin' &&
		grep -qx 'kernel_version: $(make_version "$ksrc/Makefile")' '$origin'"
sums_match() {
	sed -n '/^upstream sha256/,$p' "$origin" | tail -n +2 > "$tmp/sums"
	[ -s "$tmp/sums" ] && (cd "$ksrc" && sha256sum --quiet -c "$tmp/sums")
}
check "ORIGIN sha256 of every upstream file matches the tree" sums_match
check "imported trace header is renamed" \
	grep -q '^#define TRACE_SYSTEM f2fs_packed$' "$repo/include/trace/events/f2fs_packed.h"
check "imported tree registers no stock name (scripts/check-rename)" \
	scripts/check-rename "$repo/src/f2fs" "$repo/include"
check "fs type and printk prefix renamed" \
	sh -c "grep -q 'name.*= \"f2fs_packed\",' '$repo/src/f2fs/super.c' &&
		grep -q 'F2FS_PACKED-fs (' '$repo/src/f2fs/super.c'"
check "f2fs sources landed in src/f2fs" test -f "$repo/src/f2fs/super.c"
# scripts/refresh on the unchanged import writes the first and the last
# patch back byte for byte (git's headers, index lines, the function
# after @@; the hook patch between them keeps a hunk trimmed by hand,
# docs/porting.md), and IMPORT_TRAIL=1 leaves the trail of every step:
# both need git.
if command -v git > /dev/null; then
	cp scripts/refresh "$repo/scripts/"
	for p in $(grep -v '^#' "$repo/patches/$series/series" | sed -n '1p;$p'); do
		cp "$repo/patches/$series/$p" "$tmp/$p.orig"
		check "scripts/refresh $p of the unchanged tree rewrites it byte for byte" \
			sh -c "'$repo/scripts/refresh' '$p' > /dev/null && cmp '$tmp/$p.orig' '$repo/patches/$series/$p'"
	done
	npatches=$(grep -cv '^#' "$repo/patches/$series/series")
	rm -f "$tmp/out"
	check "IMPORT_TRAIL=1 import works and prints its trail" \
		sh -c "env TMPDIR='$tmp' IMPORT_TRAIL=1 KSRC='$ksrc' '$repo/scripts/import' '$kver' > '$tmp/out' 2>&1"
	gtrail=$(trail_of)
	log "trail: $gtrail"
	check "the trail: upstream, the rename and each of the $npatches patches" \
		test "$(git -C "$gtrail" rev-list --count HEAD 2>/dev/null)" = $((npatches + 2))
	check "the trail's last step is the imported tree" \
		sh -c "cmp -s '$gtrail/fs/f2fs/gc.c' '$repo/src/f2fs/gc.c' &&
			cmp -s '$gtrail/fs/f2fs/sysfs.c' '$repo/src/f2fs/sysfs.c'"
	check "the trail's first step is upstream, unrenamed" \
		sh -c "git -C '$gtrail' show \$(git -C '$gtrail' rev-list --max-parents=0 HEAD):fs/f2fs/super.c |
			cmp -s - '$ksrc/fs/f2fs/super.c'"
else
	echo "ok - scripts/refresh and IMPORT_TRAIL=1 # SKIP no git"
fi
touch -d @0 "$origin"
check "second import with the same patches is a no-op" \
	sh -c "KSRC='$ksrc' '$repo/scripts/import' '$kver' && [ \"\$(stat -c %Y '$origin')\" = 0 ]"
finish
