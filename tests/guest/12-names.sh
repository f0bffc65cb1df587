# SPDX-License-Identifier: GPL-2.0
# Names: with stock f2fs on vda and f2fs_packed on vdb, each module's
# sysfs, procfs, debugfs, trace events, slab caches, kthreads and printk
# prefix are its own; our tracepoints fire for our mount, stock's do not.
# vm: -d 2 -s 256M
set -eu
. "$REPO/tests/lib/guest.sh"

# has TEXT STRING / lacks TEXT STRING: fixed-string search in TEXT.
has() {
	printf '%s\n' "$1" | grep -qF -- "$2"
}
lacks() {
	! has "$@"
}

T=/sys/kernel/tracing
stock_dev=$(basename "$DISK1")
our_dev=$(basename "$DISK2")

aliases=$(modinfo -F alias "$MODULE" | tr '\n' ' ')
check "module file: alias fs-f2fs_packed" has " $aliases" " fs-f2fs_packed "
check "module file: no alias fs-f2fs" lacks " $aliases" " fs-f2fs "

load_stock
load_packed
check "/proc/filesystems lists f2fs" grep -qw 'f2fs$' /proc/filesystems
check "/proc/filesystems lists f2fs_packed" grep -qw 'f2fs_packed$' /proc/filesystems

mkfs_f2fs "$DISK1"
mkfs_f2fs "$DISK2"
mount_fs f2fs "$DISK1" /mnt/stock
mount_fs f2fs_packed "$DISK2" /mnt/packed

# sysfs, procfs, debugfs: each device under its own module only.
check "/sys/fs/f2fs_packed/$our_dev exists" test -d "/sys/fs/f2fs_packed/$our_dev"
check "/sys/fs/f2fs/$stock_dev exists" test -d "/sys/fs/f2fs/$stock_dev"
check "/sys/fs/f2fs has no $our_dev" test ! -e "/sys/fs/f2fs/$our_dev"
check "/sys/fs/f2fs_packed has no $stock_dev" test ! -e "/sys/fs/f2fs_packed/$stock_dev"
check "/proc/fs/f2fs_packed/$our_dev exists" test -d "/proc/fs/f2fs_packed/$our_dev"
check "/proc/fs/f2fs/$stock_dev exists" test -d "/proc/fs/f2fs/$stock_dev"
check "/proc/fs/f2fs has no $our_dev" test ! -e "/proc/fs/f2fs/$our_dev"
check "/proc/fs/f2fs_packed has no $stock_dev" test ! -e "/proc/fs/f2fs_packed/$stock_dev"
D=/sys/kernel/debug
check "debugfs f2fs_packed/status exists" test -f $D/f2fs_packed/status
check "debugfs f2fs/status exists" test -f $D/f2fs/status
check "debugfs f2fs_packed/status shows $our_dev" grep -q "partition info($our_dev)" $D/f2fs_packed/status
check "debugfs f2fs_packed/status does not show $stock_dev" lacks "$(cat $D/f2fs_packed/status)" "partition info($stock_dev)"
check "debugfs f2fs/status shows $stock_dev" grep -q "partition info($stock_dev)" $D/f2fs/status
check "debugfs f2fs/status does not show $our_dev" lacks "$(cat $D/f2fs/status)" "partition info($our_dev)"

# Trace events: our own system, its own event ids.
check "events/f2fs_packed exists" test -d $T/events/f2fs_packed
check "events/f2fs exists" test -d $T/events/f2fs
check "events/f2fs_packed/f2fs_sync_fs is not stock's event" test \
	"$(cat $T/events/f2fs_packed/f2fs_sync_fs/id)" != "$(cat $T/events/f2fs/f2fs_sync_fs/id)"

majmin() {
	local n
	n=$(stat -L -c '%t %T' "$1")
	# shellcheck disable=SC2086
	printf '(%d,%d)' 0x${n% *} 0x${n#* }
}
our_id=$(majmin "$DISK2")
stock_id=$(majmin "$DISK1")

# trace_sync SYSTEM MNT: enable SYSTEM's f2fs_sync_fs only, syncfs MNT,
# print what the trace buffer caught.
trace_sync() {
	echo 0 > $T/tracing_on
	echo 0 > $T/events/enable
	echo > $T/trace
	echo 1 > "$T/events/$1/f2fs_sync_fs/enable"
	echo 1 > $T/tracing_on
	echo "sync $RANDOM" > "$2/trace-$1"
	sync -f "$2"
	echo 0 > $T/tracing_on
	echo 0 > "$T/events/$1/f2fs_sync_fs/enable"
	grep 'f2fs_sync_fs:' $T/trace || true
}
ours=$(trace_sync f2fs_packed /mnt/packed)
log "f2fs_packed:f2fs_sync_fs on our mount: $(echo "$ours" | head -2)"
check "f2fs_packed:f2fs_sync_fs fires for our mount $our_id" has "$ours" "dev = $our_id"
stock_on_ours=$(trace_sync f2fs /mnt/packed)
check "f2fs:f2fs_sync_fs does not fire for our mount" lacks "$stock_on_ours" "dev = $our_id"
stock=$(trace_sync f2fs /mnt/stock)
check "f2fs:f2fs_sync_fs fires for the stock mount $stock_id" has "$stock" "dev = $stock_id"
ours_on_stock=$(trace_sync f2fs_packed /mnt/stock)
check "f2fs_packed:f2fs_sync_fs does not fire for the stock mount" lacks "$ours_on_stock" "dev = $stock_id"

# Slab caches: SLUB may merge a cache into another, but its name is
# then still a link in /sys/kernel/slab.
ours_slabs=$(cd /sys/kernel/slab && echo f2fs_packed_*)
log "our slab caches: $ours_slabs"
for c in f2fs_packed_inode_cache f2fs_packed_nat_entry f2fs_packed_extent_tree; do
	check "slab cache $c exists" test -e /sys/kernel/slab/$c
done
check "f2fs_packed_inode_cache in /proc/slabinfo" grep -q '^f2fs_packed_inode_cache ' /proc/slabinfo
check "stock f2fs_inode_cache still its own" grep -q '^f2fs_inode_cache ' /proc/slabinfo

# Kthreads: ours are f2fs_packed_{ckpt,gc,...}-MAJ:MIN, stock's
# f2fs_{ckpt,gc,...}-MAJ:MIN. /proc/PID/comm cuts names at 15 characters;
# the Name: line of a kthread's status has the full one.
kthreads() {
	# kthreads have no parent but kthreadd (2); Name: precedes PPid:.
	awk '/^Name:/ { n = $2 } /^PPid:/ && $2 == 2 { print n }' \
		/proc/[0-9]*/status 2>/dev/null
}
kt=" $(kthreads | grep -E '^f2fs' | sort | tr '\n' ' ')"
log "f2fs kthreads:$kt"
stock_ids=$(echo "$stock_id" | tr -d '()' | tr , :)
our_ids=$(echo "$our_id" | tr -d '()' | tr , :)
for k in ckpt gc; do
	check "kthread f2fs_packed_$k-$our_ids exists" has "$kt" " f2fs_packed_$k-$our_ids "
	check "stock's kthread f2fs_$k-$stock_ids exists" has "$kt" " f2fs_$k-$stock_ids "
done
for k in ckpt gc flush discard; do
	check "no stock-named kthread f2fs_$k-$our_ids for our device" lacks "$kt" " f2fs_$k-$our_ids "
done

# printk prefix: our mount's lines say F2FS_PACKED-fs, the stock one's F2FS-fs.
msgs=$(dmesg)
check "dmesg: F2FS_PACKED-fs ($our_dev) lines" has "$msgs" "F2FS_PACKED-fs ($our_dev)"
check "dmesg: no F2FS-fs ($our_dev) lines" lacks "$msgs" "F2FS-fs ($our_dev)"
check "dmesg: F2FS-fs ($stock_dev) lines from stock" has "$msgs" "F2FS-fs ($stock_dev)"
check "dmesg: no F2FS_PACKED-fs ($stock_dev) lines" lacks "$msgs" "F2FS_PACKED-fs ($stock_dev)"

# The data written above survives, and both volumes stay consistent.
sha_record /mnt/packed /tmp/packed.sha
sha_record /mnt/stock /tmp/stock.sha
umount_fsck "$DISK1" /mnt/stock
umount_fsck "$DISK2" /mnt/packed
mount_fs f2fs_packed "$DISK2" /mnt/packed
check "f2fs_packed data intact after remount" sha_verify /mnt/packed /tmp/packed.sha
umount_fsck "$DISK2" /mnt/packed
mount_fs f2fs "$DISK1" /mnt/stock
check "stock data intact after remount" sha_verify /mnt/stock /tmp/stock.sha
umount_fsck "$DISK1" /mnt/stock
finish
