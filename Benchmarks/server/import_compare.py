#!/usr/bin/env python3
"""The server import beside the local read, for several sheetport binaries on one workbook.

    python3 Benchmarks/server/import_compare.py --rows 200000 --repeats 5 OLD/sheetport NEW/sheetport
    python3 Benchmarks/server/import_compare.py --rows 20000 --callgrind OLD/sheetport NEW/sheetport

Timing (default): the binaries take turns, REPEATS rounds; each round runs `convert BOOK --to
csv` (the local read) and one import through a fresh `sheetport serve` (upload to job end),
CPU seconds of the server as path.py counts them; prints each run and the medians of the
ratios, so that a loaded machine's drift hits every binary alike.
--callgrind: one import per binary under `valgrind --tool=callgrind --instr-atstart=no`,
instrumentation on just before the upload and dumped when the job ended; prints the
instruction count of the import (the server's threads together), and of `convert --to csv`
of the same workbook by the first binary, for the ratio.
"""

import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import path as P  # noqa: E402  (run, server_cpu)
from local_server import LocalServer  # noqa: E402


def callgrind_server(sheetport, folder, out):
    """`sheetport serve` under callgrind, instrumentation off until asked."""
    return LocalServer(sheetport, folder, launcher=["valgrind", "--tool=callgrind", "--instr-atstart=no",
                                                 f"--callgrind-out-file={out}"], wait=300)


def summary(pattern):
    """The instruction count of the dump callgrind_control -d wrote (its `summary:` line)."""
    for name in glob.glob(pattern):
        with open(name) as f:
            text = f.read()
        if "Trigger: dump" in text:
            for line in text.splitlines():
                if line.startswith("summary:") and int(line.split()[1]) > 0:
                    return int(line.split()[1])
                if line.startswith("summary:"):  # seen once on a loaded machine: the "on" did not reach it
                    raise SystemExit(f"import_compare.py: {name} counted nothing (instrumentation was not on); run again")
    raise SystemExit(f"import_compare.py: no dump in {pattern}")


def callgrind(binaries, book, folder):
    for index, sheetport in enumerate(binaries):
        sub = os.path.join(folder, f"cg{index}")
        os.makedirs(sub)
        out = os.path.join(sub, "callgrind.out")
        server = callgrind_server(sheetport, sub, out)
        try:
            pid = str(server.process.pid)
            subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
            server.import_workbook(book)
            subprocess.run(["callgrind_control", "-d", pid], check=True, capture_output=True)
        finally:
            server.close()
        print(f"{sheetport}: import {summary(out + '*') / 1e9:.3f} G instructions", flush=True)
    out = os.path.join(folder, "convert.out")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binaries[0], "convert", book, "--to", "csv",
                    "-o", os.path.join(folder, "book.csv")], check=True, capture_output=True)
    with open(out) as f:
        total = next(int(line.split()[1]) for line in f if line.startswith("summary:"))
    print(f"{binaries[0]}: local read (convert --to csv, whole process) {total / 1e9:.3f} G instructions")


def timing(binaries, book, folder, repeats):
    runs = {sheetport: [] for sheetport in binaries}
    for round_ in range(repeats):
        for index, sheetport in enumerate(binaries):
            read_wall, read_cpu = P.run([sheetport, "convert", book, "--to", "csv", "-o", os.path.join(folder, "book.csv")])
            sub = os.path.join(folder, f"r{round_}-{index}")
            os.makedirs(sub)
            server = LocalServer(sheetport, sub)
            try:
                cpu = P.server_cpu(server.process.pid)
                start = time.monotonic()
                server.import_workbook(book)
                wall = time.monotonic() - start
                used = P.server_cpu(server.process.pid) - cpu
            finally:
                server.close()
            shutil.rmtree(sub, ignore_errors=True)
            runs[sheetport].append((read_wall, read_cpu, wall, used))
            print(f"{sheetport}: local read {read_wall:.2f} s wall {read_cpu:.2f} s CPU | import {wall:.2f} s wall "
                  f"{used:.2f} s CPU | ratio CPU {used / read_cpu:.2f} wall {wall / read_wall:.2f} | load {os.getloadavg()[0]:.2f}",
                  flush=True)
    for sheetport, rows in runs.items():
        print(f"{sheetport}: medians: import CPU {statistics.median(r[3] for r in rows):.2f} s, local read CPU "
              f"{statistics.median(r[1] for r in rows):.2f} s, ratio CPU {statistics.median(r[3] / r[1] for r in rows):.2f}, "
              f"ratio wall {statistics.median(r[2] / r[0] for r in rows):.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--rows", type=int, default=200000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--callgrind", action="store_true")
    args = parser.parse_args()
    binaries = [os.path.abspath(b) for b in args.binaries]
    folder = tempfile.mkdtemp(prefix="sheetport-import-compare-")
    try:
        book = os.path.join(folder, "book.xlsx")
        subprocess.run([binaries[0], "bench", "generate", "--rows", str(args.rows), "-o", book, "--no-progress"],
                       check=True, timeout=1800, stdout=subprocess.DEVNULL)
        print(f"{args.rows:,} rows x 10 columns, {os.path.getsize(book) / 1e6:.1f} MB", flush=True)
        if args.callgrind:
            callgrind(binaries, book, folder)
        else:
            timing(binaries, book, folder, args.repeats)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
