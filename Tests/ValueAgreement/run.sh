#!/usr/bin/env bash
# Value-agreement test: SheetPort `convert --to jsonl` against openpyxl and python-calamine
# over ../shared/corpus. Run from anywhere; extra arguments go to compare.py
# (e.g. --jobs 2, --strict, or corpus file names to compare only those).
# SHEETPORT=/path/to/sheetport skips the build.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

Scripts/venv.sh

if [ -z "${SHEETPORT:-}" ]; then
    BIN="$(swift build -c release --show-bin-path)"
    SHEETPORT="$BIN/sheetport"
    # swift build is incremental: a no-op when the binary is up to date.
    swift build -c release --product sheetport >&2
fi

exec .venv/bin/python Tests/ValueAgreement/compare.py --sheetport "$SHEETPORT" "$@"
