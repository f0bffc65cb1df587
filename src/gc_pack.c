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
 * checks (is_alive() against the summary entry, check_valid_map() inside
 * the move; and a log in the block's segment, see gc_pack_move()), so a
 * block rewritten, deleted or given another owner while queued is skipped
 * or moved for its new owner, never lost. The
 * scanned segments' summary pages stay referenced until their records are
 * migrated, as do_garbage_collect() references them during the scan.
 *
 * Only FG_GC packs: BG_GC just dirties the pages and leaves placement to
 * writeback. The knobs are read once per section (f2fs_gc_pack_begin()),
 * so a concurrent sysfs write cannot strand queued records, and every
 * record is either migrated or dropped before the section is done.
 *
 * Across sections (gc_pack_sections > 1), src/gc_batch.c collects
 * several victims into one gc_pack_ctl, whose sections join it here
 * (f2fs_gc_pack_begin()) and wait for one pass there: their records are
 * migrated or dropped before that f2fs_gc() step returns.
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
#include "gc_pack_internal.h"

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
 * The next section of @pack, scanned from @start_segno (a segment inside
 * the section where the victim hint resumes a scan). False without memory
 * for its summaries: the pass could not re-check, so the section migrates
 * as upstream does.
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
	sec->secno = GET_SEC_FROM_SEG(sbi, start_segno);
	pack->start_segno = start_segno;
	pack->nr_secs++;
	if (pack->batch)
		gc_batch_hold(sbi, sec->secno);
	return true;
}

struct gc_pack_section *gc_pack_section_of(struct gc_pack_ctl *pack,
					   unsigned int segno)
{
	unsigned int secno = GET_SEC_FROM_SEG(pack->sbi, segno);
	unsigned int i;

	for (i = 0; i < pack->nr_secs; i++)
		if (pack->secs[i].secno == secno)
			return &pack->secs[i];
	return NULL;
}

/* @segno's place in @sec, whatever segment the section's scan began at */
static struct gc_pack_segment *gc_pack_segment_of(struct gc_pack_ctl *pack,
						  struct gc_pack_section *sec,
						  unsigned int segno)
{
	return &sec->segs[segno - GET_SEG_FROM_SEC(pack->sbi, sec->secno)];
}

/*
 * Records waiting for a pass. A section whose scan queued none holds
 * nothing (its segments were counted at their scan): a batch stops there.
 */
bool gc_pack_holding(struct gc_pack_ctl *pack)
{
	return pack->nr_queued != 0;
}

struct gc_pack_ctl *f2fs_gc_pack_begin(struct f2fs_sb_info *sbi,
				       struct gc_pack_ctl *pack, int gc_type,
				       bool data_section,
				       unsigned int start_segno)
{
	struct f2fs_gc_pack_info *info = &sbi->gc_pack;
	struct gc_pack_ctl *batch = info->batch;

	if (gc_type != FG_GC || !data_section)
		return NULL;
	/* f2fs_gc_pack_batch() is collecting: the section joins its batch */
	if (batch) {
		if (batch->aborted || batch->nr_secs >= batch->max_sections ||
		    !gc_pack_start_section(batch, start_segno))
			return NULL;
		batch->submitted = 0;
		return batch;
	}
	if (!READ_ONCE(info->enabled))
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
 * Which of @inode's node pages holds the address of its block @bidx: 0 the
 * inode itself, then its direct nodes in file order, each covering
 * ADDRS_PER_BLOCK blocks (f2fs_start_bidx_of_node()'s layout).
 */
static pgoff_t gc_pack_dnode_of(struct inode *inode, pgoff_t bidx)
{
	if (bidx < ADDRS_PER_INODE(inode))
		return 0;
	return 1 + (bidx - ADDRS_PER_INODE(inode)) / ADDRS_PER_BLOCK(inode);
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
	/* phase 4 queues the blocks of the section being scanned */
	gc_pack_segment_of(pack, &pack->secs[pack->nr_secs - 1],
			   GET_SEGNO(pack->sbi, blkaddr))->queued++;
	/*
	 * The node pages the pass will dirty, for the batch's space bound:
	 * the inode's own (a move updates its extent cache, which dirties
	 * it, and the inode holds the file's first addresses), and one per
	 * run of the inode's records in one of its dnodes.
	 */
	if (list_empty(&ie->gc_pack_blocks)) {
		pack->nr_inodes++;
		if (gc_pack_dnode_of(inode, bidx))
			pack->nr_dnode_runs++;
	} else if (gc_pack_dnode_of(inode, bidx) !=
		   gc_pack_dnode_of(inode, list_last_entry(&ie->gc_pack_blocks,
					struct gc_pack_block, list)->bidx)) {
		pack->nr_dnode_runs++;
	}
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

/* Does the SIT still count the block valid? As gc.c's check_valid_map(). */
static bool gc_pack_block_valid(struct f2fs_sb_info *sbi,
				struct gc_pack_block *b)
{
	struct sit_info *sit_i = SIT_I(sbi);
	bool valid;

	down_read(&sit_i->sentry_lock);
	valid = f2fs_test_bit(GET_BLKOFF_FROM_SEG0(sbi, b->blkaddr),
			      get_seg_entry(sbi,
					    GET_SEGNO(sbi, b->blkaddr))->cur_valid_map);
	up_read(&sit_i->sentry_lock);
	return valid;
}

/*
 * is_alive() said no: was it because the owner's node could not be read?
 * Not if the node is gone (-ENOENT: truncated meanwhile, which is stale).
 */
static bool gc_pack_node_unreadable(struct f2fs_sb_info *sbi,
				    struct f2fs_summary *entry)
{
	void *node = gc_pack_get_node(sbi, le32_to_cpu(entry->nid));

	if (!IS_ERR(node)) {
		gc_pack_put_node(node);
		return false;
	}
	return PTR_ERR(node) != -ENOENT;
}

/*
 * 1 if the block was moved, 0 if it died meanwhile or was skipped. Phase
 * 4's checks, the SIT's valid bit and then is_alive() on the summary
 * entry (f2fs_replace_block() gives a block another node or owner without
 * moving it, and rewrites only that entry), plus one phase 4 does not
 * need: the pass runs later than phase 4 would, and a log may have opened
 * in the record's segment meanwhile (SSR reuses emptied segments of the
 * victim: under checkpoint=disable get_free_segment() takes any empty
 * dirty segment, whatever section it is in; a batch's held section may be
 * freed and reopened). While a log is in a segment, the entries of what
 * it writes or replaces there are in its sum_blk only, and the held page
 * is stale for them: is_alive() would read the old owner's entry (a nid
 * freed and reused: a version mismatch that is staleness, not the
 * corruption it flags). So a live block in a log's segment is left for a
 * later GC. The page is current again once the log leaves: write_sum_page()
 * writes into the same page-cache page, which our reference pins. A block
 * still valid whose owner's node cannot be read is left too, and counted
 * as a read error (gc_pack_read_errors), not as stale.
 */
static int gc_pack_move(struct gc_pack_ctl *pack,
			struct gc_inode_list *gc_list, struct gc_pack_block *b,
			struct gc_pack_segment *seg)
{
	struct f2fs_sb_info *sbi = pack->sbi;
	unsigned int segno = GET_SEGNO(sbi, b->blkaddr);
	unsigned int off = GET_BLKOFF_FROM_SEG0(sbi, b->blkaddr);
	struct f2fs_summary *entry;
	struct inode_entry *ie;
	struct node_info dni;
	unsigned int nofs;
	int moved;

	/* a record comes from a scanned segment of one of the sections */
	if (WARN_ON_ONCE(!seg || !seg->entries))
		return 0;
	entry = &seg->entries[off];
	if (!gc_pack_block_valid(sbi, b)) {
		sbi->gc_pack.stale++;
		return 0;
	}
	if (IS_CURSEG(sbi, segno))
		goto left;
	if (!is_alive(sbi, entry, &dni, b->blkaddr, &nofs)) {
		if (gc_pack_node_unreadable(sbi, entry) &&
		    gc_pack_block_valid(sbi, b)) {
			sbi->gc_pack.read_errors++;
			goto left;
		}
		sbi->gc_pack.stale++;
		return 0;
	}
	/* as in phase 4, the owner is whoever the summary names now */
	ie = radix_tree_lookup(&gc_list->iroot, dni.ino);
	if (!ie)
		goto left;
	moved = f2fs_gc_move_data_block(sbi, ie->inode, segno, off, nofs,
					le16_to_cpu(entry->ofs_in_node),
					pack->gc_type);
	if (!moved)
		goto left;
	seg->moved += moved;
	return moved;
left:
	/* every record is counted once: moved, stale, dropped or left */
	sbi->gc_pack.left++;
	return 0;
}

/*
 * The last record of the scanned segment @seg of @sec has been handled
 * (moved, stale, left or dropped): count the segment if it is free now,
 * as gc.c's in-loop check counts a segment right after its phase 4, and
 * let its summary page go. Now and not after the whole pass: under
 * checkpoint=disable an emptied segment stays dirty, and outside
 * mode=lfs get_ssr_segment()'s get_free_segment() may reopen it as the
 * log of the pass's own later writes (it asks no sec_usage_check()),
 * where upstream has counted it already. A batch held its further
 * sections long enough for writers to empty one: there it counts only
 * the segments its passes moved blocks out of; its first section counts
 * as a section alone would. Each segment is counted once: its summary
 * page is held from its scan until here.
 */
static void gc_pack_segment_done(struct gc_pack_ctl *pack,
				 struct gc_pack_section *sec,
				 struct gc_pack_segment *seg)
{
	struct f2fs_sb_info *sbi = pack->sbi;
	unsigned int segno = GET_SEG_FROM_SEC(sbi, sec->secno) +
			     (seg - sec->segs);

	if (get_valid_blocks(sbi, segno, false) == 0 &&
	    (!pack->batch || sec == &pack->secs[0] || seg->moved))
		sec->segs_freed++;
	put_page(seg->sum_page);
	seg->sum_page = NULL;
	seg->entries = NULL;
	pack->nr_sums--;
}

/*
 * Empty the queue: migrate every record, or drop them all. A checkpoint
 * error met on the way drops the rest, as upstream leaves the remaining
 * segments of a section alone once one is seen; so does a freezer where
 * upstream GC stops for it (compat.h): a pass of a whole section, or of
 * a batch, would keep the task from freezing for as long.
 */
void gc_pack_pass(struct gc_pack_ctl *pack,
			 struct gc_inode_list *gc_list, bool migrate)
{
	struct f2fs_sb_info *sbi = pack->sbi;
	struct f2fs_gc_pack_info *info = &sbi->gc_pack;
	unsigned int moved = 0, inodes = 0, records = 0, dropped = 0, i;
	struct gc_pack_section *sec;
	struct gc_pack_segment *seg;
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
			if (migrate && (unlikely(f2fs_cp_error(sbi)) ||
					gc_pack_freezing()))
				migrate = false;
			sec = gc_pack_section_of(pack,
						 GET_SEGNO(sbi, b->blkaddr));
			seg = sec ? gc_pack_segment_of(pack, sec,
					GET_SEGNO(sbi, b->blkaddr)) : NULL;
			if (migrate)
				moved += gc_pack_move(pack, gc_list, b, seg);
			else
				dropped++;
			/* its segment's last record: count it as upstream */
			if (seg && seg->queued && !--seg->queued &&
			    seg->sum_page)
				gc_pack_segment_done(pack, sec, seg);
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
	pack->nr_inodes = 0;
	pack->nr_dnode_runs = 0;
	/* every scanned segment with records was counted on the way */
	WARN_ON_ONCE(pack->nr_sums);
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
 * it keeps until then; the segment is counted once its last record has
 * been handled (gc_pack_segment_done()). A segment whose phase 4 queued
 * nothing is counted now, at upstream's moment, in a batch's further
 * sections too: nothing was held there for writers to empty.
 */
void f2fs_gc_pack_segment_scanned(struct gc_pack_ctl *pack,
				  struct gc_inode_list *gc_list,
				  unsigned int segno, struct page *sum_page,
				  struct f2fs_summary *entries)
{
	struct gc_pack_section *sec = &pack->secs[pack->nr_secs - 1];
	struct gc_pack_segment *seg = gc_pack_segment_of(pack, sec, segno);

	if (!seg->queued) {
		if (get_valid_blocks(pack->sbi, segno, false) == 0)
			sec->segs_freed++;
		return;
	}
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
 * go the upstream way. A batch drops its held sections' records too, and
 * takes no further victim: the freezer wants GC to stop, not a pass over
 * many sections; their blocks stay where they are.
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
	 * The in-section hint would resume the next FG_GC after segments
	 * whose records were dropped: search again instead.
	 */
	if (pack->aborted && __is_large_section(sbi))
		sbi->next_victim_seg[pack->gc_type] = NULL_SEGNO;
	/* a batch's sections wait for its pass (f2fs_gc_pack_batch()) */
	if (pack->batch) {
		pack->segs_freed = 0;
		return;
	}

	if (!pack->aborted)
		gc_pack_pass(pack, gc_list, !f2fs_cp_error(sbi));
	if (pack->aborted && __is_large_section(sbi))
		sbi->next_victim_seg[pack->gc_type] = NULL_SEGNO;
	pack->segs_freed = sec->segs_freed;
	kfree(sec->segs);
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
	seq_printf(s, "  - early drains: %llu, alloc fallbacks: %llu, dropped: %llu, stale: %llu, left: %llu, read errors: %llu\n",
		   info->early_drains, info->alloc_fallbacks, info->dropped,
		   info->stale, info->left, info->read_errors);
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
