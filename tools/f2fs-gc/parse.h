/* SPDX-License-Identifier: GPL-2.0 */
/*
 * f2fs-gc: pure parsing helpers (no I/O, no global state), linked by the
 * tool and by the host unit tests.
 */
#ifndef F2FS_GC_PARSE_H
#define F2FS_GC_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* Percentages are kept in hundredths of a percent: 12.5% -> 1250. */
#define GC_PCT_SCALE	100ULL
#define GC_PCT_MAX	(100ULL * GC_PCT_SCALE)

/* A byte count or a share of something (RAM, the volume). */
struct gc_amount {
	bool is_pct;
	unsigned long long val;	/* bytes/count, or hundredths of a % */
};

/* "64M", "1G", "4096", "512KiB", "10%", "2.5%" */
int gc_parse_size(const char *s, struct gc_amount *out);
/* "30", "30s", "5m", "2h", "1h30m", "1d" -> seconds */
int gc_parse_duration(const char *s, unsigned long long *secs);
/* "100" (sections) or "25%" (of the main area's sections) */
int gc_parse_target(const char *s, struct gc_amount *out);
/* "START:LEN" in blocks, decimal or 0x-hex, LEN > 0 */
int gc_parse_range(const char *s, unsigned long long *start,
		   unsigned long long *len);
/* Plain unsigned decimal, whole string (for --max-calls etc.). */
int gc_parse_uint(const char *s, unsigned long long *val);
/* "on"/"off" (also 1/0, yes/no) */
int gc_parse_onoff(const char *s, bool *on);

/* amount of a whole: bytes stay bytes, a percentage is applied to whole */
unsigned long long gc_amount_of(const struct gc_amount *a,
				unsigned long long whole);

struct gc_meminfo {
	unsigned long long mem_total_kb;
	unsigned long long dirty_kb;
	unsigned long long writeback_kb;
};

/* Parse the text of /proc/meminfo; needs MemTotal, Dirty and Writeback. */
int gc_parse_meminfo(const char *buf, struct gc_meminfo *mi);

#define GC_PATH_MAX	4096
#define GC_FSTYPE_MAX	64

struct gc_mount {
	unsigned int major;
	unsigned int minor;
	char mnt_point[GC_PATH_MAX];
	char fstype[GC_FSTYPE_MAX];
	char source[GC_PATH_MAX];
};

/*
 * Parse one line of /proc/self/mountinfo (without or with its trailing
 * newline).  Octal escapes (\040 etc.) in paths are decoded.
 */
int gc_parse_mountinfo_line(const char *line, struct gc_mount *m);

/*
 * Length of mount point @mnt if it contains @path (both absolute and
 * canonical), else -1.  "/" contains everything and yields 1.
 */
int gc_mount_covers(const char *mnt, const char *path);

/* Is @fstype one this tool drives? */
bool gc_fstype_supported(const char *fstype);

/* A sysfs counter: one unsigned decimal, optional surrounding whitespace. */
int gc_parse_counter(const char *buf, unsigned long long *val);

/* Last path component of a link target: "../../devices/.../vdb" -> vdb */
const char *gc_basename(const char *path);

/* Subset of the on-disk f2fs super block that the tool needs. */
struct gc_sb_geom {
	unsigned int log_blocksize;
	unsigned int log_blocks_per_seg;
	unsigned int segs_per_sec;
	unsigned int section_count;	/* sections in the main area */
	unsigned int segment_count_main;
	unsigned int main_blkaddr;
};

#define GC_SB_OFFSET	1024
#define GC_SB_MAGIC	0xF2F52010U
#define GC_SB_MIN_LEN	96

/* @buf holds @len bytes starting at byte GC_SB_OFFSET of the device. */
int gc_parse_sb(const unsigned char *buf, size_t len, struct gc_sb_geom *g);

/* What the debugfs "status" file says about one partition. */
struct gc_status {
	long long main_segs;
	long long main_secs;
	long long dirty_segs;
	long long free_segs;
	long long free_secs;
};

/*
 * Find the "partition info(@dev)" block in the debugfs status text and
 * read its counters; members not found are left at -1.  Returns 0 if the
 * block was found and has at least the free counts.
 */
int gc_parse_status(const char *buf, const char *dev, struct gc_status *st);

/* "512 B", "1.5 KiB", "12.0 MiB"; returns @buf */
char *gc_format_bytes(char *buf, size_t size, unsigned long long bytes);
/* "42s", "3m05s", "1h02m03s"; returns @buf */
char *gc_format_secs(char *buf, size_t size, unsigned long long secs);

#endif /* F2FS_GC_PARSE_H */
