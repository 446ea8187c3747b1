#!/usr/bin/env bash
# Create (idempotently) the project's Python virtualenv at .venv with the pinned oracle
# libraries used by Tests/ValueAgreement (and IronCalc, the peer of Tests/Differential and of the
# server's round trip), XlsxWriter (a producer the tests write dynamic arrays and tables with), and
# Selenium, which drives Chromium in the page's browser tests (Tests/Web). Safe to run repeatedly; quiet when already done.
# Usage: Scripts/venv.sh            (then use .venv/bin/python)
#        Scripts/venv.sh --bench    also the benchmark peers and the chart library (Benchmarks/run.sh)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="${PYTHON:-python3}"
PINS=(openpyxl==3.1.5 python-calamine==0.9.1 ironcalc==0.9.1 selenium==4.51.0 XlsxWriter==3.3.1)
if [ "${1:-}" = "--bench" ]; then
    PINS+=(fastexcel==0.21.0 xlsx2csv==0.8.6 matplotlib==3.11.2)
fi

# The venv module (and ensurepip) ship separately on Debian; install only when missing.
if ! "$PY" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    echo "venv.sh: installing python3-venv" >&2
    apt-get install -y python3-venv >&2
fi

if [ ! -x "$VENV/bin/python" ]; then
    echo "venv.sh: creating $VENV" >&2
    "$PY" -m venv "$VENV"
fi

# Already satisfied? (exact pinned versions importable) -> nothing to do.
if "$VENV/bin/python" - "${PINS[@]}" >/dev/null 2>&1 <<'PYEOF'
import sys
from importlib.metadata import version
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    if version(name) != want:
        sys.exit(1)
import openpyxl, python_calamine, ironcalc, selenium  # noqa: F401  (importable, not just installed)
PYEOF
then
    exit 0
fi

echo "venv.sh: installing ${PINS[*]}" >&2
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}" >&2
