#!/usr/bin/env bash
# The DocC documentation of every library product's module (Editing and the umbrella SheetPort
# included), built with the toolchain's own docc (the SwiftPM DocC plugin is not fetched): symbol
# graphs from `swift package dump-symbol-graph` (after the debug build test.sh makes anyway, so
# little is rebuilt), then `docc convert` of
# Sources/<Module>/<Module>.docc over that module's graphs alone, with warnings as errors, so a
# broken ``symbol`` link or <doc:article> link fails. Archives in .build/docs/<Module>.doccarchive.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Every library product of Package.swift, so a module added without a catalog fails below.
mapfile -t modules < <(swift package dump-package | python3 -c '
import json, sys
for product in json.load(sys.stdin)["products"]:
    if "library" in product["type"]: print(*product["targets"], sep="\n")')
(( ${#modules[@]} >= 9 )) || { echo "docs: found only ${#modules[@]} library modules in Package.swift" >&2; exit 1; }

docc="${DOCC:-}"
if [[ -z "$docc" ]]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
    [[ -x "$docc" ]] || docc="$(command -v docc || true)"
fi
[[ -n "$docc" && -x "$docc" ]] || { echo "docs: no docc next to swift nor on PATH (set DOCC)" >&2; exit 1; }

start=$SECONDS
swift build
rm -rf .build/*/symbolgraph   # no graph left from an earlier run passes for a new one
# dump-symbol-graph also tries SwiftPM's synthesized test-runner modules (SheetPortPackageTests,
# SheetPortPackageDiscoveredTests), cannot load them and exits 1 after writing every other
# graph: that failure alone is let through; any other error fails, as does a missing graph.
status=0
dump="$(swift package dump-symbol-graph --minimum-access-level public 2>&1)" || status=$?
if (( status != 0 )); then
    others="$(grep '^error:' <<<"$dump" | grep -v "^error: Failed to emit symbol graph for 'SheetPortPackage\(Discovered\)\?Tests'" || true)"
    if [[ -n "$others" ]]; then
        echo "$dump" >&2
        echo "docs: dump-symbol-graph failed" >&2
        exit 1
    fi
fi
graphs="$(sed -n 's/^Files written to //p' <<<"$dump" | tail -n 1)"
[[ -d "$graphs" ]] || { echo "$dump" >&2; echo "docs: no symbol graph folder in dump-symbol-graph's output" >&2; exit 1; }
for module in "${modules[@]}"; do
    [[ -f "$graphs/$module.symbols.json" ]] || { echo "$dump" >&2; echo "docs: no symbol graph for $module" >&2; exit 1; }
done
echo "docs: symbol graphs in $graphs ($((SECONDS - start)) s)"

out=.build/docs
rm -rf "$out"
mkdir -p "$out/graphs"
failed=()
for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    [[ -d "$catalog" ]] || { echo "docs: $catalog is missing" >&2; failed+=("$module"); continue; }
    # Only this module's graphs: its own, and those of its extensions to other modules' types.
    moduleGraphs="$out/graphs/$module"
    mkdir -p "$moduleGraphs"
    cp "$graphs/$module.symbols.json" "$moduleGraphs/"
    shopt -s nullglob
    extensions=("$graphs/$module@"*.symbols.json)
    shopt -u nullglob
    (( ${#extensions[@]} == 0 )) || cp "${extensions[@]}" "$moduleGraphs/"
    if "$docc" convert "$catalog" \
        --additional-symbol-graph-dir "$moduleGraphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.sheetport.$module" \
        --output-path "$out/$module.doccarchive" \
        --warnings-as-errors >"$out/$module.log" 2>&1; then
        echo "docs: $module -> $out/$module.doccarchive"
    else
        cat "$out/$module.log" >&2
        echo "docs: $module failed (warnings are errors)" >&2
        failed+=("$module")
    fi
done
echo "docs: ${#modules[@]} modules in $((SECONDS - start)) s"
(( ${#failed[@]} == 0 )) || { echo "docs: failed: ${failed[*]}" >&2; exit 1; }
