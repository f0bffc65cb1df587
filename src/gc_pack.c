// SPDX-License-Identifier: GPL-2.0
/*
 * Inode-local packing for foreground GC.
 *
 * How it fits into gc.c: do_garbage_collect() walks a victim section
 * segment by segment, and gc_data_segment() makes five passes (phases)
 * over each segment's summary: 0-2 read ahead NAT, node and inode pages,
 * 3 reads the data pages and collects the inodes, 4 migrates every valid
 * block in segment-offset order. Foreground migration allocates the
 * destination block there and then, so phase 4's order becomes the new
 * on-disk order: blocks of files that were interleaved in the source stay
 * interleaved in the destination.
 *
 * With packing, phase 4 queues one record per block it would migrate on
 * its inode's gc inode entry instead, so the blocks it picks are exactly
 * the ones legacy GC would move: every valid block whose owner is on
 * gc_list, including blocks whose own phase-3 step failed. Once every
 * segment of the section has been scanned (or the queue reaches
 * gc_pack_max_blocks), a pack pass migrates the queue inode by inode, each
 * inode's blocks in file-offset order, through the helper phase 4 itself
 * uses: the same i_gc_rwsem trylocks and dio wait, and the same validity
 * checks (is_alive() against the live summary entry, check_valid_map()
 * inside the move), so a block rewritten, deleted or given another owner
 * while queued is skipped or moved for its new owner, never lost. The
 * scanned segments' summary pages stay referenced until their records are
 * migrated, as do_garbage_collect() references them during the scan.
 *
 * Only FG_GC packs: BG_GC just dirties the pages and leaves placement to
 * writeback. The knobs are read once per section (f2fs_gc_pack_begin()),
 * so a concurrent sysfs write cannot strand queued records, and every
 * record is either migrated or dropped before the section is done.
 *
 * Across sections (gc_pack_sections > 1): a foreground f2fs_gc() call of
 * the sync GC ioctl, of f2fs_balance_fs() or of the GC thread then
 * collects up to that many victims and holds the records of all of them
 * for one pass at the end, so a file whose pieces sit in several victims
 * comes out as one run. The batch lives on f2fs_gc()'s stack;
 * each section keeps its summary pages, and the batch is published under
 * seglist_lock so that sec_usage_check() never selects a held section
 * again (GC or SSR) until the batch ends. A held section keeps its valid
 * blocks, so it cannot turn prefree or free either. The batch takes a
 * further victim only while its records stay under gc_pack_max_blocks and
 * all held blocks fit in the free sections above the level where f2fs_gc()
 * checkpoints (f2fs_gc_pack_batch_fits()),
 * and every way out of f2fs_gc() ends it: migrated, or dropped on a
 * checkpoint error, for every section, then counted in seg_freed and
 * sec_freed once each.
 */
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/f2fs_fs.h>
#include <linux/slab.h>
#include <linux/list_sort.h>
#include <linux/mm.h>
#include <linux/parser.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "f2fs/f2fs.h"
#include "f2fs/node.h"
#include "f2fs/segment.h"
#include "f2fs/gc.h"
#include "compat.h"
#include "gc_pack.h"

#define CREATE_TRACE_POINTS
#include <trace/events/f2fs_packed_gc.h>

/* One valid block of a victim section, queued for the pack pass. */
struct gc_pack_block {
	struct list_head list;
	block_t blkaddr;		/* where it is now */
	pgoff_t bidx;			/* where it was in its file: sort key */
};

static struct kmem_cache *gc_pack_block_slab;

const struct constant_table f2fs_gc_pack_modes[] = {
	[GC_PACK_AUTO]	= { "auto",	GC_PACK_AUTO },
	[GC_PACK_ON]	= { "on",	GC_PACK_ON },
	[GC_PACK_OFF]	= { "off",	GC_PACK_OFF },
	{}
};

/*
 * The next section of @pack starts at @start_segno. False without memory
 * for its summaries: the pass could not re-check, so the section migrates
 * as upstream does. A batch's sections are published, under seglist_lock,
 * for sec_usage_check(): none is picked as a victim again, for GC or SSR,
 * until the batch ends.
 */
static bool gc_pack_start_section(struct gc_pack_ctl *pack,
				  unsigned int start_segno)
{
	struct f2fs_sb_info *sbi = pack->sbi;
	struct gc_pack_section *sec = &pack->secs[pack->nr_secs];

	memset(sec, 0, sizeof(*sec));
	sec->segs = kcalloc(SEGS_PER_SEC(sbi), sizeof(*sec->segs), GFP_NOFS);
	if (!sec->segs)
		return false;
	sec->start_segno = start_segno;
	pack->start_segno = start_segno;
	if (!pack->batch) {
		pack->nr_secs++;
		return true;
	}
	mutex_lock(&DIRTY_I(sbi)->seglist_lock);
	pack->nr_secs++;
	sbi->gc_pack.batch = pack;
	mutex_unlock(&DIRTY_I(sbi)->seglist_lock);
	return true;
}

static struct gc_pack_section *gc_pack_sec_of(struct gc_pack_ctl *pack,
					      unsigned int segno)
{
	unsigned int i;

	for (i = 0; i < pack->nr_secs; i++)
		if (segno - pack->secs[i].start_segno < SEGS_PER_SEC(pack->sbi))
			return &pack->secs[i];
	return NULL;
}

/* Sections scanned whose records wait for a pass. */
static bool gc_pack_holding(struct gc_pack_ctl *pack)
{
	unsigned int i;

	for (i = 0; i < pack->nr_secs; i++)
		if (pack->secs[i].scanned && !pack->secs[i].passed)
			return true;
	return false;
}

struct gc_pack_ctl *f2fs_gc_pack_begin(struct f2fs_sb_info *sbi,
				       struct gc_pack_ctl *pack, int gc_type,
				       bool data_section,
				       unsigned int start_segno)
{
	struct f2fs_gc_pack_info *info = &sbi->gc_pack;

	if (gc_type != FG_GC || !data_section || !READ_ONCE(info->enabled))
		return NULL;

	memset(pack, 0, sizeof(*pack));
	pack->sbi = sbi;
	pack->gc_type = gc_type;
	pack->order = READ_ONCE(info->order);
	pack->max_blocks = READ_ONCE(info->max_blocks);
	pack->max_sections = 1;
	pack->secs = &pack->one;
	return gc_pack_start_section(pack, start_segno) ? pack : NULL;
}

bool f2fs_gc_pack_active(struct gc_pack_ctl *pack)
{
	return pack && !pack->aborted;
}

/*
 * Queue the block at @blkaddr of @inode, which phase 4 found on @gc_list.
 * False when there is no record for it: the caller migrates the block at
 * once, as phase 4 would, so memory pressure costs the packing of that
 * block but never the block itself or GC's progress.
 */
bool f2fs_gc_pack_queue(struct gc_pack_ctl *pack,
			struct gc_inode_list *gc_list, struct inode *inode,
			block_t blkaddr, pgoff_t bidx)
{
	struct f2fs_gc_pack_info *info = &pack->sbi->gc_pack;
	struct inode_entry *ie;
	struct gc_pack_block *b;

	ie = radix_tree_lookup(&gc_list->iroot, inode->i_ino);
	if (WARN_ON_ONCE(!ie))
		return false;

	b = f2fs_kmem_cache_alloc(gc_pack_block_slab, GFP_NOFS, false,
				  pack->sbi);
	if (!b) {
		info->alloc_fallbacks++;
		return false;
	}
	b->blkaddr = blkaddr;
	b->bidx = bidx;
	list_add_tail(&b->list, &ie->gc_pack_blocks);

	pack->nr_queued++;
	info->queued++;
	if (pack->nr_queued > info->peak_queued)
		info->peak_queued = pack->nr_queued;
	return true;
}

static int gc_pack_cmp_offset(void *priv, const struct list_head *a,
			      const struct list_head *b)
{
	pgoff_t x = list_entry(a, struct gc_pack_block, list)->bidx;
	pgoff_t y = list_entry(b, struct gc_pack_block, list)->bidx;

	return x < y ? -1 : x > y;
}

/*
 * 1 if the block was moved, 0 if it died meanwhile or was skipped. The
 * check is phase 4's, against the live summary entry: f2fs_replace_block()
 * (collapse/insert range, move_range, atomic commit) gives a block another
 * node or owner without moving it, and rewrites only that entry.
 */
static int gc_pack_move(struct gc_pack_ctl *pack,
			struct gc_inode_list *gc_list, struct gc_pack_block *b)
{
	struct f2fs_sb_info *sbi = pack->sbi;
	unsigned int segno = GET_SEGNO(sbi, b->blkaddr);
	unsigned int off = GET_BLKOFF_FROM_SEG0(sbi, b->blkaddr);
	struct gc_pack_section *sec = gc_pack_sec_of(pack, segno);
	struct f2fs_summary *entry;
	struct inode_entry *ie;
	struct node_info dni;
	unsigned int nofs;

	/* a record comes from a scanned segment of one of the sections */
	if (WARN_ON_ONCE(!sec || !sec->segs[segno - sec->start_segno].entries))
		return 0;
	entry = &sec->segs[segno - sec->start_segno].entries[off];
	if (!is_alive(sbi, entry, &dni, b->blkaddr, &nofs)) {
		sbi->gc_pack.stale++;
		return 0;
	}
	/* as in phase 4, the owner is whoever the summary names now */
	ie = radix_tree_lookup(&gc_list->iroot, dni.ino);
	if (!ie)
		return 0;
	return f2fs_gc_move_data_block(sbi, ie->inode, segno, off, nofs,
				       le16_to_cpu(entry->ofs_in_node),
				       pack->gc_type);
}

/*
 * Each awaiting segment had all its records in the queue just emptied:
 * count the ones that are free now, exactly as gc.c's in-loop check would
 * have after phase 4, and let their summary pages go.
 */
static void gc_pack_count_freed(struct gc_pack_ctl *pack)
{
	struct f2fs_sb_info *sbi = pack->sbi;
	struct gc_pack_section *sec;
	unsigned int i, j;

	for (j = 0; j < pack->nr_secs; j++) {
		sec = &pack->secs[j];
		for (i = 0; i < SEGS_PER_SEC(sbi); i++) {
			if (!sec->segs[i].sum_page)
				continue;
			if (get_valid_blocks(sbi, sec->start_segno + i,
					     false) == 0)
				sec->segs_freed++;
			put_page(sec->segs[i].sum_page);
			sec->segs[i].sum_page = NULL;
			sec->segs[i].entries = NULL;
			pack->nr_sums--;
		}
	}
}

/*
 * Empty the queue: migrate every record, or drop them all. A checkpoint
 * error met on the way drops the rest, as upstream leaves the remaining
 * segments of a section alone once one is seen.
 */
static void gc_pack_pass(struct gc_pack_ctl *pack,
			 struct gc_inode_list *gc_list, bool migrate)
{
	struct f2fs_sb_info *sbi = pack->sbi;
	struct f2fs_gc_pack_info *info = &sbi->gc_pack;
	unsigned int moved = 0, inodes = 0, records = 0, dropped = 0, i;
	struct inode_entry *ie;
	struct gc_pack_block *b, *tmp;

	trace_f2fs_gc_pack_begin(sbi->sb, pack->start_segno, pack->nr_queued,
				 migrate);
	list_for_each_entry(ie, &gc_list->ilist, list) {
		if (list_empty(&ie->gc_pack_blocks))
			continue;
		if (migrate && pack->order == GC_PACK_ORDER_OFFSET)
			list_sort(NULL, &ie->gc_pack_blocks, gc_pack_cmp_offset);
		list_for_each_entry_safe(b, tmp, &ie->gc_pack_blocks, list) {
			if (migrate && unlikely(f2fs_cp_error(sbi)))
				migrate = false;
			if (migrate)
				moved += gc_pack_move(pack, gc_list, b);
			else
				dropped++;
			list_del(&b->list);
			kmem_cache_free(gc_pack_block_slab, b);
			info->queued--;
			records++;
		}
		inodes++;
	}

	pack->submitted += moved;
	info->blocks += moved;
	if (dropped < records)
		info->inodes += inodes;
	info->dropped += dropped;
	if (!migrate)
		pack->aborted = true;
	pack->nr_queued = 0;
	gc_pack_count_freed(pack);
	/* the sections whose scan is over are done; the current one is not */
	for (i = 0; i < pack->nr_secs; i++) {
		if (!pack->secs[i].scanned || pack->secs[i].passed)
			continue;
		pack->secs[i].passed = true;
		if (migrate)
			info->sections++;
	}
	trace_f2fs_gc_pack_end(sbi->sb, pack->start_segno, records, moved,
			       inodes, migrate);
}

/*
 * @segno went through phase 4: its blocks are queued, not yet moved, and
 * the pass re-checks them against its summary @entries, whose @sum_page
 * it keeps until then.
 */
void f2fs_gc_pack_segment_scanned(struct gc_pack_ctl *pack,
				  struct gc_inode_list *gc_list,
				  unsigned int segno, struct page *sum_page,
				  struct f2fs_summary *entries)
{
	struct gc_pack_section *sec = &pack->secs[pack->nr_secs - 1];
	struct gc_pack_segment *seg = &sec->segs[segno - sec->start_segno];

	get_page(sum_page);
	seg->sum_page = sum_page;
	seg->entries = entries;
	pack->nr_sums++;
	if (pack->nr_queued >= pack->max_blocks) {
		pack->sbi->gc_pack.early_drains++;
		gc_pack_pass(pack, gc_list, true);
	}
}

/*
 * The section is being left where upstream stops migrating (7.x's
 * freezing() exit): drop what is queued, and let the rest of the section
 * go the upstream way.
 */
void f2fs_gc_pack_abort(struct gc_pack_ctl *pack,
			struct gc_inode_list *gc_list)
{
	if (!f2fs_gc_pack_active(pack))
		return;
	gc_pack_pass(pack, gc_list, false);
}

/*
 * The section is scanned: migrate the queue, unless a checkpoint error
 * forbids writing, the one case that justifies dropping healthy work.
 */
void f2fs_gc_pack_end(struct gc_pack_ctl *pack,
		      struct gc_inode_list *gc_list)
{
	struct f2fs_sb_info *sbi = pack->sbi;
	struct gc_pack_section *sec = &pack->secs[pack->nr_secs - 1];

	sec->scanned = true;
	/*
	 * A batch holds the section while the call may collect another
	 * one and the records are under the cap. The in-section hint must
	 * not bring its scan back (a segment skipped there): the batch
	 * takes no section twice.
	 */
	if (pack->batch && !pack->aborted && !f2fs_cp_error(sbi) &&
	    pack->nr_collected + 1 < pack->max_sections &&
	    pack->nr_queued < pack->max_blocks) {
		sbi->gc_pack.held_sections++;
		if (__is_large_section(sbi))
			sbi->next_victim_seg[pack->gc_type] = NULL_SEGNO;
		pack->segs_freed = 0;
		return;
	}

	if (!pack->aborted)
		gc_pack_pass(pack, gc_list, !f2fs_cp_error(sbi));

	/*
	 * The in-section hint would resume the next FG_GC after segments
	 * whose records were dropped: search again instead.
	 */
	if (pack->aborted && __is_large_section(sbi))
		sbi->next_victim_seg[pack->gc_type] = NULL_SEGNO;
	if (pack->batch) {
		/* f2fs_gc_pack_batch_freed() counts for every section */
		pack->segs_freed = 0;
		return;
	}
	pack->segs_freed = sec->segs_freed;
	kfree(sec->segs);
}

/*
 * A batch for the sections of one f2fs_gc() call, when it @may_hold them
 * (the sync GC ioctl and GC_RANGE, f2fs_balance_fs(), the GC thread),
 * packs and gc_pack_sections allows more than one. The knobs are read once, for the
 * whole call. Only foreground victims join it: a call that starts as
 * background GC may turn foreground under pressure.
 */
struct gc_pack_ctl *f2fs_gc_pack_batch_begin(struct f2fs_sb_info *sbi,
					     struct gc_pack_ctl *pack,
					     bool may_hold)
{
	struct f2fs_gc_pack_info *info = &sbi->gc_pack;
	unsigned int n = min_t(unsigned int, READ_ONCE(info->max_sections),
			       GC_PACK_MAX_SECTIONS);

	if (!may_hold || n <= 1 || !READ_ONCE(info->enabled))
		return NULL;

	memset(pack, 0, sizeof(*pack));
	pack->secs = kcalloc(n, sizeof(*pack->secs), GFP_NOFS);
	if (!pack->secs)
		return NULL;
	pack->sbi = sbi;
	pack->gc_type = FG_GC;
	pack->order = READ_ONCE(info->order);
	pack->max_blocks = READ_ONCE(info->max_blocks);
	pack->max_sections = n;
	pack->batch = true;
	return pack;
}

/*
 * do_garbage_collect(): the victim at @start_segno joins @batch. NULL
 * where it cannot (a node section, a dropped batch, no memory): that
 * section migrates at once, and the batch keeps what it holds.
 */
struct gc_pack_ctl *f2fs_gc_pack_add(struct gc_pack_ctl *batch, int gc_type,
				     bool data_section,
				     unsigned int start_segno)
{
	if (!batch || gc_type != FG_GC || !data_section ||
	    batch->aborted || batch->nr_secs >= batch->max_sections)
		return NULL;
	if (!gc_pack_start_section(batch, start_segno))
		return NULL;
	batch->submitted = 0;
	return batch;
}

/*
 * f2fs_gc(), with the next victim at @segno selected: may the batch take
 * it? Its valid blocks join the held ones only under the record cap, and
 * its summaries only up to GC_PACK_MAX_HELD_SUMS. The held blocks, once
 * migrated, must leave at least @floor_secs free sections: the caller
 * passes the level at which f2fs_gc() itself writes a checkpoint to get
 * prefree sections back (the writers' node and dentry needs, plus
 * NR_GC_CHECKPOINT_SECS), so a batch goes no lower than upstream's
 * section-by-section loop does; where SSR exists, no lower than where it
 * starts either. The reserved sections are GC's to fill:
 * under the pressure that makes f2fs_balance_fs() collect, only they are
 * free. A victim joins an empty batch whatever it holds, as without a
 * batch: at the limit a call collects one section, as upstream does.
 */
bool f2fs_gc_pack_batch_fits(struct gc_pack_ctl *batch, unsigned int segno,
			     unsigned int floor_secs)
{
	struct f2fs_sb_info *sbi;
	unsigned int blocks;

	if (!batch || !gc_pack_holding(batch))
		return true;
	sbi = batch->sbi;
	blocks = batch->nr_queued + get_valid_blocks(sbi, segno, true);
	if (blocks > batch->max_blocks ||
	    batch->nr_sums + SEGS_PER_SEC(sbi) > GC_PACK_MAX_HELD_SUMS) {
		sbi->gc_pack.cap_stops++;
		return false;
	}
	/*
	 * Outside mode=lfs the allocator turns GC's own writes to SSR once
	 * the free sections come down to about twice the reserve
	 * (f2fs_need_SSR()), scattering the pass's runs into other
	 * sections' holes and filling the next victims: stay above that.
	 */
	if (!f2fs_lfs_mode(sbi))
		floor_secs += reserved_sections(sbi) +
			      SM_I(sbi)->min_ssr_sections;
	if (free_sections(sbi) <
	    floor_secs + DIV_ROUND_UP(blocks, CAP_BLKS_PER_SEC(sbi))) {
		sbi->gc_pack.space_stops++;
		return false;
	}
	return true;
}

/*
 * f2fs_gc(), after a section: collect another one? Only while the batch
 * holds records (else the call ends as upstream's does) and may grow.
 */
bool f2fs_gc_pack_batch_more(struct gc_pack_ctl *batch, int seg_freed)
{
	if (!batch)
		return false;
	batch->nr_collected++;
	if (seg_freed < 0 || batch->aborted || !gc_pack_holding(batch))
		return false;
	return batch->nr_collected < batch->max_sections;
}

/* The batch collected a section: its call did what upstream's would. */
bool f2fs_gc_pack_batch_collected(struct gc_pack_ctl *batch)
{
	return batch && batch->nr_collected;
}

/*
 * Add to f2fs_gc()'s counts the sections whose pass has run, once each,
 * as its own in-loop check does for an unpacked section: the segments the
 * passes emptied, and the section if that left it without valid blocks.
 */
void f2fs_gc_pack_batch_freed(struct gc_pack_ctl *batch, int *seg_freed,
			      int *sec_freed)
{
	struct gc_pack_section *sec;
	unsigned int i;

	if (!batch)
		return;
	for (i = 0; i < batch->nr_secs; i++) {
		sec = &batch->secs[i];
		if (!sec->passed || sec->counted)
			continue;
		sec->counted = true;
		*seg_freed += sec->segs_freed;
		if (sec->segs_freed > 0 &&
		    get_valid_blocks(batch->sbi, sec->start_segno, true) == 0)
			(*sec_freed)++;
	}
}

/*
 * Every way out of f2fs_gc(): one pass over the held sections, or, on a
 * checkpoint error or a batch already dropped, drop what is held; then
 * count them, let the summaries go and unpublish the batch.
 */
void f2fs_gc_pack_batch_end(struct gc_pack_ctl *batch,
			    struct gc_inode_list *gc_list, int *seg_freed,
			    int *sec_freed)
{
	struct f2fs_sb_info *sbi;
	struct blk_plug plug;
	unsigned int i;

	if (!batch)
		return;
	sbi = batch->sbi;
	if (gc_pack_holding(batch)) {
		blk_start_plug(&plug);
		batch->submitted = 0;
		gc_pack_pass(batch, gc_list,
			     !batch->aborted && !f2fs_cp_error(sbi));
		if (batch->submitted)
			f2fs_submit_merged_write(sbi, DATA);
		blk_finish_plug(&plug);
		if (batch->aborted && __is_large_section(sbi))
			sbi->next_victim_seg[batch->gc_type] = NULL_SEGNO;
	}
	f2fs_gc_pack_batch_freed(batch, seg_freed, sec_freed);

	mutex_lock(&DIRTY_I(sbi)->seglist_lock);
	if (sbi->gc_pack.batch == batch)
		sbi->gc_pack.batch = NULL;
	mutex_unlock(&DIRTY_I(sbi)->seglist_lock);
	for (i = 0; i < batch->nr_secs; i++)
		kfree(batch->secs[i].segs);
	kfree(batch->secs);
}

bool f2fs_gc_pack_held(struct f2fs_sb_info *sbi, unsigned int secno)
{
	struct gc_pack_ctl *batch = sbi->gc_pack.batch;
	unsigned int i;

	if (!batch)
		return false;
	lockdep_assert_held(&DIRTY_I(sbi)->seglist_lock);
	for (i = 0; i < batch->nr_secs; i++)
		if (GET_SEC_FROM_SEG(sbi, batch->secs[i].start_segno) == secno)
			return true;
	return false;
}

/*
 * The default record cap: one section's blocks, so that a victim section
 * is packed in one pass (a cap below its valid blocks drains the queue
 * early and splits every file once per drain: a 256 MiB SMR zone under a
 * fixed 16384 would be packed in up to 4 passes, a 1 GiB ZNS zone in 16).
 * Records are allocated only for the valid blocks of the victims, so the
 * cap costs nothing until GC needs it; it is bounded all the same by
 * 1/128 of RAM (a section of 1 GiB, 262144 records of 32 bytes, needs
 * 1 GiB of RAM; 4 GiB sections are capped by GC_PACK_MAX_MAX_BLOCKS), and
 * never below the former fixed default, which the smaller sections keep.
 * BLKS_PER_SEC and not CAP_BLKS_PER_SEC: the zones' capacity is read
 * later in the mount (f2fs_scan_devices()), and never exceeds the size.
 * Set once per mount: a value written to sysfs stays, remounts included.
 */
static unsigned int gc_pack_default_max_blocks(struct f2fs_sb_info *sbi)
{
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;
	u64 bound = (ram >> GC_PACK_RAM_SHIFT) / kmem_cache_size(gc_pack_block_slab);
	u64 blocks = min_t(u64, BLKS_PER_SEC(sbi), bound);

	return clamp_t(u64, blocks, GC_PACK_DEF_MAX_BLOCKS,
		       GC_PACK_MAX_MAX_BLOCKS);
}

void f2fs_gc_pack_init(struct f2fs_sb_info *sbi)
{
	sbi->gc_pack.max_blocks = gc_pack_default_max_blocks(sbi);
	sbi->gc_pack.order = GC_PACK_ORDER_OFFSET;
	sbi->gc_pack.max_sections = GC_PACK_DEF_SECTIONS;
	f2fs_gc_pack_apply_option(sbi);
}

int f2fs_gc_pack_parse_option(struct f2fs_sb_info *sbi,
			      substring_t *arg)
{
	char *name = match_strdup(arg);
	int mode;

	if (!name)
		return -ENOMEM;
	mode = lookup_constant(f2fs_gc_pack_modes, name, -EINVAL);
	if (mode < 0)
		f2fs_err(sbi, "gc_packing=%s: expected on, off or auto", name);
	else
		F2FS_OPTION(sbi).gc_packing = mode;
	kfree(name);
	return mode < 0 ? -EINVAL : 0;
}

/*
 * auto packs only where a section spans several segments: with one
 * segment per section an inode's blocks can only be regrouped within that
 * segment, which the seed measured at 6% fewer extents.
 */
void f2fs_gc_pack_apply_option(struct f2fs_sb_info *sbi)
{
	switch (F2FS_OPTION(sbi).gc_packing) {
	case GC_PACK_ON:
		sbi->gc_pack.enabled = 1;
		break;
	case GC_PACK_OFF:
		sbi->gc_pack.enabled = 0;
		break;
	default:
		sbi->gc_pack.enabled = __is_large_section(sbi);
		break;
	}
}

void f2fs_gc_pack_show_option(struct seq_file *seq, struct f2fs_sb_info *sbi)
{
	seq_printf(seq, ",gc_packing=%s",
		   f2fs_gc_pack_modes[F2FS_OPTION(sbi).gc_packing].name);
}

/* -EINVAL for an out-of-range value of one of our sysfs knobs. */
int f2fs_gc_pack_check_knob(const char *name, unsigned long value)
{
	if (!strcmp(name, "gc_inode_local_packing") ||
	    !strcmp(name, "gc_pack_order"))
		return value > 1 ? -EINVAL : 0;
	if (!strcmp(name, "gc_pack_max_blocks"))
		return value < GC_PACK_MIN_MAX_BLOCKS ||
		       value > GC_PACK_MAX_MAX_BLOCKS ? -EINVAL : 0;
	if (!strcmp(name, "gc_pack_sections"))
		return value < 1 || value > GC_PACK_MAX_SECTIONS ? -EINVAL : 0;
	return 0;
}

void f2fs_gc_pack_show_stat(struct seq_file *s, struct f2fs_sb_info *sbi)
{
	struct f2fs_gc_pack_info *info = &sbi->gc_pack;

	seq_printf(s, "GC packing: %s (gc_packing=%s), order: %s, max records: %u\n",
		   info->enabled ? "on" : "off",
		   f2fs_gc_pack_modes[F2FS_OPTION(sbi).gc_packing].name,
		   info->order == GC_PACK_ORDER_OFFSET ? "offset" : "found",
		   info->max_blocks);
	seq_printf(s, "  - packed: %llu blocks, %llu inodes, %llu sections\n",
		   info->blocks, info->inodes, info->sections);
	seq_printf(s, "  - early drains: %llu, alloc fallbacks: %llu, dropped: %llu, stale: %llu\n",
		   info->early_drains, info->alloc_fallbacks, info->dropped,
		   info->stale);
	seq_printf(s, "  - queued: %u now, %u at most\n",
		   info->queued, info->peak_queued);
	seq_printf(s, "  - record: %u bytes, peak record memory: %llu KiB, default max records: %u\n",
		   kmem_cache_size(gc_pack_block_slab),
		   ((u64)info->peak_queued *
		    kmem_cache_size(gc_pack_block_slab)) >> 10,
		   gc_pack_default_max_blocks(sbi));
	seq_printf(s, "  - sections per call: %u, held: %llu, batch stops: %llu cap, %llu space\n",
		   info->max_sections, info->held_sections, info->cap_stops,
		   info->space_stops);
}

int __init f2fs_gc_pack_create_cache(void)
{
	gc_pack_block_slab = f2fs_kmem_cache_create("f2fs_packed_gc_pack_block",
						    sizeof(struct gc_pack_block));
	return gc_pack_block_slab ? 0 : -ENOMEM;
}

void f2fs_gc_pack_destroy_cache(void)
{
	kmem_cache_destroy(gc_pack_block_slab);
}
