# Sourced by the benchmark scripts: strict mode, the project root as the working folder,
# /usr/bin/time, a release build of sheetport in $sheetport, and a scratch folder $work
# removed at exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; } >&2
swift build -c release --product sheetport >&2
sheetport="$(swift build -c release --show-bin-path)/sheetport"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
