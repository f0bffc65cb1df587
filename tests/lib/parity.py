# SPDX-License-Identifier: GPL-2.0
"""The differential parity lane (issue 39, item 2), guest side.

  parity.py gen SEED STEPS [SERIES]     the operation sequence of SEED
  parity.py run SEED STEPS SERIES FS MNT DEV LOG
                                        run it on the volume mounted on MNT
                                        (FS: f2fs or f2fs_packed), one record
                                        per step in LOG, the block map and
                                        contents at its end
  parity.py compare MODE SEED SERIES DIVERGENCES STOCK OURS
                                        MODE full: knobs off, call by call;
                                        MODE packing: return codes, contents,
                                        and counts until blocks first move

The same SEED gives the same sequence on every run (random.Random(SEED));
what the kernel or the volume cannot take is named and left out (a line
"# left out: ..." in the log, also on the console), never passed silently.
"""

import ctypes
import errno
import fcntl
import hashlib
import mmap
import os
import random
import re
import struct
import subprocess
import sys
import time

FILES = 8
BLK = 4096
# F2FS ioctls (include/uapi/linux/f2fs.h)
IOC_GC = 0x4004f506                 # _IOW(0xf5, 6, __u32)
IOC_GC_RANGE = 0x4018f50b           # _IOW(0xf5, 11, struct f2fs_gc_range)
IOC_SET_PIN = 0x4004f50d            # _IOW(0xf5, 13, __u32)
IOC_RESIZE = 0x4008f510             # _IOW(0xf5, 16, __u64)
FS_IOC_FIEMAP = 0xc020660b
FALLOC_KEEP_SIZE, FALLOC_PUNCH_HOLE = 1, 2

# Steps a timer drives: compared by return code and counts at their end,
# not call by call (the GC thread's and checkpoint=disable's own loops).
TIMED = ("remount", "urgent")


def gen(seed, steps, series=""):
    """The sequence of SEED: a list of op lines ("op arg...")."""
    rnd = random.Random(seed)
    ops, sizes, cp_off = [], [0] * FILES, False
    table = [("write", 24), ("dwrite", 10), ("punch", 4), ("truncate", 3),
             ("falloc", 3), ("unlink", 6), ("rename", 3), ("sync", 5),
             ("cp", 5), ("gc", 10), ("gcbg", 4), ("gcrange", 8),
             ("urgent", 2), ("resize", 1), ("pin", 2), ("reserve", 3),
             ("spread", 6)]
    names = [n for n, w in table for _ in range(w)]
    pins, reserved = 0, False
    while len(ops) < steps:
        op = rnd.choice(names)
        if cp_off and rnd.random() < 0.5:
            # under checkpoint=disable mostly writes, unlinks and sync GC:
            # sections emptied there stay dirty (issue 39's case)
            op = rnd.choice(("write", "dwrite", "unlink", "gc", "gc"))
        f = rnd.randrange(FILES)
        if op in ("write", "dwrite"):
            off = rnd.randrange(0, 1024)
            n = rnd.choice((1, 8, 64, 256, 512, 512))
            sync = rnd.choice(("", "", "fsync"))
            ops.append(f"{op} f{f} {off} {n} {sync}".rstrip())
            sizes[f] = max(sizes[f], off + n)
        elif op == "spread":
            # every file's blocks in turn, O_DIRECT (allocated in that
            # order): sections of many files, which an unlink or an
            # overwrite leaves dirty for GC and GC_RANGE
            off, rounds, n = rnd.randrange(0, 512), rnd.choice((16, 32, 64)), rnd.choice((1, 4, 8))
            ops.append(f"spread {off} {rounds} {n}")
            for g in range(FILES):
                sizes[g] = max(sizes[g], off + rounds * n)
        elif op == "punch":
            ops.append(f"punch f{f} {rnd.randrange(0, 384)} {rnd.choice((1, 16, 64, 256))}")
        elif op == "truncate":
            sizes[f] = rnd.randrange(0, max(1, sizes[f]) + 1)
            ops.append(f"truncate f{f} {sizes[f]}")
        elif op == "falloc":
            keep = rnd.choice(("keep", "extend"))
            ops.append(f"falloc f{f} {rnd.randrange(0, 384)} {rnd.choice((8, 64, 256))} {keep}")
        elif op == "unlink":
            ops.append(f"unlink f{f}")
            sizes[f] = 0
        elif op == "rename":
            g = rnd.randrange(FILES)
            ops.append(f"rename f{f} f{g}")
            sizes[g], sizes[f] = sizes[f], 0
        elif op == "sync":
            ops.append("sync")
        elif op == "cp":
            # mostly write, overwrite and unlink under checkpoint=disable,
            # then GC over what that emptied (issue 39's case)
            cp_off = not cp_off
            if reserved:
                ops.append("reserve default")
                reserved = False
            ops.append("remount checkpoint=" + ("disable" if cp_off else "enable"))
        elif op == "gc":
            ops.append("gc sync")
        elif op == "gcbg":
            ops.append("gc async")
        elif op == "gcrange":
            mode = rnd.choice(("sync", "sync", "async"))
            ops.append(f"gcrange {mode} {rnd.randrange(1 << 16)} {rnd.choice((1, 1, 2, 4))}")
        elif op == "urgent":
            ops.append("urgent")
        elif op == "resize":
            ops.append("resize 1")
        elif op == "pin":
            if cp_off and series == "6.1":
                # stock 6.1 crashes here (f2fs/011, test 39): 6.1's 0004
                ops.append("# left out: pinned fallocate under checkpoint=disable on 6.1 (stock 6.1 crashes there, f2fs/011; our 0004 returns ENOSPC, test 39)")
                continue
            ops.append(f"pin p{pins} {rnd.choice((1, 2, 4))}")
            pins += 1
        elif op == "reserve" and cp_off:
            # pressure under checkpoint=disable, undone before enabling it
            # (it cannot be disabled again while GC cannot keep up)
            ops.append(f"reserve {rnd.choice((1, 2, 4, 8))}")
            reserved = True
    if reserved:
        ops.append("reserve default")
    if cp_off:
        ops.append("remount checkpoint=enable")
    ops.append("sync")
    return ops


class Vol:
    def __init__(self, fs, mnt, dev, series):
        self.fs, self.mnt, self.dev, self.series = fs, mnt, dev, series
        self.bdev = os.path.basename(os.path.realpath(dev))
        self.sys = f"/sys/fs/{fs}/{self.bdev}"
        self.note = []
        self.reserved = None
        self.range = None

    def sb(self):
        """(block_count, segs_per_sec, main_blkaddr) from the super block."""
        with open(self.dev, "rb") as d:
            d.seek(1024)
            raw = d.read(128)
        segs_per_sec = struct.unpack_from("<I", raw, 24)[0]
        block_count = struct.unpack_from("<Q", raw, 36)[0]
        main = struct.unpack_from("<I", raw, 92)[0]
        return block_count, segs_per_sec, main

    def counts(self):
        """free sections, free, dirty and prefree segments (debugfs)."""
        c, on = {}, False
        with open(f"/sys/kernel/debug/{self.fs}/status") as s:
            for line in s:
                if line.startswith("=====[ partition info("):
                    on = f"({self.bdev})" in line
                elif on:
                    m = re.match(r"  - (Dirty|Prefree|Free): (\d+)(?: \((\d+)\))?", line)
                    if m:
                        c[m.group(1)] = m.group(2)
                        if m.group(3):
                            c["FreeSec"] = m.group(3)
                    if line.startswith("  - Free:"):
                        break
        return (f"free_secs={c.get('FreeSec')} free={c.get('Free')} "
                f"dirty={c.get('Dirty')} prefree={c.get('Prefree')}")

    def path(self, name):
        return os.path.join(self.mnt, name)

    def section_valid(self):
        """Valid blocks of every section of the main area, from
        /proc/fs/<fs>/<dev>/segment_info."""
        _, sps, _ = self.sb()
        valid = []
        with open(f"/proc/fs/{self.fs}/{self.bdev}/segment_info") as f:
            for line in f:
                for m in re.finditer(r"\d+\|(\d+)", line):
                    valid.append(int(m.group(1)))
        return [sum(valid[i:i + sps]) for i in range(0, len(valid), sps)]

    def current_sections(self):
        """The sections of the current segments (debugfs status: the
        column named secno, after blkoff on 7.x)."""
        cur, on, col = set(), False, None
        with open(f"/sys/kernel/debug/{self.fs}/status") as s:
            for line in s:
                if line.startswith("=====[ partition info("):
                    on = f"({self.bdev})" in line
                elif on and line.strip().startswith("TYPE"):
                    col = line.split()[1:].index("secno")
                elif on and col is not None:
                    m = re.match(r"  - (?:(?:COLD|WARM|HOT|ATGC) +data|(?:Dir|File) +dnode"
                                 r"|Indir nodes|Pinned file): +(-?\d+(?: +-?\d+)*)", line)
                    if not m:
                        if line.startswith("  - Free:"):
                            break
                        continue
                    cur.add(int(m.group(1).split()[col]))
        return cur

    def dirty_sections(self):
        """Sections GC_RANGE can collect: some valid blocks, not all,
        no current segment in them; with every section's valid blocks."""
        _, sps, _ = self.sb()
        valid, cur = self.section_valid(), self.current_sections()
        return [i for i, v in enumerate(valid)
                if 0 < v < sps * 512 and i not in cur], valid


def ioctl(path, req, arg):
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, req, arg)
    finally:
        os.close(fd)


def fill(name, off, n):
    """N blocks for NAME at OFF, page-aligned (O_DIRECT): contents from
    the step, not from chance, equal on every run."""
    buf = mmap.mmap(-1, n * BLK)
    seed = hashlib.sha256(f"{name}{off}{n}".encode()).digest()
    buf.write((seed * (n * BLK // len(seed) + 1))[:n * BLK])
    return buf


def write(vol, name, off, n, direct, sync):
    flags = os.O_WRONLY | os.O_CREAT | (os.O_DIRECT if direct else 0)
    fd = os.open(vol.path(name), flags, 0o644)
    try:
        os.pwrite(fd, fill(name, off, n), off * BLK)
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def spread(vol, off, rounds, n):
    """Every file's N blocks in turn, ROUNDS times, O_DIRECT."""
    fds = [os.open(vol.path(f"f{g}"), os.O_WRONLY | os.O_CREAT | os.O_DIRECT, 0o644)
           for g in range(FILES)]
    try:
        for r in range(rounds):
            for g, fd in enumerate(fds):
                os.pwrite(fd, fill(f"f{g}", off + r * n, n), (off + r * n) * BLK)
    finally:
        for fd in fds:
            os.close(fd)


libc = ctypes.CDLL(None, use_errno=True)
libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_long, ctypes.c_long]


def fallocate(path, mode, off, length, create=False):
    fd = os.open(path, os.O_WRONLY | (os.O_CREAT if create else 0), 0o644)
    try:
        if libc.fallocate(fd, mode, off, length):
            e = ctypes.get_errno()
            raise OSError(e, os.strerror(e))
    finally:
        os.close(fd)


def syncfs(vol):
    """syncfs(2): no flusher started beside it, as sync(2) does, whose
    write-back then races the caller's and lays blocks out by chance."""
    fd = os.open(vol.mnt, os.O_RDONLY)
    try:
        if libc.syncfs(fd):
            e = ctypes.get_errno()
            raise OSError(e, os.strerror(e))
    finally:
        os.close(fd)


def sysfs(vol, knob, value):
    with open(f"{vol.sys}/{knob}", "w") as f:
        f.write(f"{value}\n")


def mount(vol, opts):
    r = subprocess.run(["mount", "-o", "remount," + opts, vol.mnt],
                       capture_output=True, text=True)
    if r.returncode:
        # mount(8) says why, not the errno: the status is compared
        vol.note = r.stderr.strip().splitlines()[-1:]
        raise OSError(errno.EIO, f"mount status {r.returncode}")


def settle(vol, secs=1.5, limit=120):
    """Until the counts stay the same for SECS (the GC thread idle)."""
    last, since, end = None, time.time(), time.time() + limit
    while time.time() < end:
        now = vol.counts()
        if now != last:
            last, since = now, time.time()
        elif time.time() - since >= secs:
            return
        time.sleep(0.1)
    raise OSError(errno.ETIMEDOUT, "GC thread never went idle")


def step(vol, op):
    a = op.split()
    k = a[0]
    if k in ("write", "dwrite"):
        write(vol, a[1], int(a[2]), int(a[3]), k == "dwrite", len(a) > 4)
    elif k == "spread":
        spread(vol, int(a[1]), int(a[2]), int(a[3]))
    elif k == "punch":
        fallocate(vol.path(a[1]), FALLOC_PUNCH_HOLE | FALLOC_KEEP_SIZE,
                  int(a[2]) * BLK, int(a[3]) * BLK)
    elif k == "truncate":
        os.truncate(vol.path(a[1]), int(a[2]) * BLK)
    elif k == "falloc":
        fallocate(vol.path(a[1]), FALLOC_KEEP_SIZE if a[4] == "keep" else 0,
                  int(a[2]) * BLK, int(a[3]) * BLK, create=True)
    elif k == "unlink":
        os.unlink(vol.path(a[1]))
    elif k == "rename":
        os.rename(vol.path(a[1]), vol.path(a[2]))
    elif k == "sync":
        syncfs(vol)
    elif k == "remount":
        mount(vol, a[1])
    elif k == "gc":
        ioctl(vol.mnt, IOC_GC, struct.pack("<I", a[1] == "sync"))
    elif k == "gcrange":
        # from the K-th dirty section (stock's and ours while in step),
        # over up to N dirty sections in a row: sections GC collects
        _, sps, main = vol.sb()
        dirty, valid = vol.dirty_sections()
        if dirty:
            first = dirty[int(a[2]) % len(dirty)]
            n = 1
            while n < int(a[3]) and first + n in dirty:
                n += 1
        else:
            # none: a free section from the K-th on (ENODATA), not a
            # current one (EAGAIN)
            free = [i for i, v in enumerate(valid) if not v] or [0]
            first, n = free[int(a[2]) % len(free)], 1
        vol.range = (first, n, [valid[i] for i in range(first, first + n)])
        start = main + first * sps * 512
        ioctl(vol.mnt, IOC_GC_RANGE, struct.pack(
            "<IxxxxQQ", a[1] == "sync", start, n * sps * 512 - 1))
    elif k == "urgent":
        # the GC thread, started for it and stopped after: timer-driven
        mount(vol, "background_gc=on")
        sysfs(vol, "gc_urgent_sleep_time", 10)
        sysfs(vol, "gc_urgent", 1)
        try:
            settle(vol)
        finally:
            sysfs(vol, "gc_urgent", 0)
            # which set gc_mode back to normal: background GC greedy
            # again (tests/lib/parity.sh)
            sysfs(vol, "gc_idle", 2)
            mount(vol, "background_gc=off")
        syncfs(vol)
    elif k == "resize":
        blocks, sps, _ = vol.sb()
        ioctl(vol.mnt, IOC_RESIZE,
              struct.pack("<Q", blocks - int(a[1]) * sps * 512))
    elif k == "pin":
        _, sps, _ = vol.sb()
        p = vol.path(a[1])
        os.close(os.open(p, os.O_WRONLY | os.O_CREAT, 0o644))
        ioctl(p, IOC_SET_PIN, struct.pack("<I", 1))
        fallocate(p, 0, 0, int(a[2]) * sps * 512 * BLK)
    elif k == "reserve":
        # free sections less the argument made reserved: GC under pressure
        if vol.reserved is None:
            with open(f"{vol.sys}/reserved_segments") as f:
                vol.reserved = int(f.read())
        if a[1] == "default":
            sysfs(vol, "reserved_segments", vol.reserved)
            return
        _, sps, _ = vol.sb()
        free = int(re.search(r"free_secs=(\d+)", vol.counts()).group(1))
        sysfs(vol, "reserved_segments", max(0, free - int(a[1])) * sps)


def trace_take():
    """The GC events of the step, the trace emptied."""
    with open("/sys/kernel/tracing/trace") as t:
        lines = t.read().splitlines()
    with open("/sys/kernel/tracing/trace", "w") as t:
        t.write("")
    out, begin, idle = [], None, 0
    for line in lines:
        m = re.search(r"(f2fs_get_victim|f2fs_gc_begin|f2fs_gc_end): (.*)", line)
        if not m:
            continue
        # the page cache's dirty counts follow write-back's pace, not GC's
        fields = re.sub(r"dev = \(\d+,\d+\), |nodes = \d+, dents = \d+, imeta = \d+, ",
                        "", m.group(2))
        # cost-benefit and age-threshold costs are the clock's
        if "Greedy" not in fields:
            fields = re.sub(r"cost = \d+", "cost = (clock)", fields)
        if m.group(1) == "f2fs_gc_begin":
            begin = len(out)
        # A call that found no victim changed nothing; how often
        # write-back's f2fs_balance_fs() makes one depends on its pace:
        # counted apart, not compared.
        if (m.group(1) == "f2fs_gc_end" and begin == len(out) - 1 and
                fields.startswith("ret = -61,")):
            out.pop()
            idle += 1
            continue
        out.append(f"{m.group(1)}: {fields}")
    return out, idle


def range_record(vol, events):
    """What a GC_RANGE step did to its range: the sections it aimed at,
    those of them that held blocks and hold none now, and the victims
    picked in it and outside it."""
    first, n, before = vol.range
    _, sps, _ = vol.sb()
    after = vol.section_valid()[first:first + n]
    held = sum(1 for v in before if v)
    emptied = sum(1 for b, v in zip(before, after) if b and not v)
    inside = outside = 0
    for t in events:
        m = re.search(r"f2fs_get_victim: .*victim = (\d+),", t)
        if m:
            if first <= int(m.group(1)) // sps < first + n:
                inside += 1
            else:
                outside += 1
    return (f"= range: {n} from section {first}, {held} held blocks, "
            f"{emptied} emptied, victims {inside} in it, {outside} outside")


def unsupported(vol, op):
    """Why VOL's kernel cannot take OP, or None."""
    k = op.split()[0]
    if k == "reserve" and not os.path.exists(f"{vol.sys}/reserved_segments"):
        return f"{op}: no reserved_segments knob on {vol.series}"
    return None


def final_state(vol, log):
    for root, _, files in sorted(os.walk(vol.mnt)):
        for f in sorted(files):
            p = os.path.join(root, f)
            rel = os.path.relpath(p, vol.mnt)
            with open(p, "rb") as fh:
                log.write(f"END sha256 {rel} {hashlib.sha256(fh.read()).hexdigest()}\n")
            for ext in fiemap(p):
                log.write(f"END fiemap {rel} {ext}\n")


def fiemap(path):
    fd = os.open(path, os.O_RDONLY)
    out, start = [], 0
    try:
        while True:
            n = 64
            buf = bytearray(struct.pack("<QQIIII", start, (1 << 64) - 1 - start,
                                        1, 0, n, 0) + bytes(56 * n))
            fcntl.ioctl(fd, FS_IOC_FIEMAP, buf)
            mapped = struct.unpack_from("<I", buf, 20)[0]
            last = False
            for i in range(mapped):
                lo, ph, ln, _, _, fl = struct.unpack_from("<QQQQQI", buf, 32 + 56 * i)
                out.append(f"{lo // BLK} {ph // BLK} {ln // BLK} {fl:#x}")
                start = lo + ln
                last = bool(fl & 1)
            if last or mapped < n:
                return out
    finally:
        os.close(fd)


def run(seed, steps, series, fs, mnt, dev, logpath):
    vol = Vol(fs, mnt, dev, series)
    trace_take()  # what came before
    with open(logpath, "w") as log:
        for i, op in enumerate(gen(seed, steps, series), 1):
            if op.startswith("#"):
                log.write(f"S{i} {op}\n")
                continue
            why = unsupported(vol, op)
            if why:
                log.write(f"S{i} # left out: {why}\n")
                continue
            try:
                step(vol, op)
                rc = "0"
            except OSError as e:
                rc = errno.errorcode.get(e.errno, str(e.errno))
            timed = " (timer-bound)" if op.split()[0] in TIMED else ""
            log.write(f"S{i} {op}{timed} | rc={rc} | {vol.counts()}\n")
            events, idle = trace_take()
            for t in events:
                log.write(f"S{i}   {t}\n")
            if vol.range:
                log.write(f"S{i} {range_record(vol, events)}\n")
                vol.range = None
            for n in vol.note:
                log.write(f"S{i} # {n}\n")
            vol.note = []
            if idle:
                log.write(f"S{i} # {idle} f2fs_gc() calls found no victim (not compared)\n")
            log.flush()
        final_state(vol, log)


def divergences(path, series):
    """(name, regex, replacement) of every named divergence of SERIES:
    applied to stock's record, it gives what ours must print."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, ser, expr = line.split(None, 2)
            if ser not in ("*", series):
                continue
            m = re.fullmatch(r"s/(.*)/(.*)/", expr)
            out.append((name, re.compile(m.group(1)), m.group(2)))
    return out


RANGE = re.compile(r" = range: (\d+) from section (\d+), (\d+) held blocks, "
                   r"(\d+) emptied, victims (\d+) in it, (\d+) outside")


def range_rule(stock, ours, step):
    """Upstream's rule for the sections a sync GC_RANGE frees, checked on
    ours where stock's own volume kept it: GC_RANGE never batches, so
    each f2fs_gc() call collects the section it is given; only while free
    sections stay short does f2fs_gc()'s loop pick greedy victims outside
    the range. Where stock picked none outside its range, ours must pick
    none outside its own, and a call that returned 0 has emptied every
    section of the range that held blocks. (With packing on the two
    volumes part once blocks first move: each aims at its own K-th dirty
    section, so sections are compared by this rule, not by number.)
    None when kept, else what broke it."""
    if not stock and not ours:
        return None
    if not stock or not ours:
        return "a GC_RANGE record on one side only"
    s, o = RANGE.search(stock[0]), RANGE.search(ours[0])
    if int(s.group(6)) == 0 and int(o.group(6)) > 0:
        return (f"GC_RANGE collected {o.group(6)} victims outside its range"
                f" (stock: none outside)")
    if (" gcrange sync " in step[0] and " | rc=0 | " in step[0] and
            int(o.group(4)) < int(o.group(3))):
        return (f"GC_RANGE returned 0 with {int(o.group(3)) - int(o.group(4))}"
                f" sections of its range still holding blocks")
    return None


def alike_ranges(stock, ours):
    """False when one GC_RANGE step's range held blocks and the other's
    held none (no dirty section left on that volume)."""
    s = [RANGE.search(x) for x in stock if " = range: " in x]
    o = [RANGE.search(x) for x in ours if " = range: " in x]
    if not s or not o:
        return True
    return (int(s[0].group(3)) > 0) == (int(o[0].group(3)) > 0)


def alike_victims(stock, ours):
    """False when one GC ioctl took a victim (0) and the other found none
    (ENODATA): once packing has laid blocks out its own way, whether a
    volume has a victim left (under checkpoint=disable: one it may take)
    is the volume's state, not the call's behaviour. Any other return
    code must still be stock's."""
    if not ours or not re.match(r"S\d+ gc ", stock[0]):
        return True
    rc = {re.search(r" \| rc=(\S+) ", x).group(1) for x in (stock[0], ours[0])}
    return rc != {"0", "ENODATA"}


def compare(mode, seed, series, divpath, stock, ours):
    """0 when OURS matches STOCK; else the seed, the steps up to the
    first difference and both records of it, and 1."""
    named = divergences(divpath, series)
    used = set()

    def expect(line):
        for name, rx, rep in named:
            new = rx.sub(rep, line)
            if new != line:
                used.add(name)
                line = new
        return line

    def records(path):
        steps = {}
        order = []
        for line in open(path):
            line = line.rstrip("\n")
            key = line.split(" ", 1)[0]
            if key not in steps:
                order.append(key)
                steps[key] = []
            steps[key].append(line)
        return order, steps

    s_order, s_rec = records(stock)
    o_order, o_rec = records(ours)
    lockstep = True
    for key in s_order:
        want = [expect(x) for x in s_rec[key] if " # " not in x]
        got = [x for x in o_rec.get(key, []) if " # " not in x]
        if not want:
            continue
        if mode == "full" and "(timer-bound)" in want[0]:
            want, got = want[:1], got[:1]
        rule = None
        if mode == "packing" and key != "END":
            rule = range_rule([x for x in want if " = range: " in x],
                              [x for x in got if " = range: " in x], got[:1] or [""])
            # blocks moved once stock's GC picked a victim: from there
            # packing lays them out its own way
            moved = any("f2fs_get_victim" in x for x in want)
            if not lockstep and not (alike_ranges(want, got) and
                                     alike_victims(want, got)):
                # one GC call had a victim to take, the other none
                # (ENODATA): their return codes are not alike
                want, got = [], []
            elif not lockstep or moved:
                # from the step where blocks first move (a batch may
                # collect more than stock's one section): return codes only
                want = [re.sub(r" \| free_secs=.*", "", want[0])]
                got = [re.sub(r" \| free_secs=.*", "", got[0])] if got else []
            else:
                want, got = want[:1], got[:1]
            if moved:
                lockstep = False
        if mode == "packing" and key == "END":
            # A pinned file's fallocate maps blocks without zeroing them
            # (stock too): it reads what the volume held there, which
            # packing lays out its own way. Written files only.
            want = [x for x in want if x.startswith("END sha256 f")]
            got = [x for x in got if x.startswith("END sha256 f")]
        if want != got or rule:
            print(f"# parity: DIVERGENCE, seed {seed}, series {series}, {mode}: first at {key}")
            if rule:
                print(f"# {rule}")
                want += [x for x in s_rec[key] if " = range: " in x]
                got += [x for x in o_rec.get(key, []) if " = range: " in x]
            print(f"# replay: PARITY_SEEDS={seed} scripts/parity -k {os.environ.get('KVER', series)}")
            for k in s_order[:s_order.index(key) + 1]:
                if k != "END":
                    print(f"#   {s_rec[k][0]}")
            for x in want:
                if x not in got:
                    print(f"# - stock: {x}")
            for x in got:
                if x not in want:
                    print(f"# + ours:  {x}")
            return 1
    if used:
        print(f"# parity: named divergences seen: {' '.join(sorted(used))}")
    return 0


def main():
    cmd = sys.argv[1]
    if cmd == "gen":
        for op in gen(int(sys.argv[2]), int(sys.argv[3]),
                      sys.argv[4] if len(sys.argv) > 4 else ""):
            print(op)
    elif cmd == "run":
        run(int(sys.argv[2]), int(sys.argv[3]), *sys.argv[4:9])
    elif cmd == "compare":
        sys.exit(compare(*sys.argv[2:8]))
    else:
        sys.exit(f"parity.py: unknown command {cmd}")


if __name__ == "__main__":
    main()
