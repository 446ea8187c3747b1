#!/usr/bin/env bash
# All the tests: unit, fixture, corpus and command-line tests (swift test), the mutation
# smoke test (damaged workbooks never crash or hang the reader), then the value-agreement
# test against openpyxl and python-calamine over ../shared/corpus and Fixtures/producers.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

Scripts/setup.sh
swift build                      # the CLI tests run .build/debug/sheetport
swift test
sheetport="$(swift build --show-bin-path)/sheetport"
python3 Tests/Mutation/mutate.py --sheetport "$sheetport" --seed 1 --cases 500
SHEETPORT="$sheetport" Tests/ValueAgreement/run.sh --jobs 2
