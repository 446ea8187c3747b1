#!/usr/bin/env bash
# All the tests: unit, fixture, corpus and command-line tests (swift test), then the
# value-agreement test against openpyxl and python-calamine over ../shared/corpus.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

Scripts/setup.sh
swift build                      # the CLI tests run .build/debug/sheetport
swift test
SHEETPORT="$(swift build --show-bin-path)/sheetport" Tests/ValueAgreement/run.sh --jobs 2
