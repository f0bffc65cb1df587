// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for f2fs-gc's parsing helpers (parse.c).  Prints one line
 * per case and "N passed, N failed" at the end; exits non-zero on failure.
 */
#include <stdio.h>
#include <string.h>

#include "parse.h"

static int passed, failed;

static void result(const char *name, int ok)
{
	printf("%s - %s\n", ok ? "ok" : "not ok", name);
	if (ok)
		passed++;
	else
		failed++;
}

#define CASE(name, cond) result(name, !!(cond))

static int size_is(const char *s, int pct, unsigned long long val)
{
	struct gc_amount a;

	return !gc_parse_size(s, &a) && a.is_pct == pct && a.val == val;
}

static int size_bad(const char *s)
{
	struct gc_amount a;

	return gc_parse_size(s, &a) != 0;
}

static void test_size(void)
{
	CASE("size: plain bytes", size_is("4096", 0, 4096));
	CASE("size: K", size_is("4K", 0, 4096));
	CASE("size: lower-case k", size_is("4k", 0, 4096));
	CASE("size: M", size_is("64M", 0, 64ULL << 20));
	CASE("size: MiB", size_is("64MiB", 0, 64ULL << 20));
	CASE("size: MB is binary", size_is("64MB", 0, 64ULL << 20));
	CASE("size: G", size_is("2G", 0, 2ULL << 30));
	CASE("size: T", size_is("1T", 0, 1ULL << 40));
	CASE("size: fraction of a unit", size_is("1.5G", 0, 3ULL << 29));
	CASE("size: B suffix", size_is("512B", 0, 512));
	CASE("size: percent", size_is("10%", 1, 1000));
	CASE("size: fractional percent", size_is("2.5%", 1, 250));
	CASE("size: 100%", size_is("100%", 1, 10000));
	CASE("size: over 100% rejected", size_bad("101%"));
	CASE("size: empty rejected", size_bad(""));
	CASE("size: unknown unit rejected", size_bad("5X"));
	CASE("size: trailing junk rejected", size_bad("5Mfoo"));
	CASE("size: negative rejected", size_bad("-5M"));
	CASE("size: space rejected", size_bad("5 M"));
	CASE("size: unit alone rejected", size_bad("M"));
	CASE("size: fractional bytes rejected", size_bad("1.5"));
	CASE("size: dot without digits rejected", size_bad("1.M"));
	CASE("size: overflow rejected", size_bad("99999999999T"));
	CASE("size: percent with junk rejected", size_bad("10%x"));
}

static int dur_is(const char *s, unsigned long long want)
{
	unsigned long long v;

	return !gc_parse_duration(s, &v) && v == want;
}

static int dur_bad(const char *s)
{
	unsigned long long v;

	return gc_parse_duration(s, &v) != 0;
}

static void test_duration(void)
{
	CASE("duration: bare seconds", dur_is("90", 90));
	CASE("duration: s", dur_is("30s", 30));
	CASE("duration: m", dur_is("5m", 300));
	CASE("duration: h", dur_is("2h", 7200));
	CASE("duration: d", dur_is("1d", 86400));
	CASE("duration: compound", dur_is("1h30m", 5400));
	CASE("duration: compound with s", dur_is("1m30s", 90));
	CASE("duration: fractional", dur_is("1.5m", 90));
	CASE("duration: empty rejected", dur_bad(""));
	CASE("duration: bad unit rejected", dur_bad("5x"));
	CASE("duration: trailing bare number rejected", dur_bad("1h30"));
	CASE("duration: negative rejected", dur_bad("-5s"));
	CASE("duration: unit alone rejected", dur_bad("m"));
}

static void test_target(void)
{
	struct gc_amount a;

	CASE("target: count",
	     !gc_parse_target("120", &a) && !a.is_pct && a.val == 120);
	CASE("target: percent",
	     !gc_parse_target("25%", &a) && a.is_pct && a.val == 2500);
	CASE("target: units rejected", gc_parse_target("12M", &a) != 0);
	CASE("target: empty rejected", gc_parse_target("", &a) != 0);
	a.is_pct = true;
	a.val = 2500;
	CASE("amount: 25% of 400", gc_amount_of(&a, 400) == 100);
	a.val = 1000;
	CASE("amount: 10% of 8 GiB in bytes",
	     gc_amount_of(&a, 8ULL << 30) == (8ULL << 30) / 10);
	a.is_pct = false;
	a.val = 7;
	CASE("amount: absolute stays", gc_amount_of(&a, 400) == 7);
}

static void test_range_uint_onoff(void)
{
	unsigned long long s, l, v;
	bool on;

	CASE("range: decimal",
	     !gc_parse_range("4096:1024", &s, &l) && s == 4096 && l == 1024);
	CASE("range: hex",
	     !gc_parse_range("0x1000:0x200", &s, &l) && s == 4096 && l == 512);
	CASE("range: no colon rejected", gc_parse_range("4096", &s, &l) != 0);
	CASE("range: zero length rejected",
	     gc_parse_range("4096:0", &s, &l) != 0);
	CASE("range: empty start rejected",
	     gc_parse_range(":10", &s, &l) != 0);
	CASE("range: negative rejected",
	     gc_parse_range("-1:10", &s, &l) != 0);
	CASE("range: junk rejected",
	     gc_parse_range("10:20x", &s, &l) != 0);
	CASE("range: wrap rejected",
	     gc_parse_range("18446744073709551615:2", &s, &l) != 0);
	CASE("uint: ok", !gc_parse_uint("42", &v) && v == 42);
	CASE("uint: sign rejected", gc_parse_uint("+42", &v) != 0);
	CASE("uint: overflow rejected",
	     gc_parse_uint("99999999999999999999999", &v) != 0);
	CASE("onoff: on", !gc_parse_onoff("on", &on) && on);
	CASE("onoff: off", !gc_parse_onoff("off", &on) && !on);
	CASE("onoff: bad rejected", gc_parse_onoff("maybe", &on) != 0);
}

static void test_meminfo(void)
{
	static const char mi_text[] =
		"MemTotal:        2030000 kB\n"
		"MemFree:         1000000 kB\n"
		"Dirty:              1234 kB\n"
		"Writeback:            56 kB\n"
		"WritebackTmp:         99 kB\n"
		"AnonPages:          1000 kB\n";
	struct gc_meminfo mi;

	memset(&mi, 0, sizeof(mi));
	CASE("meminfo: parses",
	     !gc_parse_meminfo(mi_text, &mi) && mi.mem_total_kb == 2030000 &&
	     mi.dirty_kb == 1234 && mi.writeback_kb == 56);
	CASE("meminfo: WritebackTmp not taken for Writeback",
	     mi.writeback_kb == 56);
	CASE("meminfo: missing Dirty rejected",
	     gc_parse_meminfo("MemTotal: 1 kB\nWriteback: 0 kB\n", &mi) != 0);
	CASE("meminfo: empty rejected", gc_parse_meminfo("", &mi) != 0);
	CASE("meminfo: garbage value rejected",
	     gc_parse_meminfo("MemTotal: x kB\nDirty: 1 kB\nWriteback: 0 kB\n",
			      &mi) != 0);
}

static void test_mountinfo(void)
{
	struct gc_mount m;

	CASE("mountinfo: f2fs line",
	     !gc_parse_mountinfo_line("36 25 254:16 / /mnt/data rw,relatime shared:1 - f2fs /dev/vdb rw,lazytime\n",
				      &m) &&
	     m.major == 254 && m.minor == 16 &&
	     !strcmp(m.mnt_point, "/mnt/data") && !strcmp(m.fstype, "f2fs") &&
	     !strcmp(m.source, "/dev/vdb"));
	CASE("mountinfo: no optional fields",
	     !gc_parse_mountinfo_line("40 1 253:0 / /mnt/p rw - f2fs_packed /dev/mapper/x rw",
				      &m) &&
	     !strcmp(m.fstype, "f2fs_packed") && m.major == 253 &&
	     !strcmp(m.source, "/dev/mapper/x"));
	CASE("mountinfo: several optional fields",
	     !gc_parse_mountinfo_line("1 2 8:1 / /a rw shared:5 master:2 - ext4 /dev/sda1 rw",
				      &m) &&
	     !strcmp(m.fstype, "ext4") && m.minor == 1);
	CASE("mountinfo: escaped space in mount point",
	     !gc_parse_mountinfo_line("1 2 8:1 / /mnt/my\\040disk rw - f2fs /dev/sda1 rw",
				      &m) &&
	     !strcmp(m.mnt_point, "/mnt/my disk"));
	CASE("mountinfo: truncated line rejected",
	     gc_parse_mountinfo_line("1 2 8:1 / /a rw shared:5", &m) != 0);
	CASE("mountinfo: bad dev rejected",
	     gc_parse_mountinfo_line("1 2 x / /a rw - f2fs /dev/x rw", &m) != 0);
	CASE("covers: exact", gc_mount_covers("/mnt/a", "/mnt/a") == 6);
	CASE("covers: below", gc_mount_covers("/mnt/a", "/mnt/a/b") == 6);
	CASE("covers: prefix is not a parent",
	     gc_mount_covers("/mnt/a", "/mnt/ab") == -1);
	CASE("covers: root", gc_mount_covers("/", "/mnt/a") == 1);
	CASE("fstype: f2fs", gc_fstype_supported("f2fs"));
	CASE("fstype: f2fs_packed", gc_fstype_supported("f2fs_packed"));
	CASE("fstype: ext4 refused", !gc_fstype_supported("ext4"));
	CASE("fstype: tmpfs refused", !gc_fstype_supported("tmpfs"));
}

static void test_counters(void)
{
	unsigned long long v;

	CASE("counter: with newline", !gc_parse_counter("123\n", &v) && v == 123);
	CASE("counter: zero", !gc_parse_counter("0", &v) && v == 0);
	CASE("counter: spaces", !gc_parse_counter("  7\t\n", &v) && v == 7);
	CASE("counter: empty rejected", gc_parse_counter("", &v) != 0);
	CASE("counter: negative rejected", gc_parse_counter("-1\n", &v) != 0);
	CASE("counter: junk rejected", gc_parse_counter("12 34\n", &v) != 0);
	CASE("basename: sysfs link",
	     !strcmp(gc_basename("../../devices/pci0000:00/virtio2/block/vdb"),
		     "vdb"));
	CASE("basename: no slash", !strcmp(gc_basename("dm-0"), "dm-0"));
}

static void put32(unsigned char *b, size_t off, unsigned int v)
{
	b[off] = v & 0xff;
	b[off + 1] = (v >> 8) & 0xff;
	b[off + 2] = (v >> 16) & 0xff;
	b[off + 3] = (v >> 24) & 0xff;
}

static void test_sb(void)
{
	unsigned char sb[GC_SB_MIN_LEN];
	struct gc_sb_geom g;

	memset(sb, 0, sizeof(sb));
	put32(sb, 0, GC_SB_MAGIC);
	put32(sb, 16, 12);		/* log_blocksize */
	put32(sb, 20, 9);		/* log_blocks_per_seg */
	put32(sb, 24, 2);		/* segs_per_sec */
	put32(sb, 44, 100);		/* section_count */
	put32(sb, 68, 200);		/* segment_count_main */
	put32(sb, 92, 5632);		/* main_blkaddr */
	CASE("sb: parses",
	     !gc_parse_sb(sb, sizeof(sb), &g) && g.log_blocksize == 12 &&
	     g.segs_per_sec == 2 && g.section_count == 100 &&
	     g.segment_count_main == 200 && g.main_blkaddr == 5632);
	CASE("sb: short buffer rejected", gc_parse_sb(sb, 40, &g) != 0);
	put32(sb, 24, 0);
	CASE("sb: zero segs_per_sec rejected",
	     gc_parse_sb(sb, sizeof(sb), &g) != 0);
	put32(sb, 24, 2);
	put32(sb, 0, 0xEF53);
	CASE("sb: bad magic rejected", gc_parse_sb(sb, sizeof(sb), &g) != 0);
}

static void test_status(void)
{
	static const char st_text[] =
		"\n=====[ partition info(vda). #0, RW, CP: Good]=====\n"
		"Main area: 200 segs, 200 secs 200 zones\n"
		"\n  - Valid: 10\n  - Dirty: 3\n"
		"  - Prefree: 0\n  - Free: 187 (187)\n\n"
		"\n=====[ partition info(vdb). #1, RW, CP: Good]=====\n"
		"Main area: 400 segs, 100 secs 100 zones\n"
		"\n  - Valid: 100\n  - Dirty: 150\n"
		"  - Prefree: 2\n  - Free: 148 (30)\n\n";
	struct gc_status st;

	CASE("status: second partition",
	     !gc_parse_status(st_text, "vdb", &st) && st.main_segs == 400 &&
	     st.main_secs == 100 && st.dirty_segs == 150 &&
	     st.free_segs == 148 && st.free_secs == 30);
	CASE("status: first partition",
	     !gc_parse_status(st_text, "vda", &st) && st.free_secs == 187 &&
	     st.dirty_segs == 3);
	CASE("status: unknown device",
	     gc_parse_status(st_text, "vdc", &st) != 0 && st.free_secs == -1);
	CASE("status: device name prefix does not match",
	     gc_parse_status(st_text, "vd", &st) != 0);
}

static void test_format(void)
{
	char buf[32];

	CASE("format: bytes",
	     !strcmp(gc_format_bytes(buf, sizeof(buf), 512), "512 B"));
	CASE("format: MiB",
	     !strcmp(gc_format_bytes(buf, sizeof(buf), 3ULL << 20),
		     "3.0 MiB"));
	CASE("format: GiB",
	     !strcmp(gc_format_bytes(buf, sizeof(buf), 3ULL << 29),
		     "1.5 GiB"));
	CASE("format: seconds",
	     !strcmp(gc_format_secs(buf, sizeof(buf), 42), "42s"));
	CASE("format: minutes",
	     !strcmp(gc_format_secs(buf, sizeof(buf), 185), "3m05s"));
	CASE("format: hours",
	     !strcmp(gc_format_secs(buf, sizeof(buf), 3723), "1h02m03s"));
}

int main(void)
{
	test_size();
	test_duration();
	test_target();
	test_range_uint_onoff();
	test_meminfo();
	test_mountinfo();
	test_counters();
	test_sb();
	test_status();
	test_format();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
