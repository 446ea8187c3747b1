#!/usr/bin/env bash
# The main job (until `sheetport demo` lands): build SheetPort and convert a bundled
# workbook's first worksheet to cell JSONL and CSV.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

Scripts/setup.sh
swift build -c release --product sheetport >&2
sheetport="$(swift build -c release --show-bin-path)/sheetport"
workbook=Fixtures/reader/cell_types.xlsx

echo "== sheetport convert $workbook --to jsonl"
"$sheetport" convert "$workbook" --to jsonl
echo "== sheetport convert $workbook --to csv"
"$sheetport" convert "$workbook" --to csv
