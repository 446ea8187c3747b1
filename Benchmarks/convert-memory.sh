#!/usr/bin/env bash
# Peak memory of `sheetport convert` against the row count: 20,000 and 200,000 rows x 10
# columns, with a unique string per row in the shared-string table (as Excel writes it), with
# those strings inline (so only the sheet grows), and inline with a shared-formula group per
# row (masters must not pile up). Prints one line per run.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

printf '%-8s %-9s %-6s %9s %10s %12s\n' rows variant format seconds "peak KiB" "xlsx bytes"
for strings in shared inline formulas; do
    for rows in 20000 200000; do
        case "$strings" in
            shared) flags="" ;;
            inline) flags="--inline-unique" ;;
            formulas) flags="--inline-unique --shared-formula-rows" ;;
        esac
        python3 Scripts/make_large_workbook.py "$rows" "$work/book.xlsx" 10 $flags
        for format in csv jsonl; do
            /usr/bin/time -f '%e %M' -o "$work/time" "$sheetport" convert "$work/book.xlsx" --to "$format" > /dev/null
            read -r seconds peak < "$work/time"
            printf '%-8s %-9s %-6s %9s %10s %12s\n' "$rows" "$strings" "$format" "$seconds" "$peak" "$(stat -c %s "$work/book.xlsx")"
        done
    done
done
