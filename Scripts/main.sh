#!/usr/bin/env bash
# The main job (until `sheetport demo` lands): build SheetPort, convert a bundled workbook's
# first worksheet to cell JSONL and CSV, write those cells back to xlsx with the streaming
# writer, and read the written workbook again.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

Scripts/setup.sh
swift build -c release --product sheetport >&2
sheetport="$(swift build -c release --show-bin-path)/sheetport"
workbook=Fixtures/reader/cell_types.xlsx
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== sheetport convert $workbook --to jsonl"
"$sheetport" convert "$workbook" --to jsonl | tee "$work/cells.jsonl"
echo "== sheetport convert $workbook --to csv"
"$sheetport" convert "$workbook" --to csv
echo "== sheetport convert cells.jsonl -o cells.xlsx, then back to CSV"
"$sheetport" convert "$work/cells.jsonl" -o "$work/cells.xlsx"
"$sheetport" convert "$work/cells.xlsx" --to csv
