#!/usr/bin/env bash
# Writer check in real clients: SheetPort writes workbooks from cell JSONL
# (`sheetport convert IN.jsonl -o OUT.xlsx`) and verify.py --strict opens them in openpyxl,
# python-calamine, LibreOffice and Gnumeric. Inputs: the cells of every Fixtures/producers
# and Fixtures/reader workbook (read by `sheetport convert --to jsonl`) and the write
# benchmark's cell mix (Benchmarks/write/expected_jsonl.py, 500 rows). Three reader fixtures
# are left out, for what the clients do with them, not for what SheetPort writes:
#   dimension_lies      a cell at XFD1048576: calamine, LibreOffice and Gnumeric allocate the
#                       whole grid (calamine aborts, the others time out)
#   shared_formulas     formulas that name sheets a one-sheet conversion does not carry;
#                       Gnumeric warns about the unknown sheets
#   xhhhh_escapes       control characters: LibreOffice turns CR LF into LF, Gnumeric's CSV
#                       export cuts a field at a CR
# Usage: Tests/RealClients/roundtrip.sh [SHEETPORT]   (default .build/release/sheetport)
# Extra verify.py options via VERIFY_OPTS (e.g. VERIFY_OPTS=-v).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SHEETPORT="${1:-${SHEETPORT:-$ROOT/.build/release/sheetport}}"
work="$(mktemp -d "${TMPDIR:-/tmp}/sheetport-roundtrip.XXXXXX")"
trap 'rm -rf "$work"' EXIT

"$ROOT/Scripts/venv.sh"
"$ROOT/Scripts/setup.sh" --clients

python3 "$ROOT/Benchmarks/write/expected_jsonl.py" 500 > "$work/in-bench.jsonl"
for f in "$ROOT"/Fixtures/producers/*.xlsx "$ROOT"/Fixtures/reader/*.xlsx; do
    case "$(basename "$f" .xlsx)" in dimension_lies|shared_formulas|xhhhh_escapes) continue ;; esac
    # What the file stores (--no-recalc): cell_types' NOW() has no cached value, and a computed
    # one would be recomputed, differently, by LibreOffice and Gnumeric when they open the copy.
    "$SHEETPORT" convert "$f" --to jsonl --no-recalc > "$work/in-$(basename "$f" .xlsx).jsonl"
done

mkdir "$work/out"
for j in "$work"/in-*.jsonl; do
    name="$(basename "$j" .jsonl)"; name="${name#in-}"
    if ! "$SHEETPORT" convert "$j" -o "$work/out/$name.xlsx" 2> "$work/err"; then
        echo "roundtrip: sheetport could not write $name.xlsx:" >&2
        cat "$work/err" >&2
        exit 1
    fi
    # The expected cells are what SheetPort reads back from its own file's input, minus the
    # reader's extra keys (verify.py ignores them anyway).
    cp "$j" "$work/out/$name.jsonl"
done

# not exec: the EXIT trap removes the work directory afterwards
# shellcheck disable=SC2086
"$ROOT/.venv/bin/python" "$ROOT/Tests/RealClients/verify.py" --strict ${VERIFY_OPTS:-} "$work/out"
