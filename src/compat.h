/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What our own sources need to build unchanged against every supported
 * series; the per-series differences of upstream code live in
 * patches/<series>/, never here.
 */
#ifndef _F2FS_PACKED_COMPAT_H
#define _F2FS_PACKED_COMPAT_H

/* 6.9 turned sbi->segs_per_sec into SEGS_PER_SEC(); 6.1 has the field. */
#ifndef SEGS_PER_SEC
#define SEGS_PER_SEC(sbi)	((sbi)->segs_per_sec)
#endif

/* 6.15 turned IS_CURSEG() into is_curseg(). */
#ifndef IS_CURSEG
#define IS_CURSEG(sbi, segno)	is_curseg(sbi, segno)
#endif

#endif /* _F2FS_PACKED_COMPAT_H */
