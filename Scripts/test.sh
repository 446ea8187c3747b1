#!/usr/bin/env bash
# All the tests: unit, fixture, corpus and command-line tests (swift test), the mutation
# smoke test (damaged workbooks never crash or hang the reader), then the value-agreement
# test against openpyxl and python-calamine over ../shared/corpus and Fixtures/producers;
# `check` runs over the hostile fixtures, and the fuzz target for a minute.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

Scripts/setup.sh
swift build                      # the CLI tests run .build/debug/sheetport
swift test
sheetport="$(swift build --show-bin-path)/sheetport"
python3 Tests/Mutation/mutate.py --sheetport "$sheetport" --seed 1 --cases 500
# check: every hostile file gives its code in bounded time and memory (a table of each),
# then a short fuzz smoke run (libFuzzer + ASan) over the reader and check.
hostile="$(mktemp -d)"
python3 Fixtures/hostile/make_hostile.py "$hostile" --check "$sheetport"
rm -rf "$hostile"
Scripts/fuzz.sh 60
SHEETPORT="$sheetport" Tests/ValueAgreement/run.sh --jobs 2
