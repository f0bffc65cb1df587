# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The freezing(current) exit of do_garbage_collect() (7.x) while packing
# holds records, driven deterministically:
#  - the volume sits on a dm linear device, suspended (--nolockfs: the file
#    system is not frozen) after a sync and drop_caches, so a GC ioctl
#    blocks on its first read inside do_garbage_collect() (checked in
#    /proc/PID/stack);
#  - the process is then put to freezing by the cgroup v1 freezer (the
#    freezer v2's cgroup.freeze stops tasks by a job-control trap and
#    freezing() never sees it); a task in D state cannot freeze, so the
#    cgroup stays FREEZING;
#  - the device is resumed: GC finishes the section's first segment,
#    queuing its blocks, and takes the exit right after it.
# Checked: records were dropped and none is left (gc_pack_queued 0), no
# section was packed, the task froze and, thawed, got its EAGAIN; the next
# GC selects the same section again from its start (the in-section victim
# hint was cleared: a kept hint would resume one segment in) and packs it;
# data intact, fsck clean. Series before 7.x have no such exit: skipped.
# vm: -d 1 -s 512M
set -eu
. "$REPO/tests/lib/pack.sh"

if [ "${KVER%%.*}" -lt 7 ]; then
	skip_test "do_garbage_collect() has no freezing exit before 7.x"
fi

load_packed
need_gc_tool
export DM_DISABLE_UDEV=1
modprobe dm-mod
must "dm linear device over $DISK1" dmsetup create --noudevsync pk \
	--table "0 $(blockdev --getsz "$DISK1") linear $DISK1 0"
# As udev would: /dev/mapper/pk a link to the kernel's name, which mount
# reports (libmount's canonical /dev/mapper name) and sysfs_dev resolves.
dev=/dev/mapper/pk
ln -sf "../dm-$(dmsetup info -c --noheadings -o minor pk | tr -d ' ')" "$dev"
mkfs_f2fs "$dev" -s 4
mount_fs f2fs_packed "$dev" /mnt/a gc_packing=on,background_gc=off
fragment /mnt/a/f 32 512 /tmp/f.sha
before=$(total_extents /mnt/a/f)

freezer=/tmp/freezer
mkdir -p "$freezer"
must "cgroup v1 freezer mounted" mount -t cgroup -o freezer freezer "$freezer"
mkdir "$freezer/gc"
state() {
	cat "$freezer/gc/freezer.state"
}

trace_start f2fs_gc_pack_begin f2fs_gc_pack_end
sync
echo 3 > /proc/sys/vm/drop_caches
must "dm device suspended (file system not frozen)" \
	dmsetup suspend --noudevsync --nolockfs pk
# Whatever fails below, the device must not stay suspended.
trap 'dmsetup resume --noudevsync pk 2>/dev/null || :' EXIT
# One sync GC ioctl (F2FS_IOC_GARBAGE_COLLECT), from a process that is in
# the freezer cgroup before it runs; f2fs-gc would read the suspended
# device itself first.
gc_ioctl='import errno, fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    fcntl.ioctl(fd, 0x4004f506, struct.pack("I", 1))
    print("ok")
except OSError as e:
    print(errno.errorcode[e.errno])'
sh -c 'echo $$ > "$1/gc/tasks" && exec python3 -c "$2" "$3"' \
	sh "$freezer" "$gc_ioctl" /mnt/a > /tmp/gc.out &
gc=$!
in_gc() {
	grep -q do_garbage_collect "/proc/$gc/stack" 2>/dev/null
}
if ! wait_for 30 in_gc; then
	log "stack of the GC call: $(tr '\n' ' ' < "/proc/$gc/stack" 2>/dev/null)"
	fail "GC call blocked inside do_garbage_collect()"
	finish
fi
echo "ok - GC call blocked inside do_garbage_collect()"
echo FROZEN > "$freezer/gc/freezer.state"
check "the blocked GC task is freezing, not frozen" test "$(state)" = FREEZING
dropped=$(pack_stat /mnt/a gc_pack_dropped)
must "dm device resumed" dmsetup resume --noudevsync pk
frozen() {
	test "$(state)" = FROZEN
}
check "the GC task froze once the call returned" wait_for 60 frozen
trace_stop
log "$(pack_stats /mnt/a), queued $(queued_records /mnt/a)"
grep -o 'f2fs_gc_pack_[a-z]*: .*' /sys/kernel/tracing/trace | sed 's/^/# /'
check "the freezing exit dropped the queued records" \
	test "$(pack_stat /mnt/a gc_pack_dropped)" -gt "$dropped"
check "no record left after the freezing exit" test "$(queued_records /mnt/a)" -eq 0
check "no section packed before the exit" test "$(pack_stat /mnt/a gc_pack_packed_sections)" -eq 0
first=$(grep -o 'f2fs_gc_pack_begin: .*' /sys/kernel/tracing/trace |
	sed -n 's/.*section segno = \([0-9]*\),.*/\1/p' | head -1)
check "the dropping pass was the only pack pass" test \
	"$(grep -c 'f2fs_gc_pack_end: .*, drop$' /sys/kernel/tracing/trace)" -eq 1 -a \
	"$(grep -c 'f2fs_gc_pack_end: ' /sys/kernel/tracing/trace)" -eq 1

echo THAWED > "$freezer/gc/freezer.state"
wait $gc || true
log "GC call after the thaw: $(cat /tmp/gc.out)"
check "the frozen call returned EAGAIN (nothing freed)" grep -qx EAGAIN /tmp/gc.out

trace_start f2fs_gc_pack_begin
gc_calls /mnt/a 1 > /dev/null || true
trace_stop
again=$(grep -o 'f2fs_gc_pack_begin: .*' /sys/kernel/tracing/trace |
	sed -n 's/.*section segno = \([0-9]*\),.*/\1/p' | head -1)
log "section segno: dropped pass $first, next pass $again"
check "the next GC selects the same section from its start" \
	test -n "$first" -a "$again" = "$first"
gc_until_idle /mnt/a > /dev/null || true
after=$(total_extents /mnt/a/f)
log "extents $before -> $after, $(pack_stats /mnt/a)"
check "the section was packed later" test "$(pack_stat /mnt/a gc_pack_packed_sections)" -gt 0
check "files packed in the end" test "$after" -lt "$before"
check "no record left" test "$(queued_records /mnt/a)" -eq 0
check "data intact" sha_verify /mnt/a/f /tmp/f.sha
umount_fsck "$dev" /mnt/a
umount "$freezer"
dmsetup remove --noudevsync pk
finish
