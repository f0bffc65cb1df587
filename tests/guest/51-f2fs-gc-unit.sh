# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# f2fs-gc@.service's command line, as systemd would run it for a mount
# point: ExecStart= of tools/f2fs-gc/systemd/f2fs-gc@.service with the
# instance's specifiers (%i, %I, %f), the unit's Environment= and its
# EnvironmentFile=s in order (a missing "-" file skipped, a later one
# winning), $VAR split into words and ${VAR} kept as one, exactly as
# systemd.exec(5) and systemd.unit(5) say. The guest has no systemd, so
# the expansion is done here; two paths differ from an installed system:
# the unit's /usr/sbin/f2fs-gc is the tree's build, and the environment
# files are read below a scratch directory, as the guest's /etc is the
# host's, read-only. On an f2fs_packed volume with holes, mounted at a
# path that systemd-escape must escape, the unit's default pass and a pass
# with per-mount-point options run GC; the data's sha256, fsck and dmesg
# stay clean.
# vm: -d 1 -s 256M
set -eu
# shellcheck source=tests/lib/guest.sh
. "$REPO/tests/lib/guest.sh"

GC=$REPO/tools/f2fs-gc/f2fs-gc
UNIT=$REPO/tools/f2fs-gc/systemd/f2fs-gc@.service
ETC=/tmp/unit-root
must "f2fs-gc is built (make -C tools/f2fs-gc)" test -x "$GC"
must "systemd-escape is there" command -v systemd-escape

# unit_value UNIT KEY: every KEY= line of UNIT's [Service], in order.
unit_values() {
	awk -v k="$2" '/^\[/ { s = ($0 == "[Service]") }
		s && index($0, k "=") == 1 { print substr($0, length(k) + 2) }' "$1"
}

# specifiers TEXT INSTANCE: %i, %I, %f and %% of an instance unit.
specifiers() {
	local t=$1 i=$2 I f
	I=$(systemd-escape --unescape "$i")
	f=$(systemd-escape --unescape --path "$i")
	t=${t//%%/$'\001'}
	t=${t//%i/$i}
	t=${t//%I/$I}
	t=${t//%f/$f}
	printf '%s' "${t//$'\001'/%}"
}

# unquote VALUE: one level of "..." or '...' around a value.
unquote() {
	case $1 in
	\"*\") v=${1#\"}; printf '%s' "${v%\"}" ;;
	\'*\') v=${1#\'}; printf '%s' "${v%\'}" ;;
	*) printf '%s' "$1" ;;
	esac
}

# unit_argv UNIT INSTANCE: ExecStart's argv, one word a line, for the
# instance; the environment files are read below $ETC.
unit_argv() {
	local unit=$1 inst=$2 line file kv w cmd v
	declare -A env=()
	while IFS= read -r line; do
		kv=$(unquote "$line")
		env[${kv%%=*}]=${kv#*=}
	done < <(unit_values "$unit" Environment)
	while IFS= read -r file; do
		file=$(specifiers "$file" "$inst")
		case $file in
		-*) file=${file#-}; [ -e "$ETC$file" ] || continue ;;
		esac
		[ -r "$ETC$file" ] || { echo "no environment file $file" >&2; return 1; }
		while IFS= read -r line; do
			case $line in '' | '#'* | ';'*) continue ;; esac
			kv=${line#export }
			env[${kv%%=*}]=$(unquote "${kv#*=}")
		done < "$ETC$file"
	done < <(unit_values "$unit" EnvironmentFile)
	cmd=$(specifiers "$(unit_values "$unit" ExecStart)" "$inst")
	# Words of the command: $VAR splits its value, ${VAR} is one word.
	read -ra words <<< "$cmd"
	for w in "${words[@]}"; do
		case $w in
		\$\{*\})
			v=${w#\$\{}
			echo "${env[${v%\}}]:-}" ;;
		\$*)
			v=${w#\$}
			# shellcheck disable=SC2086 # split, as systemd does
			for v in ${env[$v]:-}; do echo "$v"; done ;;
		*) echo "$w" ;;
		esac
	done
}

# run_unit INSTANCE LOG: the unit's command line, with the tree's f2fs-gc
# for /usr/sbin/f2fs-gc; its exit status.
run_unit() {
	local -a argv
	mapfile -t argv < <(unit_argv "$UNIT" "$1")
	log "ExecStart: $(printf '<%s> ' "${argv[@]}")"
	[ "${argv[0]}" = /usr/sbin/f2fs-gc ] || { log "ExecStart is not /usr/sbin/f2fs-gc"; return 99; }
	argv[0]=$GC
	"${argv[@]}" > "$2" 2>&1
}

# unit_ok STATUS: what the unit's SuccessExitStatus= (and 0) take.
unit_ok() {
	local s
	[ "$1" -eq 0 ] && return 0
	for s in $(unit_values "$UNIT" SuccessExitStatus); do
		[ "$1" -eq "$s" ] && return 0
	done
	return 1
}

show() {
	sed 's/^/# | /' "$@"
}

# fill_punch MNT N: N files of 1 MiB, every other one deleted.
fill_punch() {
	local i
	mkdir -p "$1/data"
	head -c $((253 * 4096)) /dev/urandom > /tmp/seed
	for ((i = 0; i < $2; i++)); do
		cat /tmp/seed /tmp/seed
	done | head -c $(($2 * 1048576)) | split -b 1048576 -d -a 4 - "$1/data/f"
	sync
	rm -f "$1"/data/f*[02468]
	sync
}

MNT=/mnt/f2fs-data
INST=$(systemd-escape --path "$MNT")
check "the instance of $MNT is systemd-escape's: $INST" [ "$INST" = 'mnt-f2fs\x2ddata' ]
check "%f of $INST is $MNT again" [ "$(specifiers %f "$INST")" = "$MNT" ]

load_packed
mkfs_f2fs "$DISK1"
mount_fs f2fs_packed "$DISK1" "$MNT"
SYSP=$(sysfs_dev f2fs_packed "$DISK1")
fill_punch "$MNT" 120
sha_record "$MNT/data" /tmp/d.sha

# ---- the unit as installed: no environment file -----------------------------
mkdir -p "$ETC"
free0=$(cat "$SYSP/free_segments")
dirty0=$(cat "$SYSP/dirty_segments")
log "before: free $free0, dirty $dirty0 segments"
must "holes punched: at least 30 dirty segments" [ "$dirty0" -ge 30 ]
mapfile -t argv < <(unit_argv "$UNIT" "$INST")
check "default ExecStart, word by word: f2fs-gc --quiet --duration 10m $MNT" \
	[ "$(printf '<%s>' "${argv[@]}")" = "</usr/sbin/f2fs-gc><--quiet><--duration><10m><$MNT>" ]
rc=0
run_unit "$INST" /tmp/a.log || rc=$?
show /tmp/a.log
check "default pass: exit status $rc is a success of the unit" unit_ok "$rc"
check "default pass: GC made calls and stopped with nothing left" \
	sh -c 'grep -qE "GC calls: +[1-9]" /tmp/a.log && grep -q "nothing to collect" /tmp/a.log'
free1=$(cat "$SYSP/free_segments")
log "after: free $free1, dirty $(cat "$SYSP/dirty_segments") segments"
check "default pass: free segments grew ($free0 -> $free1)" [ "$free1" -gt "$free0" ]
check "default pass: data intact" sha_verify "$MNT/data" /tmp/d.sha

# ---- options for every mount point, overridden for this one ------------------
umount_fsck "$DISK1" "$MNT"
mount_fs f2fs_packed "$DISK1" "$MNT"
check "data intact after remount" sha_verify "$MNT/data" /tmp/d.sha
# New holes for the next pass: a third of the files left.
rm -f "$MNT"/data/f*[159]
sync
sha_record "$MNT/data" /tmp/d.sha
mkdir -p "$ETC/etc/default" "$ETC/etc/f2fs-gc"
# Were this file the one that counts, f2fs-gc would refuse the option.
echo 'F2FS_GC_OPTIONS="--no-such-option"' > "$ETC/etc/default/f2fs-gc"
cat > "$ETC/etc/f2fs-gc/$INST.conf" <<'EOF'
# SPDX-License-Identifier: GPL-2.0
# this mount point: a pass of at most 3 calls, JSON summary
F2FS_GC_OPTIONS="--max-calls 3 --json --max-dirty 64M"
EOF
free0=$(cat "$SYSP/free_segments")
rc=0
run_unit "$INST" /tmp/b.log || rc=$?
show /tmp/b.log
check "per-mount-point options: exit 0" [ "$rc" -eq 0 ]
check "per-mount-point options win: 3 calls, stopped at --max-calls, JSON" \
	sh -c 'grep -q "\"stop_reason\": *\"max-calls\"" /tmp/b.log &&
		grep -qE "\"calls\": *3[,}]" /tmp/b.log'
free1=$(cat "$SYSP/free_segments")
check "per-mount-point pass: free segments grew ($free0 -> $free1)" [ "$free1" -gt "$free0" ]
rm "$ETC/etc/f2fs-gc/$INST.conf"
rc=0
run_unit "$INST" /tmp/c.log || rc=$?
head -3 /tmp/c.log | show
check "/etc/default/f2fs-gc alone counts: its bad option refused (exit 2)" [ "$rc" -eq 2 ]
check "the unit does not take exit 2 as success" not unit_ok 2

check "data intact" sha_verify "$MNT/data" /tmp/d.sha
umount_fsck "$DISK1" "$MNT"
mount_fs f2fs_packed "$DISK1" "$MNT"
check "data intact after remount" sha_verify "$MNT/data" /tmp/d.sha
umount "$MNT"
finish
