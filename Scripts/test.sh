#!/usr/bin/env bash
# All the tests: unit, fixture, corpus, writer round-trip and command-line tests (swift test),
# the downstream example on the reader product alone (links no server library), the DocC catalogs,
# the mutation smoke test (damaged workbooks never crash or hang the reader or check), `check`
# over the hostile fixtures, the fuzz targets for a minute each, the value-agreement test against
# openpyxl and python-calamine over ../shared/corpus and Fixtures/producers, and the
# real-client test of the writer (openpyxl, python-calamine, LibreOffice and Gnumeric open what
# SheetPort writes and read the same values). The shared-database tests and a second run of the
# server suite use a throwaway PostgreSQL cluster (Scripts/postgres.sh), stopped at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Each step's time on stderr, so a CI log shows where the minutes go.
step() {
    local began=$SECONDS
    "$@"
    echo "test.sh: $((SECONDS - began)) s (at $((SECONDS / 60)) min): $*" >&2
}

step Scripts/setup.sh --clients        # also LibreOffice, Gnumeric, libxlsxwriter: the writer's tests
step Scripts/venv.sh
step Scripts/check-portable.sh         # Core, Reader, Writer, Calc and Convert build on Darwin too
step Scripts/check-layout.sh           # the server's SQL and dialect tests only in Store/; the domain calls no route
step swift build --build-tests         # the tests that run sheetport run the one this build made
eval "$(Scripts/postgres.sh start)"
trap 'Scripts/postgres.sh stop "$SHEETPORT_PG_DIR"' EXIT
step env SHEETPORT_REAL_CLIENTS=1 swift test --skip WebBrowserTests # SharedDatabaseTests run on the cluster
# The page in headless Chromium (Tests/Web) on its own, not side by side with the suites above: it
# checks another person's edit is on screen within a second. Screenshots in .build/web-artifacts.
step env SHEETPORT_REAL_CLIENTS=1 swift test --skip-build --filter WebBrowserTests
# The server suite again, each test server on a new database of the cluster (the client's fault
# tests are about the client, whatever the store: once is enough): SheetPortServerTests, and the
# server's tests that run `sheetport serve` or a client command and so live in SheetPortCLITests.
# Not side by side with the run above: tried, the million-row view and the within-a-second
# export checks then time out.
server_suites='ServerTests|AdversarialDataTests|AdversarialHTTPTests|BulkExportTests|ImportFaultTests|PreflightAgainstServerTests|EventStreamTests'
server_suites+='|SealKeyTests|KeyRotationUnderLoadTests|StorageFullTests|ServerLogTests|SharedDatabase|MillionRowViewTests'
step env SHEETPORT_TEST_STORE=postgres swift test --skip-build --filter "$server_suites"
# A downstream package on the SheetPortReader product alone: builds, reads, links no server library.
step Scripts/check-example.sh
# The DocC catalog of each public module, warnings (a broken symbol link) as errors.
step Scripts/docs.sh
sheetport="$(swift build --show-bin-path)/sheetport"
step python3 Tests/Mutation/mutate.py --sheetport "$sheetport" --seed 1 --cases 500
# check: every hostile file gives its code in bounded time and memory (a table of each),
# then short fuzz smoke runs (libFuzzer + ASan): the reader and check, the worksheet fast
# path against libxml2 (differential), the cell JSON Lines parser, the calculation engine and
# the number-format renderer.
hostile="$(mktemp -d)"
step python3 Fixtures/hostile/make_hostile.py "$hostile" --check "$sheetport"
rm -rf "$hostile"
step Scripts/fuzz.sh 30
step env FUZZ_TARGET=worksheet Scripts/fuzz.sh 30
step env FUZZ_TARGET=jsonl Scripts/fuzz.sh 30
step env FUZZ_TARGET=calc Scripts/fuzz.sh 30
step env FUZZ_TARGET=calc-bombs Scripts/fuzz.sh 30
step env FUZZ_TARGET=number-format Scripts/fuzz.sh 30
step env SHEETPORT="$sheetport" Tests/ValueAgreement/run.sh --jobs 2
step Tests/RealClients/roundtrip.sh "$sheetport"
