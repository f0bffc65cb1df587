#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/report.py's cost figures (bench/run cost) on synthetic raw data
# whose answers are known: instructions per moved block as the sum of the
# f2fs_gc_begin -> f2fs_gc_end intervals over the blocks moved, the
# spread of two runs, packed / legacy, nearest-rank latency percentiles
# over the calls that returned 0 (the idle calls left out), the scaling
# table and plot; and that a spread above 5% is called out, so a broken
# method shows in the report; the definitions come from bench/RESULTS.md.
# No VM: a few seconds.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib/host.sh

out=${TEST_OUT:-$top/tests/out/42-cost-report}
rm -rf "$out"
mkdir -p "$out/raw/cost"
c=$out/raw/cost

# run DIR MOVED CPU_NS INTERVAL...: one run; an interval N is a call
# returning 0, N:idle one returning -61 (ENODATA).
run() {
	local d=$1 moved=$2 cpu=$3 ts=1000 i iv ret
	shift 3
	mkdir -p "$d"
	printf 'variant %s\nrep %s\n' "$(basename "$d" | cut -d. -f1)" \
		"$(basename "$d" | cut -d. -f2)" > "$d/run.txt"
	printf 'moved_blocks_foreground 100\nmoved_blocks_background 0\nmain_blkaddr 4096\n' \
		> "$d/sysfs.before"
	printf 'moved_blocks_foreground %s\nmoved_blocks_background 0\nmain_blkaddr 4096\n' \
		$((100 + moved)) > "$d/sysfs.after"
	printf '{\n  "calls": %s,\n  "cpu_ns": %s\n}\n' $# "$cpu" > "$d/gc.json"
	: > "$d/trace.txt"
	for i in "$@"; do
		iv=${i%%:*}
		ret=0
		[ "$iv" = "$i" ] || ret=-61
		echo "$ts f2fs_gc_begin dev = (253,0), gc_type = Foreground GC" >> "$d/trace.txt"
		ts=$((ts + iv))
		echo "$ts f2fs_gc_end dev = (253,0), ret = $ret, seg_freed = 4, sec_freed = $((ret == 0)), nodes = 0" >> "$d/trace.txt"
		ts=$((ts + 500))
	done
}

echo "accel tcg-icount" > "$c/cost.txt"
for w in w1-large-4k scale-s4; do
	mkdir -p "$c/$w"
	cat > "$c/$w/params.json" <<EOF
{ "case": "$w", "mkfs_options": "-s 4", "volume_mib": 256, "files": 64,
  "file_kib": 256, "writes": "direct", "zoned": "", "segs_per_sec": 4,
  "blocks_per_seg": 512, "reps": 2, "variants": "off offset" }
EOF
done
# legacy: 2000 blocks, calls of 30M + 10M + idle; 40M + 2 k idle: 20001 per block
run "$c/w1-large-4k/off.1" 2000 39000000 30000000 10000000 1000:idle 1000:idle
run "$c/w1-large-4k/off.2" 2000 39000000 30000000 10000000 1000:idle 1000:idle
# packed: 21000 and 21420 per block (spread 2%), p99 = max = 32.1M
run "$c/w1-large-4k/offset.1" 2000 41000000 31000000 11000000
run "$c/w1-large-4k/offset.2" 2000 41000000 32100000 10740000
# the scaling case: one run each (no spread)
run "$c/scale-s4/off.1" 1000 1 5000000 5000000 6000000
run "$c/scale-s4/offset.1" 1000 1 8000000 8000000 8000000

rc=0
/usr/bin/python3 bench/report.py "$out" > "$out/report.log" 2>&1 || rc=$?
sed 's/^/# /' "$out/report.log"
must "bench/report.py takes a cost-only results directory" test $rc -eq 0

json_check() {
	check "$1" /usr/bin/python3 -c "
import json, sys
r = json.load(open('$out/results.json'))
w = r['cost']['cases']['w1-large-4k']
off, on = w['variants']['off'], w['variants']['offset']
s = r['cost']['cases']['scale-s4']['variants']
sys.exit(0 if ($2) else 1)"
}
json_check "instructions per moved block: all intervals / blocks moved" \
	"off['instructions_per_block'] == [20001.0, 20001.0] and on['instructions_per_block'] == [21000.0, 21420.0]"
json_check "the spread of the two runs: (max - min) / mean" \
	"off['instructions_per_block_spread'] == 0 and abs(on['instructions_per_block_spread'] - 420 / 21210) < 1e-4"
json_check "packed / legacy per moved block, of the means" \
	"w['comparisons']['offset_vs_legacy']['instructions_per_block_ratio'] == round(21210 / 20001, 3)"
json_check "latency over the calls that returned 0: p50, p99, max (nearest rank)" \
	"off['latency_p50'] == [10000000, 10000000] and off['latency_p99'] == [30000000, 30000000] and on['latency_max'] == [31000000, 32100000]"
json_check "GC calls counted with the idle ones apart" \
	"off['gc_calls'] == 4 and off['gc_calls_ok'] == 2"
json_check "process instructions per block from f2fs-gc's cpu_ns" \
	"off['process_instructions_per_block'] == [19500.0, 19500.0]"
json_check "scaling case: p50 of three calls is the middle one" \
	"s['off']['latency_p50'] == [5000000] and s['offset']['latency_p99'] == [8000000]"
check "results.md: the cost table" grep -q '^| case | variant | blocks moved |' "$out/results.md"
check "results.md: the scaling table" grep -q '^| section MiB |' "$out/results.md"
check "results.md: packed's 2% spread not called out" \
	bash -c "! grep -q 'spread above 5%' '$out/results.md'"
check "plot cost-scaling.png written" test -s "$out/cost-scaling.png"

# The metric definitions have one copy, bench/RESULTS.md's "Definitions",
# which the report copies: not restated in report.py or bench/README.md.
defs_json() {
	/usr/bin/python3 -c "
import json, sys
d = json.load(open('$out/results.json'))['definitions']
sys.exit(0 if all(k in d for k in ('per-section ideal', 'global ideal',
	'efficiency', 'blocks moved', 'instructions per moved block',
	'latency', 'spread')) and 'fewest extents' in d['per-section ideal'] else 1)"
}
check "results.json: the definitions of bench/RESULTS.md" defs_json
check "results.md: the definitions listed" \
	grep -q '^- \*\*per-section ideal\*\*: the fewest extents' "$out/results.md"
for f in bench/report.py bench/README.md README.md; do
	check "$f does not restate a definition (bench/RESULTS.md holds them)" \
		sh -c "! grep -qi 'fewest extents any placement' $f"
done

# COST_SCHED=1's attribution: the instructions inside a call per task.
cat > "$out/sched.txt" <<'EOF'
900 sched_switch prev_comm=bash prev_pid=9 prev_prio=120 prev_state=S ==> next_comm=f2fs-gc next_pid=150 next_prio=120
1000 f2fs_gc_begin dev = (253,0), gc_type = Foreground GC
1100 sched_switch prev_comm=f2fs-gc prev_pid=150 prev_prio=120 prev_state=D ==> next_comm=kworker/0:1H next_pid=20 next_prio=100
1400 sched_switch prev_comm=kworker/0:1H prev_pid=20 prev_prio=100 prev_state=I ==> next_comm=f2fs-gc next_pid=150 next_prio=120
2000 f2fs_gc_end dev = (253,0), ret = 0, seg_freed = 4, sec_freed = 1, nodes = 0
EOF
check "tasks inside the calls: the caller's and another task's instructions" \
	/usr/bin/python3 -c "
import importlib.util, sys
spec = importlib.util.spec_from_file_location('report', 'bench/report.py')
r = importlib.util.module_from_spec(spec)
spec.loader.exec_module(r)
t = r.tasks_in_calls('$out/sched.txt')
sys.exit(0 if t == {'caller': 700, 'kworker/0:1H': 300} else 1)"

# A run that does not repeat: the report says so.
run "$c/w1-large-4k/offset.2" 2000 41000000 36000000 12000000
/usr/bin/python3 bench/report.py "$out" > /dev/null 2>&1 || :
check "a spread above 5% is called out in results.md" \
	grep -q 'spread above 5%' "$out/results.md"
finish
