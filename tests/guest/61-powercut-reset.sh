# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Power cuts during packed GC, for real: the guest is reset (sysrq b, no
# sync) while sync foreground GC with packing on runs, on two volumes at
# once: a regular disk with 4 segments per section, and a zoned NVMe
# namespace (ZNS, 8 MiB zones, a 48 MiB regular disk for the metadata).
# The first boot interleaves files whose odd half is the layout to keep
# and whose even half churn overwrites (O_DIRECT, out of place); in every
# boot, churn leaves the garbage GC then packs, while a writer fsyncs new
# files, until the cut comes, each time after another delay and then at
# the first moment a pack pass holds records. The next boot (scripts/vm -r)
# mounts both volumes, which recovers them: every layout file and every
# file whose fsync had returned must have its exact content, fsck.f2fs
# must be clean after the recovery mount, dmesg must hold no error. What
# must survive is recorded in the shared output directory, which the host
# writes through: it outlives the resets.
# dmesg-expected: Unaligned curseg\[[0-9]+\] with write pointer
# vm: -r -R -d 2 -s 384M,48M -z 384M:8M -m 1G -t 1500
# queue: first
set -eu
. "$REPO/tests/lib/powercut.sh"
. "$REPO/tests/lib/zoned.sh"

# 3 cuts: boot k cuts after 0.5 s + (617 k mod 2000) ms (1.1, 1.7 and
# 2.4 s), spread over the 0.5-2.5 s window; more cost a boot each (~60 s
# under TCG), and test 60 replays every write of such a run.
CUTS=3
STATE=$F2FS_PACKED_OUT/cuts
ZNS=/dev/nvme0n1
boot=$F2FS_PACKED_BOOT
NFILES=16

log "boot $boot up at $(cut -d' ' -f1 /proc/uptime) s"
load_packed
need_gc_tool
modprobe nvme
must "the ZNS namespace appears" wait_for 20 test -b $ZNS
# f2fs needs a scheduler that keeps zone writes in order on 6.1.
echo mq-deadline > /sys/block/nvme0n1/queue/scheduler

# The volume NAME is mounted, checked and fsck'd through this device.
vol_dev() {
	case $1 in
	large) echo "$DISK1" ;;
	zoned) echo "$DISK2" ;;
	esac
}

# The options GC and churn run under. mode=lfs on the regular disk, as
# zoned devices have it anyway: else its O_DIRECT overwrites go in place
# and leave nothing for GC.
vol_opts() {
	case $1 in
	large) echo background_gc=off,gc_packing=on,mode=lfs ;;
	zoned) echo background_gc=off,gc_packing=on ;;
	esac
}

# layout VOL: a new volume with NFILES files of 2 MiB interleaved (four
# sections), the odd ones recorded as what must survive. The zoned volume
# turns O_DIRECT writes into buffered ones, which writeback would write
# file by file.
layout() {
	local vol=$1 mnt=/mnt/$1 i
	mount_fs f2fs_packed "$(vol_dev "$vol")" "$mnt" "$(vol_opts "$vol")"
	case $vol in
	large) interleave "$mnt/base" $NFILES 2048 16k ;;
	zoned) interleave_buffered "$mnt/base" $NFILES 2048 ;;
	esac
	sync
	for ((i = 1; i < NFILES; i += 2)); do
		echo "base/f.0.$i"
	done | (cd "$mnt" && xargs sha256sum) > "$STATE/$vol.expected"
	umount "$mnt"
}

# start VOL: churn over the even files, an fsync'ing writer and sync
# foreground GC calls, left running for the cut. Both churn and GC are
# paced: back to back, GC would rewrite nearly full sections at the
# guest's full speed and leave the host flushing for the next boot.
start() {
	local mnt=/mnt/$1 i churn=
	mount_fs f2fs_packed "$(vol_dev "$1")" "$mnt" "$(vol_opts "$1")"
	for ((i = 0; i < NFILES; i += 2)); do
		churn="$churn${churn:+:}$mnt/base/f.0.$i"
	done
	fio --name=churn --filename="$churn" --rw=randwrite --bs=4k \
		--direct=1 --rate_iops=200 --time_based --runtime=600 \
		--eta=never --output=/dev/null &
	fsync_writer "$mnt" "w$boot" 1000 "$STATE/$1.expected" &
	pack_stat "$mnt" gc_pack_blocks > "/tmp/$1.blocks"
	while :; do
		"$GC_TOOL" -q -d off -c 1 "$mnt" > /dev/null || :
		sleep 0.2
	done &
}

if [ "$boot" -eq 1 ]; then
	rm -rf "$STATE"
	mkdir -p "$STATE"
	mkfs_f2fs "$DISK1" -s 4
	mkfs_f2fs "$DISK2" -m -c $ZNS
	layout large
	layout zoned
else
	for vol in large zoned; do
		if out=$(cut_check f2fs_packed "$(vol_dev $vol)" "/mnt/$vol" \
				"$STATE/$vol.expected" background_gc=off); then
			echo "cut $((boot - 1)) $vol ok $(wc -l < "$STATE/$vol.expected")" >> "$STATE/checks"
		else
			echo "$out" | sed 's/^/# /'
			echo "cut $((boot - 1)) $vol FAILED" >> "$STATE/checks"
		fi
	done
fi
log "checked at $(cut -d' ' -f1 /proc/uptime) s"

if [ "$boot" -le $CUTS ] && ! grep -q FAILED "$STATE/checks" 2>/dev/null; then
	start large
	start zoned
	# 0.5 to 2.5 s after GC started, a different point each time, then
	# the first moment a pack pass holds records on either volume (a read
	# every 10 ms, with the shell's builtins: no command between it and
	# the reset), so that every cut lands while a pass is packing.
	delay=$((500 + boot * 617 % 2000))
	sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
	large=$(sysfs_dev f2fs_packed "$DISK1") zoned=$(sysfs_dev f2fs_packed "$DISK2")
	waited=0
	while read -r q1 < "$large/gc_pack_queued" && read -r q2 < "$zoned/gc_pack_queued" &&
	      [ "$q1" -eq 0 ] && [ "$q2" -eq 0 ] && [ $waited -lt 30000 ]; do
		sleep 0.01
		waited=$((waited + 10))
	done
	read -r b1 < "$large/gc_pack_blocks"
	read -r b2 < "$zoned/gc_pack_blocks"
	echo "cut $boot after ${delay} ms and $waited ms more; large: $q1 records queued, $((b1 - $(cat /tmp/large.blocks))) blocks packed zoned: $q2 records queued, $((b2 - $(cat /tmp/zoned.blocks))) blocks packed" >> "$STATE/cuts"
	echo b > /proc/sysrq-trigger
	sleep 60	# the reset comes first
fi

sed 's/^/# /' "$STATE/cuts"
for vol in large zoned; do
	ok=$(grep -c "^cut [0-9]* $vol ok" "$STATE/checks" || :)
	checked=$(awk -v v=$vol '$3 == v && $4 == "ok" { n += $5 } END { print n + 0 }' "$STATE/checks")
	packed=$(grep -o "$vol: [0-9]* records queued, [0-9]* blocks" "$STATE/cuts" |
		awk '$5 > 0 { n++ } END { print n + 0 }')
	log "$vol: $ok of $CUTS cuts recovered with every file ($checked file checks); $packed cuts came after a pass had packed blocks"
	check "$vol: every cut recovered, nothing lost, fsck clean" test "$ok" -eq $CUTS
done
# What the test is for: every cut came while a pass held records (read
# just before the reset) on one volume at least.
packing=$(grep -c ": [1-9][0-9]* records queued" "$STATE/cuts" || :)
check "every cut came while a pack pass held records ($packing of $CUTS)" \
	test "$packing" -eq $CUTS
finish
