# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# 40-zoned-packing with zone capacity smaller than zone size: 8 MiB zones
# of which 6 MiB are writable (null_blk zone_capacity), so each section
# has 3 usable segments and an unusable one. 36 files of 1 MiB fill six
# sections' capacity. Packing off and on: extents, sha256, fsck, zone
# resets as there; and seg_freed counts exactly the 3 usable segments of
# each freed section, never the unusable tail (f2fs_gc_end sums: every
# victim section is fully migrated, none has a segment already free).
# Only the metadata zones are conventional: a conventional zone in the
# main area makes stock fsck.f2fs disagree with the kernel (see
# 43-zoned-side-by-side).
# vm: -d 0
set -eu
. "$REPO/tests/lib/zoned.sh"

load_packed
need_gc_tool
zoned_nullb dev zcap 64 8 6 3

ZONED_FILES=36
zoned_packing_run off off "$dev" 0 "$dev" -m "$dev"
zoned_packing_run on on "$dev" 0 "$dev" -m "$dev"
zoned_packing_checks 3 6
finish
