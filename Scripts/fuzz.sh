#!/usr/bin/env bash
# Builds the libFuzzer target (Fuzz/FuzzCheck.swift with the SheetPort library sources, under
# -sanitize=fuzzer,address) and runs it on a corpus seeded from Fixtures and ../shared/corpus.
#
#   Scripts/fuzz.sh [SECONDS] [extra libFuzzer options...]     (default 60 seconds)
#
# New inputs collect in .build/fuzz/corpus; crashes are written to .build/fuzz/artifacts.
# Keep every crash's input in Fixtures/fuzz-regressions/ once fixed (FuzzRegressionTests reads it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${1:-60}"
shift || true

out=.build/fuzz
mkdir -p "$out/corpus" "$out/artifacts"
binary="$out/fuzz-check"
# The reader, check and writer: the server and the HTTP client (libmicrohttpd, SQLite,
# libsodium, libcurl) are not part of what is fuzzed.
sources=(Fuzz/*.swift)
while IFS= read -r file; do
    case "$file" in Sources/SheetPort/Server/*|Sources/SheetPort/Client/*) ;; *) sources+=("$file") ;; esac
done < <(find Sources/SheetPort -name '*.swift' | sort)
if [ ! -x "$binary" ] || [ -n "$(find "${sources[@]}" -newer "$binary" -print -quit)" ]; then
    echo "fuzz.sh: building $binary" >&2
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name SheetPort \
        -I Sources/CLibZip -I Sources/CLibXML2 $(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g') \
        "${sources[@]}" -lzip -lxml2 -o "$binary"
fi

# Seeds: small workbooks of Fixtures and the corpus, and the regression inputs.
seeds="$out/seeds"
mkdir -p "$seeds"
for file in Fixtures/*/*.xlsx Fixtures/*/*.xlsm Fixtures/fuzz-regressions/* ../shared/corpus/files/*; do
    [ -f "$file" ] && [ "$(stat -c %s "$file")" -le 262144 ] && cp -n "$file" "$seeds/" 2>/dev/null || true
done

exec "$binary" "$out/corpus" "$seeds" -max_total_time="$seconds" -max_len=262144 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$out/artifacts/" -print_final_stats=1 "$@"
