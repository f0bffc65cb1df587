/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What our own sources need to build and behave as upstream against
 * every supported series; the per-series differences of upstream code
 * live in patches/<series>/, never here.
 */
#ifndef _F2FS_PACKED_COMPAT_H
#define _F2FS_PACKED_COMPAT_H

#include <linux/freezer.h>
#include <linux/version.h>

/* 6.9 turned sbi->segs_per_sec into SEGS_PER_SEC(); 6.1 has the field. */
#ifndef SEGS_PER_SEC
#define SEGS_PER_SEC(sbi)	((sbi)->segs_per_sec)
#endif

/* 6.15 turned IS_CURSEG() into is_curseg(). */
#ifndef IS_CURSEG
#define IS_CURSEG(sbi, segno)	is_curseg(sbi, segno)
#endif

/* 6.1's f2fs_usable_segs_in_sec() takes a segment of the section. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
#define gc_pack_usable_segs(sbi, segno)	f2fs_usable_segs_in_sec(sbi, segno)
#else
#define gc_pack_usable_segs(sbi, segno)	\
	((void)(segno), f2fs_usable_segs_in_sec(sbi))
#endif

/*
 * Read a node page as is_alive() does, for what it returns only (an error
 * pointer or not): 7.x reads node folios, with the node type to check.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
#define gc_pack_get_node(sbi, nid) \
	f2fs_get_node_folio(sbi, nid, NODE_TYPE_REGULAR)
#define gc_pack_put_node(folio)	f2fs_folio_put(folio, true)
#else
#define gc_pack_get_node(sbi, nid)	f2fs_get_node_page(sbi, nid)
#define gc_pack_put_node(page)		f2fs_put_page(page, 1)
#endif

/*
 * Upstream GC stops between segments once its task is being frozen
 * ("f2fs: fix to freeze GC and discard threads quickly", 2026; of our
 * series 7.2 and 7.3): a pack pass stops migrating there too, and a batch
 * takes no further victim. 6.1's and 6.12's GC finish the section they
 * began whatever the freezer wants, and so do their passes: their
 * f2fs_gc() would pick the section again at once, and again.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0)
#define gc_pack_freezing()	freezing(current)
#else
#define gc_pack_freezing()	false
#endif

#endif /* _F2FS_PACKED_COMPAT_H */
