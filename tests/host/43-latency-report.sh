#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/report.py's writer-latency figures (bench/run latency, and w3) on
# synthetic raw data whose answers are known: clat p50 / p99 / p99.9 /
# max pooled over every rewrite's fio clat log (ns, nearest rank), each
# f2fs_gc() call's begin -> end duration by caller (fio: a writer; the
# GC thread, whose 15-character comm ends in "-"), the table in
# results.md and on standard output, and the ratio line of the batched
# variant against the other two. No VM: a few seconds.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib/host.sh

out=${TEST_OUT:-$top/tests/out/43-latency-report}
rm -rf "$out"
w=$out/raw/latency
mkdir -p "$w"
echo "quick 0" > "$out/raw/host.txt"
cat > "$w/params.json" <<'JSON'
{ "workload": "latency", "title": "t", "volume_mib": 256,
  "mkfs_options": "-s 4", "mount_options": "background_gc=sync,mode=lfs",
  "workload_parameters": "p", "count_files": "^f\\.0\\.[0-9]*[02468]$",
  "gc": "natural", "golden_copy": true, "zoned": false, "kernel": "k",
  "segs_per_sec": 4, "main_blkaddr": 4096, "blocks_per_seg": 512 }
JSON
echo "file_kib 8" > "$w/golden.txt"

# variant NAME SCALE: 2 rewrites of 500 writes each, the latencies
# SCALE x 1..1000 us (so p50 = 500, p99 = 990, p99.9 = 999, max = 1000
# x SCALE us); two writer GC calls of 10 and 30 ms, one GC thread call
# of 5 ms that freed nothing.
variant() {
	local d=$w/$1 s=$2 f
	mkdir -p "$d"
	printf 'variant %s\nrewrite_seconds 10\nrewrite_iterations 2\nrewrite_bytes_per_iteration 8192\n' \
		"$1" > "$d/run.txt"
	for f in before after; do
		printf 'File size of ./f.0.0 is 8192 (2 blocks of 4096 bytes)\n   0:        0..       1:       5000..      5001:      2:             last,eof\n./f.0.0: 1 extent found\n' \
			> "$d/$f.frag"
	done
	printf 'gc_foreground_calls 0\nmoved_blocks_foreground 0\nmoved_blocks_background 0\n' > "$d/sysfs.before"
	printf 'gc_foreground_calls 3\nmoved_blocks_foreground 7\nmoved_blocks_background 0\n' > "$d/sysfs.after"
	awk -v s="$s" 'BEGIN { for (i = 1; i <= 500; i++) printf "%d, %d, 1, 262144, 0\n", i, i * s * 1000 }' \
		> "$d/rewrite.1_clat.1.log"
	awk -v s="$s" 'BEGIN { for (i = 501; i <= 1000; i++) printf "%d, %d, 1, 262144, 0\n", i, i * s * 1000 }' \
		> "$d/rewrite.2_clat.1.log"
	# the latency logs' companions are not clat: left out
	echo "1, 999999999999, 1, 262144, 0" > "$d/rewrite.1_lat.1.log"
	cat > "$d/trace.txt.calls" <<'TRACE'
             fio-345     [001] .....   100.000000: f2fs_gc_begin: dev = (254,16), gc_type = Foreground GC
             fio-345     [001] .....   100.010000: f2fs_gc_end: dev = (254,16), ret = 0, seg_freed = 4, sec_freed = 1, nodes = 0
 f2fs_packed_gc--300     [000] .....   100.020000: f2fs_gc_begin: dev = (254,16), gc_type = Foreground GC
 f2fs_packed_gc--300     [000] .....   100.025000: f2fs_gc_end: dev = (254,16), ret = -61, seg_freed = 0, sec_freed = 0, nodes = 0
             fio-345     [001] .....   100.100000: f2fs_gc_begin: dev = (254,16), gc_type = Foreground GC
             fio-345     [001] .....   100.130000: f2fs_gc_end: dev = (254,16), ret = 0, seg_freed = 8, sec_freed = 2, nodes = 0
TRACE
	grep -o 'f2fs_gc_end: .*' "$d/trace.txt.calls" > "$d/trace.txt"
}
variant off 1
variant offset 1
variant sections 2

rc=0
/usr/bin/python3 bench/report.py "$out" > "$out/report.out" 2>&1 || rc=$?
sed 's/^/# /' "$out/report.out"
must "bench/report.py succeeds" test $rc -eq 0

jcheck() {	# DESCRIPTION EXPRESSION over v = the variants
	check "$1" /usr/bin/python3 -c "
import json, sys
v = json.load(open('$out/results.json'))['workloads']['latency']['variants']
sys.exit(0 if ($2) else 1)"
}
jcheck "clat pooled over both rewrites, nearest rank (ms)" \
	"v['off']['writer_latency'] == dict(v['off']['writer_latency'], writes=1000, p50=0.5, p99=0.99, max=1.0) and v['off']['writer_latency']['p99.9'] == 0.999"
jcheck "the batched variant's figures, twice as long" \
	"v['sections']['writer_latency']['p99.9'] == 1.998"
jcheck "GC calls by caller: the writer's two, 10 and 30 ms, both freeing" \
	"v['off']['gc_call_ms']['writer'] == dict(calls=2, calls_freeing=2, p50=10.0, p99=30.0, max=30.0, total=40.0)"
jcheck "the GC thread's one call apart, 5 ms, freeing nothing" \
	"v['off']['gc_call_ms']['gc thread']['calls'] == 1 and v['off']['gc_call_ms']['gc thread']['calls_freeing'] == 0 and v['off']['gc_call_ms']['gc thread']['max'] == 5.0"
check "results.md: the writer-latency table" \
	grep -q '^| variant | writes | clat p50 | p99 | p99.9 | max |' "$out/results.md"
check "results.md: the sections row" \
	grep -q '^| sections | 1000 | 1 | 1.98 | 1.998 | 2 | 2 (2): 10 / 30 / 30 | 1 (0): 5 / 5 / 5 | 3 | 7 |' "$out/results.md"
check "the table on standard output too" \
	grep -q '^| offset | 1000 | 0.5 | 0.99 | 0.999 | 1 |' "$out/report.out"
check "batched against per section: p99.9 x2" \
	grep -q '^- sections vs offset: clat p50 x2, p99 x2, p99.9 x2$' "$out/results.md"
finish
