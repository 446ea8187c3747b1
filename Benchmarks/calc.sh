#!/usr/bin/env bash
# The calculation engine's speed goals (issue 24), measured in one run with ratios:
#   (a) SMALL rows: `sheetport convert FILE --recalc --to csv` against IronCalc's load +
#       evaluate of the same file (its Python API, Benchmarks/calc/ironcalc_eval.py): goal <= 0.2x;
#   (b) LARGE rows: `convert --recalc` against plain `convert` of the same file: goal <= 3x,
#       peak memory <= 256 MB, and the last row's running total equal to the generator's own sum.
# The workbook (Benchmarks/calc/make_calc_workbook.py): inputs and eight formula columns
# (arithmetic, IF, ROUND, SUM over the row, VLOOKUP and SUMIF over a 1,000-row table on the
# sheet, text joining, a running total), no cached values.
#
# Usage: Benchmarks/calc.sh [SMALL [LARGE]]     (default 20000 200000)
#   RUNS=3           runs of each SheetPort command, alternating (medians)
#   IRONCALC_RUNS=1  runs of IronCalc (it takes minutes at 20,000 rows)
# Times are wall-clock seconds (and CPU = user + system) from /usr/bin/time, peak RSS its %M.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
small="${1:-20000}"
large="${2:-200000}"
runs="${RUNS:-3}"
ironcalc_runs="${IRONCALC_RUNS:-1}"
Scripts/venv.sh --bench
python=.venv/bin/python

echo "calc.sh: writing the workbooks ($small and $large rows)" >&2
"$python" Benchmarks/calc/make_calc_workbook.py "$small" "$work/small.xlsx" > "$work/small.json"
"$python" Benchmarks/calc/make_calc_workbook.py "$large" "$work/large.xlsx" > "$work/large.json"
field() { "$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/$1.json" "$2"; }

echo "calc.sh: (a) $small rows, convert --recalc against IronCalc" >&2
for _ in $(seq "$runs"); do
    time_runs recalc_small 1 "$sheetport" convert "$work/small.xlsx" --recalc --to csv
done
time_runs ironcalc "$ironcalc_runs" "$python" Benchmarks/calc/ironcalc_eval.py "$work/small.xlsx" "Data!M$(field small last_row)"

echo "calc.sh: (b) $large rows, convert --recalc against convert" >&2
for _ in $(seq "$runs"); do
    time_runs plain_large 1 "$sheetport" convert "$work/large.xlsx" --to csv
    time_runs recalc_large 1 "$sheetport" convert "$work/large.xlsx" --recalc --to csv
done

# The running total: column M of the last CSV record, against the generator's sum (cents: any
# wrong row is off by at least 0.01).
expected="$(field large running_total)"
got="$(tail -n 1 "$work/recalc_large.out" | awk -F, '{ print $13 }')"
total_ok="$(awk -v a="$got" -v b="$expected" 'BEGIN { d = a - b; if (d < 0) d = -d; print (a != "" && d < 0.001) ? "yes" : "**no**" }')"
ironcalc_value="$(tail -n 1 "$work/ironcalc.out")"

rs_wall="$(median recalc_small 1)"; rs_cpu="$(median recalc_small 2)"
ic_wall="$(median ironcalc 1)"; ic_cpu="$(median ironcalc 2)"
rl_wall="$(median recalc_large 1)"; rl_cpu="$(median recalc_large 2)"
pl_wall="$(median plain_large 1)"; pl_cpu="$(median plain_large 2)"
rl_peak="$(peak recalc_large)"
a_ratio="$(ratio "$rs_wall" "$ic_wall")"; a_cpu="$(ratio "$rs_cpu" "$ic_cpu")"
b_ratio="$(ratio "$rl_wall" "$pl_wall")"; b_cpu="$(ratio "$rl_cpu" "$pl_cpu")"
peak_mb="$(awk -v k="$rl_peak" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }')"

figures_header 46
figures_row 46 "sheetport convert --recalc --to csv" "$small" "$runs" "$rs_wall" "$rs_cpu" "$(peak recalc_small)"
figures_row 46 "IronCalc load_from_xlsx + evaluate" "$small" "$ironcalc_runs" "$ic_wall" "$ic_cpu" "$(peak ironcalc)"
figures_row 46 "sheetport convert --to csv" "$large" "$runs" "$pl_wall" "$pl_cpu" "$(peak plain_large)"
figures_row 46 "sheetport convert --recalc --to csv" "$large" "$runs" "$rl_wall" "$rl_cpu" "$rl_peak"
goals_header
echo "| $small | convert --recalc <= 0.2x IronCalc load + evaluate | $a_ratio; $a_cpu | $(met "$a_ratio" 0.2) |"
echo "| $large | convert --recalc <= 3x plain convert | $b_ratio; $b_cpu | $(met "$b_ratio" 3) |"
echo "| $large | convert --recalc peak memory <= 256 MB | $peak_mb MB | $(met "$peak_mb" 256) |"
echo "| $large | running total of row $(field large last_row) = $expected | $got | $total_ok |"
echo
echo "IronCalc's M$(field small last_row) at $small rows: $ironcalc_value (expected $(field small running_total))"
