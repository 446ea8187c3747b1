#!/usr/bin/env python3
"""`sheetport import --wait` end to end beside a local `convert --recalc --to csv` (issue 26).

    python3 Benchmarks/server/import-wait.py --sheetport .build/release/sheetport [--rows 200000] [--runs 3]

Generates the benchmark workbook (`sheetport bench generate`, ROWS rows x 10 columns), starts a
real `sheetport serve` (`local_server.LocalServer`), then alternates, RUNS times each:
- A: `sheetport import BOOK --server URL --wait` (pre-flight, upload, the server's import job
  to its end; it computes the formulas too);
- B: `sheetport convert BOOK --recalc --to csv` to /dev/null;
- C: `sheetport check BOOK` (the cell-level pre-flight the client made before the upload until
  issue 26; A + C is about what an import cost then).
Wall seconds, and CPU seconds (A: the client's and the server's together). Prints the medians,
the ratio A/B pair by pair (its median), and the load average.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from local_server import LocalServer  # noqa: E402
from path import run, server_cpu  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sheetport", required=True)
    parser.add_argument("--rows", type=int, default=200000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sheetport = os.path.abspath(args.sheetport)
    folder = tempfile.mkdtemp(prefix="sheetport-import-wait-")
    try:
        book = os.path.join(folder, "book.xlsx")
        subprocess.run([sheetport, "bench", "generate", "--rows", str(args.rows), "-o", book, "--no-progress"],
                       check=True, timeout=1800, stdout=subprocess.DEVNULL)
        server = LocalServer(sheetport, folder)
        rows = {"import": [], "convert": [], "check": []}
        try:
            client = [sheetport, "import", book, "--server", server.url, "--token-file", server.token_file, "--wait", "--no-progress"]
            for _ in range(args.runs):
                cpu = server_cpu(server.process.pid)
                wall, client_cpu = run(client)
                rows["import"].append((wall, client_cpu + server_cpu(server.process.pid) - cpu))
                rows["convert"].append(run([sheetport, "convert", book, "--recalc", "--to", "csv", "-o", "/dev/null", "--no-progress"]))
                rows["check"].append(run([sheetport, "check", book]))
        finally:
            server.close()
        load = os.getloadavg()
        median = lambda name, i: statistics.median(r[i] for r in rows[name])
        ratio = statistics.median(a[0] / b[0] for a, b in zip(rows["import"], rows["convert"]))
        ratio_cpu = statistics.median(a[1] / b[1] for a, b in zip(rows["import"], rows["convert"]))
        before = statistics.median((a[0] + c[0]) / b[0] for a, b, c in zip(rows["import"], rows["convert"], rows["check"]))
        print(f"{args.rows:,} rows x 10 columns ({os.path.getsize(book) / 1e6:.1f} MB), {args.runs} runs each, "
              f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores, "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        print("| run | wall s (median) | CPU s (median) |")
        print("|---|---:|---:|")
        print(f"| A `import --wait` (client + server CPU) | {median('import', 0):.2f} | {median('import', 1):.2f} |")
        print(f"| B `convert --recalc --to csv` | {median('convert', 0):.2f} | {median('convert', 1):.2f} |")
        print(f"| C `check` (the cell-level pre-flight) | {median('check', 0):.2f} | {median('check', 1):.2f} |")
        print(f"A/B wall {ratio:.2f} (pairs: {', '.join(f'{a[0] / b[0]:.2f}' for a, b in zip(rows['import'], rows['convert']))}), "
              f"A/B CPU {ratio_cpu:.2f}; (A + C)/B wall, the client's full pre-flight as before: {before:.2f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
