// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs-gc: drive f2fs garbage collection from user space.
 *
 * Calls F2FS_IOC_GARBAGE_COLLECT (or _RANGE) in a loop, but only while the
 * system's dirty page cache (Dirty + Writeback in /proc/meminfo) is below a
 * bound, and syncfs()es the volume after every call so that the pages GC
 * dirtied are written out instead of piling up in the cache.  Stops at a
 * free-section target, a time or call limit, when GC has nothing left to
 * collect, or on SIGINT/SIGTERM, and always prints a summary.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <linux/f2fs.h>

#include "parse.h"

#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __noreturn		__attribute__((noreturn))

#define PROG			"f2fs-gc"
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* Exit statuses; keep in sync with f2fs-gc.8. */
#define EXIT_DONE		0	/* target reached or clean stop */
#define EXIT_RUNTIME		1	/* runtime error */
#define EXIT_REFUSED		2	/* usage error, refused, no privilege */
#define EXIT_TARGET_MISSED	3	/* stopped before --target-free */
#define EXIT_SIGNAL_BASE	128	/* + signal number */

#define DEFAULT_MAX_IDLE	8
#define DEFAULT_DIRTY_PCT	(10 * GC_PCT_SCALE)
#define DEFAULT_DIRTY_CAP	(1ULL << 30)
#define DIRTY_POLL_MS		100
#define WAIT_LOG_EVERY_MS	5000
#define BUSY_BACKOFF_MS		100
#define TTY_REFRESH_MS		200
#define LOG_EVERY_MS		1000

#define PACKING_KNOB		"gc_inode_local_packing"
#define SECTIONS_KNOB		"gc_pack_sections"

enum stop_reason {
	STOP_NONE,
	STOP_TARGET,
	STOP_DURATION,
	STOP_MAX_CALLS,
	STOP_IDLE,
	STOP_SIGNAL,
	STOP_ERROR,
};

static const char * const stop_names[] = {
	[STOP_NONE]	 = "none",
	[STOP_TARGET]	 = "target",
	[STOP_DURATION]	 = "duration",
	[STOP_MAX_CALLS] = "max-calls",
	[STOP_IDLE]	 = "idle",
	[STOP_SIGNAL]	 = "signal",
	[STOP_ERROR]	 = "error",
};

struct options {
	const char *path;
	bool dirty_bound;		/* false: --max-dirty off */
	bool dirty_set;
	struct gc_amount max_dirty;
	bool sync_gc;			/* --mode fg */
	bool use_range;
	unsigned long long range_start;
	unsigned long long range_len;
	bool do_syncfs;
	bool target_set;
	struct gc_amount target;
	unsigned long long duration;	/* seconds, 0: none */
	unsigned long long max_calls;	/* 0: none */
	unsigned long long max_idle;
	int packing;			/* -1: leave alone, 0 off, 1 on */
	unsigned long long sections;	/* --pack-sections, 0: leave alone */
	bool json;
	bool quiet;
	bool verbose;
};

/* A counter value or -1 when it is not available. */
struct counters {
	long long free_segs;
	long long dirty_segs;
	long long free_secs;
	long long moved_blocks;
};

struct volume {
	int fd;
	struct gc_mount mnt;
	char dev[256];
	char sysdir[GC_PATH_MAX];	/* "" when absent */
	char status_path[GC_PATH_MAX];	/* debugfs status, "" when absent */
	bool have_geom;
	struct gc_sb_geom geom;
	unsigned int segs_per_sec;	/* 0: unknown, treated as 1 */
	unsigned long long main_secs;	/* 0: unknown */
	unsigned long long block_size;
	const char *free_secs_src;
};

struct stats {
	unsigned long long calls;
	unsigned long long ok;
	unsigned long long eagain;	/* EAGAIN or ENODATA */
	unsigned long long ebusy;
	unsigned long long errors;
	unsigned long long idle_run;
	unsigned long long dirty_waits;
	double wait_secs;
	int last_errno;
};

static volatile sig_atomic_t stop_signal;

/* A knob set for the run (--packing, --pack-sections), restored on exit. */
struct saved_knob {
	const char *name;		/* the sysfs file */
	const char *option;		/* the option that sets it */
	char path[GC_PATH_MAX];
	char old[64];
	bool changed;
};

static struct saved_knob packing_knob = {
	.name = PACKING_KNOB, .option = "--packing",
};
static struct saved_knob sections_knob = {
	.name = SECTIONS_KNOB, .option = "--pack-sections",
};
static bool knob_restore_failed;

static bool tty_progress;
static bool line_dirty;		/* a live line is on the terminal */

static void on_signal(int sig)
{
	stop_signal = sig;
}

static double now_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * CPU time of this process in ns (the ioctl's kernel work runs in its
 * context): the cost benchmark reads it, in a guest whose clock counts
 * instructions (scripts/vm -I), as an instruction count.
 */
static long long cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return -1;
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	/* EINTR is fine: the caller checks stop_signal */
	nanosleep(&ts, NULL);
}

static void clear_line(void)
{
	if (line_dirty) {
		fputs("\r\033[K", stderr);
		line_dirty = false;
	}
}

static void __printf(1, 2) err_msg(const char *fmt, ...)
{
	va_list ap;

	clear_line();
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void print_usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] MOUNTPOINT\n"
"Run f2fs garbage collection on the f2fs or f2fs_packed volume at MOUNTPOINT,\n"
"pacing it by the system's dirty page cache.\n"
"\n"
"  -d, --max-dirty SIZE|N%%|off  wait while Dirty+Writeback exceeds this\n"
"                               (default 10%% of MemTotal, at most 1G)\n"
"  -m, --mode fg|bg             foreground (sync, default) or background GC\n"
"  -r, --range START:LEN        GC_RANGE over these blocks instead\n"
"  -n, --no-sync                do not syncfs after each call\n"
"  -t, --target-free N|N%%       stop at N free sections (or N%% of all)\n"
"  -D, --duration T             stop after T (30, 30s, 5m, 2h, 1h30m)\n"
"  -c, --max-calls N            stop after N GC calls\n"
"  -i, --max-idle N             stop after N calls in a row that found\n"
"                               nothing to collect (default %d)\n"
"  -p, --packing on|off         set " PACKING_KNOB " for the run\n"
"                               (f2fs_packed only; restored on exit)\n"
"  -S, --pack-sections N        set " SECTIONS_KNOB " for the run: a sync\n"
"                               call packs up to N sections as one\n"
"                               (f2fs_packed only; restored on exit)\n"
"  -j, --json                   print the summary as JSON\n"
"  -q, --quiet                  no progress output\n"
"  -v, --verbose                log every call\n"
"  -h, --help                   this text\n"
"\n"
"Exit: 0 done, 1 runtime error, 2 usage/refused/not permitted,\n"
"      3 target not reached, 128+N stopped by signal N.  See f2fs-gc(8).\n",
		DEFAULT_MAX_IDLE);
}

static void __noreturn bad_usage(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n\n", stderr);
	print_usage(stderr);
	exit(EXIT_REFUSED);
}

static void parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "max-dirty",	 required_argument, NULL, 'd' },
		{ "mode",	 required_argument, NULL, 'm' },
		{ "range",	 required_argument, NULL, 'r' },
		{ "no-sync",	 no_argument,	    NULL, 'n' },
		{ "target-free", required_argument, NULL, 't' },
		{ "duration",	 required_argument, NULL, 'D' },
		{ "max-calls",	 required_argument, NULL, 'c' },
		{ "max-idle",	 required_argument, NULL, 'i' },
		{ "packing",	 required_argument, NULL, 'p' },
		{ "pack-sections", required_argument, NULL, 'S' },
		{ "json",	 no_argument,	    NULL, 'j' },
		{ "quiet",	 no_argument,	    NULL, 'q' },
		{ "verbose",	 no_argument,	    NULL, 'v' },
		{ "help",	 no_argument,	    NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool on;
	int c;

	memset(o, 0, sizeof(*o));
	o->dirty_bound = true;
	o->sync_gc = true;
	o->do_syncfs = true;
	o->max_idle = DEFAULT_MAX_IDLE;
	o->packing = -1;

	while ((c = getopt_long(argc, argv, "d:m:r:nt:D:c:i:p:S:jqvh",
				longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (!strcmp(optarg, "off") || !strcmp(optarg, "none")) {
				o->dirty_bound = false;
				break;
			}
			if (gc_parse_size(optarg, &o->max_dirty))
				bad_usage("bad --max-dirty '%s' (e.g. 256M, 2G, 5%%, off)",
					  optarg);
			if (!o->max_dirty.val)
				bad_usage("--max-dirty must be above zero (or 'off')");
			o->dirty_bound = true;
			o->dirty_set = true;
			break;
		case 'm':
			if (!strcmp(optarg, "fg") || !strcmp(optarg, "sync"))
				o->sync_gc = true;
			else if (!strcmp(optarg, "bg"))
				o->sync_gc = false;
			else
				bad_usage("bad --mode '%s' (fg or bg)", optarg);
			break;
		case 'r':
			if (gc_parse_range(optarg, &o->range_start,
					   &o->range_len))
				bad_usage("bad --range '%s' (START:LEN in blocks, LEN > 0)",
					  optarg);
			o->use_range = true;
			break;
		case 'n':
			o->do_syncfs = false;
			break;
		case 't':
			if (gc_parse_target(optarg, &o->target))
				bad_usage("bad --target-free '%s' (sections, or N%%)",
					  optarg);
			o->target_set = true;
			break;
		case 'D':
			if (gc_parse_duration(optarg, &o->duration) ||
			    !o->duration)
				bad_usage("bad --duration '%s' (e.g. 90, 90s, 5m, 2h, 1h30m)",
					  optarg);
			break;
		case 'c':
			if (gc_parse_uint(optarg, &o->max_calls) ||
			    !o->max_calls)
				bad_usage("bad --max-calls '%s' (a count above zero)",
					  optarg);
			break;
		case 'i':
			if (gc_parse_uint(optarg, &o->max_idle) ||
			    !o->max_idle)
				bad_usage("bad --max-idle '%s' (a count above zero)",
					  optarg);
			break;
		case 'p':
			if (gc_parse_onoff(optarg, &on))
				bad_usage("bad --packing '%s' (on or off)",
					  optarg);
			o->packing = on;
			break;
		case 'S':
			/* the module checks the upper bound */
			if (gc_parse_uint(optarg, &o->sections) ||
			    !o->sections)
				bad_usage("bad --pack-sections '%s' (a count above zero)",
					  optarg);
			break;
		case 'j':
			o->json = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			print_usage(stdout);
			exit(EXIT_DONE);
		default:
			print_usage(stderr);
			exit(EXIT_REFUSED);
		}
	}
	if (optind != argc - 1)
		bad_usage(optind >= argc ? "no MOUNTPOINT given" :
			  "exactly one MOUNTPOINT, please");
	o->path = argv[optind];
}

/* Read a small text file into @buf; returns bytes read or -errno. */
static ssize_t read_text(const char *path, char *buf, size_t size)
{
	ssize_t n, total = 0;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < size - 1) {
		n = read(fd, buf + total, size - 1 - total);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			close(fd);
			return -err;
		}
		if (!n)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	return total;
}

static int write_text(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* Read the whole debugfs status file (it can be long). */
static char *read_big(const char *path)
{
	size_t size = 64 * 1024, len = 0;
	char *buf = malloc(size);
	ssize_t n;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (len + 1 >= size) {
			char *nb = realloc(buf, size * 2);

			if (!nb)
				break;
			buf = nb;
			size *= 2;
		}
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

static long long read_counter(const struct volume *v, const char *name)
{
	char path[GC_PATH_MAX + 64], buf[64];
	unsigned long long val;

	if (!v->sysdir[0])
		return -1;
	snprintf(path, sizeof(path), "%s/%s", v->sysdir, name);
	if (read_text(path, buf, sizeof(buf)) <= 0 ||
	    gc_parse_counter(buf, &val) || val > LLONG_MAX)
		return -1;
	return (long long)val;
}

static void read_counters(struct volume *v, struct counters *c)
{
	struct gc_status st;
	long long fg, bg;
	char *status;

	c->free_segs = read_counter(v, "free_segments");
	c->dirty_segs = read_counter(v, "dirty_segments");
	fg = read_counter(v, "moved_blocks_foreground");
	bg = read_counter(v, "moved_blocks_background");
	c->moved_blocks = (fg >= 0 && bg >= 0) ? fg + bg : -1;
	c->free_secs = -1;

	if (v->status_path[0]) {
		status = read_big(v->status_path);
		if (status && !gc_parse_status(status, v->dev, &st)) {
			c->free_secs = st.free_secs;
			if (c->free_segs < 0)
				c->free_segs = st.free_segs;
			if (c->dirty_segs < 0)
				c->dirty_segs = st.dirty_segs;
			v->free_secs_src = "debugfs status";
		}
		free(status);
	}
	if (c->free_secs < 0 && c->free_segs >= 0) {
		c->free_secs = c->free_segs /
			       (v->segs_per_sec ? v->segs_per_sec : 1);
		v->free_secs_src = v->segs_per_sec > 1 ?
			"free_segments / segs_per_sec (estimate)" :
			"free_segments (1 segment per section)";
		if (!v->segs_per_sec)
			v->free_secs_src =
				"free_segments (segs_per_sec unknown, assumed 1)";
	}
}

static int read_meminfo(struct gc_meminfo *mi)
{
	char buf[16384];

	if (read_text("/proc/meminfo", buf, sizeof(buf)) <= 0)
		return -EIO;
	return gc_parse_meminfo(buf, mi);
}

/* Find the mount that holds @path; returns 0 or an exit status. */
static int find_mount(const char *path, struct gc_mount *out)
{
	char real[PATH_MAX];
	struct gc_mount m;
	size_t cap = 0;
	char *line = NULL;
	int best = -1, len;
	FILE *f;

	if (!realpath(path, real)) {
		err_msg("%s: %s", path, strerror(errno));
		return EXIT_REFUSED;
	}
	f = fopen("/proc/self/mountinfo", "re");
	if (!f) {
		err_msg("/proc/self/mountinfo: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	while (getline(&line, &cap, f) > 0) {
		if (gc_parse_mountinfo_line(line, &m))
			continue;
		len = gc_mount_covers(m.mnt_point, real);
		/* the deepest mount wins; a later one over-mounts an earlier */
		if (len >= 0 && len >= best) {
			best = len;
			*out = m;
		}
	}
	free(line);
	fclose(f);
	if (best < 0) {
		err_msg("%s: no mount found in /proc/self/mountinfo", real);
		return EXIT_RUNTIME;
	}
	return 0;
}

static void resolve_device(struct volume *v)
{
	char link[64], target[GC_PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u",
		 v->mnt.major, v->mnt.minor);
	n = readlink(link, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		snprintf(v->dev, sizeof(v->dev), "%s", gc_basename(target));
	} else if (!strncmp(v->mnt.source, "/dev/", 5)) {
		snprintf(v->dev, sizeof(v->dev), "%s",
			 gc_basename(v->mnt.source));
	}
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Read the on-disk super block for segs_per_sec and the main area size. */
static void read_geometry(struct volume *v)
{
	unsigned char buf[GC_SB_MIN_LEN];
	char cand[3][GC_PATH_MAX];
	struct stat st;
	int i, fd;

	snprintf(cand[0], sizeof(cand[0]), "%s", v->mnt.source);
	snprintf(cand[1], sizeof(cand[1]), "/dev/%s", v->dev);
	snprintf(cand[2], sizeof(cand[2]), "/dev/block/%u:%u",
		 v->mnt.major, v->mnt.minor);
	for (i = 0; i < 3 && !v->have_geom; i++) {
		if (cand[i][0] != '/' || !v->dev[0])
			continue;
		fd = open(cand[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && S_ISBLK(st.st_mode) &&
		    major(st.st_rdev) == v->mnt.major &&
		    minor(st.st_rdev) == v->mnt.minor &&
		    pread(fd, buf, sizeof(buf), GC_SB_OFFSET) ==
		    (ssize_t)sizeof(buf) &&
		    !gc_parse_sb(buf, sizeof(buf), &v->geom))
			v->have_geom = true;
		close(fd);
	}
	if (v->have_geom) {
		v->segs_per_sec = v->geom.segs_per_sec;
		v->main_secs = v->geom.section_count;
		v->block_size = 1ULL << v->geom.log_blocksize;
	}
}

/* Fill in what the debugfs status or statfs can tell when the sb can't. */
static void geometry_fallbacks(struct volume *v)
{
	struct gc_status st;
	struct statfs sfs;
	char *status;

	if (v->status_path[0] && (!v->main_secs || !v->segs_per_sec)) {
		status = read_big(v->status_path);
		if (status && !gc_parse_status(status, v->dev, &st) &&
		    st.main_secs > 0 && st.main_segs > 0) {
			v->main_secs = (unsigned long long)st.main_secs;
			v->segs_per_sec = (unsigned int)(st.main_segs /
							 st.main_secs);
		}
		free(status);
	}
	if (!fstatfs(v->fd, &sfs)) {
		if (!v->block_size)
			v->block_size = (unsigned long long)sfs.f_bsize;
		/* f_blocks is close to the main area; 512 blocks a segment */
		if (!v->main_secs)
			v->main_secs = (unsigned long long)sfs.f_blocks / 512 /
				       (v->segs_per_sec ? v->segs_per_sec : 1);
	}
	if (!v->block_size)
		v->block_size = 4096;
}

static int open_volume(const struct options *o, struct volume *v)
{
	int ret;

	memset(v, 0, sizeof(*v));
	v->fd = -1;
	ret = find_mount(o->path, &v->mnt);
	if (ret)
		return ret;
	if (!gc_fstype_supported(v->mnt.fstype)) {
		err_msg("%s is on %s (mounted at %s), not f2fs or f2fs_packed; refusing",
			o->path, v->mnt.fstype, v->mnt.mnt_point);
		return EXIT_REFUSED;
	}
	v->fd = open(o->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (v->fd < 0) {
		err_msg("%s: %s", o->path, strerror(errno));
		return errno == ENOTDIR ? EXIT_REFUSED : EXIT_RUNTIME;
	}
	resolve_device(v);
	if (v->dev[0]) {
		snprintf(v->sysdir, sizeof(v->sysdir), "/sys/fs/%s/%s",
			 v->mnt.fstype, v->dev);
		if (!is_dir(v->sysdir))
			v->sysdir[0] = '\0';
		snprintf(v->status_path, sizeof(v->status_path),
			 "/sys/kernel/debug/%s/status", v->mnt.fstype);
		if (access(v->status_path, R_OK))
			v->status_path[0] = '\0';
	}
	read_geometry(v);
	geometry_fallbacks(v);
	return 0;
}

static void restore_knob(struct saved_knob *k)
{
	int ret;

	if (!k->changed)
		return;
	k->changed = false;
	ret = write_text(k->path, k->old);
	if (ret) {
		knob_restore_failed = true;
		err_msg("could not restore %s to %s: %s", k->path, k->old,
			strerror(-ret));
	}
}

/* Both, in the reverse order of set_knobs(); atexit() runs it too. */
static void restore_knobs(void)
{
	restore_knob(&sections_knob);
	restore_knob(&packing_knob);
}

static int set_knob(struct saved_knob *k, const struct volume *v,
		    const char *val)
{
	char *nl;
	ssize_t n;
	int ret;

	if (strcmp(v->mnt.fstype, "f2fs_packed")) {
		err_msg("%s needs an f2fs_packed mount; %s is %s", k->option,
			v->mnt.mnt_point, v->mnt.fstype);
		return EXIT_REFUSED;
	}
	if (!v->sysdir[0]) {
		err_msg("%s: no sysfs directory for device %s", k->option,
			v->dev[0] ? v->dev : "(unknown)");
		return EXIT_REFUSED;
	}
	if ((size_t)snprintf(k->path, sizeof(k->path), "%s/%s", v->sysdir,
			     k->name) >= sizeof(k->path)) {
		err_msg("%s: sysfs path too long", k->option);
		return EXIT_REFUSED;
	}
	n = read_text(k->path, k->old, sizeof(k->old));
	if (n == -ENOENT) {
		err_msg("%s: this f2fs_packed module has no %s knob (%s)",
			k->option, k->name, k->path);
		return EXIT_REFUSED;
	}
	if (n <= 0) {
		err_msg("%s: cannot read %s: %s", k->option, k->path,
			n ? strerror((int)-n) : "empty");
		return (n == -EACCES || n == -EPERM) ? EXIT_REFUSED :
						       EXIT_RUNTIME;
	}
	nl = strchr(k->old, '\n');
	if (nl)
		*nl = '\0';
	ret = write_text(k->path, val);
	if (ret) {
		err_msg("%s: cannot write %s to %s: %s%s", k->option, val,
			k->path, strerror(-ret),
			(ret == -EACCES || ret == -EPERM) ? " (needs root)" :
			ret == -EINVAL ? " (out of range)" : "");
		return (ret == -EACCES || ret == -EPERM ||
			ret == -EINVAL) ? EXIT_REFUSED : EXIT_RUNTIME;
	}
	k->changed = true;
	return 0;
}

static int set_knobs(const struct options *o, const struct volume *v)
{
	char val[32];
	int status;

	if (o->packing >= 0) {
		status = set_knob(&packing_knob, v, o->packing ? "1" : "0");
		if (status)
			return status;
	}
	if (o->sections) {
		snprintf(val, sizeof(val), "%llu", o->sections);
		status = set_knob(&sections_knob, v, val);
		if (status)
			return status;
	}
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: let sleeps and waits return early */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int gc_call(const struct options *o, const struct volume *v)
{
	struct f2fs_gc_range range;
	__u32 sync = o->sync_gc ? 1 : 0;
	int ret;

	if (o->use_range) {
		memset(&range, 0, sizeof(range));
		range.sync = sync;
		range.start = o->range_start;
		range.len = o->range_len;
		ret = ioctl(v->fd, F2FS_IOC_GARBAGE_COLLECT_RANGE, &range);
	} else {
		ret = ioctl(v->fd, F2FS_IOC_GARBAGE_COLLECT, &sync);
	}
	return ret < 0 ? -errno : 0;
}

static const char *fmt_count(char *buf, size_t size, long long v)
{
	if (v < 0)
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, "%lld", v);
	return buf;
}

struct run {
	const struct options *o;
	struct volume *v;
	struct stats s;
	struct counters before, now;
	unsigned long long target_secs;	/* valid if o->target_set */
	unsigned long long dirty_bound;	/* bytes, valid if o->dirty_bound */
	double t0;
	long long cpu0_ns;	/* process CPU time at t0 */
	double last_out;
	enum stop_reason reason;
};

static void moved_bytes(const struct run *r, char *buf, size_t size)
{
	if (r->before.moved_blocks < 0 || r->now.moved_blocks < 0 ||
	    r->now.moved_blocks < r->before.moved_blocks)
		snprintf(buf, size, "unknown");
	else
		gc_format_bytes(buf, size,
				(unsigned long long)(r->now.moved_blocks -
						     r->before.moved_blocks) *
				r->v->block_size);
}

/*
 * One line of state: free sections (and segments), dirty segments, the rate
 * of sections freed per second, the ETA to the target, bytes moved.
 */
static void status_line(const struct run *r, char *buf, size_t size,
			const char *what)
{
	char fs[24], fseg[24], ds[24], moved[32], rate[48], eta[48];
	double el = now_secs() - r->t0;
	long long gained;

	fmt_count(fs, sizeof(fs), r->now.free_secs);
	fmt_count(fseg, sizeof(fseg), r->now.free_segs);
	fmt_count(ds, sizeof(ds), r->now.dirty_segs);
	moved_bytes(r, moved, sizeof(moved));

	snprintf(rate, sizeof(rate), "rate n/a");
	snprintf(eta, sizeof(eta), "n/a");
	if (r->now.free_secs >= 0 && r->before.free_secs >= 0 && el > 0.5) {
		gained = r->now.free_secs - r->before.free_secs;
		snprintf(rate, sizeof(rate), "%+.1f sections/s",
			 gained / el);
		if (r->o->target_set && gained > 0) {
			long long left = (long long)r->target_secs -
					 r->now.free_secs;

			if (left <= 0)
				snprintf(eta, sizeof(eta), "0s");
			else
				gc_format_secs(eta, sizeof(eta),
					       (unsigned long long)
					       (left * el / gained + 0.5));
		}
	}
	if (r->o->target_set)
		snprintf(buf, size,
			 "[%6.1fs] %s | free %s/%llu sections (%s segs) | dirty %s segs | %s | ETA %s | moved %s",
			 el, what, fs, r->target_secs, fseg, ds, rate, eta,
			 moved);
	else
		snprintf(buf, size,
			 "[%6.1fs] %s | free %s sections (%s segs) | dirty %s segs | %s | moved %s",
			 el, what, fs, fseg, ds, rate, moved);
}

static void progress(struct run *r, const char *what, bool force)
{
	char buf[512];
	double t = now_secs();
	struct winsize ws;
	size_t w;

	if (r->o->quiet)
		return;
	if (tty_progress) {
		if (!force && t - r->last_out < TTY_REFRESH_MS / 1000.0)
			return;
		status_line(r, buf, sizeof(buf), what);
		if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1) {
			w = ws.ws_col - 1;
			if (strlen(buf) > w)
				buf[w] = '\0';
		}
		fprintf(stderr, "\r\033[K%s", buf);
		line_dirty = true;
	} else {
		if (!force && !r->o->verbose &&
		    t - r->last_out < LOG_EVERY_MS / 1000.0)
			return;
		status_line(r, buf, sizeof(buf), what);
		fprintf(stderr, PROG ": %s\n", buf);
	}
	fflush(stderr);
	r->last_out = t;
}

static void __printf(2, 3) log_event(struct run *r, const char *fmt, ...)
{
	va_list ap;

	if (r->o->quiet)
		return;
	clear_line();
	fprintf(stderr, PROG ": [%6.1fs] ", now_secs() - r->t0);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

static bool time_up(const struct run *r)
{
	return r->o->duration && now_secs() - r->t0 >= (double)r->o->duration;
}

static void end_wait(struct run *r, double start, bool resumed)
{
	char waited[32];
	double t = now_secs();

	r->s.wait_secs += t - start;
	gc_format_secs(waited, sizeof(waited),
		       (unsigned long long)(t - start + 0.5));
	if (resumed)
		log_event(r, "resumed after waiting %s for dirty pages",
			  waited);
	else
		log_event(r, "stopped while waiting for dirty pages (%s)",
			  waited);
}

/*
 * Wait while Dirty + Writeback is above the bound.  Returns false when the
 * run must stop (signal or --duration) while waiting.
 */
static bool wait_for_dirty(struct run *r)
{
	char cur[32], lim[32], what[96];
	struct gc_meminfo mi;
	double start = 0, last_log = 0, t;
	unsigned long long dirty;
	bool waiting = false;

	if (!r->o->dirty_bound)
		return true;
	for (;;) {
		if (stop_signal || time_up(r)) {
			if (!stop_signal)
				r->reason = STOP_DURATION;
			if (waiting)
				end_wait(r, start, false);
			return false;
		}
		if (read_meminfo(&mi)) {
			log_event(r, "cannot read /proc/meminfo; not waiting");
			break;
		}
		dirty = (mi.dirty_kb + mi.writeback_kb) * 1024;
		if (dirty <= r->dirty_bound)
			break;
		t = now_secs();
		gc_format_bytes(cur, sizeof(cur), dirty);
		gc_format_bytes(lim, sizeof(lim), r->dirty_bound);
		if (!waiting) {
			waiting = true;
			r->s.dirty_waits++;
			start = t;
			last_log = t;
			log_event(r, "waiting: dirty+writeback %s > max-dirty %s",
				  cur, lim);
		} else if (tty_progress) {
			snprintf(what, sizeof(what), "waiting (dirty %s > %s)",
				 cur, lim);
			progress(r, what, false);
		} else if (t - last_log >= WAIT_LOG_EVERY_MS / 1000.0) {
			last_log = t;
			log_event(r, "still waiting: dirty+writeback %s > max-dirty %s",
				  cur, lim);
		}
		sleep_ms(DIRTY_POLL_MS);
	}
	if (waiting)
		end_wait(r, start, true);
	return true;
}

static bool target_reached(const struct run *r)
{
	return r->o->target_set && r->now.free_secs >= 0 &&
	       (unsigned long long)r->now.free_secs >= r->target_secs;
}

/* Handle an ioctl error that ends the run; returns the exit status. */
static int gc_error(struct run *r, int err)
{
	switch (err) {
	case EPERM:
	case EACCES:
		err_msg("GC ioctl on %s: %s; it needs CAP_SYS_ADMIN (run as root)",
			r->v->mnt.mnt_point, strerror(err));
		return EXIT_REFUSED;
	case EROFS:
		err_msg("%s is mounted read-only; refusing",
			r->v->mnt.mnt_point);
		return EXIT_REFUSED;
	case EINVAL:
		if (r->o->use_range) {
			err_msg("--range %llu:%llu rejected (EINVAL): it must lie inside the main area%s",
				r->o->range_start, r->o->range_len,
				r->v->have_geom ? "" :
				" (main_blkaddr in sysfs gives its start)");
			if (r->v->have_geom)
				err_msg("main area: blocks %u to %llu",
					r->v->geom.main_blkaddr,
					(unsigned long long)r->v->geom.main_blkaddr +
					((unsigned long long)r->v->geom.segment_count_main <<
					 r->v->geom.log_blocks_per_seg) - 1);
			return EXIT_REFUSED;
		}
		break;
	case ENOTTY:
		err_msg("%s does not support the f2fs GC ioctl; refusing",
			r->v->mnt.mnt_point);
		return EXIT_REFUSED;
	}
	err_msg("GC ioctl failed: %s", strerror(err));
	return EXIT_RUNTIME;
}

static void print_json_count(const char *key, long long v, bool comma)
{
	if (v < 0)
		printf("  \"%s\": null%s\n", key, comma ? "," : "");
	else
		printf("  \"%s\": %lld%s\n", key, v, comma ? "," : "");
}

static void print_json_str(const char *key, const char *s)
{
	printf("  \"%s\": \"", key);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	printf("\",\n");
}

#define ERRNO_NAME(e)	{ e, #e }

static const struct {
	int err;
	const char *name;
} errno_names[] = {
	ERRNO_NAME(EPERM), ERRNO_NAME(ENOENT), ERRNO_NAME(EINTR),
	ERRNO_NAME(EIO), ERRNO_NAME(ENXIO), ERRNO_NAME(EBADF),
	ERRNO_NAME(EAGAIN), ERRNO_NAME(ENOMEM), ERRNO_NAME(EACCES),
	ERRNO_NAME(EFAULT), ERRNO_NAME(EBUSY), ERRNO_NAME(ENODEV),
	ERRNO_NAME(ENOTDIR), ERRNO_NAME(EINVAL), ERRNO_NAME(ENOTTY),
	ERRNO_NAME(EFBIG), ERRNO_NAME(ENOSPC), ERRNO_NAME(EROFS),
	ERRNO_NAME(ERANGE), ERRNO_NAME(ENODATA), ERRNO_NAME(EOPNOTSUPP),
	ERRNO_NAME(ESHUTDOWN), ERRNO_NAME(ETIMEDOUT), ERRNO_NAME(EUCLEAN),
	ERRNO_NAME(EDQUOT),
};

/* The symbolic name of @err ("ENOSPC"); "E<number>" for one not listed. */
static const char *errno_name(int err, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (errno_names[i].err == err)
			return errno_names[i].name;
	snprintf(buf, len, "E%d", err);
	return buf;
}

static void summary_json(const struct run *r, double el, int status)
{
	char ebuf[16];
	long long moved = -1;

	if (r->before.moved_blocks >= 0 && r->now.moved_blocks >=
	    r->before.moved_blocks)
		moved = (r->now.moved_blocks - r->before.moved_blocks) *
			(long long)r->v->block_size;
	printf("{\n");
	print_json_str("mountpoint", r->v->mnt.mnt_point);
	print_json_str("fstype", r->v->mnt.fstype);
	print_json_str("device", r->v->dev);
	print_json_str("mode", r->o->sync_gc ? "fg" : "bg");
	print_json_str("ioctl", r->o->use_range ? "GARBAGE_COLLECT_RANGE" :
			"GARBAGE_COLLECT");
	print_json_str("stop_reason", stop_names[r->reason]);
	printf("  \"exit_status\": %d,\n", status);
	printf("  \"elapsed_seconds\": %.3f,\n", el);
	print_json_count("cpu_ns", r->cpu0_ns < 0 ? -1 :
			 cpu_ns() - r->cpu0_ns, true);
	printf("  \"calls\": %llu,\n", r->s.calls);
	printf("  \"successes\": %llu,\n", r->s.ok);
	printf("  \"eagain\": %llu,\n", r->s.eagain);
	printf("  \"ebusy\": %llu,\n", r->s.ebusy);
	printf("  \"errors\": %llu,\n", r->s.errors);
	if (r->reason == STOP_ERROR && r->s.last_errno)
		print_json_str("error", errno_name(r->s.last_errno, ebuf,
						   sizeof(ebuf)));
	else
		printf("  \"error\": null,\n");
	printf("  \"dirty_waits\": %llu,\n", r->s.dirty_waits);
	printf("  \"dirty_wait_seconds\": %.3f,\n", r->s.wait_secs);
	if (r->o->dirty_bound)
		printf("  \"max_dirty_bytes\": %llu,\n", r->dirty_bound);
	else
		printf("  \"max_dirty_bytes\": null,\n");
	print_json_count("target_free_sections",
			 r->o->target_set ? (long long)r->target_secs : -1,
			 true);
	print_json_count("free_sections_before", r->before.free_secs, true);
	print_json_count("free_sections_after", r->now.free_secs, true);
	print_json_count("free_segments_before", r->before.free_segs, true);
	print_json_count("free_segments_after", r->now.free_segs, true);
	print_json_count("dirty_segments_before", r->before.dirty_segs, true);
	print_json_count("dirty_segments_after", r->now.dirty_segs, true);
	print_json_count("main_sections", r->v->main_secs ?
			 (long long)r->v->main_secs : -1, true);
	print_json_count("bytes_moved", moved, false);
	printf("}\n");
}

static void summary_text(const struct run *r, double el, int status)
{
	char a[24], b[24], buf[64];

	printf("f2fs-gc summary for %s (%s on %s)\n", r->v->mnt.mnt_point,
	       r->v->mnt.fstype, r->v->dev[0] ? r->v->dev : "?");
	switch (r->reason) {
	case STOP_TARGET:
		printf("  stopped:          target reached (%lld >= %llu free sections)\n",
		       r->now.free_secs, r->target_secs);
		break;
	case STOP_SIGNAL:
		printf("  stopped:          interrupted by %s\n",
		       strsignal(stop_signal));
		break;
	case STOP_IDLE:
		printf("  stopped:          nothing to collect (%llu calls in a row)\n",
		       r->s.idle_run);
		break;
	case STOP_DURATION:
		printf("  stopped:          --duration reached\n");
		break;
	case STOP_MAX_CALLS:
		printf("  stopped:          --max-calls reached\n");
		break;
	default:
		printf("  stopped:          error (%s)\n",
		       strerror(r->s.last_errno));
		break;
	}
	if (r->o->target_set && r->reason != STOP_TARGET)
		printf("  target:           %llu free sections, not reached\n",
		       r->target_secs);
	printf("  elapsed:          %s (%.1f s)\n",
	       gc_format_secs(buf, sizeof(buf), (unsigned long long)el), el);
	printf("  GC calls:         %llu (ok %llu, EAGAIN/ENODATA %llu, EBUSY %llu, errors %llu)\n",
	       r->s.calls, r->s.ok, r->s.eagain, r->s.ebusy, r->s.errors);
	if (r->o->dirty_bound)
		printf("  dirty waits:      %llu (%.1f s waiting, bound %s)\n",
		       r->s.dirty_waits, r->s.wait_secs,
		       gc_format_bytes(buf, sizeof(buf), r->dirty_bound));
	else
		printf("  dirty waits:      off\n");
	printf("  free sections:    %s -> %s\n",
	       fmt_count(a, sizeof(a), r->before.free_secs),
	       fmt_count(b, sizeof(b), r->now.free_secs));
	printf("  free segments:    %s -> %s\n",
	       fmt_count(a, sizeof(a), r->before.free_segs),
	       fmt_count(b, sizeof(b), r->now.free_segs));
	printf("  dirty segments:   %s -> %s\n",
	       fmt_count(a, sizeof(a), r->before.dirty_segs),
	       fmt_count(b, sizeof(b), r->now.dirty_segs));
	moved_bytes(r, buf, sizeof(buf));
	if (!strcmp(buf, "unknown"))
		printf("  bytes moved:      unknown (moved_blocks_* counters not available)\n");
	else
		printf("  bytes moved:      %s (kernel GC counters, includes background GC)\n",
		       buf);
	printf("  exit status:      %d\n", status);
}

static int run_loop(struct run *r)
{
	const struct options *o = r->o;
	char what[64];
	int err;

	for (;;) {
		if (stop_signal) {
			r->reason = STOP_SIGNAL;
			return 0;
		}
		if (time_up(r)) {
			r->reason = STOP_DURATION;
			return 0;
		}
		if (o->max_calls && r->s.calls >= o->max_calls) {
			r->reason = STOP_MAX_CALLS;
			return 0;
		}
		if (!wait_for_dirty(r)) {
			if (r->reason == STOP_NONE)
				r->reason = STOP_SIGNAL;
			return 0;
		}

		err = gc_call(o, r->v);
		r->s.calls++;
		switch (-err) {
		case 0:
			r->s.ok++;
			r->s.idle_run = 0;
			snprintf(what, sizeof(what), "call %llu ok", r->s.calls);
			break;
		case EAGAIN:
		case ENODATA:
			r->s.eagain++;
			r->s.idle_run++;
			snprintf(what, sizeof(what), "call %llu %s", r->s.calls,
				 err == -EAGAIN ? "EAGAIN" : "ENODATA");
			break;
		case EBUSY:
			/* bg mode: GC lock held by someone else */
			r->s.ebusy++;
			r->s.idle_run++;
			snprintf(what, sizeof(what), "call %llu EBUSY",
				 r->s.calls);
			sleep_ms(BUSY_BACKOFF_MS);
			break;
		case EINTR:
			r->s.calls--;
			continue;
		default:
			r->s.errors++;
			r->s.last_errno = -err;
			r->reason = STOP_ERROR;
			return gc_error(r, -err);
		}

		if (o->do_syncfs && syncfs(r->v->fd)) {
			r->s.last_errno = errno;
			r->reason = STOP_ERROR;
			err_msg("syncfs %s: %s", r->v->mnt.mnt_point,
				strerror(errno));
			return EXIT_RUNTIME;
		}

		read_counters(r->v, &r->now);
		progress(r, what, false);

		if (target_reached(r)) {
			r->reason = STOP_TARGET;
			return 0;
		}
		if (r->s.idle_run >= o->max_idle) {
			r->reason = STOP_IDLE;
			return 0;
		}
	}
}

int main(int argc, char **argv)
{
	struct options o;
	struct volume v;
	struct gc_meminfo mi;
	struct run r;
	char b1[32], b2[48];
	int status;
	double el;

	parse_args(argc, argv, &o);
	setvbuf(stdout, NULL, _IOLBF, 0);

	status = open_volume(&o, &v);
	if (status)
		return status;

	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.v = &v;
	r.reason = STOP_NONE;

	if (o.dirty_bound) {
		if (read_meminfo(&mi)) {
			err_msg("cannot parse /proc/meminfo for the dirty bound (use --max-dirty off to run without)");
			return EXIT_RUNTIME;
		}
		if (o.dirty_set) {
			r.dirty_bound = gc_amount_of(&o.max_dirty,
						     mi.mem_total_kb * 1024);
		} else {
			struct gc_amount def = { true, DEFAULT_DIRTY_PCT };

			r.dirty_bound = gc_amount_of(&def,
						     mi.mem_total_kb * 1024);
			if (r.dirty_bound > DEFAULT_DIRTY_CAP)
				r.dirty_bound = DEFAULT_DIRTY_CAP;
		}
		if (!r.dirty_bound)
			r.dirty_bound = 1;
	}

	read_counters(&v, &r.before);
	r.now = r.before;

	if (o.target_set) {
		if (r.before.free_secs < 0) {
			err_msg("--target-free needs the free segment counter, but neither %s/free_segments nor the debugfs status can be read",
				v.sysdir[0] ? v.sysdir : "/sys/fs/<type>/<dev>");
			return EXIT_REFUSED;
		}
		if (o.target.is_pct && !v.main_secs) {
			err_msg("--target-free %%: the volume's section count is unknown");
			return EXIT_REFUSED;
		}
		r.target_secs = gc_amount_of(&o.target, v.main_secs);
		if (v.main_secs && r.target_secs > v.main_secs) {
			err_msg("--target-free %llu is more than the volume's %llu sections",
				r.target_secs, v.main_secs);
			return EXIT_REFUSED;
		}
	}

	tty_progress = isatty(STDERR_FILENO);
	install_signals();
	atexit(restore_knobs);
	status = set_knobs(&o, &v);
	if (status)
		return status;

	r.t0 = now_secs();
	r.cpu0_ns = cpu_ns();
	if (!o.quiet) {
		fprintf(stderr,
			PROG ": %s: %s on %s, mode %s%s, syncfs %s, max-dirty %s%s%s\n",
			v.mnt.mnt_point, v.mnt.fstype,
			v.dev[0] ? v.dev : "?", o.sync_gc ? "fg" : "bg",
			o.use_range ? " (range)" : "",
			o.do_syncfs ? "on" : "off",
			o.dirty_bound ? gc_format_bytes(b1, sizeof(b1),
							r.dirty_bound) : "off",
			o.packing >= 0 ? (o.packing ? ", packing on" :
					  ", packing off") : "",
			o.sections ? (snprintf(b2, sizeof(b2),
					       ", %llu sections per call",
					       o.sections), b2) : "");
		if (!v.sysdir[0])
			fprintf(stderr,
				PROG ": no /sys/fs/%s/%s: segment counters n/a\n",
				v.mnt.fstype, v.dev[0] ? v.dev : "<dev>");
		else if (o.verbose && v.free_secs_src)
			fprintf(stderr, PROG ": free sections from %s\n",
				v.free_secs_src);
		if (o.target_set)
			fprintf(stderr,
				PROG ": target %llu free sections of %s (now %lld)\n",
				r.target_secs,
				v.main_secs ? (snprintf(b2, sizeof(b2), "%llu",
							v.main_secs), b2) : "?",
				r.before.free_secs);
	}

	if (target_reached(&r)) {
		r.reason = STOP_TARGET;
		status = 0;
	} else {
		status = run_loop(&r);
	}

	clear_line();
	restore_knobs();
	if (knob_restore_failed && !status)
		status = EXIT_RUNTIME;
	read_counters(&v, &r.now);
	el = now_secs() - r.t0;

	if (!status) {
		if (r.reason == STOP_SIGNAL)
			status = EXIT_SIGNAL_BASE + stop_signal;
		else if (r.reason == STOP_TARGET)
			status = EXIT_DONE;
		else if (o.target_set && target_reached(&r))
			status = EXIT_DONE;
		else if (o.target_set)
			status = EXIT_TARGET_MISSED;
		else
			status = EXIT_DONE;
	}
	if (o.json)
		summary_json(&r, el, status);
	else
		summary_text(&r, el, status);
	close(v.fd);
	return status;
}
