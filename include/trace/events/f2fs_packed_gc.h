/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the GC pack pass (src/gc_pack.c). They join upstream's
 * renamed events under events/f2fs_packed/.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM f2fs_packed
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE f2fs_packed_gc

#if !defined(_TRACE_F2FS_PACKED_GC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_F2FS_PACKED_GC_H

#include <linux/tracepoint.h>

TRACE_EVENT(f2fs_gc_pack_begin,

	TP_PROTO(struct super_block *sb, unsigned int segno,
		 unsigned int queued, bool migrate),

	TP_ARGS(sb, segno, queued, migrate),

	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(unsigned int, segno)
		__field(unsigned int, queued)
		__field(bool, migrate)
	),

	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->segno = segno;
		__entry->queued = queued;
		__entry->migrate = migrate;
	),

	TP_printk("dev = (%d,%d), section segno = %u, queued = %u, %s",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->segno,
		  __entry->queued, __entry->migrate ? "migrate" : "drop")
);

TRACE_EVENT(f2fs_gc_pack_end,

	TP_PROTO(struct super_block *sb, unsigned int segno,
		 unsigned int records, unsigned int moved,
		 unsigned int inodes, bool migrate),

	TP_ARGS(sb, segno, records, moved, inodes, migrate),

	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(unsigned int, segno)
		__field(unsigned int, records)
		__field(unsigned int, moved)
		__field(unsigned int, inodes)
		__field(bool, migrate)
	),

	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->segno = segno;
		__entry->records = records;
		__entry->moved = moved;
		__entry->inodes = inodes;
		__entry->migrate = migrate;
	),

	TP_printk("dev = (%d,%d), section segno = %u, records = %u, moved = %u, inodes = %u, %s",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->segno,
		  __entry->records, __entry->moved, __entry->inodes,
		  __entry->migrate ? "migrate" : "drop")
);

#endif /* _TRACE_F2FS_PACKED_GC_H */

#include <trace/define_trace.h>
