#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The f2fs the build imports is that of the kernel the tests boot: for
# every series, the installed linux-source-<series> (on the host or in
# the series' build root) has the version of the resolved kernel's
# headers package. A point release moves linux-source-6.12 on to 6.12.118
# while the newest signed 6.12 kernel is 6.12.117+deb12; that f2fs did not
# build against the 6.12.117 headers (bio_in_atomic() undeclared), on a
# fresh machine before scripts/install-deps pinned the source's version.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. scripts/lib.sh
. tests/lib/host.sh

for s in $(supported_series); do
	k=$(series_test_kernel "$s")
	[ -n "$k" ] || { fail "$s: no resolved kernel ($(kernels_file))"; continue; }
	h=$(headers_dir "$k")
	db=/var/lib/dpkg
	# a build root's kernel: that root's dpkg database
	case $h in
	/usr/src/*|/lib/modules/*) ;;
	*) db=${h%/lib/modules/*}$db ;;
	esac
	want=$(dpkg-query --admindir="$db" -W -f '${Version}' "linux-headers-$k" 2>/dev/null || :)
	have=$(linux_source_version "$s")
	check "$s: linux-source-$s $have is $k's source (headers $want)" \
		test -n "$want" -a "$have" = "$want"
done
finish
