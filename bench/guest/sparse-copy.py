#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""sparse-copy.py SRC DST: copy the data regions of the sparse file SRC
(found with SEEK_DATA / SEEK_HOLE) to the same offsets of DST, a fresh
(all-zero) block device, skipping 1 MiB chunks that read as zeros.

bench/guest/cost.sh keeps its golden volumes as sparse files in tmpfs:
a volume of several GiB holds a few hundred MiB of data, and dd would
read (and conv=sparse compare) every zero byte of it, which under
instruction-counting TCG costs minutes.
"""
import os
import sys

CHUNK = 1 << 20


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: sparse-copy.py SRC DST')
    fi = os.open(sys.argv[1], os.O_RDONLY)
    fo = os.open(sys.argv[2], os.O_WRONLY)
    end = os.fstat(fi).st_size
    off = written = 0
    while off < end:
        try:
            data = os.lseek(fi, off, os.SEEK_DATA)
        except OSError:
            break			# ENXIO: no data beyond off
        hole = os.lseek(fi, data, os.SEEK_HOLE)
        pos = data
        while pos < hole:
            buf = os.pread(fi, min(CHUNK, hole - pos), pos)
            if not buf:
                break
            if buf.count(0) != len(buf):
                os.pwrite(fo, buf, pos)
                written += len(buf)
            pos += len(buf)
        off = hole
    os.fsync(fo)
    print(written)


if __name__ == '__main__':
    main()
