#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the documents say, where the code can check it (issue 41, item 5):
# the knobs' ranges and defaults in docs/ABI against src/'s constants and
# f2fs_gc_pack_check_knob(); every document line that lists the supported
# series against META; every hunk of every patch names the function it is
# in (a reviewer reads patches by their @@ lines); every test a document
# cites by name exists; tests/README.md's coverage list has a bullet for
# every test of tests/guest and tests/host, and none for another.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/lib.sh
. tests/lib/host.sh

abi=docs/ABI/sysfs-fs-f2fs_packed
# const NAME: the value of src/gc_pack.h's #define NAME, evaluated.
const() {
	local v
	v=$(sed -n "s/^#define $1[[:space:]]*\\(.*\\)$/\\1/p" src/gc_pack.h | sed 's/U\b//g')
	[ -n "$v" ] && echo $(($v))
}
# abi_text KNOB: the Description of KNOB's entry, on one line.
abi_text() {
	awk -v w="/sys/fs/f2fs_packed/<disk>/$1" '
		/^What:/ { on = ($2 == w) }
		on && !/^(What|Date|Contact):/ { sub(/^Description:/, ""); printf "%s ", $0 }' "$abi" |
		tr -s ' \t' '  '
}

# ---- knobs: docs/ABI against src/ ---------------------------------------
min=$(const GC_PACK_MIN_MAX_BLOCKS) max=$(const GC_PACK_MAX_MAX_BLOCKS)
def=$(const GC_PACK_DEF_MAX_BLOCKS) shift_=$(const GC_PACK_RAM_SHIFT)
t=$(abi_text gc_pack_max_blocks)
check "gc_pack_max_blocks: docs/ABI's range is src's ($min..$max)" \
	grep -q "^ *$min\\.\\.$max:" <<< "$t"
check "gc_pack_max_blocks: docs/ABI's floor is src's default ($def)" \
	grep -q "never below $def" <<< "$t"
check "gc_pack_max_blocks: docs/ABI's share of RAM is src's (1/$((1 << shift_)))" \
	grep -q "within 1/$((1 << shift_)) of RAM" <<< "$t"
max=$(const GC_PACK_MAX_SECTIONS) def=$(const GC_PACK_DEF_SECTIONS)
check "gc_pack_sections: docs/ABI's range and default are src's (1..$max, default $def)" \
	grep -q "^ *1\\.\\.$max, default $def:" <<< "$(abi_text gc_pack_sections)"
check "gc_pack_sections: src refuses 0 and above $max" \
	grep -q 'value < 1 || value > GC_PACK_MAX_SECTIONS' src/gc_pack.c
for k in gc_inode_local_packing gc_pack_order; do
	check "$k: docs/ABI says 0 or 1 ($(abi_text $k | cut -c1-40)...)" \
		grep -qE '(^ *0 or 1:|^ *The order .* 1 \(default\):.* 0: )' <<< "$(abi_text $k)"
	# the return that follows the knob's name in f2fs_gc_pack_check_knob()
	check "$k: src refuses above 1" grep -q 'return value > 1 ? -EINVAL' \
		<<< "$(awk -v k="\"$k\"" 'index($0, k) { on = 1 } on && /return/ { print; exit }' src/gc_pack.c)"
done

# ---- the supported series, wherever a document lists them -----------------
series=$(supported_series)
listed=$(echo "$series" | sed 's/ /, /g')
check "dkms.conf's comment lists META's series ($listed)" \
	grep -qF "series of META only ($listed)" dkms.conf
# docs/porting.md's count of patches, made from the series files: "6.1
# has eight patches; 6.12, 7.2 and 7.3 have three each".
words="zero one two three four five six seven eight nine ten eleven twelve"
counts=$(for s in $series; do
	echo "$(grep -cvE '^(#|$)' "patches/$s/series") $s"
done | awk -v w="$words" 'BEGIN { split(w, word, " ") }
	{ n[$1] = n[$1] (n[$1] == "" ? "" : " ") $2; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
	END {
		for (i = 1; i <= k; i++) {
			c = order[i]; m = split(n[c], s, " "); t = s[1]
			for (j = 2; j <= m; j++) t = t (j == m ? " and " : ", ") s[j]
			out = out (i > 1 ? "; " : "") t (m == 1 ? " has " word[c + 1] " patches" : " have " word[c + 1] " each")
		}
		print out
	}')
check "docs/porting.md counts the patches as patches/ holds them ($counts)" \
	grep -qF "$counts" <<< "$(tr -s ' \n' '  ' < docs/porting.md)"

# ---- patches: every hunk names its function --------------------------------
bare=$(grep -n '^@@ [^@]* @@$' patches/*/*.patch || :)
check "every hunk of every patch names its function${bare:+ (not: $(echo "$bare" | cut -d: -f1,2 | tr '\n' ' '))}" \
	test -z "$bare"

# ---- test names cited in documents -----------------------------------------
missing=
for name in $(grep -ohE '\b[0-9]{2}-[a-z][a-z0-9]*(-[a-z0-9]+)+\b' \
		README.md docs/*.md tests/README.md bench/*.md | sort -u); do
	[ -f "tests/guest/$name.sh" ] || [ -f "tests/host/$name.sh" ] ||
		missing="$missing $name"
done
check "every test a document names exists${missing:+ (not:$missing)}" test -z "$missing"
# ---- tests/README.md's coverage list ---------------------------------------
# covered START: the test numbers of the bullets ("- **42, 44**: ...")
# from the line START to the first line after it that is neither a bullet
# nor a bullet's text (indented) nor empty.
covered() {
	awk -v start="$1" '
		$0 == start { on = 1; next }
		on && /^- \*\*/ { sub(/^- \*\*/, ""); sub(/\*\*.*/, "")
			n = split($0, a, /[^0-9]+/); for (i = 1; i <= n; i++) if (a[i] != "") print a[i]; next }
		on && /^[^ -]/ { exit }' tests/README.md | sort -u
}
for kind in guest host; do
	case $kind in
	guest) start="Guest tests (tests/guest/, one VM boot each):" ;;
	host) start="Host checks (tests/host/, on this machine; none loads the module):" ;;
	esac
	have=$(ls "tests/$kind" | sed -n 's/^\([0-9][0-9]\)-.*\.sh$/\1/p' | sort -u)
	listed=$(covered "$start")
	check "tests/README.md lists every $kind test, and no other ($(echo $have | wc -w) tests)" \
		test "$have" = "$listed"
	[ "$have" = "$listed" ] || diff <(echo "$have") <(echo "$listed") | sed -n 's/^[<>]/# &/p'
done
finish
