# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Workload 3: natural foreground GC. A small volume (mkfs.f2fs -s 4, 8 MiB
# sections) filled to 90% of its user capacity with 16 files written
# round-robin in 256 KiB O_DIRECT chunks: the even ones cold (never
# written again), the odd ones hot. Mounted with background_gc=sync and
# mode=lfs (in the default adaptive mode f2fs would fill the holes by SSR
# instead of collecting), the hot files are rewritten in full, one after
# the other, a fixed number of times; the space they free lies interleaved
# with cold data and with not yet rewritten hot data, so
# f2fs_balance_fs() and the GC thread run foreground GC, which moves both.
# Measured: the cold files' extents before and after, blocks moved, the
# time the rewrites take, and every rewrite write's completion latency
# (fio's clat, each I/O logged: what the writers feel of the foreground
# GC they run or wait for). QUICK=1: 3 rewrites instead of 10.
# bench/guest/latency.sh runs this workload with other variants
# (W3_NAME, W3_VARIANTS: it sources this script).
# size: 256 256
. "$REPO/bench/guest/lib.sh"

W_NAME=${W3_NAME:-w3-natural-fggc}

W_MKFS="-s 4"
W_FILES=16
W_CHUNK=256
W_FILL=90
W_ITER=$(quick 10 3)
W_MOUNT=background_gc=sync,mode=lfs
W_VARIANTS=${W3_VARIANTS:-"stock off found offset"}
W_GC_DESC="natural: foreground GC from f2fs_balance_fs() and the GC thread (background_gc=sync)"
W_COUNT='^f\.0\.[0-9]*[02468]$'
W_VERIFY='\./f\.0\.[0-9]*[02468]$'
W_TITLE="natural FG_GC (mkfs $W_MKFS, $(volume_mib) MiB, ${W_FILL}% full), $W_FILES files (8 cold, 8 hot), hot rewritten $W_ITER times"
W_PARAMS="$W_FILES files filling ${W_FILL}% of the user capacity, round-robin ${W_CHUNK} KiB O_DIRECT; odd files hot, rewritten in full one after the other $W_ITER times (background_gc=sync, mode=lfs)"

w_write() {
	local size kib
	# f2fs's statfs: size is the whole volume, avail what users may fill
	size=$(df -B1 --output=avail "$MNT" | tail -1)
	# per file, a whole number of chunks
	kib=$((size * W_FILL / 100 / W_FILES / 1024 / W_CHUNK * W_CHUNK))
	echo "file_kib $kib" >> "$OUT/golden.txt"
	fio_interleave "$1" $W_FILES $kib ${W_CHUNK}k
}

w_delete() {
	:
}

# w_run D SYSDIR: the hot rewrites, instead of the GC ioctl.
w_run() {
	local d=$1 i t hot n size pid cpu0 t0 writer=0
	hot=$(cd "$MNT/$W_DIR" && ls | sort -V | awk -F. '$3 % 2 == 1' | paste -sd:)
	n=$(echo "$hot" | tr : '\n' | wc -l)
	size=$(stat -c %s "$MNT/$W_DIR/f.0.1")
	pid=$(gc_kthread)
	cpu0=$(cpu_seconds "$pid")
	TIMEFORMAT='%R %U %S'
	t0=$(now)
	for i in $(seq 1 "$W_ITER"); do
		# every write's latency in rewrite.I_clat.1.log (ns), fio's
		# own percentiles of the iteration in rewrite.I.json
		t=$({ time DIR=$MNT/$W_DIR FILES=$hot FILESIZE=$size \
			SIZE=$((n * size)) BS=${W_CHUNK}k \
			fio --eta=never --output-format=json --output="$d/rewrite.$i.json" \
			--percentile_list=50:99:99.9 --write_lat_log="$d/rewrite.$i" \
			--log_avg_msec=0 "$BENCH/hot-rewrite.fio" 2>/dev/null; } 2>&1) || :
		echo "iteration $i $t" >> "$d/run.txt"
		writer=$(echo "$writer $t" | awk '{ printf "%.2f", $1 + $3 + $4 }')
		progress "$(basename "$d"): hot rewrite $i/$W_ITER: ${t%% *} s"
	done
	{
		echo "rewrite_seconds $(elapsed_since "$t0")"
		echo "rewrite_iterations $W_ITER"
		echo "rewrite_bytes_per_iteration $((n * size))"
		echo "writer_cpu_seconds $writer"
		echo "gc_cpu_seconds $(awk -v a="$cpu0" -v b="$(cpu_seconds "$pid")" 'BEGIN { printf "%.2f", b - a }')"
		echo "gc_cpu_source kthread"
	} >> "$d/run.txt"
}

bench_main
