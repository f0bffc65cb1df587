// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-gc: pure parsing helpers.  Nothing here touches files, the clock or
 * global state, so the host unit tests can link it on its own.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * A non-negative decimal with an optional fraction: "12", "1.5", "0.25".
 * On success *p points past it; the fraction is returned as num/den.
 */
static int parse_decimal(const char **p, unsigned long long *ipart,
			 unsigned long long *fnum, unsigned long long *fden)
{
	const char *s = *p;
	unsigned long long v = 0;
	int digits = 0;

	*fnum = 0;
	*fden = 1;
	while (isdigit((unsigned char)*s)) {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (unsigned long long)(*s - '0'),
					   &v))
			return -ERANGE;
		s++;
		digits++;
	}
	if (!digits)
		return -EINVAL;
	if (*s == '.') {
		int fdigits = 0;

		s++;
		while (isdigit((unsigned char)*s)) {
			/* Beyond 9 fraction digits nothing we scale matters. */
			if (fdigits < 9) {
				*fnum = *fnum * 10 + (unsigned long long)(*s - '0');
				*fden *= 10;
			}
			fdigits++;
			s++;
		}
		if (!fdigits)
			return -EINVAL;
	}
	*ipart = v;
	*p = s;
	return 0;
}

/* ipart.frac * mult, rounded down, with overflow checking. */
static int scale_decimal(unsigned long long ipart, unsigned long long fnum,
			 unsigned long long fden, unsigned long long mult,
			 unsigned long long *out)
{
	unsigned long long v, f;

	if (__builtin_mul_overflow(ipart, mult, &v))
		return -ERANGE;
	/* fnum < fden <= 1e9 and mult <= 2^40: fnum * mult fits in 64 bits */
	f = fnum * mult / fden;
	if (__builtin_add_overflow(v, f, &v))
		return -ERANGE;
	*out = v;
	return 0;
}

/* "12" or "12.5" followed by '%' and the end of the string. */
static int parse_pct(const char *s, struct gc_amount *out)
{
	unsigned long long ip, fn, fd, v;
	const char *p = s;

	if (parse_decimal(&p, &ip, &fn, &fd))
		return -EINVAL;
	if (p[0] != '%' || p[1] != '\0')
		return -EINVAL;
	if (scale_decimal(ip, fn, fd, GC_PCT_SCALE, &v) || v > GC_PCT_MAX)
		return -ERANGE;
	out->is_pct = true;
	out->val = v;
	return 0;
}

int gc_parse_size(const char *s, struct gc_amount *out)
{
	unsigned long long ip, fn, fd, mult = 1, v;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	if (strchr(s, '%'))
		return parse_pct(s, out);
	if (parse_decimal(&p, &ip, &fn, &fd))
		return -EINVAL;

	switch (toupper((unsigned char)*p)) {
	case '\0':
		break;
	case 'B':
		if (p[1])
			return -EINVAL;
		p++;
		break;
	case 'K':
		mult = 1ULL << 10;
		break;
	case 'M':
		mult = 1ULL << 20;
		break;
	case 'G':
		mult = 1ULL << 30;
		break;
	case 'T':
		mult = 1ULL << 40;
		break;
	default:
		return -EINVAL;
	}
	if (mult > 1) {
		p++;
		/* accept K, KB, KiB (all binary) */
		if (!strcmp(p, "iB") || !strcmp(p, "B") || !strcmp(p, "ib") ||
		    !strcmp(p, "b"))
			p += strlen(p);
	}
	if (*p)
		return -EINVAL;
	/* a fractional byte count makes no sense */
	if (mult == 1 && fn)
		return -EINVAL;
	if (scale_decimal(ip, fn, fd, mult, &v))
		return -ERANGE;
	out->is_pct = false;
	out->val = v;
	return 0;
}

int gc_parse_duration(const char *s, unsigned long long *secs)
{
	unsigned long long total = 0;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	while (*p) {
		unsigned long long ip, fn, fd, mult, v;

		if (parse_decimal(&p, &ip, &fn, &fd))
			return -EINVAL;
		switch (*p) {
		case '\0':
			/* a bare number is seconds, but only on its own */
			if (p != s + strspn(s, "0123456789."))
				return -EINVAL;
			mult = 1;
			break;
		case 's':
			mult = 1;
			p++;
			break;
		case 'm':
			mult = 60;
			p++;
			break;
		case 'h':
			mult = 3600;
			p++;
			break;
		case 'd':
			mult = 86400;
			p++;
			break;
		default:
			return -EINVAL;
		}
		if (scale_decimal(ip, fn, fd, mult, &v) ||
		    __builtin_add_overflow(total, v, &total))
			return -ERANGE;
	}
	*secs = total;
	return 0;
}

int gc_parse_target(const char *s, struct gc_amount *out)
{
	if (!s || !*s)
		return -EINVAL;
	if (strchr(s, '%'))
		return parse_pct(s, out);
	out->is_pct = false;
	return gc_parse_uint(s, &out->val);
}

int gc_parse_uint(const char *s, unsigned long long *val)
{
	unsigned long long v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (unsigned long long)(*s - '0'),
					   &v))
			return -ERANGE;
	}
	*val = v;
	return 0;
}

/* decimal or 0x-hex, no sign, whole string up to @end */
static int parse_blocks(const char *s, const char *end,
			unsigned long long *val)
{
	char *e;

	if (s == end || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*val = strtoull(s, &e, 0);
	if (errno)
		return -ERANGE;
	if (e != end)
		return -EINVAL;
	return 0;
}

int gc_parse_range(const char *s, unsigned long long *start,
		   unsigned long long *len)
{
	const char *colon;

	if (!s)
		return -EINVAL;
	colon = strchr(s, ':');
	if (!colon)
		return -EINVAL;
	if (parse_blocks(s, colon, start) ||
	    parse_blocks(colon + 1, colon + 1 + strlen(colon + 1), len))
		return -EINVAL;
	if (!*len || *start + *len < *start)
		return -ERANGE;
	return 0;
}

int gc_parse_onoff(const char *s, bool *on)
{
	if (!s)
		return -EINVAL;
	if (!strcmp(s, "on") || !strcmp(s, "1") || !strcmp(s, "yes")) {
		*on = true;
		return 0;
	}
	if (!strcmp(s, "off") || !strcmp(s, "0") || !strcmp(s, "no")) {
		*on = false;
		return 0;
	}
	return -EINVAL;
}

unsigned long long gc_amount_of(const struct gc_amount *a,
				unsigned long long whole)
{
	unsigned __int128 v;

	if (!a->is_pct)
		return a->val;
	v = (unsigned __int128)whole * a->val / GC_PCT_MAX;
	return (unsigned long long)v;
}

/* "Key:   1234 kB" at the start of a line; 1 when the line is another key */
static int meminfo_value(const char *line, const char *key,
			 unsigned long long *val)
{
	size_t klen = strlen(key);
	const char *p;
	char *e;

	if (strncmp(line, key, klen) || line[klen] != ':')
		return 1;
	p = line + klen + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	*val = strtoull(p, &e, 10);
	if (errno)
		return -ERANGE;
	return 0;
}

int gc_parse_meminfo(const char *buf, struct gc_meminfo *mi)
{
	static const char * const keys[] = { "MemTotal", "Dirty", "Writeback" };
	unsigned long long *dst[] = {
		&mi->mem_total_kb, &mi->dirty_kb, &mi->writeback_kb
	};
	unsigned int found = 0;
	const char *line = buf;
	size_t i;

	if (!buf)
		return -EINVAL;
	while (line && *line) {
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			int ret = meminfo_value(line, keys[i], dst[i]);

			if (ret == 0)
				found |= 1U << i;
			else if (ret < 0)
				return ret;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return found == 7 ? 0 : -ENOENT;
}

/* Copy one space-separated mountinfo field, decoding \ooo escapes. */
static const char *mi_field(const char *p, char *dst, size_t size)
{
	size_t n = 0;

	while (*p == ' ')
		p++;
	if (!*p || *p == '\n')
		return NULL;
	while (*p && *p != ' ' && *p != '\n') {
		char c = *p;

		if (c == '\\' && p[1] >= '0' && p[1] <= '3' &&
		    p[2] >= '0' && p[2] <= '7' && p[3] >= '0' && p[3] <= '7') {
			c = (char)(((p[1] - '0') << 6) | ((p[2] - '0') << 3) |
				   (p[3] - '0'));
			p += 4;
		} else {
			p++;
		}
		if (dst) {
			if (n + 1 >= size)
				return NULL;
			dst[n++] = c;
		}
	}
	if (dst)
		dst[n] = '\0';
	return p;
}

int gc_parse_mountinfo_line(const char *line, struct gc_mount *m)
{
	char tmp[64];
	const char *p = line;
	int i;

	if (!line)
		return -EINVAL;
	/* mount ID, parent ID */
	for (i = 0; i < 2; i++) {
		p = mi_field(p, NULL, 0);
		if (!p)
			return -EINVAL;
	}
	p = mi_field(p, tmp, sizeof(tmp));
	if (!p || sscanf(tmp, "%u:%u", &m->major, &m->minor) != 2)
		return -EINVAL;
	p = mi_field(p, NULL, 0);			/* root */
	if (!p)
		return -EINVAL;
	p = mi_field(p, m->mnt_point, sizeof(m->mnt_point));
	if (!p)
		return -EINVAL;
	p = mi_field(p, NULL, 0);			/* mount options */
	if (!p)
		return -EINVAL;
	/* optional fields, ended by a lone "-" */
	for (;;) {
		p = mi_field(p, tmp, sizeof(tmp));
		if (!p)
			return -EINVAL;
		if (!strcmp(tmp, "-"))
			break;
	}
	p = mi_field(p, m->fstype, sizeof(m->fstype));
	if (!p)
		return -EINVAL;
	p = mi_field(p, m->source, sizeof(m->source));
	if (!p)
		return -EINVAL;
	return 0;
}

int gc_mount_covers(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (mnt[0] != '/' || path[0] != '/')
		return -1;
	if (n == 1)
		return 1;
	if (strncmp(mnt, path, n))
		return -1;
	if (path[n] != '\0' && path[n] != '/')
		return -1;
	return (int)n;
}

bool gc_fstype_supported(const char *fstype)
{
	return !strcmp(fstype, "f2fs") || !strcmp(fstype, "f2fs_packed");
}

int gc_parse_counter(const char *buf, unsigned long long *val)
{
	const char *p = buf;
	char *e;

	if (!buf)
		return -EINVAL;
	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	*val = strtoull(p, &e, 10);
	if (errno)
		return -ERANGE;
	while (isspace((unsigned char)*e))
		e++;
	return *e ? -EINVAL : 0;
}

const char *gc_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static unsigned int le32_at(const unsigned char *b, size_t off)
{
	return (unsigned int)b[off] | (unsigned int)b[off + 1] << 8 |
	       (unsigned int)b[off + 2] << 16 | (unsigned int)b[off + 3] << 24;
}

/* Byte offsets inside struct f2fs_super_block (it is __packed). */
#define SB_MAGIC		0
#define SB_LOG_BLOCKSIZE	16
#define SB_LOG_BLOCKS_PER_SEG	20
#define SB_SEGS_PER_SEC		24
#define SB_SECTION_COUNT	44
#define SB_SEGMENT_COUNT_MAIN	68
#define SB_MAIN_BLKADDR		92

int gc_parse_sb(const unsigned char *buf, size_t len, struct gc_sb_geom *g)
{
	if (!buf || len < GC_SB_MIN_LEN)
		return -EINVAL;
	if (le32_at(buf, SB_MAGIC) != GC_SB_MAGIC)
		return -EINVAL;
	g->log_blocksize = le32_at(buf, SB_LOG_BLOCKSIZE);
	g->log_blocks_per_seg = le32_at(buf, SB_LOG_BLOCKS_PER_SEG);
	g->segs_per_sec = le32_at(buf, SB_SEGS_PER_SEC);
	g->section_count = le32_at(buf, SB_SECTION_COUNT);
	g->segment_count_main = le32_at(buf, SB_SEGMENT_COUNT_MAIN);
	g->main_blkaddr = le32_at(buf, SB_MAIN_BLKADDR);
	if (g->log_blocksize < 9 || g->log_blocksize > 16 ||
	    g->log_blocks_per_seg > 16 || !g->segs_per_sec ||
	    !g->section_count ||
	    g->segment_count_main / g->segs_per_sec != g->section_count)
		return -EINVAL;
	return 0;
}

/* strstr() that only matches inside [s, end) */
static const char *find_in(const char *s, const char *end, const char *needle)
{
	const char *hit = strstr(s, needle);

	return hit && hit + strlen(needle) <= end ? hit : NULL;
}

int gc_parse_status(const char *buf, const char *dev, struct gc_status *st)
{
	static const char head[] = "=====[ partition info(";
	char want[128];
	const char *start = NULL, *end, *p;
	long long a, b;

	st->main_segs = st->main_secs = -1;
	st->dirty_segs = st->free_segs = st->free_secs = -1;
	if (!buf || !dev || !*dev)
		return -EINVAL;
	if (snprintf(want, sizeof(want), "%s%s)", head, dev) >= (int)sizeof(want))
		return -EINVAL;
	start = strstr(buf, want);
	if (!start)
		return -ENOENT;
	start += strlen(want);
	end = strstr(start, head);
	if (!end)
		end = start + strlen(start);

	p = find_in(start, end, "\nMain area: ");
	if (p && sscanf(p, "\nMain area: %lld segs, %lld secs", &a, &b) == 2) {
		st->main_segs = a;
		st->main_secs = b;
	}
	p = find_in(start, end, "\n  - Dirty: ");
	if (p && sscanf(p, "\n  - Dirty: %lld", &a) == 1)
		st->dirty_segs = a;
	p = find_in(start, end, "\n  - Free: ");
	if (p && sscanf(p, "\n  - Free: %lld (%lld)", &a, &b) == 2) {
		st->free_segs = a;
		st->free_secs = b;
	}
	return st->free_secs < 0 ? -ENOENT : 0;
}

char *gc_format_bytes(char *buf, size_t size, unsigned long long bytes)
{
	static const char * const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int i = -1;

	if (bytes < 1024) {
		snprintf(buf, size, "%llu B", bytes);
		return buf;
	}
	while (v >= 1024.0 && i < 4) {
		v /= 1024.0;
		i++;
	}
	snprintf(buf, size, "%.1f %s", v, unit[i]);
	return buf;
}

char *gc_format_secs(char *buf, size_t size, unsigned long long secs)
{
	unsigned long long h = secs / 3600, m = secs / 60 % 60, s = secs % 60;

	if (h)
		snprintf(buf, size, "%lluh%02llum%02llus", h, m, s);
	else if (m)
		snprintf(buf, size, "%llum%02llus", m, s);
	else
		snprintf(buf, size, "%llus", s);
	return buf;
}
