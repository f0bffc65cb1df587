# SPDX-License-Identifier: GPL-2.0
#
# The storm counters of one fstests test, from the fstests lane's mount
# log (tests/lib/fstests-mount writes it): awk -v t=TEST -f THIS LOG
# prints "MOUNTS STORMED BG_GC MOVED PACKED". gc_urgent reads as the
# mode's name in 6.1 and as its number in 6.12 and 7.x (4, high).
$1 == "mount" && $2 == t {
	m++
	if ($0 ~ / bggc=sync / && $0 ~ / urgent=(GC_URGENT_HIGH|4) /) s++
}
$1 == "umount" && $2 == t {
	for (i = 4; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[2] ~ /^[0-9]+$/) n[kv[1]] += kv[2]
		else if (!(kv[1] in n)) n[kv[1]] = "-"
	}
}
END {
	p = ("packed_blocks" in n) ? n["packed_blocks"] : "-"
	print m + 0, s + 0, n["bg_gc"] + 0, n["moved"] + 0, p
}
