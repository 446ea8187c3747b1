#!/usr/bin/env bash
# CSV -> xlsx against libxlsxwriter (issue 26): the benchmark sheet (`sheetport bench generate`,
# ROWS x 10 columns) read to CSV once, then, RUNS times each, round-robin:
#   - `sheetport bench csv FILE.csv`: reading and typing the CSV alone (both passes, no writer);
#   - `sheetport convert FILE.csv -o OUT.xlsx` (per-column inference: two passes), and with --no-infer;
#   - libxlsxwriter constant_memory writing the same rows from memory (libxlsxwriter_write.c).
# Prints median wall and CPU seconds, peak RSS (/usr/bin/time %M) and the ratio to libxlsxwriter.
#
# Usage: Benchmarks/write/csv.sh [ROWS]     (default 200000 = 2,000,000 cells; RUNS=3)
#   SHEETPORT=path   sheetport binary (default .build/release/sheetport; never built here)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ROWS="${1:-200000}"
RUNS="${RUNS:-3}"
SHEETPORT="${SHEETPORT:-$ROOT/.build/release/sheetport}"
BUILD="$HERE/build"
[ -x /usr/bin/time ] || { echo "csv.sh: needs /usr/bin/time (Scripts/setup.sh --clients)" >&2; exit 2; }
mkdir -p "$BUILD"
if [ ! -x "$BUILD/libxlsxwriter_write" ] || [ "$HERE/libxlsxwriter_write.c" -nt "$BUILD/libxlsxwriter_write" ]; then
    # shellcheck disable=SC2046
    gcc -O2 -Wall -Wextra -o "$BUILD/libxlsxwriter_write" "$HERE/libxlsxwriter_write.c" $(pkg-config --cflags --libs xlsxwriter)
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/sheetport-bench-csv.XXXXXX")"
trap 'rm -rf "$work"' EXIT

"$SHEETPORT" bench generate --rows "$ROWS" -o "$work/book.xlsx" --no-progress > /dev/null
"$SHEETPORT" convert "$work/book.xlsx" -o "$work/book.csv" --no-progress
echo "CSV: $(stat -c %s "$work/book.csv") bytes, $ROWS rows x 10 columns" >&2

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
names=("libxlsxwriter (C, constant_memory)" "sheetport bench csv (read + type)" "sheetport convert CSV -o xlsx" "sheetport convert CSV -o xlsx --no-infer")
commands=(
    "$BUILD/libxlsxwriter_write $work/lxw.xlsx $ROWS"
    "$SHEETPORT bench csv $work/book.csv --no-progress"
    "$SHEETPORT convert $work/book.csv -o $work/out.xlsx --no-progress"
    "$SHEETPORT convert $work/book.csv -o $work/out.xlsx --no-progress --no-infer"
)
declare -A walls cpus peaks
for ((run = 1; run <= RUNS; run++)); do
    for index in "${!commands[@]}"; do
        # shellcheck disable=SC2086
        /usr/bin/time -f '%e %U %S %M' -o "$work/time" ${commands[$index]} > "$work/out.txt"
        read -r wall user sys peak < "$work/time"
        walls[$index]+="$wall "
        cpus[$index]+="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') "
        peaks[$index]="$(( peak > ${peaks[$index]:-0} ? peak : ${peaks[$index]:-0} ))"
        [ "$index" = 1 ] && echo "  $(cat "$work/out.txt")" >&2
    done
done
base="$(median ${walls[0]})"
base_cpu="$(median ${cpus[0]})"
echo "CSV -> xlsx, $ROWS rows x 10 columns ($(stat -c %s "$work/book.csv") bytes of CSV), $(date -u +%Y-%m-%d), $(nproc) cores, median of $RUNS runs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run | median s | median CPU s | peak KiB | time ratio | CPU ratio |"
echo "|---|---:|---:|---:|---:|---:|"
for index in "${!commands[@]}"; do
    wall="$(median ${walls[$index]})" cpu="$(median ${cpus[$index]})"
    printf '| %s | %s | %s | %s | %.2f | %.2f |\n' "${names[$index]}" "$wall" "$cpu" "${peaks[$index]}" \
        "$(awk -v a="$wall" -v b="$base" 'BEGIN { print a / b }')" "$(awk -v a="$cpu" -v b="$base_cpu" 'BEGIN { print a / b }')"
done
