#!/usr/bin/env python3
"""The server path beside the local path (issue 14), in one run on one machine.

    python3 Benchmarks/server/path.py --sheetport .build/release/sheetport [--rows 200000]
        [--bulk-sheets 50 (0: none)] [--bulk-rows 20000] [--concurrency 4] [--memory-rows 1000000 (0: none)]
        [--markdown OUT.md] [--plot OUT.png]

Generates the benchmark workbook (`sheetport bench generate`), then measures:
- local read: `convert BOOK --to csv`; local write: `convert BOOK.csv -o OUT.xlsx` (the same cells);
- import through a real `sheetport serve` (upload, pre-flight, store sealed: until the job ends);
- export of that sheet: time to the first body byte and to the last, and `sheetport export`;
- bulk: BULK_SHEETS imports of a BULK_ROWS workbook, then `sheetport export --all --concurrency N`:
  sheets/s and MB/s;
- memory: a MEMORY_ROWS workbook imported, then a new server process exports it CONCURRENCY times
  at once: its peak resident memory (VmHWM) is the exports' alone;
- CPU seconds (user+sys) of each step (the server's from /proc/PID/stat), and the server's peak
  resident memory (VmHWM).
Wall time depends on the machine's load; the CPU seconds much less: both are printed, with
the load average. Loopback only, every wait bounded. Prints a Markdown section (and writes it
to --markdown).
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from local_server import LocalServer  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def server_cpu(pid, children=False):
    """User+sys seconds of a process (and, with children, of its ended children it waited for)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICKS


def server_peak_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def run(argv, timeout=1800):
    """Runs argv; returns (wall seconds, CPU seconds of it and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(argv, check=True, timeout=timeout, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def plot(path, steps, first_byte, rows):
    """Wall and CPU seconds of each step, local beside server, and the export's first byte."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axis = plt.subplots(figsize=(9, 4.5))
    names = [name for name, _, _ in steps]
    positions = range(len(steps))
    axis.bar([p - 0.2 for p in positions], [wall for _, wall, _ in steps], width=0.4, label="wall s")
    axis.bar([p + 0.2 for p in positions], [cpu for _, _, cpu in steps], width=0.4, label="CPU s")
    axis.set_xticks(list(positions), names)
    axis.set_ylabel("seconds")
    axis.set_title(f"{rows:,} rows x 10 columns: the server path beside the local path "
                   f"(export's first byte after {first_byte:.2f} s)")
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=90)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sheetport", required=True)
    parser.add_argument("--rows", type=int, default=200000)
    parser.add_argument("--bulk-sheets", type=int, default=50)
    parser.add_argument("--bulk-rows", type=int, default=20000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--memory-rows", type=int, default=1000000)
    parser.add_argument("--markdown")
    parser.add_argument("--plot")
    args = parser.parse_args()
    sheetport = os.path.abspath(args.sheetport)
    folder = tempfile.mkdtemp(prefix="sheetport-path-")
    lines = []
    try:
        book = os.path.join(folder, "book.xlsx")
        subprocess.run([sheetport, "bench", "generate", "--rows", str(args.rows), "-o", book, "--no-progress"],
                       check=True, timeout=1800, stdout=subprocess.DEVNULL)
        csv = os.path.join(folder, "book.csv")
        read_wall, read_cpu = run([sheetport, "convert", book, "--to", "csv", "-o", csv])
        write_wall, write_cpu = run([sheetport, "convert", csv, "-o", os.path.join(folder, "local.xlsx")])

        server = LocalServer(sheetport, folder)
        try:
            cpu = server_cpu(server.process.pid)
            start = time.monotonic()
            sheet = server.import_workbook(book)
            import_wall = time.monotonic() - start
            import_cpu = server_cpu(server.process.pid) - cpu

            cpu = server_cpu(server.process.pid)
            first_byte, export_wall, export_bytes = server.export(sheet)
            export_cpu = server_cpu(server.process.pid) - cpu
            out = os.path.join(folder, "out")
            cli_wall, cli_cpu = run([sheetport, "export", sheet, "--server", server.url, "--token-file", server.token_file,
                                     "--out", out, "--no-progress"])

            bulk_book = os.path.join(folder, "bulk.xlsx")
            subprocess.run([sheetport, "bench", "generate", "--rows", str(args.bulk_rows), "-o", bulk_book, "--no-progress"],
                           check=True, timeout=1800, stdout=subprocess.DEVNULL)
            # A server of the bulk sheets only, so that --all exports exactly them.
            peak = server_peak_mib(server.process.pid)
        finally:
            server.close()
        bulk_files = 0
        if args.bulk_sheets > 0:
            bulk_folder = os.path.join(folder, "bulk")
            os.makedirs(bulk_folder)
            bulk = LocalServer(sheetport, bulk_folder)
            try:
                for _ in range(args.bulk_sheets):
                    bulk.import_workbook(bulk_book)
                bulk_out = os.path.join(bulk_folder, "out")
                cpu = server_cpu(bulk.process.pid)
                bulk_wall, _ = run([sheetport, "export", "--all", "--concurrency", str(args.concurrency), "--server", bulk.url,
                                    "--token-file", bulk.token_file, "--out", bulk_out, "--no-progress"])
                bulk_cpu = server_cpu(bulk.process.pid) - cpu
                bulk_bytes = sum(os.path.getsize(os.path.join(bulk_out, name)) for name in os.listdir(bulk_out))
                bulk_files = len(os.listdir(bulk_out))
                bulk_peak = server_peak_mib(bulk.process.pid)
            finally:
                bulk.close()

        memory_peak = None
        if args.memory_rows > 0:
            memory_book = os.path.join(folder, "memory.xlsx")
            subprocess.run([sheetport, "bench", "generate", "--rows", str(args.memory_rows), "-o", memory_book, "--no-progress"],
                           check=True, timeout=3600, stdout=subprocess.DEVNULL)
            memory_folder = os.path.join(folder, "memory")
            os.makedirs(memory_folder)
            # The generated book's million unique strings and 10 M cells pass the default caps.
            memory_options = ["--max-text-size", "1G", "--max-cells", "20000000"]
            memory = LocalServer(sheetport, memory_folder, *memory_options)
            try:
                memory_sheet = memory.import_workbook(memory_book)
                import_peak = server_peak_mib(memory.process.pid)
            finally:
                memory.close()
            # A new server process for the exports, so that its peak is theirs, not the import's.
            memory = LocalServer(sheetport, memory_folder, *memory_options)
            try:
                base_peak = server_peak_mib(memory.process.pid)
                threads = [threading.Thread(target=memory.export, args=(memory_sheet,)) for _ in range(args.concurrency)]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                memory_peak = server_peak_mib(memory.process.pid)
            finally:
                memory.close()

        cells = args.rows * 10
        load = os.getloadavg()
        import_ratio, export_ratio = import_wall / read_wall, export_wall / write_wall
        goals = [
            ("import <= 2 x local read (wall)", f"{import_ratio:.2f}", import_ratio <= 2),
            ("import <= 2 x local read (CPU)", f"{import_cpu / read_cpu:.2f}", import_cpu / read_cpu <= 2),
            ("export <= 1.5 x local write (wall)", f"{export_ratio:.2f}", export_ratio <= 1.5),
            ("export <= 1.5 x local write (CPU)", f"{export_cpu / write_cpu:.2f}", export_cpu / write_cpu <= 1.5),
            ("export <= 1.0 x local write (wall, issue 26)", f"{export_ratio:.2f}", export_ratio <= 1.0),
            ("first byte of an export <= 1 s", f"{first_byte:.2f} s", first_byte <= 1),
        ]
        if memory_peak is not None:
            goals.append((f"server peak <= 128 MiB, {args.memory_rows:,} rows imported, {args.concurrency} exports of it at once",
                          f"{memory_peak:.0f} MiB (a new server, {base_peak:.0f} before the exports; the import's peak {import_peak:.0f})",
                          memory_peak <= 128))
        lines += [
            "## The server path (issue 14)",
            "",
            f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `Benchmarks/server/path.py --rows {args.rows} "
            f"--bulk-sheets {args.bulk_sheets} --bulk-rows {args.bulk_rows} --concurrency {args.concurrency} "
            f"--memory-rows {args.memory_rows}` (release build), one run.",
            "",
            f"{args.rows:,} rows x 10 columns ({cells / 1e6:.1f} M cells, {os.path.getsize(book) / 1e6:.1f} MB), "
            f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores; "
            "CPU is user+sys seconds (the server's own for the server steps).",
            "",
            "| step | wall s | CPU s | ratio (wall) | ratio (CPU) |",
            "|---|---:|---:|---:|---:|",
            f"| local read (`convert --to csv`) | {read_wall:.2f} | {read_cpu:.2f} | 1 | 1 |",
            f"| server import (upload to job end) | {import_wall:.2f} | {import_cpu:.2f} | {import_wall / read_wall:.2f} | {import_cpu / read_cpu:.2f} |",
            f"| local write (`convert CSV -o xlsx`) | {write_wall:.2f} | {write_cpu:.2f} | 1 | 1 |",
            f"| server export (GET, whole body) | {export_wall:.2f} | {export_cpu:.2f} | {export_wall / write_wall:.2f} | {export_cpu / write_cpu:.2f} |",
            f"| `sheetport export` (client, verify, publish) | {cli_wall:.2f} | {cli_cpu:.2f} (client) | {cli_wall / write_wall:.2f} | |",
            "",
            f"- export: first byte after {first_byte:.2f} s, {export_bytes / 1e6:.1f} MB; server peak memory {peak:.0f} MiB",
        ] + ([] if not bulk_files else [
            f"- bulk: {bulk_files} sheets x {args.bulk_rows:,} rows, `export --all --concurrency {args.concurrency}`: "
            f"{bulk_wall:.2f} s, {bulk_files / bulk_wall:.1f} sheets/s, {bulk_bytes / 1e6 / bulk_wall:.1f} MB/s, "
            f"server CPU {bulk_cpu:.2f} s, server peak memory {bulk_peak:.0f} MiB",
        ]) + [
            "",
            "| goal | measured | met |",
            "|---|---:|---|",
        ] + [f"| {goal} | {value} | {'yes' if met else '**no**'} |" for goal, value, met in goals] + [""]
        if args.plot:
            plot(args.plot, [("local read", read_wall, read_cpu), ("server import", import_wall, import_cpu),
                             ("local write", write_wall, write_cpu), ("server export", export_wall, export_cpu)],
                 first_byte, args.rows)
            lines += [f"![the server path beside the local path]({os.path.basename(args.plot)})", ""]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
