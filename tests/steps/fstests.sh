# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest side of the fstests lane (scripts/fstests boots it with scripts/vm,
# once or more per module and mode): runs fstests' ./check once per test
# of a list, FSTYP=f2fs, TEST_DEV /dev/vda and SCRATCH_DEV /dev/vdb, and
# appends one line per test to OUT/progress:
#   TEST VERDICT SECS MOUNTS STORMED BG_GC MOVED PACKED_BLOCKS
# VERDICT: pass, fail, notrun, expunged, error (check said nothing of
# the test), timeout (killed after TIMEOUT s; the boot then ends, so
# that the next test starts on a fresh one). MOUNTS counts the f2fs
# mounts the test made (TEST_DEV's included), STORMED those that came
# up with background_gc=sync and gc_urgent high; BG_GC (the GC thread's
# calls), MOVED (the blocks GC moved) and PACKED_BLOCKS sum the volumes'
# counters at their unmounts (tests/lib/fstests-mount,
# tests/lib/fstests-records.awk). OUT/current names the test that runs
# and when it started, so that the host can tell which one a crash ended.
#
# usage (a scripts/vm script): fstests.sh FS MODE FSTESTS LIST MKFS_OPTIONS TIMEOUT
#   FS       ours (f2fs_packed, build/KVER/f2fs_packed.ko) or stock (f2fs)
#   MODE     normal or storm (see tests/lib/fstests-mount)
#   FSTESTS  the built fstests tree (read-only here; copied to /tmp)
#   LIST     file of test names (f2fs/001 ...), run in its order
#
# fstests knows FSTYP=f2fs only; what is changed in the guest's copy of
# fstests for ours, and why, is listed in tests/README.md ("fstests").
set -eu
. "$REPO/tests/lib/guest.sh"

fs=$1 mode=$2 src=$3 list=$4 mkfs_opts=$5 timeout=$6
out=$F2FS_PACKED_OUT
lane=/run/fstests-lane
xfs=/tmp/xfstests
case $fs in
ours) type=f2fs_packed ;;
stock) type=f2fs ;;
*) echo "fstests.sh: FS is ours or stock, not $fs"; exit 2 ;;
esac
case $mode in
normal|storm) ;;
*) echo "fstests.sh: MODE is normal or storm, not $mode"; exit 2 ;;
esac

die_boot() {
	echo "fstests: $*"
	echo "setup-failed $*" >> "$out/boot-errors"
	exit 1
}

log "fstests: $fs ($type), $mode, kernel $(uname -r), boot $F2FS_PACKED_BOOT"
if [ "$fs" = ours ]; then
	load_packed
else
	modprobe f2fs || die_boot "modprobe f2fs"
fi
modprobe -a loop dm_mod overlay 2>/dev/null || :

# --- users fstests wants (fsgqa, fsgqa2, 123456-fsgqa) ---------------
# /etc is the host's, read-only: copies with the users added, on tmpfs,
# bound over the originals for this boot only.
mkdir -p $lane/etc /tmp/home
free_id() {
	awk -F: -v n="$2" '{ used[$3] = 1 } END { while (n in used) n++; print n }' "$1"
}
cp /etc/passwd /etc/group $lane/etc/
cp /etc/shadow $lane/etc/ 2>/dev/null || : > $lane/etc/shadow
for u in fsgqa fsgqa2 123456-fsgqa; do
	if ! grep -q "^$u:" /etc/passwd; then
		id=$(free_id $lane/etc/passwd 31400)
		gid=$(free_id $lane/etc/group "$id")
		mkdir -p "/tmp/home/$u"
		echo "$u:x:$id:$gid::/tmp/home/$u:/bin/bash" >> $lane/etc/passwd
		echo "$u:x:$gid:" >> $lane/etc/group
		echo "$u:!:19000:0:99999:7:::" >> $lane/etc/shadow
		chown "$id:$gid" "/tmp/home/$u" 2>/dev/null || :
	fi
done
chmod 0640 $lane/etc/shadow
for f in passwd group shadow; do
	mount --bind "$lane/etc/$f" "/etc/$f" || die_boot "bind /etc/$f"
done
# chown resolves names again through the bound files
for u in fsgqa fsgqa2 123456-fsgqa; do
	chown "$u:$u" "/tmp/home/$u"
done

# --- mount(8)/umount(8) helpers: /sbin is /usr/sbin (merged /usr) -----
mkdir -p $lane/sbin/upper $lane/sbin/work
for n in mount.f2fs umount.f2fs umount.f2fs_packed; do
	ln -sf "$REPO/tests/lib/fstests-mount" "$lane/sbin/upper/$n"
done
mount -t overlay overlay \
	-o lowerdir=/usr/sbin,upperdir=$lane/sbin/upper,workdir=$lane/sbin/work \
	/usr/sbin || die_boot "overlay over /usr/sbin"
cat > $lane/conf <<EOF
LANE_TYPE=$type
LANE_MODE=$mode
LANE_LOG=$out/mounts.log
LANE_CURRENT=$lane/current
LANE_SLEEP_MS=${FSTESTS_STORM_SLEEP_MS:-10}
LANE_PACK_SECTIONS=${FSTESTS_STORM_PACK_SECTIONS:-16}
EOF

# --- what fstests' dm and network tests want ----------------------------
ip link set lo up 2>/dev/null || :
# dm helpers call `udevadm wait` and settle: without udevd generic/034 hangs
if [ -x /lib/systemd/systemd-udevd ]; then
	/lib/systemd/systemd-udevd --daemon 2>/dev/null || log "systemd-udevd did not start"
	udevadm trigger --action=add 2>/dev/null || :
	udevadm settle -t 60 2>/dev/null || :
fi

# --- the guest's own copy of fstests, changed for ours ---------------
mkdir -p $xfs
tar -C "$src" --exclude='*.o' -cf - . | tar -C $xfs -xf -
# edit FILE WHAT SED: SED must change at least one line of FILE, or
# this fstests is not the one the edits were made for: stop.
edit() {
	local f=$xfs/$1 n
	cp "$f" "$f.orig"
	sed -i "$3" "$f"
	n=$(diff "$f.orig" "$f" | grep -c '^>' || :)
	rm -f "$f.orig"
	[ "$n" -gt 0 ] || die_boot "fstests edit '$2' changed nothing in $1: review tests/steps/fstests.sh for this fstests"
	echo "fstests-edit $1: $2 ($n lines)" >> "$out/edits"
}
: > "$out/edits"
if [ "$type" != f2fs ]; then
	# _fs_type (df -T's type of a mounted device) is compared with
	# $FSTYP by _check_mounted_on (every _scratch_mount, _test_mount)
	# and _check_f2fs_filesystem (fsck after every test).
	edit common/rc "_fs_type: $type is f2fs" \
		"s|-e 's/nfs4/nfs/'|-e 's/^$type\$/f2fs/' &|"
	# _is_dev_mounted and _is_dir_mountpoint ask findmnt for mounts of
	# type $FSTYP (_check_f2fs_filesystem's umount and remount, ...)
	edit common/rc "_is_dev_mounted, _is_dir_mountpoint: findmnt -t $type" \
		"s|^\\(\tlocal fstype=\\\${2:-\\\$FSTYP}\\)\$|\\1; [ \"\\\$fstype\" != f2fs ] \\|\\| fstype=$type|"
	# /sys/fs/\$FSTYP/<dev>/<attr> helpers (_get/_set/_has/_require_fs_sysfs_attr)
	edit common/rc "sysfs helpers: /sys/fs/$type" \
		"s|/sys/fs/\${FSTYP}/|/sys/fs/$type/|g"
	edit common/sysfs "sysfs policy helpers: /sys/fs/$type" \
		"s|/sys/fs/\${FSTYP}/|/sys/fs/$type/|g"
	# the kernel's feature list, under the module's own name
	edit common/f2fs "compression feature: /sys/fs/$type/features" \
		"s|/sys/fs/f2fs/features/|/sys/fs/$type/features/|g"
	edit common/casefold "casefold feature: /sys/fs/$type/features" \
		"s|/sys/fs/f2fs/features/|/sys/fs/$type/features/|g"
	edit common/quota "project_quota feature: /sys/fs/$type/features" \
		"s|/sys/fs/f2fs/features/|/sys/fs/$type/features/|g"
	# What else names the stock module's places (none known): noted.
	grep -rnE '/(sys|proc)/fs/f2fs([/ "]|$)|debug/f2fs' $xfs/common $xfs/tests/f2fs \
		$xfs/tests/generic 2>/dev/null | sed 's|^|fstests-unchanged: |' >> "$out/edits" || :
fi
# fstests' _require_kernel_config reads KCONFIG_PATH first, then /boot and
# the headers' .config. Debian 7.x keeps the config beside the modules
# (/lib/modules/KVER/config: a build root's, shared to the guest), and no
# headers are shared: without this, f2fs/013, 015 and 016 are not run on
# 7.x ("Could not locate kernel config file").
kconfig=
for c in "/lib/modules/$(uname -r)/config" "/boot/config-$(uname -r)"; do
	[ -f "$c" ] && { kconfig=$c; break; }
done
[ -n "$kconfig" ] || die_boot "no kernel config of $(uname -r) for fstests' _require_kernel_config"
echo "kernel-config: $kconfig" >> "$out/edits"
cat > $xfs/local.config <<EOF
export KCONFIG_PATH=$kconfig
export FSTYP=f2fs
export TEST_DEV=$DISK1
export TEST_DIR=/mnt/test
export SCRATCH_DEV=$DISK2
export SCRATCH_MNT=/mnt/scratch
export MKFS_OPTIONS="$mkfs_opts"
export RESULT_BASE=$out/results
EOF
mkdir -p /mnt/test /mnt/scratch "$out/results" "$out/check"
mkfs.f2fs -q -f $mkfs_opts $DISK1 > /dev/null || die_boot "mkfs.f2fs $mkfs_opts $DISK1"

# --- the tests, one ./check each --------------------------------------
# sum_records TEST: "MOUNTS STORMED BG_GC MOVED PACKED" of TEST's lines
# in the helper's log.
sum_records() {
	awk -v t="$1" -f "$REPO/tests/lib/fstests-records.awk" "$out/mounts.log" 2>/dev/null ||
		echo "0 0 0 0 -"
}

# fstests' awk is gawk, first in PATH for ./check alone (common/encrypt's
# awk uses \< and \>, which mawk lacks: f2fs/002 fails on it, ours and
# stock alike); the host's awk, and ours, stays what it is (mawk).
mkdir -p $lane/bin
if [ -x /usr/bin/gawk ]; then
	ln -sf /usr/bin/gawk $lane/bin/awk
else
	log "no gawk (scripts/install-deps --fstests): fstests runs with $(readlink -f "$(command -v awk)")"
fi
touch "$out/mounts.log"
cd $xfs
while read -r t; do
	[ -n "$t" ] || continue
	echo "$t" > $lane/current
	safe=$(echo "$t" | tr / _)
	start=$(date +%s)
	echo "$t $start" > "$out/current"
	rc=0
	PATH=$lane/bin:$PATH timeout -k 60 "$timeout" ./check "$t" \
		> "$out/check/$safe.out" 2>&1 || rc=$?
	secs=$(($(date +%s) - start))
	# What check has left mounted is unmounted under the test's name.
	for m in $(findmnt -n -r -t "$type" -o TARGET | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || :
	done
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		verdict=timeout
	# check's summary of its one test (a test not run is "Passed" too)
	elif grep -qxF "Failures: $t" "$out/check/$safe.out"; then
		verdict=fail
	elif grep -qxF "Not run: $t" "$out/check/$safe.out"; then
		verdict=notrun
	elif grep -qxF 'Passed all 1 tests' "$out/check/$safe.out"; then
		verdict=pass
	elif grep -q '\[expunged\]' "$out/check/$safe.out"; then
		verdict=expunged
	else
		verdict=error
	fi
	echo "$t $verdict $secs $(sum_records "$t")" >> "$out/progress"
	echo "# fstests: $t $verdict ${secs}s"
	rm -f "$out/current"
	if [ $verdict = timeout ]; then
		# Whatever the test left behind (a stuck mount, a D-state
		# task) must not be the next test's start: a new boot.
		echo "# fstests: $t timed out after ${timeout}s: ending this boot"
		echo 1 | tee /proc/sys/kernel/sysrq > /dev/null
		echo w > /proc/sysrq-trigger
		exit 0
	fi
done < "$list"
exit 0
