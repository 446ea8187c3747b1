#!/usr/bin/env bash
# Whole-column comparison criteria (issue 39 item 11): `SUMIF(A:A,">"&A2)` down ROWS rows
# (calc/make_sumif_workbook.py: column A numbers, no cached values), computed by
# `sheetport convert FILE --to csv --recalc` against LibreOffice headless converting the same
# file to CSV, recalculating on load (a throw-away user profile with
# /org.openoffice.Office.Calc/Formula/Load/OOXMLRecalcMode = 0, "always"). Checks the two CSVs
# hold the same values (to 1e-9 relative) and prints the ratio; goal <= 0.2x.
#
# Usage: Benchmarks/calc/sumif.sh [ROWS]          (default 10000)
#   RUNS=3       runs of each command, alternating (medians)
#   DECIMALS=1   numbers with two decimals (sums that could round: SheetPort's row-order scan)
# Times are wall-clock seconds (and CPU = user + system) from /usr/bin/time, peak RSS its %M.
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
rows="${1:-10000}"
runs="${RUNS:-3}"
Scripts/venv.sh
python=.venv/bin/python
command -v soffice >/dev/null || { echo "sumif.sh: LibreOffice (soffice) is needed" >&2; exit 1; }

echo "sumif.sh: writing the workbook ($rows rows)" >&2
"$python" Benchmarks/calc/make_sumif_workbook.py "$rows" "$work/book.xlsx" ${DECIMALS:+--decimals}

# LibreOffice's profile: recalculate OOXML on load, always. Its first start (making the profile)
# is not timed.
profile="$work/lo-profile"
mkdir -p "$profile/user" "$work/lo"
cat > "$profile/user/registrymodifications.xcu" <<'XCU'
<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
XCU
# Comma, '"', UTF-8, from line 1; token 9 false: the values, not as shown (a narrow column's rounding).
libreoffice=(soffice -env:UserInstallation="file://$profile" --headless
             --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false'
             --outdir "$work/lo" "$work/book.xlsx")
"${libreoffice[@]}" > /dev/null

echo "sumif.sh: $runs runs each, alternating" >&2
for _ in $(seq "$runs"); do
    time_runs sheetport 1 "$sheetport" convert "$work/book.xlsx" --to csv --recalc
    time_runs libreoffice 1 "${libreoffice[@]}"
done
agree="$("$python" Benchmarks/calc/same_values.py "$work/sheetport.out" "$work/lo/book.csv")" && same=yes || same="**no**"

sp_wall="$(median sheetport 1)"; sp_cpu="$(median sheetport 2)"
lo_wall="$(median libreoffice 1)"; lo_cpu="$(median libreoffice 2)"
wall_ratio="$(ratio "$sp_wall" "$lo_wall")"; cpu_ratio="$(ratio "$sp_cpu" "$lo_cpu")"

figures_header 52
figures_row 52 "sheetport convert --to csv --recalc" "$rows" "$runs" "$sp_wall" "$sp_cpu" "$(peak sheetport)"
figures_row 52 "soffice --headless --convert-to csv (recalc on load)" "$rows" "$runs" "$lo_wall" "$lo_cpu" "$(peak libreoffice)"
goals_header
echo "| $rows | convert --recalc <= 0.2x LibreOffice headless | $wall_ratio; $cpu_ratio | $(met "$wall_ratio" 0.2) |"
echo "| $rows | values equal (1e-9 relative) | $agree | $same |"
