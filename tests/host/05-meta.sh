#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# META is the one declaration of the supported series: every series it
# lists has its patch directory, its Debian suites, a kernel that
# scripts/install-deps resolved from them and known guest tests; no
# patch directory lies outside it; the README's "Supported kernels" line
# names exactly its series; tests/README.md's per-series test lists are
# META's (scripts/meta-tests); DKMS's BUILD_EXCLUSIVE_KERNEL regex, made from
# it, takes every one of its series' kernels and refuses others.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/lib.sh
. tests/lib/host.sh

series=$(supported_series)
log "META: $series"
must "META lists series" test -n "$series"
for s in $series; do
	check "$s: patches/$s/series exists" test -f "patches/$s/series"
	check "$s: Debian suites are named ($(series_suites "$s"))" \
		sh -c "echo '$(series_suites "$s")' | grep -qE '^[a-z]+(-[a-z]+)?(\+[a-z]+(-[a-z]+)?)*\$'"
	k=$(series_test_kernel "$s")
	check "$s: install-deps resolved a kernel (${k:-none}, $(kernels_file))" test -n "$k"
	check "$s: its resolved kernel is of series $s" \
		test "$(series_of_kver "$k")" = "$s"
	tests=$(series_tests "$s")
	case $tests in
	all) ;;
	"all "*)
		for t in ${tests#all }; do
			check "$s: left out of all, guest test ${t#-} exists, written -NAME ($t)" \
				sh -c 'case $1 in -*) test -f "tests/guest/${1#-}.sh" ;; *) false ;; esac' sh "$t"
		done ;;
	*)
		for t in $tests; do
			check "$s: guest test $t exists" test -f "tests/guest/$t.sh"
		done ;;
	esac
done
for d in patches/*/; do
	d=$(basename "$d")
	check "patches/$d is a series of META" sh -c "echo ' $series ' | grep -q ' $d '"
done

readme_series() {
	sed -n '/^Supported kernels:/,/^$/p' README.md |
		grep -o '\*\*[0-9][0-9.]*\*\*' | tr -d '*' | paste -sd ' '
}
check "README's Supported kernels names META's series ($(readme_series))" \
	test "$(readme_series)" = "$series"

msg=$(scripts/meta-tests --check 2>&1) || :
check "tests/README.md's per-series tests are META's${msg:+: $msg}" test -z "$msg"

regex=$(series_kernel_regex)
log "BUILD_EXCLUSIVE_KERNEL=$regex"
for s in $series; do
	for k in $(series_test_kernel "$s") "$s.1+deb99-amd64"; do
		check "regex takes $k" sh -c "echo '$k' | grep -qE '$regex'"
	done
done
for k in 5.10.0-30-amd64 6.10.1 6.11.0-1-amd64 6.120.1 7.20.1 7.30.1 \
	7.2.13+deb14-amd64 7.3.4+deb13-amd64 7.4.1+deb14-amd64; do
	case " $series " in *" $(series_of_kver "$k") "*) continue ;; esac
	check "regex refuses $k" sh -c "! echo '$k' | grep -qE '$regex'"
done

log "dkms.conf: PACKAGE_VERSION=\"$(dkms_conf_value dkms.conf PACKAGE_VERSION)\", VERSION $(cat VERSION)"
check "dkms.conf: PACKAGE_VERSION equals VERSION" \
	test "$(dkms_conf_value dkms.conf PACKAGE_VERSION)" = "$(cat VERSION)"
check "dkms.conf: BUILD_EXCLUSIVE_KERNEL is META's regex" \
	test "$(dkms_conf_value dkms.conf BUILD_EXCLUSIVE_KERNEL)" = "$regex"
check "dkms.conf: PACKAGE_NAME f2fs_packed, MAKE builds the module target" \
	sh -c "grep -qx 'PACKAGE_NAME=\"f2fs_packed\"' dkms.conf &&
		grep -q '^MAKE\[0\]=\"make .* module\"$' dkms.conf"
# What dkms itself reads: the file sourced by bash, as dkms 3 does.
dkms_reads() {
	bash -c 'kernelver=K kernel_source_dir=D; . ./dkms.conf &&
		[ "$PACKAGE_VERSION" = "$(cat VERSION)" ] &&
		[ "${MAKE[0]}" = "make KVER=K KDIR=D module" ] &&
		echo "$1" | grep -qE "$BUILD_EXCLUSIVE_KERNEL"' sh "$1"
}
check "dkms.conf as bash sources it: version, MAKE, regex take ${series%% *}.1-amd64" \
	dkms_reads "${series%% *}.1-amd64"
msg=$(check_dkms_conf dkms.conf VERSION 2>&1) || :
check "check_dkms_conf (make dist, the DKMS tree) accepts it${msg:+: $msg}" test -z "$msg"
finish
