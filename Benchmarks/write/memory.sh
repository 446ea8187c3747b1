#!/usr/bin/env bash
# Peak memory of the streaming writer against the row count: `sheetport bench write` at
# 20,000 and 1,000,000 rows x 10 columns (the benchmark sheet of Benchmarks/write/README.md),
# with inline strings (everything streams: memory should not move) and with the shared-string
# table (grows by the table alone: one unique string per row). Prints a markdown table.
# Usage: Benchmarks/write/memory.sh [ROWS...]   (SHEETPORT=path, default .build/release/sheetport)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SHEETPORT="${SHEETPORT:-$ROOT/.build/release/sheetport}"
[ -x /usr/bin/time ] || "$ROOT/Scripts/setup.sh" --clients
[ $# -gt 0 ] || set -- 20000 1000000
work="$(mktemp -d "${TMPDIR:-/tmp}/sheetport-write-memory.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "| strings | rows | cells | seconds | peak RSS KiB | xlsx bytes |"
echo "|---|---:|---:|---:|---:|---:|"
for variant in inline shared; do
    flags=(); [ "$variant" = inline ] && flags=(--inline-strings)
    for rows in "$@"; do
        /usr/bin/time -f '%e %M' -o "$work/time" "$SHEETPORT" bench write --rows "$rows" --no-progress "${flags[@]}" \
            -o "$work/book.xlsx" > /dev/null
        read -r seconds peak < "$work/time"
        echo "| $variant | $rows | $((rows * 10 + 10)) | $seconds | $peak | $(stat -c %s "$work/book.xlsx") |"
    done
done
