# Sourced by the benchmark scripts: strict mode, the project root as the working folder,
# /usr/bin/time, a release build of sheetport in $sheetport, and a scratch folder $work
# removed at exit; and the timing helpers below (/usr/bin/time, medians, ratios).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; } >&2
swift build -c release --product sheetport >&2
sheetport="$(swift build -c release --show-bin-path)/sheetport"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# time_runs NAME N CMD...: runs CMD N times (stdout to $work/NAME.out), appending
# "wall cpu peakKiB" lines to $work/NAME.times.
time_runs() {
    local name="$1" n="$2"; shift 2
    for _ in $(seq "$n"); do
        /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > "$work/$name.out"
        awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$work/time" >> "$work/$name.times"
    done
}
# median NAME COLUMN: the median of a column of $work/NAME.times (1 wall, 2 cpu, 3 peak KiB).
median() {
    sort -g -k"$2","$2" "$work/$1.times" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
peak() { sort -g -k3,3 "$work/$1.times" | tail -1 | awk '{ print $3 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
met() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= b ? "yes" : "**no**") }'; }
# figures_header WIDTH, then figures_row WIDTH RUN ROWS RUNS WALL CPU PEAK: the table of medians;
# goals_header: the head of the goals' table (rows of "| rows | goal | measured | met |").
figures_header() { printf "\n%-${1}s %6s %5s %9s %9s %10s\n" run rows runs "median s" "CPU s" "peak KiB"; }
figures_row() { local width="$1"; shift; printf "%-${width}s %6s %5s %9s %9s %10s\n" "$@"; }
goals_header() { echo; echo "| rows | goal | measured (wall; CPU) | met |"; echo "|---:|---|---:|---|"; }
