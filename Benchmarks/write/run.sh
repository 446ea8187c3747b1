#!/usr/bin/env bash
# Write benchmark: libxlsxwriter (C, constant_memory) against SheetPort's streaming writer,
# writing ROWS x 10 cells of the same mix (see libxlsxwriter_write.c / README.md).
#
# Usage: Benchmarks/write/run.sh [ROWS...]        (default ROWS: 200000 = 2,000,000 cells)
#   RUNS=3            runs per tool and size (median seconds, highest peak RSS reported)
#   SHEETPORT=path    sheetport binary (default .build/release/sheetport; never built here)
#   KEEP=1            keep the written workbooks (their directory is printed)
#   VERIFY_ROWS=N     first write N rows with each tool and check the workbooks in the four real
#                     clients (Tests/RealClients/verify.py --strict) against expected_jsonl.py
# Needs gcc, pkg-config, libxlsxwriter-dev and /usr/bin/time: Scripts/setup.sh --clients.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
RUNS="${RUNS:-3}"
SHEETPORT="${SHEETPORT:-$ROOT/.build/release/sheetport}"
BUILD="$HERE/build"                       # git-ignored: /Benchmarks/write/build/
[ $# -gt 0 ] || set -- 200000

"$ROOT/Scripts/setup.sh" --clients
mkdir -p "$BUILD"
# Rebuild only when the source is newer than the binary.
if [ ! -x "$BUILD/libxlsxwriter_write" ] || [ "$HERE/libxlsxwriter_write.c" -nt "$BUILD/libxlsxwriter_write" ]; then
    # shellcheck disable=SC2046
    gcc -O2 -Wall -Wextra -o "$BUILD/libxlsxwriter_write" "$HERE/libxlsxwriter_write.c" \
        $(pkg-config --cflags --libs xlsxwriter)
fi
# pkg-config reports the soname (4); the release is in the header (Debian bookworm: 1.1.4).
LXW_VERSION="$(sed -n 's/^#define LXW_VERSION "\(.*\)"$/\1/p' "$(pkg-config --variable=includedir xlsxwriter)/xlsxwriter.h")"

work="$(mktemp -d "${TMPDIR:-/tmp}/sheetport-bench-write.XXXXXX")"
if [ -n "${KEEP:-}" ]; then
    echo "run.sh: keeping workbooks in $work" >&2
else
    trap 'rm -rf "$work"' EXIT
fi

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure NAME ROWS CMD... : RUNS timed runs of CMD, where the argument @OUT@ stands for the
# workbook to write; sets MED_S (median wall-clock seconds), MED_CPU (median user+system
# seconds: less sensitive to a busy machine), PEAK_KIB (highest peak RSS) and BYTES.
measure() {
    local name="$1" rows="$2"; shift 2
    local out="$work/$name-$rows.xlsx" times=() cpus=() peak=0 i s kib user sys cmd=() arg
    for arg in "$@"; do
        [ "$arg" = "@OUT@" ] && cmd+=("$out") || cmd+=("$arg")
    done
    for ((i = 1; i <= RUNS; i++)); do
        rm -f "$out"
        # the command's own output goes to a log; /usr/bin/time writes to its own file
        if ! /usr/bin/time -f '%e s %M KiB %U %S' -o "$work/time" "${cmd[@]}" > "$work/log" 2>&1; then
            echo "run.sh: $name failed at $rows rows:" >&2
            cat "$work/log" >&2
            return 1
        fi
        read -r s _ kib _ user sys < "$work/time"
        echo "  $name rows=$rows run $i: $s s, $kib KiB, user $user s, sys $sys s" >&2
        times+=("$s")
        cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')")
        if (( kib > peak )); then peak=$kib; fi
    done
    MED_S="$(median "${times[@]}")"
    MED_CPU="$(median "${cpus[@]}")"
    PEAK_KIB="$peak"
    BYTES="$(stat -c %s "$out")"
}

# ---- SheetPort hook ---------------------------------------------------------------------
# SheetPort's writer is timed with:   $SHEETPORT bench write --rows ROWS -o OUT.xlsx
# It is skipped (with a message) until `$SHEETPORT bench write --help` succeeds.
have_sheetport=0
verify_failed=0
if [ -x "$SHEETPORT" ] && "$SHEETPORT" bench write --help > /dev/null 2>&1; then
    have_sheetport=1
else
    echo "run.sh: skipping SheetPort: '$SHEETPORT bench write --help' failed (not built yet?)" >&2
fi
# ------------------------------------------------------------------------------------------

if [ -n "${VERIFY_ROWS:-}" ]; then
    vdir="$work/verify"
    mkdir -p "$vdir"
    "$BUILD/libxlsxwriter_write" "$vdir/libxlsxwriter.xlsx" "$VERIFY_ROWS"
    # libxlsxwriter stores doubles with printf %.16G (not round-trip): expect those values
    python3 "$HERE/expected_jsonl.py" --printf16 "$VERIFY_ROWS" > "$vdir/libxlsxwriter.jsonl"
    if [ "$have_sheetport" = 1 ]; then
        "$SHEETPORT" bench write --rows "$VERIFY_ROWS" -o "$vdir/sheetport.xlsx"
        python3 "$HERE/expected_jsonl.py" "$VERIFY_ROWS" > "$vdir/sheetport.jsonl"
    fi
    "$ROOT/Scripts/venv.sh"
    if ! "$ROOT/.venv/bin/python" "$ROOT/Tests/RealClients/verify.py" --strict "$vdir" >&2; then
        echo "run.sh: verification FAILED (benchmark still runs; exit status 1 at the end)" >&2
        verify_failed=1
    fi
fi

rows_list=("$@")
table=()
for rows in "${rows_list[@]}"; do
    [[ "$rows" =~ ^[0-9]+$ ]] || { echo "run.sh: ROWS must be a number, got '$rows'" >&2; exit 2; }
    cells=$((rows * 10))
    measure libxlsxwriter "$rows" "$BUILD/libxlsxwriter_write" @OUT@ "$rows"
    base="$MED_S" base_cpu="$MED_CPU"
    table+=("| libxlsxwriter $LXW_VERSION (C, constant_memory) | $rows | $cells | $MED_S | $MED_CPU | $PEAK_KIB | $BYTES | 1.00 | 1.00 |")
    if [ "$have_sheetport" = 1 ]; then
        # Inline strings are what libxlsxwriter's constant_memory mode writes; the shared-string
        # table is SheetPort's default (as Excel writes it; memory grows with distinct strings).
        for variant in inline shared; do
            flags=(); [ "$variant" = inline ] && flags=(--inline-strings)
            measure "sheetport-$variant" "$rows" "$SHEETPORT" bench write --rows "$rows" --no-progress "${flags[@]}" -o @OUT@
            ratio="$(awk -v a="$MED_S" -v b="$base" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
            cpu_ratio="$(awk -v a="$MED_CPU" -v b="$base_cpu" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
            table+=("| SheetPort (\`bench write\`, $variant strings) | $rows | $cells | $MED_S | $MED_CPU | $PEAK_KIB | $BYTES | $ratio | $cpu_ratio |")
        done
    fi
done

echo
echo "Write benchmark, $(date -u +%Y-%m-%d), $(nproc) cores, median of $RUNS runs (wall-clock seconds; CPU = user + system; peak RSS is the highest of the runs; ratios = SheetPort's median / libxlsxwriter's)"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| tool | rows | cells | median s | median CPU s | peak KiB | xlsx bytes | time ratio | CPU ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${table[@]}"
exit "$verify_failed"
