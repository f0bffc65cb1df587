# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the power-cut tests share (sourced inside the VM): the workload that
# runs when the cut comes (packed GC with fsync'ing writers) and the check
# of what a cut left behind.

[ -z "${POWERCUT_LIB_LOADED:-}" ] || return 0
POWERCUT_LIB_LOADED=1
# shellcheck source=tests/lib/pack.sh
. "$REPO/tests/lib/pack.sh"

# After a cut, f2fs on a zoned device finds its current segments behind
# the zones' write pointers and moves them to new sections: the notice
# says that recovery ran (fix_curseg_write_pointer()); the tests say so
# in their "# dmesg-expected:" lines.

# fsync_writer MNT DIR N RECORD [MARK_CMD...]: write N files of 4-64 KiB
# into MNT/DIR, fsync each, and only after its fsync has returned append
# "SHA  DIR/NAME" to RECORD and run MARK_CMD (with the file's path
# relative to MNT as its last argument). RECORD thus lists files that must
# survive a cut; each line is one write(2), so a cut never tears one.
fsync_writer() {
	local mnt=$1 dir=$2 n=$3 record=$4 i f line
	shift 4
	mkdir -p "$mnt/$dir"
	for ((i = 0; i < n; i++)); do
		f=$dir/w.$i
		dd if=/dev/urandom of="$mnt/$f" bs=4k count=$((1 + RANDOM % 16)) \
			conv=fsync status=none || return 1
		line=$(cd "$mnt" && sha256sum "$f")
		echo "$line" >> "$record"
		[ $# -eq 0 ] || "$@" "$f" || return 1
	done
}

# cut_check TYPE DEV MNT EXPECTED [OPTIONS]: what a cut left on DEV. The
# mount must recover it, every "SHA  PATH" line of EXPECTED must match the
# file under MNT, fsck.f2fs must be clean after the recovery mount, and
# dmesg must hold no error. Prints what is wrong; status 0 when nothing.
cut_check() {
	local type=$1 dev=$2 mnt=$3 expected=$4 opts=${5:-} rc=0 out
	if ! mount_f2fs "$type" "$dev" "$mnt" "$opts"; then
		echo "recovery mount of $dev failed"
		dmesg | tail -5
		return 1
	fi
	if [ -s "$expected" ] &&
	   ! out=$(cd "$mnt" && sha256sum --quiet -c "$expected" 2>&1); then
		echo "$out" | head -5
		echo "$(echo "$out" | grep -c FAILED) of $(wc -l < "$expected") fsync'd files lost or changed"
		rc=1
	fi
	umount "$mnt" || { echo "umount $mnt failed"; return 1; }
	fsck_clean "$dev" || { echo "fsck.f2fs not clean after recovery"; rc=1; }
	if ! dmesg_clean; then
		echo "dmesg has errors"
		rc=1
	fi
	return $rc
}
