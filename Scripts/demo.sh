#!/usr/bin/env bash
# The main job: set up (Debian packages, only when missing), build SheetPort, and run
# `sheetport demo`: pre-flight a bundled three-sheet workbook, start an embedded server on a
# loopback ephemeral port with a temporary data folder, issue a token, import with progress,
# export back through private staging, check the exported file, print a summary, clean up.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

Scripts/setup.sh
swift build -c release --product sheetport >&2
exec "$(swift build -c release --show-bin-path)/sheetport" demo "$@"
