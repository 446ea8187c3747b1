#!/usr/bin/env bash
# All the tests: unit, fixture, corpus, writer round-trip and command-line tests (swift test),
# the mutation smoke test (damaged workbooks never crash or hang the reader), the
# value-agreement test against openpyxl and python-calamine over ../shared/corpus and
# Fixtures/producers, and the real-client test of the writer (openpyxl, python-calamine,
# LibreOffice and Gnumeric open what SheetPort writes and read the same values).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

Scripts/setup.sh --clients        # also LibreOffice, Gnumeric, libxlsxwriter: the writer's tests
Scripts/venv.sh
swift build                       # the CLI tests run .build/debug/sheetport
SHEETPORT_REAL_CLIENTS=1 swift test
sheetport="$(swift build --show-bin-path)/sheetport"
python3 Tests/Mutation/mutate.py --sheetport "$sheetport" --seed 1 --cases 500
SHEETPORT="$sheetport" Tests/ValueAgreement/run.sh --jobs 2
Tests/RealClients/roundtrip.sh "$sheetport"
