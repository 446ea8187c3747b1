#!/usr/bin/env bash
# The downstream example (Examples/ReadFirstSheet: SheetPort by path, the SheetPortReader product
# alone): builds it in its own folder (.build/example, not to fight the main build), runs it on
# Fixtures/reader/cell_types.xlsx and checks what it prints (known cells, one line a cell of the
# expected JSON Lines, the AsyncSequence giving the same rows as nextRow()), and with ldd that the
# executable links none of the server's or client's C libraries.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

example=Examples/ReadFirstSheet
scratch=.build/example
fixture=Fixtures/reader/cell_types.xlsx
expected=Fixtures/reader/cell_types.expected.jsonl

swift build --package-path "$example" --scratch-path "$scratch"
bin="$(swift build --package-path "$example" --scratch-path "$scratch" --show-bin-path)/ReadFirstSheet"

fail() { echo "check-example: $*" >&2; exit 1; }

# What it prints: "ROW COLUMN VALUE FORMULA" a cell, then "rows: N, async rows: N".
output="$("$bin" "$fixture")" || fail "ReadFirstSheet failed on $fixture"
[[ -n "$output" ]] || fail "no output on $fixture"
grep -qxF '1 1 number(42.0) ' <<<"$output" || fail "A1 is not number(42.0)"
grep -qxF '1 9 number(84.0) A1*2' <<<"$output" || fail "I1 is not number(84.0) with formula A1*2"
grep -qxF '2 1 string("shared text") ' <<<"$output" || fail "A2 is not the shared string"
cells="$(grep -c '^[0-9][0-9]* [0-9][0-9]* ' <<<"$output" || true)"
want="$(wc -l <"$expected")"
[[ "$cells" -eq "$want" ]] || fail "$cells cells printed, $expected has $want"
summary="$(tail -n 1 <<<"$output")"
[[ "$summary" =~ ^rows:\ ([0-9]+),\ async\ rows:\ ([0-9]+)$ ]] || fail "no row summary: $summary"
[[ "${BASH_REMATCH[1]}" -gt 0 && "${BASH_REMATCH[1]}" -eq "${BASH_REMATCH[2]}" ]] \
    || fail "nextRow() and for try await disagree: $summary"
echo "check-example: $cells cells, $summary"

# What SwiftPM built of SheetPort for it: the modules of the SheetPortReader product, no other.
modules="$(dirname "$bin")/Modules"
built="$(cd "$modules" && ls -1 -- *.swiftmodule | sed 's/\.swiftmodule$//' | sort | xargs)"
echo "check-example: modules built: $built"
[[ "$built" == "ReadFirstSheet SheetPortCore SheetPortReader" ]] \
    || fail "modules beyond SheetPortCore and SheetPortReader were built: $built"

# What it links: only the reader's C libraries (libzip, libxml2, ISA-L), never the server's,
# the client's or the writer's streaming archive library.
echo "check-example: $bin links (ldd):"
linked="$(ldd "$bin")"
sed 's/^/    /' <<<"$linked"
for library in libmicrohttpd libpq libcurl libsodium libsqlite3 libarchive; do
    # libcurl.so.4, libcurl-gnutls.so.4, libpq.so.5, ...
    pattern="^[[:space:]]*$library(-[[:alnum:]]+)?\.so"
    if grep -Eq "$pattern" <<<"$linked"; then
        fail "the executable links $library ($(grep -E "$pattern" <<<"$linked" | xargs))"
    fi
done
echo "check-example: none of libmicrohttpd libpq libcurl libsodium libsqlite3 libarchive is linked"
