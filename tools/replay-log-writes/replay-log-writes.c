// SPDX-License-Identifier: GPL-2.0
/*
 * replay-log-writes: replay a dm-log-writes log onto a device, stopping at
 * every point a power cut could have left the device in.
 *
 * dm-log-writes (Documentation/admin-guide/device-mapper/log-writes.rst)
 * logs a write only once a flush has made it durable, or at once when it
 * is FUA; a mark is logged when user space sends it.  So replaying the log
 * up to a flush or FUA entry gives the device as a cut right after that
 * entry would have left it: everything the kernel had been told was
 * durable, nothing more.  After each such entry the replayed device is
 * synced and the check command runs; the first failing check stops the
 * replay.  Marks are appended to the marks file as they are replayed, so
 * the check knows, say, which fsync()s had returned by then.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fs.h>

#define PROG		"replay-log-writes"

/* The log format, from drivers/md/dm-log-writes.c. */
#define LOG_MAGIC	0x6a736677736872ULL
#define LOG_VERSION	1
#define LOG_FLUSH	(1 << 0)
#define LOG_FUA		(1 << 1)
#define LOG_DISCARD	(1 << 2)
#define LOG_MARK	(1 << 3)

/* A discard of a file, not a block device, is zeroed this much at a time. */
#define ZERO_CHUNK	(1 << 20)

struct log_super {
	uint64_t magic;
	uint64_t version;
	uint64_t nr_entries;
	uint32_t sectorsize;
} __attribute__((packed));

struct log_entry {
	uint64_t sector;
	uint64_t nr_sectors;
	uint64_t flags;
	uint64_t data_len;
} __attribute__((packed));

struct replay {
	int log, dev;
	uint32_t bs;		/* the logged device's sector size */
	const char *check;	/* shell command run at each durable point */
	FILE *marks;
	char *buf;
	size_t buflen;
	uint64_t writes, flushes, fuas, discards, nmarks, checks;
};

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void read_at(struct replay *r, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(r->log, buf, len, off);

	if (n < 0)
		die("reading the log at byte %" PRIu64 ": %s", off,
		    strerror(errno));
	if ((size_t)n != len)
		die("the log ends inside an entry at byte %" PRIu64, off);
}

static void *data_buf(struct replay *r, size_t len)
{
	if (len > r->buflen) {
		free(r->buf);
		r->buf = malloc(len);
		if (!r->buf)
			die("out of memory for a %zu-byte write", len);
		r->buflen = len;
	}
	return r->buf;
}

static void write_at(struct replay *r, const void *buf, size_t len,
		     uint64_t off)
{
	ssize_t n = pwrite(r->dev, buf, len, off);

	if (n < 0 || (size_t)n != len)
		die("writing %zu bytes at byte %" PRIu64 " of the device: %s",
		    len, off, n < 0 ? strerror(errno) : "short write");
}

/* What a discarded range reads back as is undefined: make it zeroes. */
static void zero_range(struct replay *r, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };
	struct stat st;
	void *zero;

	if (fstat(r->dev, &st) == 0 && S_ISBLK(st.st_mode) &&
	    ioctl(r->dev, BLKZEROOUT, range) == 0)
		return;
	zero = data_buf(r, ZERO_CHUNK);
	memset(zero, 0, ZERO_CHUNK);
	for (; len > ZERO_CHUNK; len -= ZERO_CHUNK, off += ZERO_CHUNK)
		write_at(r, zero, ZERO_CHUNK, off);
	write_at(r, zero, len, off);
}

static void run_check(struct replay *r, uint64_t entry)
{
	char env[32];
	int status;

	if (fsync(r->dev))
		die("syncing the device: %s", strerror(errno));
	if (!r->check)
		return;
	if (r->marks && fflush(r->marks))
		die("writing the marks file: %s", strerror(errno));
	snprintf(env, sizeof(env), "%" PRIu64, entry);
	setenv("REPLAY_ENTRY", env, 1);
	r->checks++;
	status = system(r->check);
	if (status == -1)
		die("cannot run the check: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("check failed after entry %" PRIu64
		    " (%" PRIu64 " durable points checked)", entry, r->checks);
}

/* Replays entry @i at byte @off of the log; returns the next entry's. */
static uint64_t replay_entry(struct replay *r, uint64_t i, uint64_t off)
{
	struct log_entry e;
	uint64_t flags, len, data_len;
	char *mark;

	read_at(r, &e, sizeof(e), off);
	flags = le64toh(e.flags);
	len = le64toh(e.nr_sectors) * r->bs;
	data_len = le64toh(e.data_len);
	off += r->bs;

	if (flags & LOG_MARK) {
		if (data_len >= r->bs - sizeof(e))
			die("entry %" PRIu64 ": mark of %" PRIu64 " bytes",
			    i, data_len);
		mark = data_buf(r, data_len + 1);
		read_at(r, mark, data_len, off - r->bs + sizeof(e));
		mark[data_len] = '\0';
		if (r->marks)
			fprintf(r->marks, "%s\n", mark);
		r->nmarks++;
		return off;
	}
	if (flags & LOG_DISCARD) {
		zero_range(r, le64toh(e.sector) * r->bs, len);
		r->discards++;
		return off;
	}
	if (len) {
		void *buf = data_buf(r, len);

		read_at(r, buf, len, off);
		write_at(r, buf, len, le64toh(e.sector) * r->bs);
		r->writes++;
		off += len;
	}
	if (flags & (LOG_FLUSH | LOG_FUA)) {
		r->flushes += !!(flags & LOG_FLUSH);
		r->fuas += !!(flags & LOG_FUA);
		run_check(r, i);
	}
	return off;
}

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: " PROG " [-c COMMAND] [-m MARKS] LOG DEVICE\n"
		"  Replays the dm-log-writes log LOG onto DEVICE (a block\n"
		"  device or file as large as the logged one). After every\n"
		"  flush or FUA entry, DEVICE is synced and COMMAND runs\n"
		"  (sh -c, REPLAY_ENTRY set to the entry's index); a failing\n"
		"  COMMAND stops the replay. Marks are appended to MARKS.\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct replay r = { 0 };
	struct log_super s;
	uint64_t i, n, off;
	int opt;

	while ((opt = getopt(argc, argv, "c:m:h")) != -1) {
		switch (opt) {
		case 'c':
			r.check = optarg;
			break;
		case 'm':
			r.marks = fopen(optarg, "a");
			if (!r.marks)
				die("%s: %s", optarg, strerror(errno));
			break;
		default:
			bad_usage();
		}
	}
	if (argc - optind != 2)
		bad_usage();
	r.log = open(argv[optind], O_RDONLY);
	if (r.log < 0)
		die("%s: %s", argv[optind], strerror(errno));
	r.dev = open(argv[optind + 1], O_WRONLY);
	if (r.dev < 0)
		die("%s: %s", argv[optind + 1], strerror(errno));

	r.bs = 512;
	read_at(&r, &s, sizeof(s), 0);
	if (le64toh(s.magic) != LOG_MAGIC)
		die("%s holds no dm-log-writes log (bad magic)", argv[optind]);
	if (le64toh(s.version) != LOG_VERSION)
		die("log version %" PRIu64 " is not %d", le64toh(s.version),
		    LOG_VERSION);
	r.bs = le32toh(s.sectorsize);
	if (r.bs < 512 || r.bs & (r.bs - 1))
		die("log sector size %u is not a power of two >= 512", r.bs);
	n = le64toh(s.nr_entries);

	for (i = 0, off = r.bs; i < n; i++)
		off = replay_entry(&r, i, off);
	/* Where a clean shutdown leaves the device: all of it logged. */
	run_check(&r, n);

	printf("entries %" PRIu64 " writes %" PRIu64 " flushes %" PRIu64
	       " fua %" PRIu64 " discards %" PRIu64 " marks %" PRIu64
	       " checks %" PRIu64 "\n", n, r.writes, r.flushes, r.fuas,
	       r.discards, r.nmarks, r.checks);
	return 0;
}
