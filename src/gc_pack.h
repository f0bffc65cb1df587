/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inode-local packing for foreground GC: the interface between upstream
 * f2fs, hooked by patches/<series>/ (the hook patch: per section; the
 * batch patch: across sections), and src/gc_pack.c, src/gc_batch.c.
 */
#ifndef _F2FS_PACKED_GC_PACK_H
#define _F2FS_PACKED_GC_PACK_H

#include <linux/fs_parser.h>
#include <linux/parser.h>
#include <linux/types.h>

struct f2fs_sb_info;
struct f2fs_summary;
struct gc_inode_list;
struct inode;
struct node_info;
struct page;
struct seq_file;

/* gc_packing= mount option */
enum {
	GC_PACK_AUTO,	/* on for sections of more than one segment */
	GC_PACK_ON,
	GC_PACK_OFF,
};

/* its values by name, indexed by value; 7.x's fs_parser takes it as is */
extern const struct constant_table f2fs_gc_pack_modes[];

/* gc_pack_order sysfs knob: the order of one inode's blocks */
enum {
	GC_PACK_ORDER_FOUND,	/* as the section scan found them (the seed) */
	GC_PACK_ORDER_OFFSET,	/* by file offset */
};

/*
 * gc_pack_max_blocks: its default is one section's blocks, at least
 * GC_PACK_DEF_MAX_BLOCKS (a 64 MiB section), at most what fits in
 * 1 / 2^GC_PACK_RAM_SHIFT of RAM (f2fs_gc_pack_init()).
 */
#define GC_PACK_DEF_MAX_BLOCKS	16384
#define GC_PACK_RAM_SHIFT	7
#define GC_PACK_MIN_MAX_BLOCKS	64
#define GC_PACK_MAX_MAX_BLOCKS	(1U << 20)

/*
 * gc_pack_sections: sections one foreground f2fs_gc() step may collect,
 * holding their records for a single pack pass (src/gc_batch.c). The
 * bound keeps the held-section lookup (per victim candidate and per
 * record) a short scan; the record cap, GC_PACK_MAX_HELD_SUMS and the
 * free space bound a batch well before it on most volumes.
 */
#define GC_PACK_DEF_SECTIONS	1
#define GC_PACK_MAX_SECTIONS	64
/*
 * Summary pages a batch holds at most (2 MiB), unless its first section
 * alone has more: a batch of 64 MiB sections takes 16 at most, of zones
 * of more than 256 segments (512 MiB) one, as without a batch.
 */
#define GC_PACK_MAX_HELD_SUMS	512

struct gc_pack_ctl;

/*
 * Per mount. Knobs are unsigned int so f2fs's generic sysfs store can
 * write them; counters only grow, under sbi->gc_lock.
 */
struct f2fs_gc_pack_info {
	unsigned int enabled;		/* gc_inode_local_packing */
	unsigned int max_blocks;	/* gc_pack_max_blocks */
	unsigned int order;		/* gc_pack_order */
	unsigned int max_sections;	/* gc_pack_sections */
	unsigned int queued;		/* records held now: 0 outside GC */
	unsigned int peak_queued;	/* most records queued at once */
	u64 blocks;		/* blocks migrated by a pack pass */
	u64 inodes;		/* inodes migrated by a pack pass, per pass */
	u64 sections;		/* sections that went through packing */
	u64 early_drains;	/* pack passes forced by max_blocks */
	u64 alloc_fallbacks;	/* blocks migrated at once: no record */
	u64 dropped;		/* records dropped by an early exit */
	u64 stale;		/* records whose block died before the pass */
	u64 left;		/* records the pass left in place, unmoved */
	u64 read_errors;	/* of them, left as their node was unreadable */
	u64 held_sections;	/* sections held for a later victim's pass */
	u64 cap_stops;		/* batches ended by max_blocks, held summaries */
	u64 space_stops;	/* batches ended by the free space */
	/* the batch f2fs_gc_pack_batch() is collecting: under gc_lock */
	struct gc_pack_ctl *batch;
	/*
	 * Its sections, for sec_usage_check(), which 7.3's allocator calls
	 * without seglist_lock: read lock-free, nr_held last (acquire).
	 */
	unsigned int nr_held;
	unsigned int held_secnos[GC_PACK_MAX_SECTIONS];
};

/* A scanned segment's summary entries, and the page that holds them. */
struct gc_pack_segment {
	struct page *sum_page;
	struct f2fs_summary *entries;
	unsigned int moved;		/* its blocks the passes moved */
	unsigned int queued;		/* its records not yet handled */
};

/* One victim section of a pack pass. */
struct gc_pack_section {
	unsigned int secno;
	/* its segments, scanned ones not yet migrated: their summaries */
	struct gc_pack_segment *segs;
	int segs_freed;			/* scanned segments the passes emptied */
	int found_free;			/* batch: segments gc.c found free */
	bool scanned;			/* its scan went through phase 4 */
	bool passed;			/* a pass ran after its scan */
};

/*
 * Packing state: of one victim section, on do_garbage_collect()'s stack,
 * or of a batch of sections, on f2fs_gc_pack_batch()'s. gc.c reads only
 * submitted and segs_freed.
 */
struct gc_pack_ctl {
	struct f2fs_sb_info *sbi;
	int gc_type;
	unsigned int order;		/* knobs, read once per section/batch */
	unsigned int max_blocks;
	unsigned int max_sections;
	unsigned int start_segno;	/* the section being scanned */
	struct gc_pack_section *secs;	/* nr_secs of them */
	struct gc_pack_section one;	/* secs of a single section */
	unsigned int nr_secs;
	unsigned int nr_queued;
	unsigned int nr_inodes;		/* inodes with queued records */
	unsigned int nr_dnode_runs;	/* queued runs of one direct node */
	unsigned int nr_sums;		/* summary pages held */
	int submitted;			/* writes issued by pack passes */
	int segs_freed;			/* single section: what the passes emptied */
	bool batch;
	bool aborted;			/* records were dropped */
};

/* upstream gc.c, reached by the packing hooks */
bool is_alive(struct f2fs_sb_info *sbi, struct f2fs_summary *sum,
	      struct node_info *dni, block_t blkaddr, unsigned int *nofs);
int f2fs_gc_move_data_block(struct f2fs_sb_info *sbi, struct inode *inode,
			    unsigned int segno, int off, unsigned int nofs,
			    unsigned int ofs_in_node, int gc_type);

/* gc.c: one victim section */
struct gc_pack_ctl *f2fs_gc_pack_begin(struct f2fs_sb_info *sbi,
				       struct gc_pack_ctl *pack, int gc_type,
				       bool data_section,
				       unsigned int start_segno);
bool f2fs_gc_pack_active(struct gc_pack_ctl *pack);
bool f2fs_gc_pack_queue(struct gc_pack_ctl *pack,
			struct gc_inode_list *gc_list, struct inode *inode,
			block_t blkaddr, pgoff_t bidx);
void f2fs_gc_pack_segment_scanned(struct gc_pack_ctl *pack,
				  struct gc_inode_list *gc_list,
				  unsigned int segno, struct page *sum_page,
				  struct f2fs_summary *entries);
void f2fs_gc_pack_abort(struct gc_pack_ctl *pack,
			struct gc_inode_list *gc_list);
void f2fs_gc_pack_end(struct gc_pack_ctl *pack,
		      struct gc_inode_list *gc_list);

/* gc.c: f2fs_gc()'s foreground step, of several sections (gc_pack_sections) */
int f2fs_gc_pack_batch(struct f2fs_sb_info *sbi, unsigned int segno,
		       struct gc_inode_list *gc_list, int *more_segs,
		       int *more_secs);
/* upstream gc.c, reached by the batch: f2fs_gc()'s steps, as it takes them */
int f2fs_gc_get_victim(struct f2fs_sb_info *sbi, unsigned int *segno);
int f2fs_gc_collect_section(struct f2fs_sb_info *sbi, unsigned int segno,
			    struct gc_inode_list *gc_list);
unsigned int f2fs_gc_checkpoint_secs(struct f2fs_sb_info *sbi);
/* segment.h's sec_usage_check(): a section the batch holds */
bool f2fs_gc_pack_held(struct f2fs_sb_info *sbi, unsigned int secno);

/* super.c and sysfs.c: policy and knobs */
void f2fs_gc_pack_init(struct f2fs_sb_info *sbi);
int f2fs_gc_pack_parse_option(struct f2fs_sb_info *sbi,
			      substring_t *arg);
void f2fs_gc_pack_apply_option(struct f2fs_sb_info *sbi);
void f2fs_gc_pack_show_option(struct seq_file *seq,
			      struct f2fs_sb_info *sbi);
int f2fs_gc_pack_check_knob(const char *name, unsigned long value);

/* debug.c */
void f2fs_gc_pack_show_stat(struct seq_file *s, struct f2fs_sb_info *sbi);

/* module init/exit, from gc.c's cache setup */
int __init f2fs_gc_pack_create_cache(void);
void f2fs_gc_pack_destroy_cache(void);

#endif /* _F2FS_PACKED_GC_PACK_H */
