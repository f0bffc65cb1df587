#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the raw figures of bench/run (or bench/run-device) into
results.json, results.md and PNG plots.

usage: bench/report.py RESULTS_DIR

RESULTS_DIR/raw/<workload>/ holds what bench/guest/lib.sh wrote:
params.json, golden.txt and one directory per variant with filefrag -v
maps before and after GC, sysfs and debugfs snapshots, f2fs_gc_end trace
lines, the GC tool's JSON summary, fio's read-back JSON and the read-back
disk's /sys/block/<dev>/stat before and after.

Extents are counted from the filefrag -v maps as maximal runs of blocks
that are contiguous both in the file and on disk, so that the achieved
figure and the two ideals are counted the same way (filefrag's own count
is kept beside it). What each figure means (the ideals, efficiency, ...)
is defined once, in bench/RESULTS.md, "Definitions", which the report
copies into results.json and results.md.
"""
import json
import os
import re
import sys
from collections import Counter

VARIANT_LABEL = {
    'stock': 'stock f2fs (control)',
    'off': 'f2fs_packed, packing off',
    'found': 'packing on, found order',
    'offset': 'packing on, offset order',
    'sections': 'packing on, offset order, gc_pack_sections per call',
    'urgent': 'stock gc_urgent BG GC (reference)',
    'fixedcap': 'packing on, offset order, gc_pack_max_blocks=16384 (the former fixed default)',
}
VARIANT_ORDER = ['stock', 'off', 'found', 'offset', 'sections', 'fixedcap', 'urgent']

# The seed's figures (patch v2 cover letter, stock 6.1 measurements in
# issue 4), for the comparison table.
SEED = {
    'w1-large-4k': {'legacy': [65536, 65536], 'packed': [65536, 49170]},
    'w2-default-4k': {'legacy': [8192, 8192], 'packed': [8192, 7690]},
    'w3-natural-fggc': {'legacy': [350, 357], 'packed': [350, 132],
                        'move_blks': {'legacy': 42344, 'packed': 34822},
                        'rewrite_gain': '+45% hot rewrite iterations in a fixed window'},
    'w4-seg-freed': {'seg_freed': 152, 'sec_freed': 38, 'successes': 24},
}

EXT_RE = re.compile(r'^\s*\d+:\s*(\d+)\.\.\s*(\d+):\s*(\d+)\.\.\s*(\d+):\s*(\d+):')
FILE_RE = re.compile(r'^File size of (.+) is (\d+) \((\d+) blocks? of (\d+) bytes\)')
FOUND_RE = re.compile(r'^(.+): (\d+) extents? found')


def read_kv(path):
    """'key value...' lines -> dict (value as string; repeated keys: last)."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.rstrip('\n').split(' ', 1)
                if len(parts) == 2:
                    out[parts[0]] = parts[1]
    except FileNotFoundError:
        pass
    return out


def read_lines_kv(path, key):
    """All values of repeated 'key ...' lines."""
    vals = []
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key + ' '):
                    vals.append(line.rstrip('\n').split(' ')[1:])
    except FileNotFoundError:
        pass
    return vals


def num(s):
    if s is None:
        return None
    try:
        return int(s)
    except ValueError:
        try:
            return float(s)
        except ValueError:
            return None


def read_json(path):
    """JSON from a file that may start with other output (fio's opendir)."""
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        return None
    i = text.find('{')
    if i < 0:
        return None
    try:
        return json.loads(text[i:])
    except ValueError:
        return None


def parse_frag(path):
    """filefrag -v output -> {name: [phys or None per logical block]},
    {name: filefrag's extent count}."""
    files, found = {}, {}
    cur = None
    try:
        f = open(path)
    except FileNotFoundError:
        return None, None
    with f:
        for line in f:
            m = FILE_RE.match(line)
            if m:
                cur = os.path.basename(m.group(1))
                nblk = int(m.group(3))
                files[cur] = [None] * nblk
                continue
            m = EXT_RE.match(line)
            if m and cur is not None:
                lo, hi, p0 = int(m.group(1)), int(m.group(2)), int(m.group(3))
                blocks = files[cur]
                if hi >= len(blocks):
                    blocks.extend([None] * (hi + 1 - len(blocks)))
                for k in range(hi - lo + 1):
                    blocks[lo + k] = p0 + k
                continue
            m = FOUND_RE.match(line)
            if m:
                found[os.path.basename(m.group(1))] = int(m.group(2))
    return files, found


def count_runs(phys):
    runs = 0
    prev = None
    for p in phys:
        if p is not None and (prev is None or p != prev + 1):
            runs += 1
        prev = p
    return runs


def ideals(before, after, sec_of):
    """Per-section and global ideal extent counts, and migration facts."""
    ps = gl = 0
    migrated = 0
    victims = Counter()
    for name, b in before.items():
        a = after.get(name)
        if a is None:
            continue
        prev = None     # (kind, key, phys)
        for l, pb in enumerate(b):
            pa = a[l] if l < len(a) else None
            if pb is None or pa is None:
                prev = None
                continue
            if pa != pb:
                migrated += 1
                sec = sec_of(pb)
                victims[sec] += 1
                cur = ('m', sec, pb)
                if prev is None or prev[0] != 'm':
                    ps += 1
                    gl += 1
                elif prev[1] != sec:
                    ps += 1
            else:
                cur = ('s', None, pb)
                if prev is None or prev[0] != 's' or prev[2] + 1 != pb:
                    ps += 1
                    gl += 1
            prev = cur
    return ps, gl, migrated, victims


def stat_fields(path):
    try:
        with open(path) as f:
            return [int(x) for x in f.read().split()]
    except (FileNotFoundError, ValueError):
        return None


def debugfs_figures(path):
    out = {}
    try:
        text = open(path).read()
    except FileNotFoundError:
        return out
    m = re.search(r'CP calls: (\d+) \(BG: (\d+)\)', text)
    if m:
        out['cp_calls'] = int(m.group(1))
        out['cp_calls_bg'] = int(m.group(2))
    m = re.search(r'GC calls: (\d+) \(BG: (\d+)\)', text)
    if m:
        out['gc_calls'] = int(m.group(1))
        out['gc_calls_bg'] = int(m.group(2))
    m = re.search(r'  - Free: (\d+) \((\d+)\)', text)
    if m:
        out['free_segs'] = int(m.group(1))
        out['free_secs'] = int(m.group(2))
    m = re.search(r'Try to move (\d+) blocks \(BG: (\d+)\)', text)
    if m:
        out['try_to_move'] = int(m.group(1))
    m = re.search(r' record: (\d+) bytes, peak record memory: (\d+) KiB', text)
    if m:
        out['record_bytes'] = int(m.group(1))
        out['peak_record_kib'] = int(m.group(2))
    return out


def trace_sums(path):
    sums = {'events': 0, 'seg_freed': 0, 'sec_freed': 0}
    try:
        with open(path) as f:
            for line in f:
                sums['events'] += 1
                for k in ('seg_freed', 'sec_freed'):
                    m = re.search(k + r' = (-?\d+)', line)
                    if m:
                        sums[k] += int(m.group(1))
    except FileNotFoundError:
        return None
    return sums


def delta(before, after, key):
    a, b = num(after.get(key)), num(before.get(key))
    if a is None or b is None:
        return None
    return a - b


def pct(a, b):
    if a is None or b is None or b == 0:
        return None
    return round(100.0 * (a - b) / b, 1)


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return round(a / b, 3)


def variant_figures(vdir, params, count_re):
    run = read_kv(os.path.join(vdir, 'run.txt'))
    before, found_b = parse_frag(os.path.join(vdir, 'before.frag'))
    after, found_a = parse_frag(os.path.join(vdir, 'after.frag'))
    if before is None or after is None:
        return None, None
    counted = [n for n in before if count_re.search(n)]
    cb = {n: before[n] for n in counted}
    ca = {n: after.get(n, []) for n in counted}
    bps = 512 * params['segs_per_sec']
    main = params['main_blkaddr']

    def sec_of(p):
        return (p - main) // bps

    ps, gl, migrated, victims = ideals(cb, ca, sec_of)
    ext_b = sum(count_runs(cb[n]) for n in counted)
    ext_a = sum(count_runs(ca[n]) for n in counted)
    sb = read_kv(os.path.join(vdir, 'sysfs.before'))
    sa = read_kv(os.path.join(vdir, 'sysfs.after'))
    db = debugfs_figures(os.path.join(vdir, 'status.before'))
    da = debugfs_figures(os.path.join(vdir, 'status.after'))
    gc = read_json(os.path.join(vdir, 'gc.json')) or {}
    tr = trace_sums(os.path.join(vdir, 'trace.txt'))

    moved_fg = delta(sb, sa, 'moved_blocks_foreground')
    moved_bg = delta(sb, sa, 'moved_blocks_background')
    moved = None if moved_fg is None or moved_bg is None else moved_fg + moved_bg
    cp = delta(sb, sa, 'cp_foreground_calls')
    cp_bg = delta(sb, sa, 'cp_background_calls')

    def eff(ideal):
        if ideal is None or ext_b - ideal <= 0:
            return None
        return round((ext_b - ext_a) / (ext_b - ideal), 4)

    v = {
        'label': VARIANT_LABEL.get(run.get('variant'), run.get('variant')),
        'fs': run.get('fs'),
        'mount_options': run.get('mount_options'),
        'gc_pack_order': num(run.get('gc_pack_order')),
        'files_counted': len(counted),
        'extents_before': ext_b,
        'extents_after': ext_a,
        'extents_change_pct': pct(ext_a, ext_b),
        'filefrag_extents_before': sum(found_b.get(n, 0) for n in counted),
        'filefrag_extents_after': sum(found_a.get(n, 0) for n in counted),
        'ideal_per_section': ps,
        'ideal_global': gl,
        'efficiency_per_section': eff(ps),
        'efficiency_global': eff(gl),
        'blocks_migrated_counted_files': migrated,
        'victim_sections': len(victims),
        'blocks_moved': moved,
        'blocks_moved_fg': moved_fg,
        'blocks_moved_bg': moved_bg,
        'gc_bytes_moved_tool': gc.get('bytes_moved'),
        'gc_calls_tool': gc.get('calls'),
        'gc_successes': gc.get('successes'),
        'gc_eagain': gc.get('eagain'),
        'gc_calls_fg': delta(sb, sa, 'gc_foreground_calls'),
        'gc_calls_bg': delta(sb, sa, 'gc_background_calls'),
        'free_sections_change': (da['free_secs'] - db['free_secs'])
        if 'free_secs' in da and 'free_secs' in db else None,
        'sections_freed_tool': None if gc.get('free_sections_after') is None
        else gc['free_sections_after'] - gc['free_sections_before'],
        'trace_gc_end_events': tr['events'] if tr else None,
        'seg_freed': tr['seg_freed'] if tr else None,
        'sec_freed': tr['sec_freed'] if tr else None,
        'blocks_moved_per_sec_freed': round(moved / tr['sec_freed'], 1)
        if moved is not None and tr and tr['sec_freed'] else None,
        'checkpoints': None if cp is None else cp + (cp_bg or 0),
        'checkpoints_debugfs': (da['cp_calls'] - db['cp_calls'])
        if 'cp_calls' in da and 'cp_calls' in db else None,
        'skipped_gc_rwsem': None,
        'gc_wall_seconds': num(run.get('gc_wall_seconds')),
        'gc_cpu_seconds': num(run.get('gc_cpu_seconds')),
        'gc_cpu_source': run.get('gc_cpu_source', 'f2fs-gc user+sys (getrusage via bash time)'),
        'data_intact': run.get('data_intact') == '1',
        'fsck_clean': run.get('fsck_clean') == '1',
        'fresh_volume_seconds': num(run.get('fresh_seconds')),
    }
    if 'gc_pack_blocks' in sa:
        for k in ('blocks', 'inodes', 'early_drains',
                  'alloc_fallbacks', 'dropped', 'stale',
                  'held_sections', 'cap_stops', 'space_stops'):
            v['pack_' + k] = delta(sb, sa, 'gc_pack_' + k)
        # gc_pack_sections is the sections-per-call knob; the counter is
        # gc_pack_packed_sections (gc_pack_sections before the knob came)
        v['pack_sections'] = delta(sb, sa, 'gc_pack_packed_sections'
                                   if 'gc_pack_packed_sections' in sa
                                   else 'gc_pack_sections')
        v['peak_queued'] = num(sa.get('gc_pack_peak_queued'))
        v['gc_pack_max_blocks'] = num(sa.get('gc_pack_max_blocks'))
        # the record's object size, from debugfs status (absent before
        # the line existed); peak record memory = peak_queued x that
        v['record_bytes'] = da.get('record_bytes')
        v['peak_record_kib'] = (None if v['record_bytes'] is None or v['peak_queued'] is None
                                else round(v['peak_queued'] * v['record_bytes'] / 1024, 1))
    else:
        v['peak_queued'] = None
    try:
        with open(os.path.join(vdir, 'fsck.txt')) as f:
            v['fsck_fail_lines'] = [ln.strip() for ln in f if '[Fail]' in ln]
    except FileNotFoundError:
        v['fsck_fail_lines'] = []
    # the rewrite workload
    if 'rewrite_seconds' in run:
        it = num(run.get('rewrite_iterations'))
        secs = num(run.get('rewrite_seconds'))
        per = num(run.get('rewrite_bytes_per_iteration'))
        v['rewrite_iterations'] = it
        v['rewrite_seconds'] = secs
        v['rewrite_iterations_per_minute'] = round(60.0 * it / secs, 2) if secs else None
        v['rewrite_mib_per_second'] = round(it * per / 1048576 / secs, 2) if secs else None
        v['rewrite_iteration_seconds'] = [num(x[1]) for x in
                                          read_lines_kv(os.path.join(vdir, 'run.txt'), 'iteration')]
        v['writer_cpu_seconds'] = num(run.get('writer_cpu_seconds'))
        # what the device had to write per block the application wrote
        hot_blocks = it * per // 4096 if it and per else None
        v['write_amplification'] = round((hot_blocks + moved) / hot_blocks, 3) \
            if hot_blocks and moved is not None else None
        # Where the space for those writes came from: sections GC freed, or
        # sections free anyway (free at the start, the same for every
        # variant, or emptied by the rewrites themselves, without GC).
        bps = (params.get('segs_per_sec') or 0) * (params.get('blocks_per_seg') or 0)
        if hot_blocks and moved is not None and bps:
            v['sections_written'] = round((hot_blocks + moved) / bps, 1)
            if v.get('sec_freed') is not None:
                v['sections_not_freed_by_gc'] = round(v['sections_written'] - v['sec_freed'], 1)
    # what the writers felt: every rewrite write's completion latency, and
    # each f2fs_gc() call's duration by caller
    wl = writer_latency(vdir)
    if wl:
        v['writer_latency'] = wl
    calls = gc_call_durations(os.path.join(vdir, 'trace.txt.calls'))
    if calls:
        v['gc_call_ms'] = calls
    # read-back
    s0 = stat_fields(os.path.join(vdir, 'diskstat.before'))
    s1 = stat_fields(os.path.join(vdir, 'diskstat.after'))
    fio = read_json(os.path.join(vdir, 'readback.json'))
    rb = {'device': run.get('readback_dev')}
    if s0 and s1:
        ios = s1[0] - s0[0]
        sectors = s1[2] - s0[2]
        rb['read_ios'] = ios
        rb['read_merges'] = s1[1] - s0[1]
        rb['read_bytes_device'] = sectors * 512
        rb['avg_request_kib'] = round(sectors * 512 / ios / 1024, 1) if ios else None
    if fio and fio.get('jobs'):
        r = fio['jobs'][0]['read']
        rb['fio_bytes'] = r.get('io_bytes')
        rb['fio_ios'] = r.get('total_ios')
        rb['fio_runtime_ms'] = r.get('runtime')
        rb['throughput_mb_s'] = round(r.get('bw_bytes', 0) / 1e6, 2)
    v['readback'] = rb
    maps = {'before': before, 'after': after}
    return v, maps


CLAT_LOG_RE = re.compile(r'^rewrite\.(\d+)_clat\.\d+\.log$')


def rank_permille(xs, pm):
    """Nearest-rank percentile, in integers: pm per mille (999: p99.9)."""
    s = sorted(xs)
    return s[max(1, -(-len(s) * pm // 1000)) - 1]


def writer_latency(vdir):
    """The rewrite writes' completion latencies (fio clat, one line per
    write in rewrite.I_clat.1.log, ns), pooled over the iterations:
    nearest-rank p50 / p99 / p99.9 and max in ms; fio's own percentiles
    of each iteration (rewrite.I.json, histogram buckets) beside them."""
    xs, iters = [], {}
    try:
        names = os.listdir(vdir)
    except FileNotFoundError:
        return None
    for name in names:
        m = CLAT_LOG_RE.match(name)
        if not m:
            continue
        with open(os.path.join(vdir, name)) as f:
            for line in f:
                parts = line.split(',')
                if len(parts) >= 2 and parts[1].strip().isdigit():
                    xs.append(int(parts[1]))
        j = read_json(os.path.join(vdir, f'rewrite.{m.group(1)}.json'))
        try:
            pc = j['jobs'][0]['write']['clat_ns']['percentile']
            iters[int(m.group(1))] = {q: round(pc[k] / 1e6, 3) for q, k in (
                ('p50', '50.000000'), ('p99', '99.000000'), ('p99.9', '99.900000'))}
        except (TypeError, KeyError, IndexError):
            pass
    if not xs:
        return None
    return {
        'writes': len(xs),
        'p50': round(rank_permille(xs, 500) / 1e6, 3),
        'p99': round(rank_permille(xs, 990) / 1e6, 3),
        'p99.9': round(rank_permille(xs, 999) / 1e6, 3),
        'max': round(max(xs) / 1e6, 3),
        'mean': round(sum(xs) / len(xs) / 1e6, 3),
        'fio_per_iteration': [iters[i] for i in sorted(iters)],
    }


CALL_RE = re.compile(r'^\s*(.*)-(\d+)\s+\[\d+\]\s.*?(\d+\.\d+): f2fs_gc_(begin|end): (.*)$')


def trace_matches(path, regex):
    """The matches of regex over the lines of the trace file path, in
    order, or None when there is no such file."""
    try:
        with open(path) as f:
            return [m for m in (regex.match(line.rstrip('\n')) for line in f) if m]
    except FileNotFoundError:
        return None


def gc_call_durations(path):
    """Each f2fs_gc() call's duration (its f2fs_gc_begin to f2fs_gc_end,
    trace clock, ms) by caller: 'writer' (a writer in f2fs_balance_fs():
    fio here), 'gc thread', or the task's name. Per caller: calls, calls
    that freed a section, p50 / p99 / max."""
    begin, per = {}, {}
    matches = trace_matches(path, CALL_RE)
    if matches is None:
        return None
    for m in matches:
        comm, pid, t, ev, rest = m.groups()
        if ev == 'begin':
            begin[pid] = float(t)
            continue
        if pid not in begin:
            continue
        dur = (float(t) - begin.pop(pid)) * 1000
        c = comm.strip()
        who = ('gc thread' if c.startswith(('f2fs_gc', 'f2fs_packed_gc'))
               else 'writer' if c.startswith('fio') else c)
        sec = re.search(r'sec_freed = (-?\d+)', rest)
        e = per.setdefault(who, {'ms': [], 'freeing': 0})
        e['ms'].append(dur)
        e['freeing'] += 1 if sec and int(sec.group(1)) > 0 else 0
    return {who: {'calls': len(e['ms']), 'calls_freeing': e['freeing'],
                  'p50': round(rank_permille(e['ms'], 500), 3),
                  'p99': round(rank_permille(e['ms'], 990), 3),
                  'max': round(max(e['ms']), 3),
                  'total': round(sum(e['ms']), 1)}
            for who, e in per.items()} or None


def analyse_workload(wdir):
    params = read_json(os.path.join(wdir, 'params.json'))
    if not params:
        return None, None
    golden = read_kv(os.path.join(wdir, 'golden.txt'))
    count_re = re.compile(params.get('count_files') or '.*')
    variants, maps = {}, {}
    for name in VARIANT_ORDER:
        vdir = os.path.join(wdir, name)
        if not os.path.isdir(vdir):
            continue
        v, m = variant_figures(vdir, params, count_re)
        if v is not None:
            variants[name] = v
            maps[name] = m
    w = {
        'params': params,
        'golden': {k: num(x) if num(x) is not None else x for k, x in golden.items()},
        'variants': variants,
    }
    # identical starting layout?
    befores = [m['before'] for m in maps.values()]
    w['before_identical'] = all(b == befores[0] for b in befores[1:]) if befores else None
    w['comparisons'] = compare(variants)
    return w, maps


def start_note(p, w):
    same = f"Same starting layout for every variant: {fmt(w.get('before_identical'))}."
    if p.get('golden_copy', True):
        return same
    befores = {v['extents_before'] for v in w['variants'].values()}
    where = ('a zoned volume cannot be copied with its zones\' write pointers'
             if p.get('zoned') else 'no spare disk for a copy')
    return (f"Written afresh for every variant ({where}) and read back in place, "
            f"unthrottled. {same} Extents before equal: {fmt(len(befores) == 1)}.")


def compare(variants):
    c = {}
    st, off = variants.get('stock'), variants.get('off')
    if st and off:
        c['off_matches_stock'] = (st['extents_after'] == off['extents_after'] and
                                  st['blocks_moved'] == off['blocks_moved'])
    legacy = off or st
    for p in ('found', 'offset', 'sections'):
        pv = variants.get(p)
        if pv and legacy:
            c[p + '_vs_legacy'] = {
                'extents_after_ratio': ratio(pv['extents_after'], legacy['extents_after']),
                'blocks_moved_ratio': ratio(pv['blocks_moved'], legacy['blocks_moved']),
                'read_ios_ratio': ratio(pv['readback'].get('read_ios'),
                                        legacy['readback'].get('read_ios')),
                'throughput_ratio': ratio(pv['readback'].get('throughput_mb_s'),
                                          legacy['readback'].get('throughput_mb_s')),
                'gc_cpu_ratio': ratio(pv['gc_cpu_seconds'], legacy['gc_cpu_seconds']),
            }
            if 'rewrite_seconds' in pv and legacy.get('rewrite_seconds'):
                c[p + '_vs_legacy']['rewrite_speedup'] = ratio(
                    legacy['rewrite_seconds'], pv['rewrite_seconds'])
    ur, of = variants.get('urgent'), variants.get('offset')
    if ur and of:
        c['offset_vs_urgent'] = {
            'extents_after': [of['extents_after'], ur['extents_after']],
            'blocks_moved': [of['blocks_moved'], ur['blocks_moved']],
        }
    return c


def fmt(x, nd=None):
    if x is None:
        return 'n/a'
    if isinstance(x, bool):
        return 'yes' if x else 'no'
    if isinstance(x, float):
        if nd is not None:
            return f'{x:.{nd}f}'
        return f'{x:g}'
    return str(x)


def fmt_eff(x):
    return 'n/a' if x is None else f'{100 * x:.1f}%'


def markdown(res):
    L = []
    h = res['host']
    L.append('# f2fs_packed benchmark results')
    L.append('')
    L.append(f"Run {h.get('started', '?')}, git {h.get('git', '?')}, "
             f"QUICK={h.get('quick', '?')}, accel {h.get('accel', '?')}, "
             f"read-back budget {h.get('iops', '?')} IOPS.")
    any_w = next(iter(res['workloads'].values()), None)
    if any_w:
        p = any_w['params']
        L.append(f"Guest kernel {p.get('kernel')}; f2fs_packed {p.get('f2fs_packed_version')} "
                 f"(srcversion {p.get('f2fs_packed_srcversion')}); stock f2fs "
                 f"{p.get('f2fs_stock_module')}; {p.get('f2fs_tools')}; {p.get('fio')}.")
    L.append('')
    L.append('Extents: maximal runs contiguous in the file and on disk, summed over the '
             'counted files (all surviving files; the cold files in w3). Ideals and '
             'efficiency (achieved reduction / ideal reduction): see the end.')
    L.append('')
    L.append('Counts (extents, blocks moved, GC calls, sections, read I/Os) are exact and '
             'repeat from run to run. Times (GC CPU, rewrite seconds, read MB/s) are '
             'measured in a TCG guest on a shared host: the guest clock runs on while '
             'QEMU waits for a host CPU, so they carry the host\'s load; compare them '
             'within a run and with care.')
    for wname, w in res['workloads'].items():
        p = w['params']
        L.append('')
        L.append(f"## {wname}: {p.get('title')}")
        L.append('')
        L.append(f"{p.get('workload_parameters')}; volume {p.get('volume_mib')} MiB, "
                 f"mkfs.f2fs {p.get('mkfs_options').strip()}, mount {p.get('mount_options')}; "
                 f"GC: {p.get('gc')}. {start_note(p, w)} "
                 f"VM run {fmt(w.get('seconds'))} s (workload written in "
                 f"{fmt(w['golden'].get('write_seconds'))} s).")
        L.append('')
        L.append('| variant | extents before | after | change | ideal/section | ideal/global '
                 '| eff. section | eff. global | blocks moved | GC calls (ok) '
                 '| secs freed | CPs | peak queued | GC CPU s | read I/Os | avg KiB '
                 '| read MB/s |')
        L.append('|' + '---|' * 17)
        for name, v in w['variants'].items():
            rb = v['readback']
            calls = (f"{fmt(v['gc_calls_tool'])} ({fmt(v['gc_successes'])})"
                     if v['gc_calls_tool'] is not None
                     else f"{fmt(v['gc_calls_fg'])} fg + {fmt(v['gc_calls_bg'])} bg")
            if v['sections_freed_tool'] is not None:
                secs = v['sections_freed_tool']
            elif 'rewrite_seconds' in v:
                secs = v['sec_freed']
            else:
                secs = v['free_sections_change']
            L.append(f"| {name} | {v['extents_before']} | {v['extents_after']} | "
                     f"{fmt(v['extents_change_pct'])}% | {v['ideal_per_section']} | "
                     f"{v['ideal_global']} | {fmt_eff(v['efficiency_per_section'])} | "
                     f"{fmt_eff(v['efficiency_global'])} | {fmt(v['blocks_moved'])} | "
                     f"{calls} | {fmt(secs)} | {fmt(v['checkpoints'])} | "
                     f"{fmt(v['peak_queued'])} | {fmt(v['gc_cpu_seconds'])} | "
                     f"{fmt(rb.get('read_ios'))} | {fmt(rb.get('avg_request_kib'))} | "
                     f"{fmt(rb.get('throughput_mb_s'))} |")
        packed = [(n, v) for n, v in w['variants'].items()
                  if v.get('record_bytes') is not None]
        if packed:
            # the packing queue's memory next to the extents it bought
            L.append('')
            L.append('| variant | extents after | ideal/section | blocks moved | max records '
                     '(gc_pack_max_blocks) | early drains | peak records | record bytes '
                     '| peak record memory KiB |')
            L.append('|' + '---|' * 9)
            for name, v in packed:
                L.append(f"| {name} | {v['extents_after']} | {v['ideal_per_section']} | "
                         f"{fmt(v['blocks_moved'])} | {fmt(v.get('gc_pack_max_blocks'))} | "
                         f"{fmt(v.get('pack_early_drains'))} | {fmt(v['peak_queued'])} | "
                         f"{fmt(v['record_bytes'])} | {fmt(v['peak_record_kib'])} |")
        extra = []
        for name, v in w['variants'].items():
            if 'rewrite_seconds' in v:
                extra.append(f"| {name} | {v['rewrite_iterations']} | {fmt(v['rewrite_seconds'], 1)} | "
                             f"{fmt(v['rewrite_iterations_per_minute'])} | {fmt(v['rewrite_mib_per_second'])} | "
                             f"{fmt(v['writer_cpu_seconds'])} | {fmt(v['gc_cpu_seconds'])} | "
                             f"{fmt(v['blocks_moved'])} | {fmt(v['gc_calls_fg'])} | "
                             f"{fmt(v['sec_freed'])} | {fmt(v['seg_freed'])} | "
                             f"{fmt(v.get('sections_written'))} | "
                             f"{fmt(v.get('sections_not_freed_by_gc'))} | "
                             f"{fmt(v['write_amplification'])} |")
        if extra:
            L.append('')
            L.append('| variant | hot rewrites | seconds | rewrites/min | MiB/s | writer CPU s '
                     '| GC thread CPU s | move_blks | FG GC calls | sec_freed | seg_freed '
                     '| sections written | of them not freed by GC | write amplification |')
            L.append('|' + '---|' * 14)
            L.extend(extra)
        lt = latency_table(w)
        if lt:
            L.append('')
            L.extend(lt)
        if wname.startswith('w4'):
            L.append('')
            L.append('| variant | sync GC calls | successes | seg_freed | sec_freed |')
            L.append('|---|---|---|---|---|')
            for name, v in w['variants'].items():
                L.append(f"| {name} | {fmt(v['gc_calls_tool'])} | {fmt(v['gc_successes'])} | "
                         f"{fmt(v['seg_freed'])} | {fmt(v['sec_freed'])} |")
        c = w['comparisons']
        notes = []
        if 'off_matches_stock' in c:
            notes.append(f"packing off matches stock (extents after and blocks moved): "
                         f"{fmt(c['off_matches_stock'])}")
        for p in ('found', 'offset', 'sections'):
            k = p + '_vs_legacy'
            if k in c:
                r = c[k]
                s = (f"{p} vs legacy (packing off): extents after x{fmt(r['extents_after_ratio'])}, "
                     f"blocks moved x{fmt(r['blocks_moved_ratio'])}, read I/Os "
                     f"x{fmt(r['read_ios_ratio'])}, read throughput x{fmt(r['throughput_ratio'])}, "
                     f"GC CPU x{fmt(r['gc_cpu_ratio'])}")
                if 'rewrite_speedup' in r:
                    s += f", hot rewrites x{fmt(r['rewrite_speedup'])} faster"
                notes.append(s)
        if 'offset_vs_urgent' in c:
            r = c['offset_vs_urgent']
            notes.append(f"offset packing vs stock gc_urgent layout: extents after "
                         f"{r['extents_after'][0]} vs {r['extents_after'][1]}, blocks moved "
                         f"{fmt(r['blocks_moved'][0])} vs {fmt(r['blocks_moved'][1])}")
        for n, v in w['variants'].items():
            if v.get('pack_held_sections') is not None and n == 'sections':
                notes.append(
                    f"{n}: {v['pack_held_sections']} sections held for a later victim's pass, "
                    f"batches ended by gc_pack_max_blocks {fmt(v.get('pack_cap_stops'))} times, "
                    f"by the free space {fmt(v.get('pack_space_stops'))} times")
            if v.get('pack_early_drains'):
                notes.append(
                    f"{n}: {v['pack_early_drains']} early drains over {v.get('pack_sections')} "
                    f"packed sections (gc_pack_early_drains, gc_pack_max_blocks="
                    f"{v.get('gc_pack_max_blocks')}): the queue filled before a victim section "
                    f"had been scanned in full, so each pack pass saw only part of the section "
                    f"and a file's blocks of one section land in one run per pass; this is "
                    f"what keeps it from the per-section ideal")
            if v.get('pack_alloc_fallbacks') or v.get('pack_dropped'):
                notes.append(f"{n}: {v.get('pack_alloc_fallbacks')} alloc fallbacks, "
                             f"{v.get('pack_dropped')} dropped records (migrated unpacked)")
        bad = [n for n, v in w['variants'].items() if not v['data_intact']]
        unclean = [n for n, v in w['variants'].items() if not v['fsck_clean']]
        if bad:
            notes.append('DATA CHANGED BY GC in: ' + ', '.join(bad))
        known = 'free segment_count matched with CP'
        if (unclean and 'stock' in unclean and w['params'].get('zoned')
                and all(v['fsck_fail_lines'] and all(known in ln for ln in v['fsck_fail_lines'])
                        for n, v in w['variants'].items() if n in unclean)):
            # zone capacity below zone size: f2fs-tools 1.15's known
            # mismatch (docs/zoned.md, "Known limits"), stock alike
            notes.append('fsck.f2fs reports only "' + known + ' [Fail]" after: '
                         + ', '.join(unclean) + ' (stock included): f2fs-tools 1.15 counts '
                         'the unusable tail of each zone (capacity < size) as free')
        elif unclean:
            notes.append('FSCK.F2FS FOUND ERRORS after: ' + ', '.join(unclean))
        if not bad and not unclean:
            notes.append('every variant: data intact (sha256 before and after GC), '
                         'fsck.f2fs clean after unmount')
        if notes:
            L.append('')
            L.extend('- ' + n for n in notes)
    L.append('')
    L.append('## Against the seed')
    L.append('')
    L.append('| workload | seed legacy | seed packed | ours legacy (off) | ours packed (offset) |')
    L.append('|---|---|---|---|---|')
    for wname, s in SEED.items():
        w = res['workloads'].get(wname)
        if not w:
            continue
        off = w['variants'].get('off') or w['variants'].get('stock')
        on = w['variants'].get('offset')

        def ext(v):
            if not v:
                return 'n/a'
            return f"{v['extents_before']} -> {v['extents_after']} ({fmt(v['extents_change_pct'])}%)"
        if 'legacy' in s:
            sl = f"{s['legacy'][0]} -> {s['legacy'][1]}"
            sp = f"{s['packed'][0]} -> {s['packed'][1]} ({pct(s['packed'][1], s['packed'][0])}%)"
            ours_l, ours_p = ext(off), ext(on)
            if 'move_blks' in s:
                sl += f", move_blks {s['move_blks']['legacy']}"
                sp += f", move_blks {s['move_blks']['packed']}, {s['rewrite_gain']}"
                if off and on:
                    ours_l += f", move_blks {fmt(off['blocks_moved'])}"
                    ours_p += (f", move_blks {fmt(on['blocks_moved'])}, rewrites "
                               f"x{fmt(ratio(off.get('rewrite_seconds'), on.get('rewrite_seconds')))} faster")
            L.append(f"| {wname} | {sl} | {sp} | {ours_l} | {ours_p} |")
        else:
            seedv = f"seg_freed {s['seg_freed']}, sec_freed {s['sec_freed']}, {s['successes']} successes"

            def sf(v):
                if not v:
                    return 'n/a'
                return (f"seg_freed {fmt(v['seg_freed'])}, sec_freed {fmt(v['sec_freed'])}, "
                        f"{fmt(v['gc_successes'])} successes")
            L.append(f"| {wname} | {seedv} | {seedv} | {sf(off)} | {sf(on)} |")
    L.append('')
    L.append("The seed's extents-before figures equal files x blocks of its own file "
             "counts (64 x 1024, 128 x 64), i.e. they count as many files as were written; "
             "we delete half the files before GC and count the survivors, so our before "
             "figures are half the seed's; compare the percentages.")
    L.append('')
    L.append('## Definitions')
    L.append('')
    for k, d in res['definitions'].items():
        L.append(f'- **{k}**: {d}')
    L.append('')
    return '\n'.join(L)


RESULTS_MD = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'RESULTS.md')


def latency_table(w):
    """What the writers felt, per variant: the rewrites' write latencies,
    the f2fs_gc() calls writers ran (and the GC thread's), and the work
    done, so that the rows can be compared. [] when nothing was logged."""
    rows = [(n, v) for n, v in w['variants'].items() if v.get('writer_latency')]
    if not rows:
        return []

    def calls(v, who):
        c = (v.get('gc_call_ms') or {}).get(who)
        if not c:
            return '0'
        return f"{c['calls']} ({c['calls_freeing']}): {fmt(c['p50'])} / {fmt(c['p99'])} / {fmt(c['max'])}"

    L = ['Writer latency (ms; the hot rewrites\' writes, fio clat over every write of '
         'every rewrite, nearest rank; f2fs_gc() calls: begin to end in the trace, '
         'count (that freed a section): p50 / p99 / max):', '',
         '| variant | writes | clat p50 | p99 | p99.9 | max | writers\' GC calls '
         '| GC thread\'s calls | FG GC calls | blocks moved | cold extents before -> after '
         '| hot rewrites s |',
         '|' + '---|' * 12]
    for n, v in rows:
        lt = v['writer_latency']
        L.append(f"| {n} | {lt['writes']} | {fmt(lt['p50'])} | {fmt(lt['p99'])} | "
                 f"{fmt(lt['p99.9'])} | {fmt(lt['max'])} | {calls(v, 'writer')} | "
                 f"{calls(v, 'gc thread')} | {fmt(v['gc_calls_fg'])} | "
                 f"{fmt(v['blocks_moved'])} | {v['extents_before']} -> {v['extents_after']} | "
                 f"{fmt(v.get('rewrite_seconds'), 1)} |")
    base = dict(rows)
    notes = []
    for ref in ('off', 'offset'):
        r = base.get(ref, {}).get('writer_latency')
        b = base.get('sections', {}).get('writer_latency')
        if r and b and ref != 'sections':
            notes.append(f"sections vs {ref}: clat p50 x{fmt(ratio(b['p50'], r['p50']))}, "
                         f"p99 x{fmt(ratio(b['p99'], r['p99']))}, "
                         f"p99.9 x{fmt(ratio(b['p99.9'], r['p99.9']))}")
    if notes:
        L.append('')
        L.extend('- ' + x for x in notes)
    return L


def load_definitions(path=RESULTS_MD):
    """The metric definitions: the '## Definitions' list of bench/RESULTS.md,
    its one copy ('- **name**: text' items, continuation lines indented),
    up to its first subsection. Exits when there is none, so a report is
    never written without them."""
    defs, key = {}, None
    try:
        with open(path) as f:
            lines = f.read().split('\n')
    except OSError as e:
        sys.exit(f'report.py: the metric definitions: {e}')
    try:
        start = lines.index('## Definitions') + 1
    except ValueError:
        sys.exit(f'report.py: no "## Definitions" section in {path}')
    for line in lines[start:]:
        if line.startswith('#'):
            break
        m = re.match(r'^- \*\*(.+?)\*\*: (.*)$', line)
        if m:
            key = m.group(1)
            defs[key] = m.group(2)
        elif key and line.startswith('  ') and line.strip():
            defs[key] += ' ' + line.strip()
        elif not line.strip():
            key = None
    if not defs:
        sys.exit(f'report.py: no definitions in the "## Definitions" section of {path}')
    return defs


def plots(res, allmaps, outdir):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    import colorsys

    made = []
    wl = [(n, w) for n, w in res['workloads'].items() if w['variants']]
    if not wl:
        return made
    # extents before/after per variant and workload
    fig, axes = plt.subplots(1, len(wl), figsize=(4.2 * len(wl), 4.2), squeeze=False)
    for ax, (wname, w) in zip(axes[0], wl):
        names = list(w['variants'])
        xs = range(len(names))
        bef = [w['variants'][n]['extents_before'] for n in names]
        aft = [w['variants'][n]['extents_after'] for n in names]
        ax.bar([x - 0.2 for x in xs], bef, 0.4, label='before GC', color='#bbbbbb')
        ax.bar([x + 0.2 for x in xs], aft, 0.4, label='after GC', color='#1f77b4')
        ref = w['variants'].get('offset') or w['variants'].get('off') or w['variants'][names[0]]
        ax.axhline(ref['ideal_per_section'], color='#d62728', ls='--', lw=1,
                   label='per-section ideal')
        ax.axhline(ref['ideal_global'], color='#2ca02c', ls=':', lw=1.5, label='global ideal')
        ax.set_xticks(list(xs))
        ax.set_xticklabels(names, rotation=30)
        ax.set_yscale('log')
        ax.set_ylim(bottom=max(0.5, min(aft + [ref['ideal_global']]) / 3))
        ax.set_title(wname, fontsize=10)
        ax.set_ylabel('extents (counted files)')
    axes[0][0].legend(fontsize=7, loc='lower left')
    fig.suptitle('Extents before and after GC')
    fig.tight_layout()
    p = os.path.join(outdir, 'extents.png')
    fig.savefig(p, dpi=110)
    plt.close(fig)
    made.append('extents.png')

    # read-back I/Os
    fig, axes = plt.subplots(1, len(wl), figsize=(4.2 * len(wl), 3.8), squeeze=False)
    for ax, (wname, w) in zip(axes[0], wl):
        names = list(w['variants'])
        ios = [w['variants'][n]['readback'].get('read_ios') or 0 for n in names]
        ax.bar(names, ios, color='#ff7f0e')
        ax.set_title(wname, fontsize=10)
        ax.set_ylabel('read I/Os for one sequential pass')
        ax.tick_params(axis='x', rotation=30)
    fig.suptitle(f"Read-back after GC (disk throttled to {res['host'].get('iops')} IOPS)")
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, 'readback.png'), dpi=110)
    plt.close(fig)
    made.append('readback.png')

    # layout maps
    def colours(n):
        out = []
        for i in range(n):
            h = (i * 0.618033988749895) % 1.0
            out.append(colorsys.hsv_to_rgb(h, 0.75, 0.9 if i % 2 else 0.7))
        return out

    for wname, w in wl:
        maps = allmaps.get(wname, {})
        legacy = 'off' if 'off' in maps else ('stock' if 'stock' in maps else None)
        if legacy is None or not w['variants'][legacy]['blocks_migrated_counted_files']:
            continue
        p = w['params']
        bps = 512 * p['segs_per_sec']
        main = p['main_blkaddr']
        before = maps[legacy]['before']
        names = sorted(before, key=lambda n: [int(x) if x.isdigit() else x
                                              for x in re.split(r'(\d+)', n)])
        index = {n: i for i, n in enumerate(names)}

        def owners(fmap):
            own = {}
            for n, blocks in fmap.items():
                for l, ph in enumerate(blocks):
                    if ph is not None:
                        own[ph] = (index.get(n, -1), n, l)
            return own

        own_b = owners(before)
        # the victim section: the most blocks migrated out of it by legacy GC
        after_l = maps[legacy]['after']
        vic = Counter()
        for n, b in before.items():
            a = after_l.get(n, [])
            for l, pb in enumerate(b):
                if pb is not None and l < len(a) and a[l] is not None and a[l] != pb:
                    vic[(pb - main) // bps] += 1
        if not vic:
            continue
        victim = vic.most_common(1)[0][0]
        width = 1
        while width * width < bps:
            width *= 2
        rows = (bps + width - 1) // width

        def grid(own, sec):
            import numpy as np
            g = np.full(rows * width, -1.0)
            base = main + sec * bps
            for k in range(bps):
                o = own.get(base + k)
                if o is not None:
                    g[k] = o[0]
            return np.ma.masked_less(g.reshape(rows, width), 0)

        panels = [(f'before GC: victim section {victim}', grid(own_b, victim))]
        for vname in VARIANT_ORDER:
            if vname not in maps:
                continue
            b, a = maps[vname]['before'], maps[vname]['after']
            dest = Counter()
            for n, blocks in b.items():
                aa = a.get(n, [])
                for l, pb in enumerate(blocks):
                    if pb is None or (pb - main) // bps != victim:
                        continue
                    if l < len(aa) and aa[l] is not None and aa[l] != pb:
                        dest[(aa[l] - main) // bps] += 1
            if not dest:
                continue
            dsec = dest.most_common(1)[0][0]
            panels.append((f'after, {vname}: section {dsec}', grid(owners(a), dsec)))
        cmap = ListedColormap(colours(max(len(names), 1)))
        cmap.set_bad('white')
        fig, axes = plt.subplots(1, len(panels), figsize=(3.3 * len(panels), 3.8),
                                 squeeze=False)
        for ax, (title, g) in zip(axes[0], panels):
            ax.imshow(g, cmap=cmap, vmin=0, vmax=max(len(names) - 1, 1),
                      interpolation='nearest', aspect='auto')
            ax.set_title(title, fontsize=8)
            ax.set_xticks([])
            ax.set_yticks([])
        fig.suptitle(f'{wname}: block -> owning file (colour; white = free or invalid), '
                     f'{bps} blocks per section, {width} per row', fontsize=9)
        fig.tight_layout()
        fn = f'layout-{wname}.png'
        fig.savefig(os.path.join(outdir, fn), dpi=110)
        plt.close(fig)
        made.append(fn)
    return made


# --- the cost run (bench/guest/cost.sh, scripts/vm -I) -------------------
# In an instruction-counting guest (QEMU -icount shift=0) the x86-tsc trace
# clock and the process CPU clock advance one per executed instruction, so
# the figures below are instruction counts: they repeat from run to run.

TRACE_EV_RE = re.compile(r'^(\d+) (f2fs_gc_begin|f2fs_gc_end) (.*)$')


def percentile(xs, q):
    """Nearest-rank percentile of a non-empty list (q in 0..100)."""
    s = sorted(xs)
    k = max(1, -(-len(s) * q // 100))     # ceil(n * q / 100)
    return s[int(k) - 1]


def gc_calls_from_trace(path):
    """[(instructions, ret, seg_freed, sec_freed)] per f2fs_gc() call: each
    f2fs_gc_end paired with the f2fs_gc_begin before it."""
    calls = []
    begin = None
    matches = trace_matches(path, TRACE_EV_RE)
    if matches is None:
        return None
    for m in matches:
        ts, ev, rest = int(m.group(1)), m.group(2), m.group(3)
        if ev == 'f2fs_gc_begin':
            begin = ts
            continue
        if begin is None:
            continue
        f_ = {k: int(x) for k, x in re.findall(r'(ret|seg_freed|sec_freed) = (-?\d+)', rest)}
        calls.append((ts - begin, f_.get('ret'), f_.get('seg_freed'), f_.get('sec_freed')))
        begin = None
    return calls


SWITCH_RE = re.compile(r'^(\d+) sched_switch prev_comm=(.*) prev_pid=(\d+) .*'
                       r'==> next_comm=(.*) next_pid=(\d+) ')


def tasks_in_calls(path):
    """With sched_switch events in the trace (COST_SCHED=1): the
    instructions inside the GC calls per task that ran them, the caller's
    as 'caller', or None."""
    per = Counter()
    in_call, cur, last, caller = False, 'caller', 0, None
    seen = False
    try:
        f = open(path)
    except FileNotFoundError:
        return None
    with f:
        for line in f:
            line = line.rstrip('\n')
            m = SWITCH_RE.match(line)
            if m:
                seen = True
                if not in_call:
                    continue
                ts = int(m.group(1))
                if caller is None and cur == 'caller':
                    caller = m.group(3)
                per[cur] += ts - last
                last = ts
                cur = 'caller' if m.group(5) == caller else m.group(4)
                continue
            m = TRACE_EV_RE.match(line)
            if not m:
                continue
            ts = int(m.group(1))
            if m.group(2) == 'f2fs_gc_begin':
                in_call, cur, last = True, 'caller', ts
            elif in_call:
                per[cur] += ts - last
                in_call = False
    return dict(per) if seen else None


def latency_figures(instr):
    if not instr:
        return {'n': 0, 'p50': None, 'p99': None, 'max': None}
    return {'n': len(instr), 'p50': percentile(instr, 50), 'p99': percentile(instr, 99),
            'max': max(instr)}


def cost_run_figures(rdir, params, with_maps):
    run = read_kv(os.path.join(rdir, 'run.txt'))
    sb = read_kv(os.path.join(rdir, 'sysfs.before'))
    sa = read_kv(os.path.join(rdir, 'sysfs.after'))
    gc = read_json(os.path.join(rdir, 'gc.json')) or {}
    calls = gc_calls_from_trace(os.path.join(rdir, 'trace.txt')) or []
    mf, mb = delta(sb, sa, 'moved_blocks_foreground'), delta(sb, sa, 'moved_blocks_background')
    moved = None if mf is None or mb is None else mf + mb
    total = sum(c[0] for c in calls)
    ok = [c[0] for c in calls if c[1] == 0]
    idle = [c[0] for c in calls if c[1] != 0]
    cpu = gc.get('cpu_ns')
    r = {
        'variant': run.get('variant'),
        'rep': num(run.get('rep')),
        'blocks_moved': moved,
        'gc_calls': len(calls),
        'gc_calls_ok': len(ok),
        'gc_calls_idle': len(idle),
        'sec_freed': sum(c[3] or 0 for c in calls),
        'gc_instructions': total,
        'gc_instructions_idle_calls': sum(idle),
        'instructions_per_block': round(total / moved, 1) if moved else None,
        'process_instructions': cpu,
        'process_instructions_per_block': round(cpu / moved, 1) if moved and cpu else None,
        'latency_ok_calls': latency_figures(ok),
        'latency_all_calls': latency_figures([c[0] for c in calls]),
        'call_instructions': [c[0] for c in calls],
        'peak_queued': num(sa.get('gc_pack_peak_queued')),
        'gc_pack_max_blocks': num(sa.get('gc_pack_max_blocks')),
    }
    for k in ('data_intact', 'fsck_clean'):     # COST_VERIFY=1
        if k in run:
            r[k] = run[k] == '1'
    da = debugfs_figures(os.path.join(rdir, 'status.after'))
    r['free_sections_after_sync'] = da.get('free_secs')
    # blocks written since the mount (the GC's, here) by log type: SSR
    # fills the holes of dirty segments when free sections run low
    try:
        st = open(os.path.join(rdir, 'status.after')).read()
    except FileNotFoundError:
        st = ''
    for k in ('SSR', 'LFS'):
        m = re.search(r'^' + k + r': (\d+) blocks', st, re.M)
        r[k.lower() + '_blocks'] = int(m.group(1)) if m else None
    tasks = tasks_in_calls(os.path.join(rdir, 'trace.txt'))
    if tasks is not None:
        r['tasks_in_calls'] = dict(Counter(tasks).most_common(8))
        r['other_tasks_share'] = round(1 - tasks.get('caller', 0) / total, 4) if total else None
    if 'gc_pack_blocks' in sa:
        for k in ('blocks', 'inodes', 'early_drains', 'cap_stops', 'held_sections',
                  'packed_sections'):
            r['pack_' + k] = delta(sb, sa, 'gc_pack_' + k)
    if with_maps:
        before, _ = parse_frag(os.path.join(rdir, 'before.frag'))
        after, _ = parse_frag(os.path.join(rdir, 'after.frag'))
        main = num(sb.get('main_blkaddr'))
        if before is not None and after is not None:
            r['extents_before'] = sum(count_runs(b) for b in before.values())
            r['extents_after'] = sum(count_runs(after.get(n, [])) for n in before)
            if main is not None:
                bps = params['blocks_per_seg'] * params['segs_per_sec']
                ps, gl, _, victims = ideals(before, after, lambda p: (p - main) // bps)
                r['ideal_per_section'] = ps
                r['ideal_global'] = gl
                r['victim_sections'] = len(victims)
    return r


def spread(xs):
    """(max - min) / mean of the repeated figures, or None."""
    xs = [x for x in xs if x is not None]
    if len(xs) < 2:
        return None
    m = sum(xs) / len(xs)
    return round((max(xs) - min(xs)) / m, 5) if m else None


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def analyse_cost(cdir):
    """raw/cost/ -> {'host': ..., 'cases': {case: {...}}}."""
    out = {'host': {k: num(v) if num(v) is not None else v
                    for k, v in read_kv(os.path.join(cdir, 'cost.txt')).items()},
           'cases': {}}
    for case in sorted(os.listdir(cdir)):
        if not os.path.isdir(os.path.join(cdir, case)):
            continue
        params = read_json(os.path.join(cdir, case, 'params.json'))
        if not params:
            continue
        runs = {}
        for rd in sorted(os.listdir(os.path.join(cdir, case))):
            m = re.match(r'^([a-z]+)\.(\d+)$', rd)
            if not m:
                continue
            rdir = os.path.join(cdir, case, rd)
            runs.setdefault(m.group(1), []).append(
                cost_run_figures(rdir, params, os.path.exists(os.path.join(rdir, 'after.frag'))))
        variants = {}
        for v in VARIANT_ORDER:
            if v not in runs:
                continue
            rs = sorted(runs[v], key=lambda r: r['rep'] or 0)
            first = rs[0]
            ipb = [r['instructions_per_block'] for r in rs]
            variants[v] = {
                'runs': rs,
                'blocks_moved': first['blocks_moved'],
                'blocks_moved_repeat': len({r['blocks_moved'] for r in rs}) == 1,
                'gc_calls': first['gc_calls'],
                'gc_calls_ok': first['gc_calls_ok'],
                'sec_freed': first['sec_freed'],
                'instructions_per_block': ipb,
                'instructions_per_block_mean': round(mean(ipb), 1) if mean(ipb) else None,
                'instructions_per_block_spread': spread(ipb),
                'process_instructions_per_block': [r['process_instructions_per_block'] for r in rs],
                'process_instructions_per_block_spread':
                    spread([r['process_instructions_per_block'] for r in rs]),
                'latency_p50': [r['latency_ok_calls']['p50'] for r in rs],
                'latency_p99': [r['latency_ok_calls']['p99'] for r in rs],
                'latency_max': [r['latency_ok_calls']['max'] for r in rs],
                'latency_p99_spread': spread([r['latency_ok_calls']['p99'] for r in rs]),
                'peak_queued': first['peak_queued'],
                'pack_packed_sections': first.get('pack_packed_sections'),
                'other_tasks_share': [r.get('other_tasks_share') for r in rs],
                'ssr_blocks': first.get('ssr_blocks'),
                'lfs_blocks': first.get('lfs_blocks'),
                'pack_early_drains': first.get('pack_early_drains'),
                'pack_cap_stops': first.get('pack_cap_stops'),
                'gc_pack_max_blocks': first.get('gc_pack_max_blocks'),
                'extents_before': first.get('extents_before'),
                'extents_after': first.get('extents_after'),
                'ideal_per_section': first.get('ideal_per_section'),
                'ideal_global': first.get('ideal_global'),
            }
        comp = {}
        legacy = variants.get('off') or variants.get('stock')
        for p in ('stock', 'offset', 'sections'):
            pv = variants.get(p)
            if pv is None or legacy is None or pv is legacy:
                continue
            lp, pp = mean(legacy['latency_p99']), mean(pv['latency_p99'])
            comp[p + '_vs_legacy'] = {
                'instructions_per_block_ratio': ratio(pv['instructions_per_block_mean'],
                                                      legacy['instructions_per_block_mean']),
                'instructions_per_block_ratio_per_run': [
                    ratio(a, b) for a, b in zip(pv['instructions_per_block'],
                                                legacy['instructions_per_block'])],
                'process_instructions_per_block_ratio': ratio(
                    mean(pv['process_instructions_per_block']),
                    mean(legacy['process_instructions_per_block'])),
                'latency_p99_ratio': ratio(pp, lp),
            }
        out['cases'][case] = {'params': params, 'variants': variants, 'comparisons': comp}
    return out


def fmt_k(x):
    return 'n/a' if x is None else f'{x / 1000:.2f}'


def fmt_m(x):
    return 'n/a' if x is None else f'{x / 1e6:.2f}'


def fmt_list(xs, f):
    return ' / '.join(f(x) for x in xs)


def fmt_spread(x):
    return 'n/a' if x is None else f'{100 * x:.2f}%'


def cost_markdown(cost):
    L = ['', '## GC cost and sync-call latency (instruction counts)', '']
    h = cost['host']
    L.append(f"One boot of its own (`bench/run cost`, scripts/vm -I: QEMU "
             f"`-icount shift=0,sleep=off,align=off`, single-threaded TCG, one vCPU; "
             f"accel {h.get('accel')}, guest clocksource {h.get('clocksource')}, "
             f"trace clock {h.get('trace_clock')}), volumes in guest RAM (null_blk "
             f"memory_backed, irqmode=0), so no GC call waits for the host. The guest "
             f"clock then advances one per executed instruction: **instructions per moved "
             f"block** = the sum over the f2fs_gc_begin -> f2fs_gc_end intervals of every "
             f"sync GC call (the idle calls at the end too) / blocks moved; **process** = "
             f"the same from f2fs-gc's own CPU clock (its sysfs reads included); **latency** "
             f"= one f2fs_gc() call's interval (the stall a writer in f2fs_balance_fs() "
             f"would feel), over the calls that returned 0, p50/p99/max by nearest rank, "
             f"in millions of instructions (= ms of guest time at 1 instruction/ns). Every "
             f"variant ran the listed times, interleaved; figures are run 1 / run 2 and "
             f"their spread ((max - min) / mean). Counts repeat exactly; the spread is "
             f"what remains of timer ticks and other tasks.")
    wcases = [c for c in cost['cases'] if not c.startswith('scale-')]
    if wcases:
        L.append('')
        L.append('| case | variant | blocks moved | GC calls (ok) | k instr/block | spread '
                 '| vs legacy | process k instr/block | latency p50 M | p99 M | max M '
                 '| p99 vs legacy | peak queued |')
        L.append('|' + '---|' * 13)
        for cn in wcases:
            c = cost['cases'][cn]
            for vn, v in c['variants'].items():
                cp = c['comparisons'].get(vn + '_vs_legacy', {})
                L.append(f"| {cn} | {vn} | {fmt(v['blocks_moved'])}"
                         f"{'' if v['blocks_moved_repeat'] else ' (differs)'} | "
                         f"{v['gc_calls']} ({v['gc_calls_ok']}) | "
                         f"{fmt_list(v['instructions_per_block'], fmt_k)} | "
                         f"{fmt_spread(v['instructions_per_block_spread'])} | "
                         f"{fmt(cp.get('instructions_per_block_ratio'))} | "
                         f"{fmt_list(v['process_instructions_per_block'], fmt_k)} | "
                         f"{fmt_list(v['latency_p50'], fmt_m)} | "
                         f"{fmt_list(v['latency_p99'], fmt_m)} | "
                         f"{fmt_list(v['latency_max'], fmt_m)} | "
                         f"{fmt(cp.get('latency_p99_ratio'))} | {fmt(v['peak_queued'])} |")
        L.append('')
        L.append('Legacy = packing off (f2fs_packed, the same code as stock); "vs legacy" '
                 'divides the means. Goals: offset <= 1.05 x legacy '
                 'instructions per moved block, p99 <= 1.1 x legacy. The sections variant '
                 'packs up to gc_pack_sections victims per call: fewer, longer calls.')
    shares = [f"{cn} {vn} {fmt_list(v['other_tasks_share'], fmt_spread)}"
              for cn, c in cost['cases'].items() for vn, v in c['variants'].items()
              if any(x is not None for x in v['other_tasks_share'])]
    if shares:
        L.append('')
        L.append('Share of the calls\' instructions run by tasks other than the caller '
                 '(sched_switch, COST_SCHED=1; results.json runs[].tasks_in_calls names '
                 'them): ' + ', '.join(shares) + '.')
    bad = [f"{cn} {vn} run {r['rep']} ({'data changed' if r.get('data_intact') is False else 'fsck errors'})"
           for cn, c in cost['cases'].items() for vn, v in c['variants'].items()
           for r in v['runs'] if r.get('data_intact') is False or r.get('fsck_clean') is False]
    checked = any('data_intact' in r for c in cost['cases'].values()
                  for v in c['variants'].values() for r in v['runs'])
    if checked:
        L.append('')
        L.append('COST_VERIFY=1: checksums and fsck.f2fs around every run: ' +
                 ('**' + ', '.join(bad) + '**.' if bad else 'data intact and fsck clean everywhere.'))
    # The method's own check: repeated runs must agree.
    unstable = [f"{cn} {vn} ({fmt_spread(v['instructions_per_block_spread'])})"
                for cn, c in cost['cases'].items() for vn, v in c['variants'].items()
                if (v['instructions_per_block_spread'] or 0) > 0.05]
    if unstable:
        L.append('')
        L.append('**Instructions per block spread above 5% between runs** (the method did '
                 'not repeat): ' + ', '.join(unstable) + '.')
    scases = scale_cases(cost)
    if scases:
        L.append('')
        L.append('### Scaling with the section size')
        L.append('')
        c0 = cost['cases'][scases[0]]['params']
        L.append(f"{c0['files']} files x {c0['file_kib']} KiB written 4 KiB at a time "
                 f"round-robin (O_DIRECT), every even file deleted, sync GC until idle, "
                 f"on sections of 1, 4, 32, 128 segments; records = gc_pack_peak_queued "
                 f"(the most packing records held at once; in brackets the cap, "
                 f"gc_pack_max_blocks), early drains = gc_pack_early_drains (the queue "
                 f"reached the cap before a victim was scanned in full, so that victim "
                 f"was packed in more than one pass), cap stops = gc_pack_cap_stops (a "
                 f"gc_pack_sections batch ended by its summary-page bound), SSR blocks = "
                 f"blocks written into the holes of dirty segments since the mount "
                 f"(debugfs; n/a in runs before the figure was kept).")
        L.append('')
        L.append('| section MiB | mkfs | variant | extents before | after | ideal/section '
                 '| records (cap) | early drains | cap stops | blocks moved | SSR blocks '
                 '| GC calls (ok) | k instr/block | vs legacy | p50 M | p99 M | max M |')
        L.append('|' + '---|' * 17)
        for cn in scases:
            c = cost['cases'][cn]
            p = c['params']
            mib = p['segs_per_sec'] * p['blocks_per_seg'] * 4 // 1024
            for vn, v in c['variants'].items():
                cp = c['comparisons'].get(vn + '_vs_legacy', {})
                L.append(f"| {mib} | {p['mkfs_options']} | {vn} | {fmt(v['extents_before'])} | "
                         f"{fmt(v['extents_after'])} | {fmt(v['ideal_per_section'])} | "
                         f"{fmt(v['peak_queued'])}"
                         f"{'' if v['gc_pack_max_blocks'] is None else ' (%d)' % v['gc_pack_max_blocks']} | "
                         f"{fmt(v['pack_early_drains'])} | {fmt(v['pack_cap_stops'])} | "
                         f"{fmt(v['blocks_moved'])} | {fmt(v['ssr_blocks'])} | "
                         f"{v['gc_calls']} ({v['gc_calls_ok']}) | "
                         f"{fmt_list(v['instructions_per_block'], fmt_k)} | "
                         f"{fmt(cp.get('instructions_per_block_ratio'))} | "
                         f"{fmt_list(v['latency_p50'], fmt_m)} | "
                         f"{fmt_list(v['latency_p99'], fmt_m)} | "
                         f"{fmt_list(v['latency_max'], fmt_m)} |")
    return '\n'.join(L) + '\n'


def scale_cases(cost):
    """The scaling series' cases, smallest section first."""
    return sorted((c for c in cost['cases'] if c.startswith('scale-')),
                  key=lambda c: cost['cases'][c]['params'].get('segs_per_sec') or 0)


def cost_plot(cost, outdir):
    scases = scale_cases(cost)
    if not scases:
        return []
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    panels = [('extents after GC', lambda v: v['extents_after']),
              ('records (gc_pack_peak_queued)', lambda v: v['peak_queued']),
              ('k instructions per moved block', lambda v: v['instructions_per_block_mean']
               and v['instructions_per_block_mean'] / 1000),
              ('p99 sync GC call, M instructions', lambda v: mean(v['latency_p99'])
               and mean(v['latency_p99']) / 1e6)]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.0 * len(panels), 3.8), squeeze=False)
    sizes = {}
    for cn in scases:
        p = cost['cases'][cn]['params']
        sizes[cn] = p['segs_per_sec'] * p['blocks_per_seg'] * 4 // 1024
    for ax, (title, get) in zip(axes[0], panels):
        for vn in VARIANT_ORDER:
            xs, ys = [], []
            for cn in scases:
                v = cost['cases'][cn]['variants'].get(vn)
                if v is None or get(v) is None:
                    continue
                xs.append(sizes[cn])
                ys.append(get(v))
            if xs:
                ax.plot(xs, ys, marker='o', label=vn)
        if title.startswith('extents'):
            xs = [sizes[cn] for cn in scases]
            ref = [next(iter(cost['cases'][cn]['variants'].values())).get('ideal_per_section')
                   for cn in scases]
            if all(r is not None for r in ref):
                ax.plot(xs, ref, ls='--', color='#d62728', lw=1, label='ideal/section')
        ax.set_xscale('log', base=2)
        ax.set_xticks(sorted(set(sizes.values())))
        ax.set_xticklabels([str(s) for s in sorted(set(sizes.values()))])
        ax.set_xlabel('section size, MiB')
        ax.set_title(title, fontsize=10)
        if title.startswith(('extents', 'records', 'p99')):
            ax.set_yscale('log')      # spans from one to hundreds of sections
    for ax in axes[0]:
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
            break
    fig.suptitle('GC against section size (instruction-counting guest)')
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, 'cost-scaling.png'), dpi=110)
    plt.close(fig)
    return ['cost-scaling.png']


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: bench/report.py RESULTS_DIR')
    top = sys.argv[1]
    raw = os.path.join(top, 'raw')
    host = read_kv(os.path.join(raw, 'host.txt'))
    status = {}
    for line in open(os.path.join(raw, 'workloads.txt')) if os.path.exists(
            os.path.join(raw, 'workloads.txt')) else []:
        parts = line.split()
        if len(parts) == 3:
            status[parts[0]] = {'vm_status': int(parts[1]), 'seconds': int(parts[2])}
    res = {
        'format': 1,
        'host': {k: num(v) if num(v) is not None else v for k, v in host.items()},
        'workloads': {},
        'seed': SEED,
        'definitions': load_definitions(),
    }
    allmaps = {}
    for wname in sorted(os.listdir(raw)):
        wdir = os.path.join(raw, wname)
        if not os.path.isdir(wdir):
            continue
        w, maps = analyse_workload(wdir)
        if w is None:
            res['workloads'][wname] = {'params': {}, 'variants': {}, 'error': 'no results',
                                       **status.get(wname, {})}
            continue
        w.update(status.get(wname, {}))
        res['workloads'][wname] = w
        allmaps[wname] = maps
    res['workloads'] = {k: v for k, v in res['workloads'].items() if v.get('variants')}
    res['plots'] = plots(res, allmaps, top)
    # the cost run, when bench/run cost ran
    if os.path.exists(os.path.join(raw, 'cost', 'cost.txt')):
        res['cost'] = analyse_cost(os.path.join(raw, 'cost'))
        res['plots'] += cost_plot(res['cost'], top)
        # beside a workload's own figures, when it ran in the same report
        for wname, w in res['workloads'].items():
            cc = res['cost']['cases'].get(wname)
            for vn, v in (w['variants'].items() if cc else []):
                cv = cc['variants'].get(vn)
                if cv:
                    v['cost'] = {k: cv[k] for k in (
                        'instructions_per_block', 'instructions_per_block_spread',
                        'latency_p50', 'latency_p99', 'latency_max', 'gc_calls_ok')}
    with open(os.path.join(top, 'results.json'), 'w') as f:
        json.dump(res, f, indent=1, sort_keys=False)
        f.write('\n')
    with open(os.path.join(top, 'results.md'), 'w') as f:
        f.write(markdown(res))
        if 'cost' in res:
            f.write(cost_markdown(res['cost']))
    # the writer-latency tables on standard output too (bench/run latency)
    for wname, w in res['workloads'].items():
        lt = latency_table(w)
        if lt:
            print(f"{wname} ({w['params'].get('kernel')}, QUICK={res['host'].get('quick')}):")
            print('\n'.join(lt))
            print()
    print(os.path.join(top, 'results.md'))


if __name__ == '__main__':
    main()
