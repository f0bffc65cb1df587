# SPDX-License-Identifier: GPL-2.0
# Shared shell helpers for scripts/ and tests/ (sourced, not run).

die() {
	echo "f2fs_packed: $*" >&2
	exit 1
}

# "6.1.192" from a kernel Makefile's VERSION/PATCHLEVEL/SUBLEVEL lines.
make_version() {
	awk -F' *= *' '$1=="VERSION"{v=$2} $1=="PATCHLEVEL"{p=$2}
		$1=="SUBLEVEL"{s=$2} END{print v "." p "." s}' "$1"
}

# The root kernel KVER lives in: "" for the host itself, else the build
# root of the suite META names for its series, once scripts/suite-root
# has made it. The host wins whenever it has the headers, so a rig that
# runs the series natively never uses a build root.
kernel_root() {
	local suite root
	if [ ! -d "/lib/modules/$1/build" ]; then
		root=$(debug_root "$1")
		if [ -n "$root" ]; then
			echo "$root"
			return 0
		fi
		suite=$(series_suite "$(series_of_kver "$1")")
		root=${suite:+$(suite_root "$suite")}
		if [ -n "$root" ] && [ -d "$root/lib/modules/$1/build" ]; then
			echo "$root"
		fi
	fi
}

# The release suffix of the debug kernels scripts/debug-kernel builds:
# "6.12.118-f2fs-debug" reads as series 6.12 (series_of_kver).
DEBUG_LOCALVERSION=-f2fs-debug

# Where scripts/debug-kernel keeps its kernels.
debug_cache() {
	echo "${F2FS_PACKED_CACHE:-/var/cache/f2fs_packed}/debug"
}

# The root of the debug kernel KVER (scripts/debug-kernel: boot/,
# lib/modules/KVER with build/ in it), or nothing when KVER is none.
debug_root() {
	local root
	case $1 in
	*"$DEBUG_LOCALVERSION")
		root=$(debug_cache)/$1/root
		[ ! -d "$root/lib/modules/$1" ] || echo "$root" ;;
	esac
	return 0
}

# The lines of scripts/debug-kernel.config FRAGMENT that do not hold in
# CONFIG, the .config olddefconfig made from the kernel source SRC: an
# option set otherwise or dropped for want of a dependency, "  wanted
# CONFIG_X=y" or "  wanted CONFIG_X off" each. An option no Kconfig of
# SRC defines is one the series dropped or has not got yet (7.3 has no
# LIBCRC32C: crc32c moved into lib/crc): noted on stderr, not demanded.
debug_config_unmet() {
	find "$2" -name 'Kconfig*' -type f -exec sed -n \
		's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/CONFIG_\2/p' {} + |
		awk 'FILENAME == "-" { known[$0] = 1; next }
		FILENAME == ARGV[2] {
			sym = $0
			if (sym ~ /^CONFIG_[A-Za-z0-9_]+=/) sub(/=.*/, "", sym)
			else if (sym ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/) sym = $2
			else next
			if (!(sym in known))
				print "note: " sym " is not in this source\047s Kconfig: not checked" > "/dev/stderr"
			else if ($0 ~ /^CONFIG_/) want[$0] = 1
			else off[sym] = 1
			next }
		{ have[$0] = 1; if ($0 ~ /^CONFIG_/) { split($0, a, "="); set[a[1]] = 1 } }
		END {
			for (w in want) if (!(w in have)) print "  wanted " w
			for (o in off) if (o in set) print "  wanted " o " off"
		}' - "$1" "$3"
}

# The build roots of META's suites that scripts/suite-root has made.
suite_roots() {
	local s suite
	for s in $(supported_series); do
		suite=$(series_suite "$s")
		[ -n "$suite" ] && [ -d "$(suite_root "$suite")/usr/bin" ] &&
			suite_root "$suite"
	done | sort -u
}

# in_root ROOT CMD...: CMD chrooted in ROOT with /proc, /dev and this
# repository (over its own path) mounted, in a mount namespace of its
# own, so that no mount outlives CMD. The root's own PATH: the caller's
# may name directories the root does not have.
in_root() {
	local root=$1 top
	shift
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m --propagation private sh -c '
		root=$1 top=$2
		shift 2
		mkdir -p "$root$top" &&
		mount --bind "$top" "$root$top" &&
		mount -t proc proc "$root/proc" &&
		mount --rbind /dev "$root/dev" &&
		PATH=/usr/sbin:/usr/bin:/sbin:/bin exec chroot "$root" "$@"' \
		sh "$root" "$top" "$@"
}

headers_dir() {
	echo "$(kernel_root "$1")/lib/modules/$1/build"
}

# The kernel image scripts/vm boots: /boot's, or beside the modules where
# Debian puts it since 7.x.
kernel_image() {
	local root
	root=$(kernel_root "$1")
	if [ -f "$root/boot/vmlinuz-$1" ]; then
		echo "$root/boot/vmlinuz-$1"
	else
		echo "$root/lib/modules/$1/vmlinuz"
	fi
}

# Debian's linux-source-SERIES tarball, on the host or in the build root
# of the suite that carries the series.
linux_source_tarball() {
	local suite root t=/usr/src/linux-source-$1.tar.xz
	suite=$(series_suite "$1")
	root=${suite:+$(suite_root "$suite")}
	if [ ! -f "$t" ] && [ -n "$root" ] && [ -f "$root$t" ]; then
		t=$root$t
	fi
	echo "$t"
}

# The version of the linux-source-SERIES package that tarball came from.
linux_source_version() {
	local db=/var/lib/dpkg t
	t=$(linux_source_tarball "$1")
	case $t in
	/usr/src/*) ;;
	*) db=${t%/usr/src/*}$db ;;
	esac
	dpkg-query --admindir="$db" -W -f '${Version}' "linux-source-$1" 2>/dev/null ||
		echo unknown
}

# Debian's headers package splits the tree: build/ holds the arch part and
# its Makefile points at the common part, whose Makefile has the version.
# KDIR (as given to make, or DKMS's kernel_source_dir) overrides the path.
kernel_series_of_headers() {
	local dir mk
	dir=${KDIR:-$(headers_dir "$1")}
	[ -d "$dir" ] ||
		die "no headers for kernel $1 in $dir: install linux-headers-$1 (scripts/install-deps)"
	mk=$dir/Makefile
	if ! grep -q '^VERSION *=' "$mk"; then
		# an absolute path, inside the build root when the headers are
		mk=$(sed -n 's/^include \(.*\/Makefile\)$/\1/p' "$mk" | head -1)
		[ -z "${KDIR:-}" ] && mk=$(kernel_root "$1")$mk
	fi
	[ -f "$mk" ] || die "cannot read the kernel version from $dir"
	local v
	v=$(make_version "$mk")
	echo "${v%.*}"
}

# The supported series and what the tests do with each come from META.
meta_file() {
	echo "$(dirname "${BASH_SOURCE[0]}")/../META"
}

# "6.1 6.12"
supported_series() {
	awk '$1 == "series" { printf "%s%s", sep, $2; sep = " " } END { print "" }' "$(meta_file)"
}

# The Debian suites that carry series $1, as META names them: a base
# suite and the suites added to it, joined by '+'
# ("bookworm+bookworm-security", "trixie+trixie-backports", "unstable").
series_suites() {
	awk -v s="$1" '$1 == "series" && $2 == s { print $3 }' "$(meta_file)"
}

# The host's Debian codename ("bookworm"), from os-release.
host_codename() {
	sed -n 's/^VERSION_CODENAME=//p' "${F2FS_PACKED_OS_RELEASE:-/etc/os-release}" 2>/dev/null | head -1
}

# The suites of series $1 when they are not the host's own release (their
# base suite is not the host's codename or one of its updates, security
# or backports suites), else nothing: such a series is built and booted
# from the build root of these suites (scripts/suite-root).
series_suite() {
	local spec base
	spec=$(series_suites "$1")
	base=${spec%%+*}
	[ -n "$spec" ] && [ "${base%%-*}" != "$(host_codename)" ] && echo "$spec"
	return 0
}

# Where scripts/install-deps records the kernel it resolved for each
# series ("<series> <kernel release> <suites> <date>" a line): the
# newest kernel of the series that its suites carried at install time.
# The tests boot these kernels, the README's figures name them.
kernels_file() {
	echo "${F2FS_PACKED_CACHE:-/var/cache/f2fs_packed}/kernels"
}

# The Debian kernel release the tests boot for series $1: the one
# scripts/install-deps resolved, or nothing before it has run.
series_test_kernel() {
	local f
	f=$(kernels_file)
	[ -f "$f" ] || return 0
	awk -v s="$1" '$1 == s { k = $2 } END { if (k != "") print k }' "$f"
}

# The message for a series without a resolved kernel.
series_unresolved() {
	echo "series $1: no kernel resolved from its suites ($(series_suites "$1"), META) in $(kernels_file): run scripts/install-deps"
}

# The apt source lines of suites SPEC ("trixie+trixie-backports") on
# MIRROR, signed by KEYRING (none: apt's own trusted keys, as in a build
# root): the security suites live in the mirror's -security archive.
suite_sources() {
	local opt=
	[ -z "${3:-}" ] || opt="[signed-by=$3] "
	echo "$1" | tr '+' '\n' | while read -r s; do
		case $s in
		*-security) echo "deb $opt$2-security $s main" ;;
		*) echo "deb $opt$2 $s main" ;;
		esac
	done
}

# The Debian mirror the build roots and the drift check fetch from.
debian_mirror() {
	echo "${F2FS_PACKED_MIRROR:-http://deb.debian.org/debian}"
}

# private_apt DIR SUITES: a private apt configuration under DIR for the
# suites SUITES ("trixie+trixie-backports"): its own sources list, lists,
# cache and an empty dpkg status, never the host's /etc/apt or dpkg
# database. Sets APT_OPTS, the options that make apt-get and apt-cache
# use it.
# shellcheck disable=SC2034 # APT_OPTS is for the caller
private_apt() {
	local dir=$1 keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -f "$keyring" ] || die "no $keyring: install debian-archive-keyring"
	mkdir -p "$dir/sources.list.d" "$dir/lists/partial" "$dir/cache/archives/partial"
	suite_sources "$2" "$(debian_mirror)" "$keyring" > "$dir/sources.list"
	[ -f "$dir/status" ] || : > "$dir/status"
	APT_OPTS=(-o "Dir::Etc::sourcelist=$dir/sources.list"
		-o "Dir::Etc::sourceparts=$dir/sources.list.d"
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o "Dir::State::status=$dir/status" -o APT::Sandbox::User=root)
}

# newest_kernel SERIES [APT OPTION...]: the newest amd64 kernel release of
# SERIES whose headers and image the apt sources (the host's, or those the
# options name) carry, or nothing. A release whose image is not (or not
# yet) there, as 6.12.118+deb12 with only its unsigned image, is passed
# over: its headers alone cannot be booted.
newest_kernel() {
	local series=$1 re k
	shift
	re="^linux-headers-${series//./\\.}\.[0-9]+(-[0-9]+)?(\+deb[0-9.]+)?-amd64\$"
	for k in $(apt-cache "$@" pkgnames linux-headers- 2>/dev/null | grep -E "$re" |
			sed 's/^linux-headers-//' | sort -rV); do
		if apt_has "linux-headers-$k" "$@" && apt_has "linux-image-$k" "$@"; then
			echo "$k"
			return 0
		fi
	done
}

# apt_has PACKAGE [APT OPTION...]: apt has a version of PACKAGE to install.
apt_has() {
	local p=$1
	shift
	apt-cache "$@" policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p' |
		grep -qvx '(none)'
}

# The build root of a suite (scripts/suite-root makes it).
suite_root() {
	echo "${F2FS_PACKED_CACHE:-/var/cache/f2fs_packed}/$1/root"
}

# The guest tests `make test` runs on series $1: "all" or names.
series_tests() {
	awk -v s="$1" '$1 == "series" && $2 == s {
		for (i = 4; i <= NF; i++) printf "%s%s", (i > 4 ? " " : ""), $i
		print "" }' "$(meta_file)"
}

# DKMS's BUILD_EXCLUSIVE_KERNEL: "^(6\.1|6\.12)\."
series_kernel_regex() {
	supported_series | awk '{ r = "^("; for (i = 1; i <= NF; i++) {
		s = $i; gsub(/\./, "\\.", s); r = r (i > 1 ? "|" : "") s }
		print r ")\\." }'
}

# "6.12" from "6.12.117+deb12-amd64"
series_of_kver() {
	echo "$1" | cut -d. -f1-2
}

# Newest kernel with installed headers, preferring the running one.
default_kver() {
	local running
	running=$(uname -r)
	if [ -d "$(headers_dir "$running")" ]; then
		echo "$running"
		return
	fi
	ls -d /lib/modules/*/build 2>/dev/null | cut -d/ -f4 | sort -V | tail -1
}

# Installed kernels (with headers) of a supported series, oldest first.
installed_supported_kernels() {
	local d k
	for d in /lib/modules/*/build; do
		[ -d "$d" ] || continue
		k=$(basename "$(dirname "$d")")
		case " $(supported_series) " in
		*" $(series_of_kver "$k") "*) echo "$k" ;;
		esac
	done | sort -V
}

# What we import of a kernel tree (its Makefile gives the version); the one
# list that import, refresh and dkms-tree read.
UPSTREAM_FILES="fs/f2fs include/linux/f2fs_fs.h include/uapi/linux/f2fs.h include/trace/events/f2fs.h"

# extract_upstream SRC SERIES DEST: the Makefile and UPSTREAM_FILES of a
# kernel tree (a directory) or of Debian's linux-source-SERIES tarball
# (SRC ending in .tar.xz) into DEST, in kernel layout.
extract_upstream() {
	local src=$1 series=$2 dest=$3 f members=
	mkdir -p "$dest"
	# shellcheck disable=SC2086 # UPSTREAM_FILES is a list of paths
	case $src in
	*.tar.xz)
		for f in Makefile $UPSTREAM_FILES; do
			members="$members linux-source-$series/$f"
		done
		tar -C "$dest" -xJf "$src" --strip-components=1 $members ;;
	*)
		(cd "$src" && tar cf - Makefile $UPSTREAM_FILES) | tar -C "$dest" -xf - ;;
	esac
}

# our_files [PATTERN...]: the files of ours in this tree, as paths relative
# to its top, sorted: every file that .gitignore does not ignore (the
# imported upstream tree and build output are ignored there), and never
# .git. No git needed: a release tarball, an export or a DKMS copy of the
# tree lists the same files as the checkout it came from. A PATTERN is a
# shell glob over the whole path ('*' matches '/' too, as in git's
# pathspecs): our_files 'src/*.[ch]'.
our_files() {
	local top gi base line p f pat args=(-path ./.git -prune)
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	[ -f "$top/.gitignore" ] || die "no .gitignore in $top: it says which files are not ours"
	# Each .gitignore's patterns, relative to its directory as git reads
	# them: with a '/' anchored there, without one at any depth below.
	for gi in $(cd "$top" && find . -path ./.git -prune -o -name .gitignore -print | LC_ALL=C sort); do
		base=${gi%.gitignore}
		while IFS= read -r line; do
			case $line in
			'' | '#'*) continue ;;
			'!'*) die "$gi: negated patterns are not supported here: $line" ;;
			esac
			p=${line%/}
			case $p in
			*/*) args+=(-o -path "$base${p#/}" -prune) ;;
			*) if [ "$base" = ./ ]; then
				args+=(-o -name "$p" -prune)
			else
				args+=(-o -path "$base$p" -prune -o -path "$base*/$p" -prune)
			fi ;;
			esac
		done < "$top/$gi"
	done
	(cd "$top" && find . \( "${args[@]}" \) -o \( -type f -o -type l \) -print) |
		sed 's|^\./||' | LC_ALL=C sort | while IFS= read -r f; do
			[ $# -eq 0 ] && { echo "$f"; continue; }
			for pat in "$@"; do
				# shellcheck disable=SC2053 # $pat is a glob
				if [[ $f == $pat ]]; then
					echo "$f"
					break
				fi
			done
		done
}

# dkms_conf_value FILE VAR: VAR="value" of a dkms.conf, unquoted.
dkms_conf_value() {
	sed -n "s/^$2=\"\\(.*\\)\"\$/\\1/p" "$1" | tail -1
}

# check_dkms_conf FILE VERSIONFILE: the top-level dkms.conf agrees with
# VERSION (PACKAGE_VERSION) and with META (BUILD_EXCLUSIVE_KERNEL), or a
# message says what to change. Run by make dist, the DKMS tree and host
# test 05-meta.
check_dkms_conf() {
	local conf=$1 want got
	[ -f "$conf" ] || { echo "f2fs_packed: no $conf" >&2; return 1; }
	want=$(cat "$2")
	got=$(dkms_conf_value "$conf" PACKAGE_VERSION)
	[ "$got" = "$want" ] || {
		echo "f2fs_packed: $conf says PACKAGE_VERSION=\"$got\" but $2 says $want: set PACKAGE_VERSION=\"$want\" in dkms.conf" >&2
		return 1
	}
	want=$(series_kernel_regex)
	got=$(dkms_conf_value "$conf" BUILD_EXCLUSIVE_KERNEL)
	[ "$got" = "$want" ] || {
		echo "f2fs_packed: $conf says BUILD_EXCLUSIVE_KERNEL=\"$got\" but META's series ($(supported_series)) make \"$want\": set that in dkms.conf" >&2
		return 1
	}
}

# makefile_objects FILE PREFIX STRIP: the objects of module PREFIX
# ("f2fs" for fs/f2fs/Makefile, "f2fs_packed" for our Kbuild) as sorted
# "<condition> <object>" lines, condition "y" or the CONFIG_ symbol;
# continuation lines are joined, $(addprefix STRIP, ...) and a leading
# STRIP are taken off, and only objects under STRIP (when given) count.
makefile_objects() {
	awk -v m="$2" -v strip="$3" '
		{ while ($0 ~ /\\$/ && (getline nxt) > 0) { sub(/\\$/, "", $0); $0 = $0 " " nxt } }
		$0 ~ "^" m "-" {
			cond = $0
			sub("^" m "-", "", cond)
			sub(/[ \t]*[:+]?=.*/, "", cond)
			if (cond ~ /^\$\(CONFIG_[A-Z0-9_]+\)$/) cond = substr(cond, 3, length(cond) - 3)
			else if (cond != "y") next
			val = $0
			sub(/^[^=]*=/, "", val)
			pre = ""
			if (strip != "" && index(val, "$(addprefix " strip ",") > 0) {
				pre = strip
				sub(/\$\(addprefix [^,]*,/, "", val)
				gsub(/\)/, "", val)
			}
			n = split(val, w, /[ \t]+/)
			for (i = 1; i <= n; i++) {
				if (w[i] !~ /\.o$/) continue
				o = pre w[i]
				if (strip != "") {
					if (substr(o, 1, length(strip)) != strip) continue
					o = substr(o, length(strip) + 1)
				}
				print cond, o
			}
		}' "$1" | LC_ALL=C sort -u
}

# kbuild_objects_check KBUILD MAKEFILE: our Kbuild builds exactly the f2fs
# objects, under the same conditions, that the imported fs/f2fs/Makefile
# of a series does; otherwise says which differ and fails.
kbuild_objects_check() {
	local ours theirs
	ours=$(makefile_objects "$1" f2fs_packed src/f2fs/)
	theirs=$(makefile_objects "$2" f2fs "")
	[ -n "$theirs" ] || { echo "f2fs_packed: no f2fs objects read from $2" >&2; return 1; }
	[ "$ours" = "$theirs" ] && return 0
	echo "f2fs_packed: $1's src/f2fs objects differ from $2's (< $1, > $2):" >&2
	diff <(echo "$ours") <(echo "$theirs") | grep '^[<>]' >&2
	return 1
}

# ---- host load, hangs and the verdicts --------------------------------
# A guest starved of host CPU: scripts/vm's status for a guest whose
# failure came with lockup reports naming no f2fs while its heartbeat
# stalled (heartbeat_share below); tests/run runs such a test once more.
VM_STARVED=120
# A test that cannot run where it was started (tap.sh, skip_test).
TEST_SKIPPED=77

# Only the kernel's own lines (timestamped) count, not the tests' output:
# the kernel's reports and f2fs's error lines, the one list of
# tests/lib/errors.sh (not in the DKMS tree, which runs no tests).
if [ -f "$(dirname "${BASH_SOURCE[0]}")/../tests/lib/errors.sh" ]; then
	# shellcheck source=tests/lib/errors.sh
	. "$(dirname "${BASH_SOURCE[0]}")/../tests/lib/errors.sh"
fi
KERNEL_ERROR='^\[ *[0-9]+\.[0-9]+\] .*('"${KERNEL_BUG_LINES:-}|${F2FS_ERROR_LINES:-}"')'

# The guest's heartbeat (issue 40). scripts/guest-init appends a line,
# "BEATS UPTIME", to OUTDIR/heartbeat twice a second, from a task that
# touches nothing but /proc/uptime and the shared output directory; the
# host reads its last line every second while the guest runs and keeps
# "EPOCH BEATS UPTIME LOAD1" in OUTDIR/heartbeat.host (run_with_deadline),
# outside the console that scripts/kernel-log reads. A guest starved of
# host CPU beats no more while the host's clock runs on (its own clock
# jumps after); a guest whose task hangs beats on.
#
# heartbeat_share SAMPLES T N: of the N host seconds up to the sample in
# which the guest's uptime first reached T (a report's timestamp; "run":
# every second sampled, for a timeout), how many the heartbeat advanced
# in: "ADVANCED SECONDS LOADMAX" (an interval of the host's sampling
# counts as advanced for as many seconds as it saw beats, up to its
# length: a guest beating at half its pace still counts as running).
# Sampled seconds before the first beat count as not advanced (the host
# watched, no beat came); seconds not sampled do not count, and no
# samples at all (scripts/vm -I, a log recorded elsewhere) give "0 0 0".
heartbeat_share() {
	[ -s "$1" ] || { echo "0 0 0"; return 0; }
	awk -v t="$2" -v n="$3" '
	{ e[NR] = $1; c[NR] = $2; u[NR] = $3; l[NR] = $4 }
	END {
		end = NR
		if (t != "run")
			for (i = 1; i <= NR; i++)
				if (c[i] > 0 && u[i] + 0 >= t + 0) { end = i; break }
		hs = t == "run" ? e[1] : e[end] - n
		adv = 0; cov = 0; lmax = 0
		for (i = 2; i <= end; i++) {
			if (e[i] <= hs) continue
			from = e[i - 1] > hs ? e[i - 1] : hs
			dt = e[i] - from
			d = c[i] - c[i - 1]
			if (d < 0) d = c[i]	# a new boot (scripts/vm -r)
			if (e[i - 1] < hs)
				d = d * dt / (e[i] - e[i - 1])
			adv += d < dt ? d : dt
			cov += dt
			if (l[i] + 0 > lmax) lmax = l[i] + 0
		}
		printf "%d %d %s\n", adv, cov, lmax
	}' "$1"
}

# heartbeat_ran ADVANCED SECONDS: the guest ran freely, as far as the
# heartbeat tells: it advanced in at least 90% of the seconds, or there is
# no heartbeat at all (no evidence of starvation).
heartbeat_ran() {
	[ "$2" -eq 0 ] || [ $((10 * $1)) -ge $((9 * $2)) ]
}

# report_window LINE: the seconds a lockup report says it waited ("blocked
# for more than 120 seconds", "stuck for 26s"); 60 (the RCU stall and
# workqueue thresholds scripts/vm sets) when it says none.
report_window() {
	local n
	n=$(echo "$1" | sed -n -e 's/.*blocked for more than \([0-9]*\) seconds.*/\1/p' \
		-e 's/.*stuck for \([0-9]*\)s.*/\1/p' | head -1)
	echo "${n:-60}"
}

# report_stacks FILE LINE: the report whose first line is LINE in FILE (the
# console, or the guest's whole kernel log, kmsg.log, where the hung
# tasks' stacks are: the console runs at loglevel=5 and gets none), and
# the blocked tasks sysrq w listed after it.
report_stacks() {
	awk -v head="$2" '
	{ line = $0; sub(/\r$/, "", line)
	  body = line; sub(/^\[ *[0-9]+\.[0-9]+\] /, "", body) }
	line == head { on = 1; print line; next }
	!on || line !~ /^\[/ { next }
	body ~ /sysrq: Show Blocked State/ { blocked = 1; print line; next }
	body ~ /INFO: task .* blocked for more than/ && !blocked { on = 0; next }
	body ~ /^[ \t]/ || body ~ /^(task:|Call Trace|Workqueue:|Modules linked in|CPU: |Hardware name|RIP: |RSP: |R[A-Z0-9]+: |Code: |"echo 0|<\/?TASK>)/ { print line; next }
	{ on = 0 }
	' "$1"
}

# console_verdict LOG RC [OUTDIR]: scripts/vm's exit status for a guest
# whose run ended with RC (the guest script's status, or 124 for a
# timeout) and left the console log LOG, its heartbeat samples and whole
# kernel log in OUTDIR (default LOG's directory); what it found on
# stderr. A kernel error that is not a lockup report naming no f2fs
# (scripts/kernel-log) is 125 whatever RC, and so is an f2fs
# checkpoint-latency report that latency_excused (tests/lib/errors.sh)
# does not excuse, for this test and the kernel and hung-task timeout
# scripts/vm recorded in OUTDIR/.guest-kernel. So is a lockup report while the
# heartbeat advanced in at least 90% of the seconds it covers, or with no
# heartbeat at all: a hang, printed with the stacks. A failure or timeout
# with reports the heartbeat shows starved is VM_STARVED; a timeout with
# none is VM_STARVED only when the heartbeat stalled for more than a tenth
# of the run; else RC.
console_verdict() {
	local log=$1 rc=$2 out=${3:-$(dirname "$1")} top reports line t n share
	local stuck=0 starved=0 expected errors
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	# What the test expects (its "# dmesg-expected:" lines; scripts/vm
	# copies the script there) is no error.
	[ -n "${F2FS_ERROR_LINES:-}" ] ||
		die "no tests/lib/errors.sh beside scripts/: the error list the console check reads"
	expected=$(expected_lines "$out/.guest-script")
	errors=$("$top/scripts/kernel-log" filter < "$log" | grep -E "$KERNEL_ERROR" |
		grep -vE "${expected:-^$}" | head -5)
	if [ -n "$errors" ]; then
		echo "kernel error in guest (console log: $log):" >&2
		echo "$errors" >&2
		echo 125
		return
	fi
	# f2fs's checkpoint-latency reports: errors but where stock makes them
	# too (latency_excused); scripts/vm recorded the kernel and hung-task
	# timeout the guest ran with.
	# shellcheck disable=SC2046 # two words
	set -- $(cat "$out/.guest-kernel" 2>/dev/null || echo "? 0")
	errors=$("$top/scripts/kernel-log" reports < "$log" | sed -n 's/^latency: //p' |
		while IFS= read -r line; do
			latency_excused "$(series_of_kver "$1")" "$out/.guest-script" "$2" "$line" ||
				echo "$line"
		done | head -5)
	if [ -n "$errors" ]; then
		echo "checkpoint-latency report in guest that stock was not seen making in this test on $(series_of_kver "$1") (no '# stock-latency:' line for it), or a wait as long as the hung-task timeout ($2 s) (console log: $log):" >&2
		echo "$errors" >&2
		echo 125
		return
	fi
	reports=$("$top/scripts/kernel-log" reports < "$log" | sed -n 's/^starved: //p')
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		t=$(echo "$line" | sed -n 's/^\[ *\([0-9]*\.[0-9]*\)\].*/\1/p')
		n=$(report_window "$line")
		share=$(heartbeat_share "$out/heartbeat.host" "$t" "$n")
		# shellcheck disable=SC2086 # three numbers
		set -- $share
		if heartbeat_ran "$1" "$2"; then
			stuck=1
			if [ "$2" -eq 0 ]; then
				echo "hang: $line (no heartbeat: no evidence that the host starved the guest)" >&2
			else
				echo "hang: $line, while the guest's heartbeat advanced in $1 of those $2 s (host load up to $3)" >&2
			fi
			if [ -s "$out/kmsg.log" ] && grep -qxF "$line" "$out/kmsg.log"; then
				report_stacks "$out/kmsg.log" "$line"
			else
				report_stacks "$log" "$line"
			fi > "$out/hung-stacks.log"
			head -60 "$out/hung-stacks.log" | sed 's/^/    /' >&2
		else
			starved=1
			echo "guest starved of host CPU: $line, the heartbeat advanced in only $1 of those $2 s (host load up to $3)" >&2
		fi
	done <<EOF
$reports
EOF
	if [ $stuck = 1 ]; then
		echo 125
		return
	fi
	if [ "$rc" -eq 124 ] && [ $starved = 0 ]; then
		# shellcheck disable=SC2046 # three numbers
		set -- $(heartbeat_share "$out/heartbeat.host" run 0)
		if [ "$2" -eq 0 ]; then
			echo "timed out with no heartbeat (scripts/vm -I, or none recorded): a hang" >&2
		elif heartbeat_ran "$1" "$2"; then
			echo "timed out while the guest's heartbeat advanced in $1 of $2 s (host load up to $3): a hang" >&2
		else
			starved=1
			echo "guest starved of host CPU: timed out, the heartbeat advanced in only $1 of $2 s (host load up to $3)" >&2
		fi
	fi
	if [ $starved = 1 ] && [ "$rc" -ne 0 ] && [ "$rc" -ne "$TEST_SKIPPED" ]; then
		echo "$VM_STARVED"
		return
	fi
	echo "$rc"
}

# retry_starved LOG CMD...: CMD, run once more if it says VM_STARVED (the
# heartbeat showed the host left the guest no CPU; a starved run seldom
# repeats), LOG of the first run kept as LOG.starved (tests/run then says
# "retried"); CMD's last status.
retry_starved() {
	local log=$1 rc=0
	shift
	"$@" || rc=$?
	if [ $rc -eq "$VM_STARVED" ]; then
		echo "guest starved of host CPU: running it once more" >&2
		[ ! -e "$log" ] || mv -f "$log" "$log.starved"
		rc=0
		"$@" || rc=$?
	fi
	return $rc
}

# verdict_class RC LOG: how tests/run counts a test that ended with RC and
# left LOG: "pass", "skip" (status TEST_SKIPPED) or "fail" (anything else:
# VM_STARVED after the retry too), with "-retried" when its first run was
# starved (retry_starved left LOG.starved).
verdict_class() {
	local c
	case $1 in
	0) c=pass ;;
	"$TEST_SKIPPED") c=skip ;;
	*) c=fail ;;
	esac
	[ ! -e "$2.starved" ] || c=$c-retried
	echo "$c"
}

# verdict_line NAME RC SECS LOG: tests/run's result line(s) for a test:
# "PASS NAME (SECSs)", "PASS NAME (SECSs; retried: first run starved:
# ...)", "SKIP NAME (SECSs: why)" (the test's "# SKIP why" line), or
# "FAIL ..." with what its console and scripts/vm said (vm.err beside LOG).
verdict_line() {
	local name=$1 rc=$2 secs=$3 log=$4 err first why
	err=${log%/*}/vm.err
	if [ -e "$log.starved" ]; then
		first=$(grep -m1 '^guest starved of host CPU: ' "$err" 2>/dev/null |
			sed 's/^guest starved of host CPU: //')
		first="retried: first run starved: ${first:-(vm.err says no more)}"
	fi
	case $rc in
	0)
		echo "PASS $name (${secs}s${first:+; $first})"
		return ;;
	"$TEST_SKIPPED")
		why=$(sed -n 's/^# SKIP //p' "$log" 2>/dev/null | head -1)
		echo "SKIP $name (${secs}s: ${why:-the test gave no reason})"
		return ;;
	"$VM_STARVED")
		echo "FAIL $name (${secs}s, starved twice, the heartbeat stalled in both runs: not run to the end; log: $log)" ;;
	*)
		echo "FAIL $name (${secs}s, status $rc${first:+, $first}, log: $log)" ;;
	esac
	fail_lines "$log" | sed 's/^/    /'
	[ ! -s "$err" ] || sed 's/^/    /' "$err"
}

# closing_line DONE QUEUED: tests/run's last lines, from DONE ("CLASS NAME"
# a line, verdict_class's classes) and QUEUED (every name queued, one a
# line): the failed by name, the queued that gave no verdict, and "N
# passed, N failed, N skipped, N retried". Fails on any failure or
# missing verdict; a skip or a retried pass does not fail the run.
closing_line() {
	local done=$1 queued=$2 passed failed skipped retried missing names
	passed=$(grep -cE '^pass(-retried)? ' "$done" 2>/dev/null || :)
	failed=$(grep -cE '^fail(-retried)? ' "$done" 2>/dev/null || :)
	skipped=$(grep -cE '^skip(-retried)? ' "$done" 2>/dev/null || :)
	retried=$(grep -cE '^[a-z]+-retried ' "$done" 2>/dev/null || :)
	names=$(grep -E '^fail(-retried)? ' "$done" 2>/dev/null | cut -d' ' -f2 | tr '\n' ' ')
	[ -z "$names" ] || echo "failed: ${names% }"
	missing=$(cut -d' ' -f2 "$done" 2>/dev/null | LC_ALL=C sort |
		LC_ALL=C comm -13 - <(LC_ALL=C sort "$queued") | tr '\n' ' ')
	[ -z "$missing" ] || echo "no verdict (queued, never reported): ${missing% }"
	echo "${passed:-0} passed, ${failed:-0} failed, ${skipped:-0} skipped, ${retried:-0} retried"
	[ "${failed:-0}" -eq 0 ] && [ -z "$missing" ]
}

# fail_lines LOG: what a failed test's console says of it, for tests/run's
# summary (all CI shows): each "not ok" line with the diagnostics after
# it (up to 15 "# " lines, until the next check), and the result line.
fail_lines() {
	awk '/^not ok/ { print; n = 15; next }
		/^ok / { n = 0 }
		/^# result/ { print; next }
		n > 0 && /^# / { print; n-- }' "$1" 2>/dev/null
}

# load_factor: the host's load over its CPUs (the 1-minute load average),
# bounded to 1..4: how much slower than on an idle machine a guest may
# run. VM_TIMEOUT_SCALE sets it; LOADAVG_FILE reads another loadavg.
load_factor() {
	if [ -n "${VM_TIMEOUT_SCALE:-}" ]; then
		echo "$VM_TIMEOUT_SCALE"
		return
	fi
	awk -v n="$(nproc)" '{ f = $1 / n; if (f < 1) f = 1; if (f > 4) f = 4
		printf "%.2f\n", f; exit }' "${LOADAVG_FILE:-/proc/loadavg}"
}

# run_with_deadline BASE WARNFILE CMD...: CMD, killed (status 124) once
# it has run BASE seconds times the highest load_factor seen while it
# ran; the deadline is looked at every second, so load that comes on
# halfway through stretches it too. 30 s before the deadline WARNFILE
# is created (scripts/vm: the guest dumps its stacks when it sees it).
# The deadline reached, in seconds, is left in RUN_DEADLINE. With
# HEARTBEAT set (scripts/vm: the file the guest's heartbeat appends to),
# every second's look also appends "EPOCH BEATS UPTIME LOAD1" (the
# heartbeat's last line, "0 0" before it has one, and the host's 1-minute
# load) to HEARTBEAT.host, the samples console_verdict reads.
run_with_deadline() {
	local base=$1 warn=$2 pid start f max=1 now rc=0 beat
	shift 2
	"$@" &
	pid=$!
	start=$(date +%s)
	RUN_DEADLINE=$base
	while kill -0 "$pid" 2>/dev/null; do
		if [ -n "${HEARTBEAT:-}" ]; then
			beat=$(tail -n 1 "$HEARTBEAT" 2>/dev/null | awk 'NF == 2 { print $1, $2 }')
			echo "$(date +%s) ${beat:-0 0} $(cut -d' ' -f1 "${LOADAVG_FILE:-/proc/loadavg}")" \
				>> "$HEARTBEAT.host"
		fi
		f=$(load_factor)
		max=$(awk -v a="$max" -v b="$f" 'BEGIN { print (b > a ? b : a) }')
		RUN_DEADLINE=$(awk -v b="$base" -v f="$max" 'BEGIN { printf "%d\n", b * f }')
		now=$(date +%s)
		if [ -n "$warn" ] && [ $((now - start)) -ge $((RUN_DEADLINE - 30)) ] &&
		   [ ! -e "$warn" ]; then
			: > "$warn"
		fi
		if [ $((now - start)) -ge "$RUN_DEADLINE" ]; then
			kill "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			return 124
		fi
		sleep 1
	done
	wait "$pid" || rc=$?
	return $rc
}

# ---- the dpkg lock -----------------------------------------------------
# What apt-get and dpkg say when another package manager holds a lock.
PKG_LOCK_ERROR='locked by another process|is locked by|Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock (the )?(directory|administration)'

# pkg_wait CMD...: CMD (apt-get or dpkg) waiting up to DPKG_LOCK_TIMEOUT
# seconds (default 1200) for a lock another package manager holds
# (unattended-upgrades, an apt run beside ours) instead of failing at
# once. apt-get is given DPkg::Lock::Timeout; dpkg has no such option, and
# apt-get update's lists lock no timeout: those are run again every
# DPKG_LOCK_POLL seconds (default 5) while they fail saying a lock is
# held, which they do before changing anything. Their stderr comes after
# they end.
pkg_wait() {
	local t=${DPKG_LOCK_TIMEOUT:-1200} end rc err said=
	end=$(($(date +%s) + t))
	err=$(mktemp)
	while :; do
		rc=0
		case $1 in
		apt-get|apt) "$1" -o DPkg::Lock::Timeout="$t" "${@:2}" 2> "$err" || rc=$? ;;
		*) "$@" 2> "$err" || rc=$? ;;
		esac
		if [ $rc -ne 0 ] && grep -qE "$PKG_LOCK_ERROR" "$err" &&
		   [ "$(date +%s)" -lt "$end" ]; then
			[ -n "$said" ] ||
				echo "$1: waiting for the lock another package manager holds ($(grep -E "$PKG_LOCK_ERROR" "$err" | head -1))" >&2
			said=1
			sleep "${DPKG_LOCK_POLL:-5}"
			continue
		fi
		cat "$err" >&2
		rm -f "$err"
		return $rc
	done
}
