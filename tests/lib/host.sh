# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for host test scripts (tests/host/*.sh, run by tests/run on this
# machine).

# shellcheck source=tests/lib/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"

finish() {
	report
}

# quietly CMD...: CMD with its output kept back; on failure the tail of
# it, as comments.
quietly() {
	local out rc=0
	out=$(mktemp)
	"$@" > "$out" 2>&1 || rc=$?
	[ $rc -eq 0 ] || tail -20 "$out" | sed 's/^/# /'
	rm -f "$out"
	return $rc
}

# dkms_installed NAME VERSION KVER...: DKMS says installed for each.
dkms_installed() {
	local name=$1 version=$2 k
	shift 2
	for k in "$@"; do
		dkms status -m "$name" -v "$version" -k "$k" | grep -q ': installed$' ||
			{ log "not installed for $k"; return 1; }
	done
}

# ko_from_dkms NAME VERSION KVER...: for each kernel, modinfo (and so
# modprobe) finds the DKMS-built module of this VERSION, which claims our
# file system type and not stock f2fs's.
ko_from_dkms() {
	local name=$1 version=$2 k f
	shift 2
	for k in "$@"; do
		f=$(modinfo -k "$k" -n "$name") || return 1
		log "modinfo -n $name: $f"
		case $f in
		/lib/modules/"$k"/updates/dkms/"$name".ko*) ;;
		*) return 1 ;;
		esac
		modinfo -k "$k" -F version "$name" | grep -qx "$version" &&
			modinfo -k "$k" -F alias "$name" | grep -qx fs-f2fs_packed &&
			! modinfo -k "$k" -F alias "$name" | grep -qx fs-f2fs ||
			return 1
	done
}
