#!/usr/bin/env bash
# Per-column type inference on a 50 MB CSV (issue 13): time and peak memory of
# `sheetport convert data.csv -o data.xlsx` with types decided over each whole column (two
# passes), against one pass with --no-infer, with inline strings (so that the writer's
# shared-string table, which holds the distinct text, is not counted), from standard input
# (spooled to a private file as it is read), and the same text in cp1252 with semicolons and
# decimal commas. Prints one line a run.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# 640,000 rows x 8 columns, about 50 MB: an ID, a ZIP code column whose one leading-zero code
# comes last (so it turns text only at the end), decimals, dates, times, booleans, words, and
# a date-time column.
python3 - "$work/data.csv" "$work/eu.csv" <<'PY'
import random, sys
random.seed(13)
rows = 640_000
with open(sys.argv[1], "w", newline="") as us, open(sys.argv[2], "w", encoding="cp1252", newline="") as eu:
    us.write("id,zip,amount,day,time,flag,city,at\r\n")
    eu.write("id;zip;amount;day;time;flag;city;at\r\n")
    cities = ["Zürich", "Málaga", "Kraków", "Reykjavík", "Besançon", "Köln", "Orléans"]
    for i in range(1, rows + 1):
        zip_code = "01234" if i == rows else str(10000 + i % 89999)
        amount = random.randint(0, 10**7) / 100
        day = f"20{i % 30:02d}-{1 + i % 12:02d}-{1 + i % 28:02d}"
        time = f"{i % 24:02d}:{i % 60:02d}"
        flag = "TRUE" if i % 3 else "FALSE"
        city = cities[i % len(cities)]
        at = f"{day} {i % 24:02d}:{i % 60:02d}:{i % 60:02d}"
        us.write(f"{i},{zip_code},{amount:.2f},{day},{time},{flag},{city},{at}\r\n")
        eu.write(f"{i};{zip_code};{amount:.2f}".replace(".", ",") + f";{day};{time};{flag};{city};{at}\r\n")
PY

# Wall-clock seconds, and CPU seconds (user + system), which a busy machine disturbs less.
printf '%-34s %9s %9s %10s %9s\n' run seconds "CPU s" "peak KiB" "input MB"
run() {
    local name="$1" input="$2"; shift 2
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > /dev/null
    read -r seconds user system peak < "$work/time"
    printf '%-34s %9s %9s %10s %9s\n' "$name" "$seconds" "$(awk "BEGIN { print $user + $system }")" "$peak" "$(( $(stat -c %s "$input") / 1000000 ))"
}
run "per-column types (two passes)" "$work/data.csv" "$sheetport" convert "$work/data.csv" -o "$work/out.xlsx" --no-progress
run "--no-infer (one pass)" "$work/data.csv" "$sheetport" convert "$work/data.csv" -o "$work/out.xlsx" --no-progress --no-infer
run "per-column types, --inline-strings" "$work/data.csv" "$sheetport" convert "$work/data.csv" -o "$work/out.xlsx" --no-progress --inline-strings
run "standard input (spooled)" "$work/data.csv" sh -c "cat \"$work/data.csv\" | \"$sheetport\" convert - --from csv -o \"$work/out.xlsx\" --no-progress"
run "cp1252, sniffed ';', decimal comma" "$work/eu.csv" "$sheetport" convert "$work/eu.csv" -o "$work/out.xlsx" --no-progress --encoding cp1252 --decimal-comma
