#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug lane's plumbing, without building or booting the debug kernel
# (make test-debug does that): a debug kernel's release finds its cache
# (lib.sh's debug_root: headers_dir, kernel_image, kernel_root, the series
# of its headers); scripts/kbuild builds against it on the host, not in a
# chroot; scripts/vm, against a fake QEMU, boots it with its modules
# shared, the timeout and watchdogs stretched and kasan_multi_shot; the
# debug kernel's reports (lockdep, KASAN, sleeping in atomic context, list
# corruption) fail scripts/vm's verdict and the guests' dmesg check;
# scripts/debug-checks picks the leaks of our code out of a report, our
# frames named also after rmmod.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib/host.sh
. scripts/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- a debug kernel in a fake cache ---------------------------------------
export F2FS_PACKED_CACHE=$tmp/cache
k=6.12.999$DEBUG_LOCALVERSION
root=$F2FS_PACKED_CACHE/debug/6.12/6.12.999-1-0123456789ab/root
mkdir -p "$root/boot" "$root/lib/modules/$k/build"
: > "$root/boot/vmlinuz-$k"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 999\n' > "$root/lib/modules/$k/build/Makefile"
ln -s 6.12/6.12.999-1-0123456789ab "$F2FS_PACKED_CACHE/debug/$k"

is() { [ "$1" = "$2" ] || { log "got '$1', want '$2'"; return 1; }; }
check "debug_root finds the cached kernel" is "$(debug_root "$k")" "$F2FS_PACKED_CACHE/debug/$k/root"
check "debug_root: nothing for a Debian kernel" is "$(debug_root 6.12.118+deb12-amd64)" ""
check "debug_root: nothing for a debug release not built" is "$(debug_root "6.12.998$DEBUG_LOCALVERSION")" ""
check "kernel_root is the debug root" is "$(kernel_root "$k")" "$F2FS_PACKED_CACHE/debug/$k/root"
check "headers_dir is its build tree" is "$(headers_dir "$k")" "$F2FS_PACKED_CACHE/debug/$k/root/lib/modules/$k/build"
check "kernel_image is its vmlinuz" is "$(kernel_image "$k")" "$F2FS_PACKED_CACHE/debug/$k/root/boot/vmlinuz-$k"
check "its release reads as series 6.12" is "$(series_of_kver "$k")" 6.12
check "its headers say series 6.12" is "$(kernel_series_of_headers "$k")" 6.12

# scripts/kbuild runs make on the host (a fake make says how it was run).
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "make $*"\n' > "$tmp/bin/make"
chmod +x "$tmp/bin/make"
check "scripts/kbuild builds against the debug tree on the host" \
	sh -c 'PATH=$1:$PATH scripts/kbuild "$2" modules | grep -qx "make -j[0-9]* -C $3 M=$4 modules"' \
	sh "$tmp/bin" "$k" "$(headers_dir "$k")" "$top"

# ---- scripts/vm, a fake qemu ---------------------------------------------
# A copy of scripts/, so that the fake's answers (accel, an empty
# initramfs) never reach this tree's build/ cache.
fake=$tmp/tree
mkdir -p "$fake/build"
cp -a scripts META "$fake/"
mkdir -p "$fake/tests/lib"
cp tests/lib/errors.sh "$fake/tests/lib/"
echo tcg > "$fake/build/accel-$k"
: > "$fake/build/initramfs-$k.cpio.gz"
touch -d '+1 hour' "$fake/build/initramfs-$k.cpio.gz"
cat > "$tmp/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fake QEMU: records its arguments, sleeps FAKE_SLEEP s with the guest's
# heartbeat beating (a guest running freely), exits the guest 0.
set -eu
printf '%s\n' "$@" > "$FAKE_ARGS"
serial= out=
while [ $# -gt 0 ]; do
	case $1 in
	-serial) serial=${2#file:}; shift ;;
	-fsdev) case $2 in *id=out,*) out=${2#*path=}; out=${out%%,*} ;; esac; shift ;;
	esac
	shift
done
for ((i = 1; i <= ${FAKE_SLEEP:-0}; i++)); do
	echo "$((2 * i)) $i.00" >> "$out/heartbeat"
	sleep 1
done
echo "F2FS_PACKED_EXIT=0" > "$serial"
echo 0 > "$out/.exit-status"
EOF
chmod +x "$tmp/bin/qemu-system-x86_64"
echo 'exit 0' > "$tmp/guest.sh"
# vm_rc SLEEP TIMEOUT [ENV...]: scripts/vm's status on the debug kernel
vm_rc() {
	local s=$1 t=$2 rc=0
	shift 2
	env PATH="$tmp/bin:$PATH" FAKE_ARGS="$tmp/args" FAKE_SLEEP="$s" \
		VM_TIMEOUT_SCALE=1 KVER="$k" "$@" "$fake/scripts/vm" -d 0 -t "$t" \
		-o "$tmp/out" "$tmp/guest.sh" > "$tmp/vm.out" 2> "$tmp/vm.err" || rc=$?
	echo "$rc"
}
check "scripts/vm boots the debug kernel" is "$(vm_rc 0 60)" 0
has_arg() { grep -qE -- "$1" "$tmp/args"; }
check "... its vmlinuz" has_arg "^$F2FS_PACKED_CACHE/debug/$k/root/boot/vmlinuz-$k\$"
check "... its modules shared into the guest" \
	has_arg "^local,id=modules,path=$F2FS_PACKED_CACHE/debug/$k/root/lib/modules/$k,"
check "... watchdogs 3x (soft lockup capped at 60), hung tasks after 360 s" \
	has_arg 'watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=180 workqueue.watchdog_thresh=180 F2FS_PACKED_HUNG_TASK=360'
check "... every KASAN report (kasan_multi_shot)" has_arg 'kasan_multi_shot'
check "... 4-level paging (no5lvl: 7.3's KASAN kernel on la57 never reaches init)" has_arg ' no5lvl( |$)'
check "a 4 s guest with -t 2 finishes: the timeout is 3x" is "$(vm_rc 4 2)" 0
check "... and times out with VM_DEBUG_SLOWDOWN=1" is "$(vm_rc 4 2 VM_DEBUG_SLOWDOWN=1)" 124
not_built() {
	local out
	out=$(KVER=6.12.998$DEBUG_LOCALVERSION "$fake/scripts/vm" -d 0 "$tmp/guest.sh" 2>&1) && return 1
	echo "$out" | grep -q "build it with scripts/debug-kernel 6.12"
}
check "a debug release not built: scripts/vm says how to build it" not_built

# ---- the debug kernel's reports ------------------------------------------
# guest_clean LOG: the guests' dmesg check (tests/lib/guest.sh) on LOG.
guest_clean() {
	REPO=$top KVER=none bash -c 'log=$1
		. tests/lib/guest.sh
		dmesg() { cat "$log"; }
		dmesg_clean' sh "$1" > /dev/null
}
# Each sample: a report's first lines, as the kernel prints them.
n=0
while IFS='|' read -r what l1 l2; do
	n=$((n + 1))
	printf '%s\n%s\n%s\n' "[    9.000000] f2fs_packed: loading out-of-tree module taints kernel." \
		"$l1" "$l2" > "$tmp/r$n.log"
	check "scripts/vm fails on $what" is "$(console_verdict "$tmp/r$n.log" 0 2> /dev/null)" 125
	check "dmesg_clean fails on $what" not guest_clean "$tmp/r$n.log"
done <<'REPORTS'
lockdep, circular locking|[   41.123456] WARNING: possible circular locking dependency detected|[   41.123460] 6.12.118-f2fs-debug #1 Tainted: G           O
lockdep, suspicious RCU usage|[   41.123456] WARNING: suspicious RCU usage|[   41.123460] fs/f2fs_packed/gc.c:1234 suspicious rcu_dereference_check() usage!
lockdep, inconsistent lock state|[   41.123456] WARNING: inconsistent lock state|[   41.123460] inconsistent {SOFTIRQ-ON-W} -> {IN-SOFTIRQ-W} usage.
lockdep, non-static key|[   41.123456] INFO: trying to register non-static key.|[   41.123460] The code is fine but needs lockdep annotation, or maybe
sleeping in atomic context|[   41.123456] BUG: sleeping function called from invalid context at mm/slab.h:332|[   41.123460] in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 377, name: f2fs_io
KASAN|[   41.123456] BUG: KASAN: slab-use-after-free in f2fs_gc_pack_drain+0x1a/0x2c0 [f2fs_packed]|[   41.123460] Read of size 8 at addr ffff88800a1b2c38 by task f2fs_io/377
list corruption|[   41.123456] list_add corruption. next->prev should be prev (ffff88800a1b2c38), but was 0000000000000000. (next=ffff88800a1b2d00).|[   41.123460] WARNING: CPU: 1 PID: 377 at lib/list_debug.c:29 __list_add_valid_or_report+0x80/0xa0
debugobjects|[   41.123456] ODEBUG: free active (active state 0) object: ffff88800a1b2c38 object type: timer_list hint: f2fs_gc_pack_timer+0x0/0x40 [f2fs_packed]|[   41.123460] WARNING: CPU: 1 PID: 377 at lib/debugobjects.c:514 debug_print_object+0xd0/0x100
REPORTS

# ---- kmemleak ---------------------------------------------------------------
cat > "$tmp/kmemleak.txt" <<'EOF'
unreferenced object 0xffff888012345678 (size 64):
  comm "swapper/0", pid 1, jiffies 4294892300
  hex dump (first 32 bytes):
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
  backtrace (crc 9b2f1a2c):
    [<ffffffff81234567>] kmemleak_alloc+0x4a/0x80
    [<ffffffff81345678>] __kmalloc_noprof+0x1b5/0x3c0
    [<ffffffff81456789>] virtio_dev_probe+0x12/0x40
unreferenced object 0xffff888087654321 (size 128):
  comm "f2fs_io", pid 321, jiffies 4294895300
  backtrace (crc 1234):
    [<ffffffff81234567>] kmemleak_alloc+0x4a/0x80
    [<ffffffffc0a1b2c3>] 0xffffffffc0a1b2c3
    [<ffffffff81999999>] __x64_sys_ioctl+0x99/0xd0
unreferenced object 0xffff888087654400 (size 128):
  comm "f2fs_packed_gc-", pid 322, jiffies 4294895300
  backtrace (crc 1235):
    [<ffffffff81234567>] kmemleak_alloc+0x4a/0x80
    [<ffffffffc0b00010>] f2fs_gc_pack_add+0x10/0x200 [f2fs_packed]
unreferenced object 0xffff888087654500 (size 128):
  comm "mount", pid 323, jiffies 4294895300
  backtrace (crc 1236):
    [<ffffffffc0c00010>] 0xffffffffc0c00010
    [<ffffffffc0d00010>] f2fs_fill_super+0x10/0x2000 [f2fs]
EOF
printf 'ffffffffc0a00000 init_f2fs_fs\nffffffffc0a1a000 f2fs_gc\nffffffffc0a1c000 f2fs_gc_pack_end\n' > "$tmp/syms"
scripts/debug-checks --ours "$tmp/kmemleak.txt" "$tmp/syms" > "$tmp/ours"
scripts/debug-checks --ours "$tmp/kmemleak.txt" > "$tmp/ours-nosyms"
check "kmemleak: two leaks in our code, with our symbols" is "$(grep -c '^unreferenced' "$tmp/ours")" 2
check "kmemleak: a bare address named from our symbols after rmmod" \
	grep -qF '[<ffffffffc0a1b2c3>] f2fs_gc+0x12c3 [f2fs_packed, unloaded]' "$tmp/ours"
check "kmemleak: a frame of the loaded module" grep -qF 'f2fs_gc_pack_add+0x10/0x200 [f2fs_packed]' "$tmp/ours"
check "kmemleak: the kernel's and stock f2fs's suspects left out" \
	not grep -qE 'virtio_dev_probe|f2fs_fill_super' "$tmp/ours"
check "kmemleak: without our symbols, the named frame only" is "$(grep -c '^unreferenced' "$tmp/ours-nosyms")" 1

# ---- the fragment ---------------------------------------------------------
dups=$(sed -n 's/^\(# \)\{0,1\}\(CONFIG_[A-Za-z0-9_]*\)[= ].*/\2/p' scripts/debug-kernel.config | sort | uniq -d)
check "scripts/debug-kernel.config names each option once" is "$dups" ""

# A source whose Kconfig lacks an option of the fragment (7.3 dropped
# LIBCRC32C) is no unmet dependency; an option it has and .config lacks,
# or sets though the fragment turns it off, is.
mkdir -p "$tmp/src/lib" "$tmp/src/fs/f2fs"
printf 'config CRC32\n\ttristate\n menuconfig DEBUG_KERNEL\n' > "$tmp/src/lib/Kconfig"
printf 'config F2FS_FS\n\ttristate "F2FS"\nconfig F2FS_CHECK_FS\n' > "$tmp/src/fs/f2fs/Kconfig"
printf 'CONFIG_DEBUG_KERNEL=y\nCONFIG_LIBCRC32C=y\nCONFIG_F2FS_FS=m\n# CONFIG_F2FS_CHECK_FS is not set\n' > "$tmp/fragment"
printf 'CONFIG_DEBUG_KERNEL=y\nCONFIG_CRC32=y\nCONFIG_F2FS_FS=m\n' > "$tmp/config"
debug_config_unmet "$tmp/fragment" "$tmp/src" "$tmp/config" > "$tmp/unmet" 2> "$tmp/notes"
check "an option the source does not define is not demanded" is "$(cat "$tmp/unmet")" ""
check "... and is noted" grep -q 'CONFIG_LIBCRC32C is not in' "$tmp/notes"
printf 'CONFIG_DEBUG_KERNEL=y\nCONFIG_F2FS_FS=y\nCONFIG_F2FS_CHECK_FS=y\n' > "$tmp/config"
debug_config_unmet "$tmp/fragment" "$tmp/src" "$tmp/config" 2> /dev/null | sort > "$tmp/unmet"
check "an option the source defines, set otherwise, is unmet" \
	is "$(cat "$tmp/unmet")" "$(printf '  wanted CONFIG_F2FS_CHECK_FS off\n  wanted CONFIG_F2FS_FS=m')"
finish
