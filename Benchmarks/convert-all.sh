#!/usr/bin/env bash
# `sheetport convert --all` against xlsx2csv -a on a 20-sheet workbook (ROWS data rows x 10
# columns per sheet, one shared-string table for all of them, as Excel writes it), and against
# 20 separate `sheetport convert --sheet N` runs (which read the shared strings 20 times).
# Prints wall-clock seconds and peak RSS (KiB) of each, the median of RUNS runs.
#
# Usage: Benchmarks/convert-all.sh [ROWS]     (default 20000)
#   XLSX2CSV=/path/to/xlsx2csv  (default: xlsx2csv on PATH)
#   RUNS=3
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rows="${1:-20000}"
runs="${RUNS:-3}"
xlsx2csv="${XLSX2CSV:-$(command -v xlsx2csv || true)}"
[ -n "$xlsx2csv" ] || { echo "xlsx2csv not found: pip install xlsx2csv, or set XLSX2CSV" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
swift build -c release --product sheetport >&2
sheetport="$(swift build -c release --show-bin-path)/sheetport"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$sheetport" bench generate --rows "$rows" --sheets 20 -o "$work/book.xlsx" --no-progress >&2

# median SECONDS PEAK of RUNS runs of a command (a fresh output folder each run)
measure() {
    local results=()
    for _ in $(seq "$runs"); do
        rm -rf "$work/out" && mkdir "$work/out"
        /usr/bin/time -f '%e %M' -o "$work/time" bash -c "$1" >/dev/null 2>&1
        results+=("$(cat "$work/time")")
    done
    printf '%s\n' "${results[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}

all="$(measure "'$sheetport' convert '$work/book.xlsx' --all -o '$work/out' --no-progress")"
count="$(ls "$work/out" | wc -l)"
each="$(measure "for n in \$(seq 20); do '$sheetport' convert '$work/book.xlsx' --sheet \$n -o '$work/out/\$n.csv' --no-progress; done")"
peer="$(measure "'$xlsx2csv' -a '$work/book.xlsx' '$work/out'")"

printf 'workbook: 20 sheets x %s rows x 10 columns, %s bytes; --all wrote %s files\n' \
    "$rows" "$(stat -c %s "$work/book.xlsx")" "$count"
printf '%-40s %9s %10s\n' tool seconds "peak KiB"
printf '%-40s %9s %10s\n' "sheetport convert --all" $all
printf '%-40s %9s %10s\n' "sheetport convert --sheet N, 20 runs" $each
printf '%-40s %9s %10s\n' "xlsx2csv -a ($("$xlsx2csv" --version 2>&1 | head -1))" $peer
