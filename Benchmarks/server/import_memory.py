#!/usr/bin/env python3
"""The server's peak memory for one import (issue 40), binary beside binary.

    python3 Benchmarks/server/import_memory.py --sheetport .build/release/sheetport \
        [--before /tmp/sheetport-before] [--rows 200000 1000000]

For each row count, generates the benchmark workbook (`sheetport bench generate`: ten columns of
numbers, text, dates and booleans and one formula column, `=A r*2`), then imports it through a
new `sheetport serve` of each binary (loopback, a fresh data folder, every wait bounded) and
prints the server's peak resident memory once the job ended (VmHWM, MiB) and the import's wall
seconds, with the load average. Each server imports one workbook only: its peak is that import's.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import path as server_path  # noqa: E402  (server_peak_mib)
from local_server import LocalServer  # noqa: E402


def import_peak(sheetport, book, folder):
    """Imports `book` through a new server; (VmHWM MiB after the job, wall seconds)."""
    server = LocalServer(sheetport, folder, "--max-text-size", "1G", "--max-cells", "20000000")
    try:
        start = time.monotonic()
        server.import_workbook(book)
        return server_path.server_peak_mib(server.process.pid), time.monotonic() - start
    finally:
        server.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sheetport", required=True)
    parser.add_argument("--before", help="another binary, measured first in the same run")
    parser.add_argument("--rows", type=int, nargs="+", default=[200000, 1000000])
    args = parser.parse_args()
    binaries = ([("before", os.path.abspath(args.before))] if args.before else []) + [("sheetport", os.path.abspath(args.sheetport))]
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"{'rows':>9}  {'binary':<10} {'peak MiB':>9} {'import s':>9}")
    with tempfile.TemporaryDirectory(prefix="import-memory-") as folder:
        for rows in args.rows:
            book = os.path.join(folder, f"bench-{rows}.xlsx")
            subprocess.run([binaries[-1][1], "bench", "generate", "--rows", str(rows), "-o", book, "--no-progress"],
                           check=True, timeout=1800, stdout=subprocess.DEVNULL)
            for name, binary in binaries:
                run_folder = tempfile.mkdtemp(dir=folder)
                peak, seconds = import_peak(binary, book, run_folder)
                print(f"{rows:>9,}  {name:<10} {peak:>9.0f} {seconds:>9.1f}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
