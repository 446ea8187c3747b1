#!/usr/bin/env bash
# The streaming benchmarks, SheetPort beside its peers in one run: installs what they need
# (Scripts/setup.sh --clients, Scripts/venv.sh --bench), builds SheetPort in release mode and
# the two C programs (libxlsxwriter's writer, libxml2's parse floor), then runs
# Benchmarks/run.py, which writes Benchmarks/RESULTS.md and Benchmarks/results.png.
#
# Usage: Benchmarks/run.sh [ROWS...]        (default: 20000 200000 1000000)
#   RUNS=3       runs per tool (median)
#   SLOW_RUNS=1  runs for a tool whose median is over 10 s (openpyxl, xlsx2csv at 1M rows)
#   ONLY=REGEX   only the tools whose name matches (a reduced run), e.g.
#                ONLY='SheetPort|fastexcel|libxlsxwriter|floor' RUNS=1 Benchmarks/run.sh
#   SERVER_ROWS=200000 BULK_SHEETS=50 BULK_ROWS=20000   the server path (Benchmarks/server/path.py)
#   INSTANCE_BOOKS=16 INSTANCE_ROWS=20000   1 against 2 instances on PostgreSQL (Benchmarks/server/instances.py)
# Run it on an otherwise idle machine: every figure is wall-clock time.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
BUILD="$HERE/build"                      # git-ignored
[ $# -gt 0 ] || set -- 20000 200000 1000000

"$ROOT/Scripts/setup.sh" --clients
"$ROOT/Scripts/venv.sh" --bench
# The release build as a Linux executable is shipped: the Swift runtime linked in statically
# (--static-swift-stdlib), which starts in 9 ms instead of 14 (no dynamic symbol lookups); in a
# build folder of its own so that the tests' dynamic release build is left as it is.
(cd "$ROOT" && swift build -c release --product sheetport --static-swift-stdlib --scratch-path "$ROOT/.build/static" >&2)
SHEETPORT="$ROOT/.build/static/release/sheetport"
mkdir -p "$BUILD"
# shellcheck disable=SC2046
gcc -O2 -Wall -o "$BUILD/libxlsxwriter_write" "$HERE/write/libxlsxwriter_write.c" $(pkg-config --cflags --libs xlsxwriter)
# shellcheck disable=SC2046
gcc -O2 -Wall -o "$BUILD/libxml2_parse" "$HERE/read/libxml2_parse.c" $(pkg-config --cflags --libs libxml-2.0)
# shellcheck disable=SC2046
gcc -O2 -Wall -o "$BUILD/inflate_floor" "$HERE/read/inflate_floor.c" $(pkg-config --cflags --libs libzip zlib libisal)

"$ROOT/.venv/bin/python" "$HERE/run.py" --sheetport "$SHEETPORT" \
    --xml-floor "$BUILD/libxml2_parse" --inflate-floor "$BUILD/inflate_floor" --libxlsxwriter "$BUILD/libxlsxwriter_write" \
    --runs "${RUNS:-3}" --slow-runs "${SLOW_RUNS:-1}" ${ONLY:+--only "$ONLY"} --rows "$@"
# The server path (issue 14) beside the local read and write, appended to RESULTS.md.
"$ROOT/.venv/bin/python" "$HERE/server/path.py" --sheetport "$SHEETPORT" \
    --rows "${SERVER_ROWS:-200000}" --bulk-sheets "${BULK_SHEETS:-50}" --bulk-rows "${BULK_ROWS:-20000}" \
    --markdown "$BUILD/server.md" --plot "$HERE/server.png"
cat "$BUILD/server.md" >> "$HERE/RESULTS.md"
# One against two instances on one PostgreSQL database (issue 17; setup.sh --clients installed
# the server, instances.py starts and stops a throwaway cluster). Its failures are in its section
# of RESULTS.md, and make this script fail after appending it.
status=0
rm -f "$BUILD/instances.md"
"$ROOT/.venv/bin/python" "$HERE/server/instances.py" --sheetport "$SHEETPORT" \
    --books "${INSTANCE_BOOKS:-16}" --rows "${INSTANCE_ROWS:-20000}" --markdown "$BUILD/instances.md" || status=$?
[ ! -f "$BUILD/instances.md" ] || cat "$BUILD/instances.md" >> "$HERE/RESULTS.md"
exit "$status"
