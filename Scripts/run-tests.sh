#!/usr/bin/env bash
# Runs the built test bundle (swift build --build-tests) as several processes at once, one per
# argument "NAME: [VAR=VALUE ...] [--filter REGEX | --skip REGEX ...]", each with its own
# environment and log (.build/tests-NAME.log), printed whole when all have ended. Fails when
# any fails. (`swift test` itself holds a lock on .build, so two cannot run side by side.)
#
#   Scripts/run-tests.sh "server: --filter SheetPortServerTests" "others: --skip SheetPortServerTests"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bundle="$(swift build --show-bin-path)/SheetPortPackageTests.xctest"
[[ -x "$bundle" ]] || { echo "run-tests: no test bundle at $bundle (swift build --build-tests first)" >&2; exit 2; }
names=()
pids=()
for run in "$@"; do
    name="${run%%:*}"
    read -r -a words <<<"${run#*:}"
    variables=()
    arguments=()
    for word in "${words[@]}"; do
        if [[ ${#arguments[@]} -eq 0 && "$word" =~ ^[A-Z_][A-Z0-9_]*= ]]; then variables+=("$word"); else arguments+=("$word"); fi
    done
    log=".build/tests-$name.log"
    env "${variables[@]}" "$bundle" --testing-library swift-testing "${arguments[@]}" >"$log" 2>&1 &
    names+=("$name")
    pids+=("$!")
    echo "run-tests: $name started: ${variables[*]} ${arguments[*]}" >&2
done
failed=()
for index in "${!pids[@]}"; do
    wait "${pids[$index]}" || failed+=("${names[$index]}")
done
for name in "${names[@]}"; do
    echo "===== run-tests: $name ====="
    cat ".build/tests-$name.log"
done
for name in "${names[@]}"; do
    echo "run-tests: $name: $(grep -a 'Test run with' ".build/tests-$name.log" | tail -n 1)" >&2
done
if (( ${#failed[@]} > 0 )); then
    echo "run-tests: failed: ${failed[*]}" >&2
    exit 1
fi
