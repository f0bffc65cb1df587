#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs/ABI/sysfs-fs-f2fs_packed documents exactly the knobs we add: every
# sysfs attribute and mount option the patches add (their "+" lines: the
# F2FS_*_ATTR and ATTR_LIST entries of sysfs.c, the mount option's match
# table or fsparam entry), and every knob src/ range-checks or shows, has
# an entry, and every entry names one of them; each entry has What, Date,
# Contact and Description, as the kernel's Documentation/ABI files do.
# The names are read from the patches, so a knob a later patch adds or
# renames fails here until the file follows. No VM: a second.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib/host.sh

abi=${ABI_FILE:-docs/ABI/sysfs-fs-f2fs_packed}
must "$abi exists" test -f "$abi"

# sysfs names the patches add
patch_sysfs() {
	cat patches/*/*.patch | grep '^+' | sed -nE \
		-e 's/.*F2FS_R[OW]_ATTR\([^,]*,[^,]*,[[:space:]]*([a-z0-9_]+).*/\1/p' \
		-e 's/.*F2FS_SBI_R[OW]_ATTR\(([a-z0-9_]+).*/\1/p' \
		-e 's/.*ATTR_LIST\(([a-z0-9_]+)\).*/\1/p' | sort -u
}
# mount options the patches add: "name=%s" match tables, fsparam_*("name"
patch_options() {
	cat patches/*/*.patch | grep '^+' | sed -nE \
		-e 's/.*"([a-z0-9_]+)=%s".*/\1/p' \
		-e 's/.*fsparam_[a-z0-9_]+\("([a-z0-9_]+)".*/\1/p' | sort -u
}
# knobs src/ range-checks (f2fs_gc_pack_check_knob) and options it shows
src_sysfs() {
	cat src/*.c | sed -nE 's/.*strcmp\(name, "([a-z0-9_]+)"\).*/\1/p' | sort -u
}
src_options() {
	cat src/*.c | sed -nE 's/.*seq_printf\(seq, ",([a-z0-9_]+)=.*/\1/p' | sort -u
}
abi_sysfs() {
	sed -nE 's|^What:[[:space:]]+/sys/fs/f2fs_packed/<disk>/([a-z0-9_]+)$|\1|p' "$abi" | sort -u
}
abi_options() {
	sed -nE 's/^What:[[:space:]]+([a-z0-9_]+)= .*/\1/p' "$abi" | sort -u
}

code_sysfs=$( (patch_sysfs; src_sysfs) | sort -u)
code_options=$( (patch_options; src_options) | sort -u)
log "sysfs names in the patches and src/: $(echo $code_sysfs)"
log "mount options in the patches and src/: $(echo $code_options)"
must "the patches add sysfs knobs (the reading of them works)" \
	sh -c "echo '$code_sysfs' | grep -qx gc_inode_local_packing"
must "the patches add the mount option (the reading of it works)" \
	sh -c "echo '$code_options' | grep -qx gc_packing"

for k in $code_sysfs; do
	check "sysfs $k has an entry in $abi" sh -c "echo '$(abi_sysfs)' | grep -qx '$k'"
done
for k in $(abi_sysfs); do
	check "entry $k is a sysfs knob of the patches or src/" \
		sh -c "echo '$code_sysfs' | grep -qx '$k'"
done
for o in $code_options; do
	check "mount option $o= has an entry in $abi" sh -c "echo '$(abi_options)' | grep -qx '$o'"
done
for o in $(abi_options); do
	check "entry $o= is a mount option of the patches or src/" \
		sh -c "echo '$code_options' | grep -qx '$o'"
done

# Every What: is followed by Date:, Contact:, Description:, in that order.
entries_well_formed() {
	awk '
		/^What:/ { if (state != "" && state != "Description") bad = 1; state = "What"; n++; next }
		/^Date:/ { if (state != "What") bad = 1; state = "Date"; next }
		/^Contact:/ { if (state != "Date") bad = 1; state = "Contact"; next }
		/^Description:/ { if (state != "Contact") bad = 1; state = "Description"; next }
		END { if (n == 0 || bad || state != "Description") exit 1 }' "$abi"
}
check "every entry has What, Date, Contact, Description in order" entries_well_formed
finish
