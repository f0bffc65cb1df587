#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# QUICK=1 bench/run w1-large-4k w5-zoned-large (workloads 1 and 5, the
# zoned one, at small scale, a VM boot each; workload 2 is QUICK's third,
# left to bench runs, to keep the suite within CI's hour; the read-back
# disk unthrottled, as the checks want its figures, not their size):
# it finishes, prints a progress line per step, and writes a report of
# the promised shape: results.json with every figure for every variant,
# results.md with its tables, the PNG plots. And packing beats legacy on
# workload 1: fewer extents after GC with packing on (both orders) than
# with packing off or stock f2fs, close to the per-section ideal, with no
# more blocks moved; the same on a zoned device; data intact and fsck
# clean everywhere.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib/host.sh

out=${TEST_OUT:-$top/tests/out/40-bench-quick}
res=$out/results
rm -rf "$res"
mkdir -p "$out"

must "f2fs_packed.ko and f2fs-gc are built (make all)" \
	test -f "build/$KVER/f2fs_packed.ko" -a -x tools/f2fs-gc/f2fs-gc
start=$(date +%s)
rc=0
QUICK=1 IOPS=1000000 RESULTS=$res bench/run w1-large-4k w5-zoned-large > "$out/bench.log" 2>&1 || rc=$?
secs=$(($(date +%s) - start))
sed 's/^/# /' "$out/bench.log"
must "QUICK=1 bench/run succeeds (status $rc, ${secs}s)" test $rc -eq 0
check "a progress line per step (fresh volume, GC, read-back per variant)" \
	test "$(grep -cE '\] \[[0-9]/[0-9]\] w[0-9a-z-]+: [a-z]+: (fresh volume|sync GC|gc_urgent|read-back)' "$out/bench.log")" -ge 20

must "results.json exists" test -s "$res/results.json"
check "results.md exists" test -s "$res/results.md"

# json_check DESCRIPTION PYTHON-EXPRESSION: over r = results.json.
json_check() {
	check "$1" /usr/bin/python3 -c "
import json, sys
r = json.load(open('$res/results.json'))
w = r['workloads']
w1 = w.get('w1-large-4k', {}).get('variants', {})
w5 = w.get('w5-zoned-large', {}).get('variants', {})
ok = bool($2)
sys.exit(0 if ok else 1)"
}

json_check "results.json: top-level keys" \
	"all(k in r for k in ('format', 'host', 'workloads', 'seed', 'definitions', 'plots'))"
json_check "results.json: workloads 1 and 5" \
	"'w1-large-4k' in w and 'w5-zoned-large' in w"
json_check "results.json: kernel, module version and parameters recorded" \
	"all(w[n]['params'].get(k) not in (None, '') for n in w for k in ('kernel', 'f2fs_packed_version', 'f2fs_packed_srcversion', 'mkfs_options', 'workload_parameters', 'segs_per_sec', 'main_blkaddr', 'volume_mib'))"
json_check "results.json: every variant ran (stock, off, found, offset, urgent)" \
	"all(set(w[n]['variants']) >= {'stock', 'off', 'found', 'offset', 'urgent'} for n in w)"
keys="'extents_before', 'extents_after', 'ideal_per_section', 'ideal_global',
	'efficiency_per_section', 'efficiency_global', 'blocks_moved', 'gc_calls_fg',
	'checkpoints', 'peak_queued', 'gc_cpu_seconds', 'gc_wall_seconds', 'sec_freed',
	'seg_freed', 'free_sections_change', 'skipped_gc_rwsem', 'data_intact', 'fsck_clean',
	'readback'"
json_check "results.json: every figure present for every variant" \
	"all(k in v for n in w for v in w[n]['variants'].values() for k in ($keys))"
json_check "results.json: read-back I/Os, request size and throughput measured" \
	"all(v['readback'].get('read_ios', 0) > 0 and v['readback'].get('avg_request_kib') and v['readback'].get('throughput_mb_s', 0) > 0 for n in w for v in w[n]['variants'].values())"
json_check "results.json: GC moved blocks in every variant" \
	"all((v['blocks_moved'] or 0) > 0 for n in w for v in w[n]['variants'].values())"
json_check "results.json: the same starting layout for every variant (golden copy)" \
	"all(w[n]['before_identical'] for n in w if w[n]['params']['golden_copy'])"
json_check "results.json: data intact after GC everywhere" \
	"all(v['data_intact'] for n in w for v in w[n]['variants'].values())"
json_check "results.json: fsck.f2fs clean after every variant" \
	"all(v['fsck_clean'] for n in w for v in w[n]['variants'].values())"
json_check "results.json: packing counters on the packed variants" \
	"all(w[n]['variants'][p]['peak_queued'] for n in w for p in ('found', 'offset'))"

json_check "workload 1 is interleaved (extents before >= 1000)" \
	"w1['off']['extents_before'] >= 1000"
json_check "workload 1: packing off keeps the extents (>= 90%)" \
	"w1['off']['extents_after'] * 10 >= w1['off']['extents_before'] * 9"
json_check "workload 1: packing off matches stock" \
	"w['w1-large-4k']['comparisons']['off_matches_stock']"
json_check "workload 1: packed < legacy in extents after GC (offset order)" \
	"w1['offset']['extents_after'] < w1['off']['extents_after'] and w1['offset']['extents_after'] < w1['stock']['extents_after']"
json_check "workload 1: packed < legacy in extents after GC (found order)" \
	"w1['found']['extents_after'] < w1['off']['extents_after']"
json_check "workload 1: offset order reaches >= 95% of the per-section ideal's reduction" \
	"(w1['offset']['efficiency_per_section'] or 0) >= 0.95"
json_check "workload 1: packing moves no more blocks than legacy" \
	"w1['offset']['blocks_moved'] <= w1['off']['blocks_moved']"

json_check "workload 5 ran on a zoned device, one section per zone" \
	"w['w5-zoned-large']['params']['zoned'] and w['w5-zoned-large']['params']['segs_per_sec'] > 1"
json_check "workload 5 is interleaved (extents before >= 1000)" \
	"w5['off']['extents_before'] >= 1000"
json_check "workload 5: packing off keeps the extents (>= 90%)" \
	"w5['off']['extents_after'] * 10 >= w5['off']['extents_before'] * 9"
json_check "workload 5: offset order reaches >= 95% of the per-section ideal's reduction" \
	"(w5['offset']['efficiency_per_section'] or 0) >= 0.95"
json_check "workload 5: packing moves no more blocks than legacy" \
	"w5['offset']['blocks_moved'] <= w5['off']['blocks_moved']"

check "results.md: a table per workload (w1, w5)" \
	test "$(grep -c '^| variant | extents before | after |' "$res/results.md")" -eq 2
for v in stock off found offset urgent; do
	check "results.md: a row for $v" grep -q "^| $v | " "$res/results.md"
done
check "results.md: the seed comparison" grep -q '^## Against the seed' "$res/results.md"
check "results.md: the ideals defined" grep -q 'per-section ideal\*\*' "$res/results.md"

is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}
for p in extents.png readback.png layout-w1-large-4k.png; do
	check "plot $p is a PNG" is_png "$res/$p"
done
finish
