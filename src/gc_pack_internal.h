/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between src/gc_pack.c (a pack pass, per section) and src/gc_batch.c
 * (several sections, one pass); upstream f2fs sees none of it.
 */
#ifndef _F2FS_PACKED_GC_PACK_INTERNAL_H
#define _F2FS_PACKED_GC_PACK_INTERNAL_H

struct gc_pack_ctl;
struct gc_pack_section;
struct gc_inode_list;
struct f2fs_sb_info;

/* gc_pack.c */
struct gc_pack_section *gc_pack_section_of(struct gc_pack_ctl *pack,
					   unsigned int segno);
bool gc_pack_holding(struct gc_pack_ctl *pack);
void gc_pack_pass(struct gc_pack_ctl *pack, struct gc_inode_list *gc_list,
		  bool migrate);

/* gc_batch.c: publish a section the batch holds, for sec_usage_check() */
void gc_batch_hold(struct f2fs_sb_info *sbi, unsigned int secno);

#endif /* _F2FS_PACKED_GC_PACK_INTERNAL_H */
