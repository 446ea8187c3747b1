#!/usr/bin/env bash
# Builds the libFuzzer binary (every harness of Fuzz/ with the SheetPort library sources, under
# -sanitize=fuzzer,address; once for all targets) and runs the target FUZZ_TARGET names on a
# corpus seeded from Fixtures and ../shared/corpus.
#
#   Scripts/fuzz.sh [SECONDS] [extra libFuzzer options...]     (default 60 seconds)
#
# FUZZ_TARGET chooses the target:
#   check      (default) Fuzz/FuzzCheck.swift: whole packages, pre-flighted and read.
#              New inputs collect in .build/fuzz/corpus, crashes in .build/fuzz/artifacts.
#   worksheet  Fuzz/Worksheet/: worksheet XML read by the fast path and by libxml2, which must
#              agree (differential). Seeds are the worksheet parts of the same files; inputs
#              collect in .build/fuzz-worksheet/corpus, disagreements in .build/fuzz-worksheet/artifacts.
#   calc       Fuzz/calc/: formula text parsed, evaluated (fully and incrementally), rendered back and
#              translated by the calculation engine; no crash, bounded time. Seeds are formulas of
#              every kind of the grammar; inputs collect in .build/fuzz-calc/corpus.
#   calc-bombs Fuzz/calc/FuzzCalcBombs.swift: formulas that build huge arrays and texts beside
#              the grid's far corners, long texts and a doubling chain, under the engine's limits:
#              they must end in errors in bounded memory and time, no text past 32,767 characters.
#              Seeds are Fixtures/fuzz-regressions/calc-bombs/; inputs collect in .build/fuzz-calc-bombs/corpus.
#   jsonl      Fuzz/JSONL/: cell JSON Lines read by CellJSONLReader; a line its parser takes must be
#              an object to JSONSerialization too. Seeds are the lines of Docs/Reference/Formats.md; inputs collect
#              in .build/fuzz-jsonl/corpus, crashes and disagreements in .build/fuzz-jsonl/artifacts.
#   number-format  Fuzz/NumberFormat/: (double, format code) pairs, the first 8 bytes the double's
#              bits, validated and rendered by NumberFormatRenderer: no trap, output bounded by the
#              code's length, at most a second. Seeds are Fixtures/fuzz-regressions/number-format/
#              (issue 35's attacks and crashes, kept with what the runs grew); inputs collect in
#              .build/fuzz-number-format/corpus.
# Keep every crash's input in Fixtures/fuzz-regressions/ once fixed (FuzzRegressionTests reads it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${1:-60}"
shift || true

target="${FUZZ_TARGET:-check}"
case "$target" in
    check) out=.build/fuzz ;;
    worksheet) out=.build/fuzz-worksheet ;;
    jsonl) out=.build/fuzz-jsonl ;;
    calc) out=.build/fuzz-calc ;;
    calc-bombs) out=.build/fuzz-calc-bombs ;;
    number-format) out=.build/fuzz-number-format ;;
    *) echo "fuzz.sh: FUZZ_TARGET is check, worksheet, jsonl, calc, calc-bombs or number-format, not $target" >&2; exit 2 ;;
esac
export FUZZ_TARGET="$target"
mkdir -p "$out/corpus" "$out/artifacts"
# One binary holds every harness (Fuzz/FuzzMain.swift picks one by FUZZ_TARGET): the library
# is compiled once, not once per target.
binary=.build/fuzz-sheetport/fuzz
sources=(Fuzz/*.swift Fuzz/*/*.swift)
# The modules an app links (Core, Reader, Writer, Convert; the server and the HTTP client are
# not part of what is fuzzed), compiled as one module with the harness: copied with their
# imports of each other taken out, since swiftc builds them here as a single SheetPort module.
flat=.build/fuzz-sheetport/src
rm -rf "$flat"
for module in SheetPortCore SheetPortReader SheetPortWriter SheetPortCalc SheetPortConvert; do
    [ -d "Sources/$module" ] || continue
    while IFS= read -r file; do
        copy="$flat/${file#Sources/}"
        mkdir -p "$(dirname "$copy")"
        grep -v '^import SheetPort' "$file" > "$copy"
        touch -r "$file" "$copy"
        sources+=("$copy")
    done < <(find "Sources/$module" -name '*.swift' | sort)
done
# The worksheet harness compares the two engines as the differential tests do.
copy="$flat/WorksheetReading.swift"
grep -v '^import SheetPort' Tests/SheetPortTestSupport/WorksheetReading.swift > "$copy"
touch -r Tests/SheetPortTestSupport/WorksheetReading.swift "$copy"
sources+=("$copy")
if [ ! -x "$binary" ] || [ -n "$(find "${sources[@]}" -newer "$binary" -print -quit)" ]; then
    echo "fuzz.sh: building $binary" >&2
    mkdir -p "$(dirname "$binary")"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name SheetPort -package-name sheetport \
        -I Sources/CLibZip -I Sources/CZlib -I Sources/CISAL -I Sources/CLibArchive -I Sources/CLibXML2 $(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g') \
        "${sources[@]}" -lzip -lz -lisal -larchive -lxml2 -o "$binary"
fi

# Seeds: small workbooks of Fixtures and the corpus, and the regression inputs; for the
# worksheet target, their worksheet parts.
seeds="$out/seeds"
mkdir -p "$seeds"
if [ "$target" = jsonl ]; then
    cat > "$seeds/contracts.jsonl" <<'JSONL'
{"ref":"B2","type":"number","value":1.5}
{"ref":"C2","type":"string","value":"na\u00efve \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t"}
{"ref":"D2","type":"boolean","value":true}
{"ref":"E2","type":"error","value":"#DIV/0!"}
{"ref":"F2","type":"date","value":"2024-01-31T13:45:00.000","style":{"numFmt":"yyyy-mm-dd hh:mm"}}
{"ref":"G2","type":"number","value":-3e-7,"formula":"B2*2","style":{"bold":true,"italic":false,"horizontal":"center","fill":"#FFEE00","color":"#112233"}}
{"col":8,"input":"=NOW()","ref":"H2","type":"empty","value":null,"formula":"NOW()","x":[{"y":[null,1e300]}]}
{"ref":"A3","type":"number","value":4,"formula":"SUM(A1:A2)","arrayRange":"A3:A4"}
JSONL
fi
if [ "$target" = calc ]; then
    n=0
    while IFS= read -r formula; do
        n=$((n + 1)); printf '%s' "$formula" > "$seeds/formula-$n"
    done <<'FORMULAS'
SUM(A1:A5)*2-B1/3%
IF(A1>0,VLOOKUP(A1,A1:B6,2,FALSE),"none")&TEXT(B2,"yyyy-mm-dd")
SUMIFS(B1:B6,A1:A6,">=1",A1:A6,"<>x*")+COUNTIF(A:A,A2)
INDEX(A1:B6,MATCH(1,A1:A6,0),2)+XLOOKUP(2,A1:A6,B1:B6,0)
-2^2+{1,2;3,4}*Table1[Qty]+Table1[[#This Row],[Price]]
'My Sheet'!A1+Rate+SUM(Sheet1!A1:B2 A2:B3)+SUM((A1,B1))
INDIRECT("C3")+OFFSET(A1,1,1,2,2)+ROUND(PI(),2)+DATE(1900,2,29)
_xlfn.IFS(A3,1,TRUE,2)+IFERROR(1/0,#N/A)+ISERR(#REF!)
FORMULAS
fi
if [ "$target" = calc-bombs ] || [ "$target" = number-format ]; then
    cp -n Fixtures/fuzz-regressions/"$target"/* "$seeds/" 2>/dev/null || true
fi
for file in Fixtures/*/*.xlsx Fixtures/*/*.xlsm Fixtures/fuzz-regressions/* ../shared/corpus/files/*; do
    [ -f "$file" ] && [ "$(stat -c %s "$file")" -le 262144 ] || continue
    if [ "$target" = jsonl ] || [ "$target" = calc ] || [ "$target" = calc-bombs ] || [ "$target" = number-format ]; then
        continue
    elif [ "$target" = check ]; then
        cp -n "$file" "$seeds/" 2>/dev/null || true
    else
        for part in $(unzip -Z1 "$file" 2>/dev/null | grep -E '^xl/worksheets/[^/]+\.xml$' | head -4); do
            seed="$seeds/$(basename "$file")-$(basename "$part")"
            [ -f "$seed" ] || unzip -p "$file" "$part" 2>/dev/null | head -c 262144 > "$seed" || true
        done
    fi
done

exec "$binary" "$out/corpus" "$seeds" -max_total_time="$seconds" -max_len=262144 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$out/artifacts/" -print_final_stats=1 "$@"
