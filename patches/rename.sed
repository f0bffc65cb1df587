# SPDX-License-Identifier: GPL-2.0
#
# The rename of upstream f2fs to f2fs_packed, for every kernel series:
# scripts/import runs this sed script over each imported file before the
# series' patches. It renames every name the module registers in a
# namespace it shares with stock f2fs, so both load side by side; the
# on-disk format, the ioctls and the C identifiers stay f2fs's.
# scripts/check-rename then fails the import if any registration of a
# stock name is left (a name added by a later release, say).
#
# Each rule is anchored on the call or the literal it renames, so that it
# cannot touch anything else.

# Trace system events/f2fs_packed: the renamed header, its guard and its
# system name (the kernel's own include/trace/events/f2fs.h must not be
# picked up instead).
s|#include <trace/events/f2fs\.h>|#include <trace/events/f2fs_packed.h>|
s|^#define TRACE_SYSTEM f2fs$|#define TRACE_SYSTEM f2fs_packed|
s|\b_TRACE_F2FS_H\b|_TRACE_F2FS_PACKED_H|g

# Slab caches (/proc/slabinfo): fixed names and the per-device ones that
# are printed with "-%u:%u".
s|kmem_cache_create("f2fs_|kmem_cache_create("f2fs_packed_|
s|"f2fs_\([a-z_]*\)-%u:%u"|"f2fs_packed_\1-%u:%u"|

# Workqueues.
s|alloc_workqueue("f2fs_|alloc_workqueue("f2fs_packed_|

# Kernel log prefix: dmesg tells the two modules apart.
s|F2FS-fs (|F2FS_PACKED-fs (|g
# 7.x also prints without a device, for options parsed before there is one.
s|"%c%cF2FS-fs: %pV\\n"|"%c%cF2FS_PACKED-fs: %pV\\n"|

# debugfs f2fs_packed/, /proc/fs/f2fs_packed, /sys/fs/f2fs_packed.
s|debugfs_create_dir("f2fs", NULL)|debugfs_create_dir("f2fs_packed", NULL)|
s|proc_mkdir("fs/f2fs", NULL)|proc_mkdir("fs/f2fs_packed", NULL)|
s|remove_proc_entry("fs/f2fs", NULL)|remove_proc_entry("fs/f2fs_packed", NULL)|
s|kobject_set_name(&f2fs_kset\.kobj, "f2fs")|kobject_set_name(\&f2fs_kset.kobj, "f2fs_packed")|

# File system type and its module alias (mount -t f2fs_packed; no
# "fs-f2fs" alias, so mounting f2fs never loads this module).
s|^\t\.name\t\t= "f2fs",$|\t.name\t\t= "f2fs_packed",|
s|^MODULE_ALIAS_FS("f2fs");$|MODULE_ALIAS_FS("f2fs_packed");|

# Shrinker (debugfs shrinker/ and /proc/... names).
s|"f2fs-shrinker"|"f2fs_packed-shrinker"|
