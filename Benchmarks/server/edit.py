#!/usr/bin/env python3
"""Single-cell writes through the server beside a full recalculation (issue 25), in one run.

    python3 Benchmarks/server/edit.py --sheetport .build/release/sheetport [--rows 200000] [--writes 100]
        [--paced 20] [--pause 1.0]

Writes a workbook with openpyxl (column A numbers, column B a running total `=B{n-1}+A{n}`, no
cached values), times `convert BOOK --recalc --to csv` (the sheet's full recalculation), imports
it through a real `sheetport serve`, then times WRITES writes of A1 (every running total depends
on it) one after another and WRITES writes of D1 (nothing depends on it): p50 and p95 of each, and
their ratios to the full recalculation. A write answers once it knows its first 1,000 changed
cells; the rest are computed and stored after it, once the sheet's writes pause. A rows window
read before then computes as far as it needs and shows those values: the table also gives rows 1
to 50 right after the A1 writes, then the last row (the whole chain), a view sorted by the running
total right after ten more writes, PACED writes of A1 with PAUSE seconds between them (the
background done before each), and the server's peak resident memory beside `--calc-memory` plus
128 MB. Loopback only. Prints a Markdown table.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

from local_server import LocalServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sheetport", required=True)
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--writes", type=int, default=100)
    parser.add_argument("--paced", type=int, default=20, help="A1 writes with a pause between them")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between paced writes")
    parser.add_argument("--calc-memory-mib", type=int, default=512, help="the server's --calc-memory, in MiB")
    args = parser.parse_args()
    sheetport = os.path.abspath(args.sheetport)
    import openpyxl
    with tempfile.TemporaryDirectory(prefix="sheetport-edit-") as folder:
        book = os.path.join(folder, "running.xlsx")
        workbook = openpyxl.Workbook(write_only=True)
        sheet = workbook.create_sheet("Data")
        sheet.append([1, "=A1"])
        for row in range(2, args.rows + 1):
            sheet.append([row % 7, f"=B{row - 1}+A{row}"])
        workbook.save(book)

        started = time.monotonic()
        subprocess.run([sheetport, "convert", book, "--recalc", "--to", "csv", "-o", os.path.join(folder, "out.csv")], check=True)
        full = time.monotonic() - started

        with LocalServer(sheetport, folder, "--calc-memory", f"{args.calc_memory_mib}M") as server:
            call = server.call
            sheet_id = server.import_workbook(book, poll=0.2)

            def timed(ref):
                times = []
                for index in range(args.writes):
                    started = time.monotonic()
                    status, answer = call("POST", f"/api/sheets/{sheet_id}/cells", {"cells": [{"ref": ref, "input": str(index + 2)}]})
                    times.append(time.monotonic() - started)
                    assert status == 200, answer
                if os.environ.get("EDIT_TIMES"): print(ref, " ".join(f"{t * 1000:.1f}" for t in times), file=sys.stderr)
                times.sort()
                return times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.95))]

            chain = timed("A1")
            # Reads right after the burst: the window a person sees first (rows 1 to 50), then the
            # last row, whose value needs the whole chain computed (stored or not).
            def read_window(start, count):
                started = time.monotonic()
                status, window = call("GET", f"/api/sheets/{sheet_id}/rows?start={start}&count={count}")
                elapsed = time.monotonic() - started
                assert status == 200, window
                value = window["rows"][-1]["cells"][1]["value"]
                expected = (args.writes + 1) + sum(row % 7 for row in range(2, start + count))
                if value != expected:
                    sys.exit(f"row {start + count - 1} after the A1 writes: {value}, expected {expected}")
                return elapsed
            top_read = read_window(1, 50)
            settle_read = read_window(args.rows, 1)
            # Ten more writes, then a view sorted by the running total (every value read).
            for index in range(10):
                status, answer = call("POST", f"/api/sheets/{sheet_id}/cells", {"cells": [{"ref": "A1", "input": str(args.writes + 2 + index)}]})
                assert status == 200, answer
            started = time.monotonic()
            status, view = call("GET", f"/api/sheets/{sheet_id}/view?sort=B:desc&count=50")
            view_read = time.monotonic() - started
            assert status == 200, view
            top = view["rows"][0]
            expected = (args.writes + 11) + sum(row % 7 for row in range(2, args.rows + 1))
            if top["row"] != args.rows or top["cells"][1]["value"] != expected:
                sys.exit(f"the view after the A1 writes: row {top['row']} {top['cells'][1]['value']}, expected {args.rows} {expected}")
            alone = timed("D1")
            # Writes a person makes (a pause between them): the background has stored each one's
            # dependents before the next comes.
            paced = []
            for index in range(args.paced):
                time.sleep(args.pause)
                started = time.monotonic()
                status, answer = call("POST", f"/api/sheets/{sheet_id}/cells", {"cells": [{"ref": "A1", "input": str(args.writes + 12 + index)}]})
                paced.append(time.monotonic() - started)
                assert status == 200, answer
            paced.sort()
            paced_p = (paced[len(paced) // 2], paced[min(len(paced) - 1, int(len(paced) * 0.95))]) if paced else (0.0, 0.0)
            with open(f"/proc/{server.pid}/status") as status_file:
                peak = next((int(line.split()[1]) / 1024 for line in status_file if line.startswith("VmHWM:")), 0.0)
            status, window = call("GET", f"/api/sheets/{sheet_id}/rows?start={args.rows}&count=1")
            last = window["rows"][0]["cells"][1]["value"]
            expected = (args.writes + 11 + args.paced) + sum(row % 7 for row in range(2, args.rows + 1))
            print(f"| {args.rows:,} rows, {args.writes} writes each | seconds | ratio to the full recalculation |")
            print("|---|---|---|")
            print(f"| `convert --recalc` (full recalculation) | {full:.3f} | 1 |")
            print(f"| write A1 (the running total depends on it), p50 / p95 | {chain[0]:.3f} / {chain[1]:.3f} | {chain[1] / full:.3f} |")
            print(f"| write D1 (nothing depends on it), p50 / p95 | {alone[0]:.3f} / {alone[1]:.3f} | {alone[1] / full:.4f} |")
            print(f"| rows 1 to 50 right after the A1 writes | {top_read:.3f} | {top_read / full:.3f} |")
            print(f"| then the last row (the whole chain computed) | {settle_read:.3f} | {settle_read / full:.3f} |")
            print(f"| a view sorted by the running total right after 10 more A1 writes | {view_read:.3f} | {view_read / full:.3f} |")
            if paced:
                print(f"| write A1 with {args.pause:g} s between writes ({args.paced}), p50 / p95 | {paced_p[0]:.3f} / {paced_p[1]:.3f} | {paced_p[1] / full:.3f} |")
            print(f"| server peak RSS (VmHWM), MiB | {peak:.0f} | budget {args.calc_memory_mib + 128} (`--calc-memory` + 128 MB) |")
            print(f"\nlast running total {last} (expected {expected}); load average {os.getloadavg()[0]:.2f}")
            if last != expected:
                sys.exit("the running total is wrong")


if __name__ == "__main__":
    main()
