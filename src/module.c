// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs_packed module identity. Upstream super.c registers the file system
 * and carries the other MODULE_* tags; this tells f2fs_packed builds apart.
 */
#include <linux/module.h>

MODULE_VERSION(F2FS_PACKED_VERSION);
