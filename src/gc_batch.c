// SPDX-License-Identifier: GPL-2.0
/*
 * Packing across sections (gc_pack_sections > 1).
 *
 * Per-section packing regroups one inode's blocks only within a victim:
 * a file spread over 16 victims comes out of foreground GC as 16 runs.
 * f2fs_gc() hands its foreground victim to f2fs_gc_pack_batch() when its
 * caller allows it (the sync GC ioctl, f2fs_balance_fs() and the GC
 * thread; never GC_RANGE, resize or a one_time call, which keep upstream's
 * rules), and gets back what do_garbage_collect() would have returned for
 * that victim, plus what the batch freed besides. In between, the batch
 * collects further victims chosen as f2fs_gc() would (f2fs_gc_get_victim()),
 * scans each through do_garbage_collect(), where phase 4 queues the blocks
 * on one gc_pack_ctl (f2fs_gc_pack_begin() joins them), and then migrates
 * the queue of every section in one pack pass: each inode's blocks of all
 * the victims in file-offset order. f2fs_gc()'s own loop then checkpoints,
 * checks free space and goes on by its own rules, as after one section.
 *
 * Held sections are published for sec_usage_check(), so that neither GC
 * nor SSR (nor 7.3's allocator) picks one again before its pass. Writers
 * may still invalidate a held section's blocks, SSR under checkpoint=disable
 * open a log in an emptied segment of it, and 7.3's device-alias ioctls
 * checkpoint without gc_lock: the pass re-checks every record
 * (gc_pack_move()), and a further section's segment counts as freed
 * only where gc.c found it free or the pass moved blocks out of it and
 * left it empty; the section counts as f2fs_gc() counts one, when all
 * its usable segments were.
 *
 * Space: no checkpoint runs inside a batch, and its pass writes the held
 * blocks and dirties their node pages. A further victim joins only if all
 * of that fits (gc_batch_fits()); the first is always taken, so at the
 * limit a batch is one section, as upstream's step.
 */
#include <linux/fs.h>
#include <linux/f2fs_fs.h>
#include <linux/slab.h>

#include "f2fs/f2fs.h"
#include "f2fs/segment.h"
#include "f2fs/gc.h"
#include "compat.h"
#include "gc_pack.h"
#include "gc_pack_internal.h"

void gc_batch_hold(struct f2fs_sb_info *sbi, unsigned int secno)
{
	struct f2fs_gc_pack_info *info = &sbi->gc_pack;
	unsigned int n = info->nr_held;

	WRITE_ONCE(info->held_secnos[n], secno);
	/* the section is in the array before a reader counts it */
	smp_store_release(&info->nr_held, n + 1);
}

/*
 * Is @secno a section the batch holds? Not once a checkpoint has freed it
 * (7.3's device-alias ioctls checkpoint without gc_lock): a free section
 * is neither a victim nor an SSR target, the pass finds its records stale
 * or in a log, and 7.3's get_new_segment(), which asks sec_usage_check()
 * of free sections, must not run out of them (ENOSPC, f2fs_bug_on()) for
 * sections that the batch no longer needs to keep. get_new_segment() reads
 * free_secmap under segmap_lock; other callers race harmlessly here, as a
 * held section is free only after such a checkpoint.
 */
bool f2fs_gc_pack_held(struct f2fs_sb_info *sbi, unsigned int secno)
{
	struct f2fs_gc_pack_info *info = &sbi->gc_pack;
	unsigned int n, i;

	if (!test_bit(secno, FREE_I(sbi)->free_secmap))
		return false;
	/* pairs with gc_batch_hold(): the first n sections are written */
	n = smp_load_acquire(&info->nr_held);

	for (i = 0; i < n; i++)
		if (READ_ONCE(info->held_secnos[i]) == secno)
			return true;
	return false;
}

/*
 * Would f2fs send the pass's writes to SSR once @need more sections are
 * taken? f2fs_need_SSR() with the free sections the pass leaves: never in
 * mode=lfs; always under gc_urgent high and checkpoint=disable, where a
 * batch therefore takes no further victim, as upstream collects one
 * section per step.
 */
static bool gc_batch_needs_ssr(struct f2fs_sb_info *sbi, unsigned int need)
{
	unsigned int free = free_sections(sbi);

	if (f2fs_lfs_mode(sbi))
		return false;
	if (sbi->gc_mode == GC_URGENT_HIGH ||
	    unlikely(is_sbi_flag_set(sbi, SBI_CP_DISABLED)))
		return true;
	return free < need ||
	       free - need <= get_blocktype_secs(sbi, F2FS_DIRTY_NODES) +
			      2 * get_blocktype_secs(sbi, F2FS_DIRTY_DENTS) +
			      get_blocktype_secs(sbi, F2FS_DIRTY_IMETA) +
			      SM_I(sbi)->min_ssr_sections +
			      reserved_sections(sbi);
}

/*
 * May the victim at @segno join @batch? Its valid blocks join the held
 * ones only under the record cap, its summaries only up to
 * GC_PACK_MAX_HELD_SUMS. The pass then needs free sections for the held
 * data blocks and for the node pages it dirties: each queued inode's own
 * page (its extent cache changes) and one per queued run of records in
 * one direct node; for the new victim, unscanned, two per block (its
 * inode and a direct node). Node pages go to two logs, WARM_NODE (file
 * inodes and their direct nodes) and HOT_NODE (directories'), each of
 * which may open a section of its own: one more section. Two levels must
 * hold:
 *  - now: once the pass is done, the free sections stay at or above the
 *    level where f2fs_gc() writes a checkpoint (the writers' dirty pages
 *    plus NR_GC_CHECKPOINT_SECS, f2fs_gc_checkpoint_secs()), and the
 *    allocator does not turn GC's writes to SSR (gc_batch_needs_ssr()),
 *    which would scatter the pass's runs into the next victims' holes;
 *  - later: writers that need no GC keep allocating while the batch is
 *    held, down to where f2fs_balance_fs() makes them wait for gc_lock,
 *    the reserved sections; the pass must fit there too, leaving
 *    NR_GC_CHECKPOINT_SECS for the checkpoint after it.
 */
static bool gc_batch_fits(struct gc_pack_ctl *batch, unsigned int segno)
{
	struct f2fs_sb_info *sbi = batch->sbi;
	unsigned int valid = get_valid_blocks(sbi, segno, true);
	unsigned int blocks = batch->nr_queued + valid;
	unsigned int nodes = batch->nr_inodes + batch->nr_dnode_runs +
			     2 * valid;
	unsigned int need = DIV_ROUND_UP(blocks, CAP_BLKS_PER_SEC(sbi)) +
			    DIV_ROUND_UP(nodes, CAP_BLKS_PER_SEC(sbi)) + 1;

	if (blocks > batch->max_blocks ||
	    batch->nr_sums + SEGS_PER_SEC(sbi) > GC_PACK_MAX_HELD_SUMS) {
		sbi->gc_pack.cap_stops++;
		return false;
	}
	if (free_sections(sbi) < f2fs_gc_checkpoint_secs(sbi) + need ||
	    gc_batch_needs_ssr(sbi, need) ||
	    need + NR_GC_CHECKPOINT_SECS > reserved_sections(sbi)) {
		sbi->gc_pack.space_stops++;
		return false;
	}
	return true;
}

/*
 * What choosing a victim takes from upstream's hints (f2fs_get_victim()):
 * the in-section hints next_victim_seg[], which it clears; the section
 * background GC chose first (victim_secmap), whose bit check_bg_victims()
 * clears; where the next search starts (last_victim[]); cur_victim_sec.
 * A candidate the batch does not take puts them back, so that f2fs_gc()'s
 * next selection finds what it would have found had the batch not looked.
 */
struct gc_batch_hints {
	unsigned int next_victim_seg[2];
	unsigned int last_victim[MAX_GC_POLICY];
	unsigned int cur_victim_sec;
	unsigned int bg_secno;		/* check_bg_victims()'s pick */
};

static void gc_batch_save_hints(struct f2fs_sb_info *sbi,
				struct gc_batch_hints *h)
{
	struct dirty_seglist_info *dirty_i = DIRTY_I(sbi);
	unsigned int secno;

	mutex_lock(&dirty_i->seglist_lock);
	memcpy(h->next_victim_seg, sbi->next_victim_seg,
	       sizeof(h->next_victim_seg));
	memcpy(h->last_victim, SIT_I(sbi)->last_victim,
	       sizeof(h->last_victim));
	h->cur_victim_sec = sbi->cur_victim_sec;
	h->bg_secno = NULL_SECNO;
	for_each_set_bit(secno, dirty_i->victim_secmap, MAIN_SECS(sbi)) {
		if (sec_usage_check(sbi, secno))
			continue;
		h->bg_secno = secno;
		break;
	}
	mutex_unlock(&dirty_i->seglist_lock);
}

/*
 * The candidate at @segno is not taken. Its victim_secmap bit goes back
 * only while its section has valid blocks, as __remove_dirty_segment()
 * keeps it; so does an in-section hint: 7.3's device-alias ioctls
 * checkpoint without gc_lock, and a checkpoint that frees the hinted
 * section clears the hint (__set_test_and_free()), which must stay
 * cleared. SSR shares last_victim[GC_GREEDY] and may have moved it
 * meanwhile: upstream's GC and SSR overwrite each other's there too.
 */
static void gc_batch_restore_hints(struct f2fs_sb_info *sbi,
				   unsigned int segno,
				   struct gc_batch_hints *h)
{
	struct dirty_seglist_info *dirty_i = DIRTY_I(sbi);
	unsigned int secno = GET_SEC_FROM_SEG(sbi, segno);
	unsigned int i, hint;

	mutex_lock(&dirty_i->seglist_lock);
	for (i = 0; i < ARRAY_SIZE(h->next_victim_seg); i++) {
		hint = h->next_victim_seg[i];
		if (hint != NULL_SEGNO && get_valid_blocks(sbi, hint, true))
			sbi->next_victim_seg[i] = hint;
	}
	memcpy(SIT_I(sbi)->last_victim, h->last_victim,
	       sizeof(h->last_victim));
	sbi->cur_victim_sec = h->cur_victim_sec;
	if (secno == h->bg_secno && get_valid_blocks(sbi, segno, true))
		set_bit(secno, dirty_i->victim_secmap);
	mutex_unlock(&dirty_i->seglist_lock);
}

/*
 * After a victim: may the batch take another one? Not once the task is
 * being frozen where f2fs_gc() stops between sections for it (compat.h).
 */
static bool gc_batch_may_grow(struct gc_pack_ctl *batch,
			      unsigned int collected)
{
	return collected < batch->max_sections && !batch->aborted &&
	       gc_pack_holding(batch) && !f2fs_cp_error(batch->sbi) &&
	       !gc_pack_freezing();
}

/*
 * Add @segs freed segments of the section at @segno to the counts; the
 * section counts f2fs_gc()'s way, if @found (counted already) and @segs
 * are all its usable segments.
 */
static void gc_batch_count(struct f2fs_sb_info *sbi, unsigned int segno,
			   int found, int segs, int *more_segs, int *more_secs)
{
	*more_segs += segs;
	if (found + segs == gc_pack_usable_segs(sbi, segno))
		(*more_secs)++;
}

/*
 * f2fs_gc()'s foreground step with the victim at @segno: returns what
 * do_garbage_collect() returns for it, and sets @more_segs and @more_secs
 * to the segments and sections freed in further victims.
 */
int f2fs_gc_pack_batch(struct f2fs_sb_info *sbi, unsigned int segno,
		       struct gc_inode_list *gc_list, int *more_segs,
		       int *more_secs)
{
	struct f2fs_gc_pack_info *info = &sbi->gc_pack;
	unsigned int n = min_t(unsigned int, READ_ONCE(info->max_sections),
			       GC_PACK_MAX_SECTIONS);
	unsigned int first = GET_SEC_FROM_SEG(sbi, segno), collected = 1;
	unsigned int waited = 0, i;
	struct gc_batch_hints hints;
	struct gc_pack_section *sec;
	struct gc_pack_ctl batch;
	struct blk_plug plug;
	int seg_freed, ret;

	lockdep_assert_held_write(&sbi->gc_lock.internal_rwsem);
	*more_segs = 0;
	*more_secs = 0;
	if (n <= 1 || !READ_ONCE(info->enabled))
		return f2fs_gc_collect_section(sbi, segno, gc_list);

	memset(&batch, 0, sizeof(batch));
	batch.secs = kcalloc(n, sizeof(*batch.secs), GFP_NOFS);
	if (!batch.secs)
		return f2fs_gc_collect_section(sbi, segno, gc_list);
	batch.sbi = sbi;
	batch.gc_type = FG_GC;
	batch.order = READ_ONCE(info->order);
	batch.max_blocks = READ_ONCE(info->max_blocks);
	batch.max_sections = n;
	batch.batch = true;
	info->batch = &batch;

	seg_freed = f2fs_gc_collect_section(sbi, segno, gc_list);
	/*
	 * cur_victim_sec stays on the last victim, held already, until the
	 * next selection moves it: f2fs_gc() clears it after this step.
	 */
	while (seg_freed >= 0 && gc_batch_may_grow(&batch, collected)) {
		gc_batch_save_hints(sbi, &hints);
		if (f2fs_gc_get_victim(sbi, &segno))
			break;
		/* the victim hint may point into a held section */
		if (gc_pack_section_of(&batch, segno) ||
		    !gc_batch_fits(&batch, segno)) {
			gc_batch_restore_hints(sbi, segno, &hints);
			break;
		}
		/* the sections held so far wait for this victim's scan */
		info->held_sections += batch.nr_secs - waited;
		waited = batch.nr_secs;
		ret = f2fs_gc_collect_section(sbi, segno, gc_list);
		if (ret < 0)
			break;
		collected++;
		/*
		 * A node section does not join: migrated and counted now. It
		 * ends the batch, which would pick it again if not freed.
		 */
		sec = gc_pack_section_of(&batch, segno);
		if (!sec) {
			gc_batch_count(sbi, segno, 0, ret, more_segs,
				       more_secs);
			break;
		}
		/* segments found free, or freed outside the pass (cp error) */
		sec->found_free = ret;
		*more_segs += ret;
	}

	if (gc_pack_holding(&batch)) {
		blk_start_plug(&plug);
		batch.submitted = 0;
		gc_pack_pass(&batch, gc_list,
			     !batch.aborted && !f2fs_cp_error(sbi));
		if (batch.submitted)
			f2fs_submit_merged_write(sbi, DATA);
		blk_finish_plug(&plug);
	}
	for (i = 0; i < batch.nr_secs; i++) {
		sec = &batch.secs[i];
		if (sec->secno != first)
			gc_batch_count(sbi, GET_SEG_FROM_SEC(sbi, sec->secno),
				       sec->found_free, sec->segs_freed,
				       more_segs, more_secs);
		else if (seg_freed >= 0)
			seg_freed += sec->segs_freed;
		kfree(sec->segs);
	}
	info->batch = NULL;
	WRITE_ONCE(info->nr_held, 0);
	kfree(batch.secs);
	return seg_freed;
}
