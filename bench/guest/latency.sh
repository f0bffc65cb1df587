# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What writers feel: workload 3 (bench/guest/w3-natural-fggc.sh, natural
# foreground GC from f2fs_balance_fs() and the GC thread, background_gc=sync,
# mode=lfs) with the three ways f2fs_packed's foreground GC can run, side
# by side on the same golden volume: packing off, packing per section
# (gc_pack_sections=1, the default) and batched (gc_pack_sections=
# PACK_SECTIONS, default 64). The figures are the hot rewrites' write
# completion latencies (fio clat p50 / p99 / p99.9 over every write of
# every rewrite), each f2fs_gc() call's duration by caller (trace), and
# the structural counters (blocks moved, GC calls, cold extents) that say
# the variants did comparable work. Opt-in, like cost: not among
# bench/run's default workloads (bench/guest/w*.sh). QUICK=1: 3 rewrites
# instead of 10.
# size: 256 256
W3_NAME="latency"
W3_VARIANTS="off offset sections"
. "$REPO/bench/guest/w3-natural-fggc.sh"
