#!/usr/bin/env bash
# The modules an app on macOS or iOS links (Core, Reader, Writer, Calc, Convert, Editing) must build on
# Darwin, which no machine here runs: no Glibc-qualified call and no `import Glibc` outside an
# `#if canImport(Glibc)` branch that has its Darwin twin (`#elseif canImport(Darwin)`).
# Prints each offending line and exits 1; silent when all is well.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
status=0
for module in SheetPortCore SheetPortReader SheetPortWriter SheetPortCalc SheetPortConvert SheetPortEditing; do
    [ -d "Sources/$module" ] || continue
    while IFS= read -r file; do
        awk -v file="$file" '
            /^[[:space:]]*#if canImport\(Glibc\)/ { inside = 1; twin = 0; start = NR; next }
            inside && /^[[:space:]]*#(elseif|else)/ { if ($0 ~ /Darwin/ || $0 ~ /#else/) twin = 1; inside = 2; next }
            inside && /^[[:space:]]*#endif/ {
                if (!twin) { printf "%s:%d: #if canImport(Glibc) without a Darwin branch\n", file, start; bad = 1 }
                inside = 0; next
            }
            inside != 1 && (/Glibc\./ || /^[[:space:]]*import Glibc/) {
                printf "%s:%d: Glibc outside an #if canImport(Glibc) branch: %s\n", file, NR, $0; bad = 1
            }
            END { exit bad }
        ' "$file" || status=1
    done < <(find "Sources/$module" -name '*.swift' | sort)
done
[ "$status" -eq 0 ] || echo "check-portable: the modules above must build on Darwin too" >&2
exit "$status"
