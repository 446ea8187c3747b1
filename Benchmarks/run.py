"""The streaming benchmarks: SheetPort beside its peers, in one session, on the same files.

Run through Benchmarks/run.sh, which installs and builds what this needs. For each row count,
`sheetport bench generate` writes the benchmark workbook (a header and ROWS rows x 10 columns:
numbers, repeated and unique strings, dates, booleans, formulas with cached values, with a
shared-string table as Excel writes them); then every tool runs on it, round-robin so that a
busy moment of the machine does not fall on one tool only:

  read   SheetPort `bench read` (a counting sink; also with the worksheet fast path off,
         SHEETPORT_WORKSHEET_XML=libxml2), `convert --to csv`, `check`; fastexcel,
         python-calamine, openpyxl read-only, xlsx2csv; floors: inflating the worksheet alone
         (`unzip -p`) and libxml2's SAX parser alone on the inflated XML (no callbacks work)
  write  SheetPort `bench write` (shared strings and inline strings at zlib level 6, and the
         faster mode, level 1); libxlsxwriter constant_memory (C, level 6); XlsxWriter
         constant_memory; openpyxl write-only. The written file's size is reported.

Each tool runs RUNS times (SLOW_RUNS times for tools slower than 10 s): wall-clock seconds
(a monotonic clock around each run) are the median, peak RSS the highest (/usr/bin/time). Writes Benchmarks/RESULTS.md and the
chart Benchmarks/results.png (time and peak memory against rows, each tool a line).

Usage: python run.py --sheetport BIN --xml-floor BIN --libxlsxwriter BIN [--rows N ...]
                     [--runs 3] [--slow-runs 1] [--out DIR] [--only REGEX]
  --only REGEX  run only the tools whose name matches (a reduced run; goals whose tools
                did not run are left out)
"""
import argparse
import datetime
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from importlib.metadata import version

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "peers")


class Tool:
    """One benchmarked command; `@FILE@`, `@XML@`, `@OUT@` and `@ROWS@` are filled in per size."""

    def __init__(self, name, kind, command, reference=None, floor=False):
        self.name, self.kind, self.command, self.reference, self.floor = name, kind, command, reference, floor

    def argv(self, values):
        def fill(part):
            for key, value in values.items():
                part = part.replace(key, value)
            return part
        return [fill(part) for part in self.command]


def tools(args):
    py = sys.executable
    sp = args.sheetport
    # The generated workbook shares a million unique strings at 1M rows: over the reader's
    # default 10 MiB shared-string limit, which guards against text bombs, so it is raised;
    # and its 10,000,010 cells pass check's default import cap of 10 million, raised likewise.
    limit = ["--max-text-size", "1G"]
    return [
        Tool("SheetPort read", "read", [sp, "bench", "read", "@FILE@", "--no-progress"] + limit),
        Tool("SheetPort read, libxml2 path", "read",
             ["env", "SHEETPORT_WORKSHEET_XML=libxml2", sp, "bench", "read", "@FILE@", "--no-progress"] + limit),
        Tool("SheetPort convert to CSV", "read", [sp, "convert", "@FILE@", "-o", "@OUT@.csv", "--no-progress"] + limit),
        Tool("SheetPort check", "read", [sp, "check", "@FILE@", "--max-cells", "20000000"] + limit),
        Tool("fastexcel", "read", [py, os.path.join(PEERS, "read.py"), "fastexcel", "@FILE@"]),
        Tool("python-calamine", "read", [py, os.path.join(PEERS, "read.py"), "calamine", "@FILE@"]),
        Tool("openpyxl read-only", "read", [py, os.path.join(PEERS, "read.py"), "openpyxl", "@FILE@"]),
        Tool("xlsx2csv", "read", [os.path.join(os.path.dirname(py), "xlsx2csv"), "@FILE@", "@OUT@.csv"]),
        Tool("floor: inflate (unzip -p)", "read", ["sh", "-c", 'unzip -p "$0" xl/worksheets/sheet1.xml > /dev/null', "@FILE@"], floor=True),
        Tool("floor: inflate, zlib (with CRC)", "read", [args.inflate_floor, "zlib", "@FILE@"], floor=True),
        Tool("floor: inflate, ISA-L (with CRC)", "read", [args.inflate_floor, "isal", "@FILE@"], floor=True),
        Tool("floor: libxml2 SAX parse", "read", [args.xml_floor, "@XML@"], floor=True),
        # The fast path's tokenizer alone (ISA-L inflating on its own thread, as when reading).
        Tool("floor: SheetPort tokenizer", "read", [sp, "bench", "read", "@FILE@", "--to", "tokens", "--no-progress"] + limit, floor=True),
        Tool("SheetPort write (shared strings)", "write", [sp, "bench", "write", "--rows", "@ROWS@", "-o", "@OUT@.xlsx", "--no-progress"]),
        Tool("SheetPort write (inline strings)", "write", [sp, "bench", "write", "--rows", "@ROWS@", "-o", "@OUT@.xlsx", "--no-progress", "--inline-strings"]),
        Tool("SheetPort write (shared strings, level 1)", "write", [sp, "bench", "write", "--rows", "@ROWS@", "-o", "@OUT@.xlsx", "--no-progress", "--level", "1"]),
        Tool("libxlsxwriter constant_memory", "write", [args.libxlsxwriter, "@OUT@.xlsx", "@ROWS@"]),
        Tool("XlsxWriter constant_memory", "write", [py, os.path.join(PEERS, "write.py"), "xlsxwriter", "@OUT@.xlsx", "@ROWS@"]),
        Tool("openpyxl write-only", "write", [py, os.path.join(PEERS, "write.py"), "openpyxl", "@OUT@.xlsx", "@ROWS@"]),
    ]


def selected(args):
    """The tools this run measures (all, or those matching --only)."""
    return [tool for tool in tools(args) if not args.only or re.search(args.only, tool.name)]


def timed(argv, work):
    """Runs argv under /usr/bin/time; returns (wall seconds, peak KiB, CPU seconds, bytes written to @OUT@.xlsx)."""
    written = os.path.join(work, "out.xlsx")
    if os.path.exists(written):
        os.remove(written)
    stats = os.path.join(work, "time")
    with open(os.path.join(work, "log"), "w") as log:
        # Wall time from a monotonic clock around the run: /usr/bin/time's %e has 10 ms steps,
        # too coarse for the 20,000-row runs (a few tens of ms); it gives the memory and CPU.
        start = time.monotonic()
        status = subprocess.call(["/usr/bin/time", "-f", "%e %M %U %S", "-o", stats] + argv, stdout=log, stderr=log)
        elapsed = time.monotonic() - start
    if status != 0:
        sys.stderr.write(open(os.path.join(work, "log")).read())
        raise SystemExit("run.py: %s failed with status %d" % (" ".join(argv), status))
    _, kib, user, system = open(stats).read().split()[-4:]
    size = os.path.getsize(written) if os.path.exists(written) else None
    return elapsed, int(kib), float(user) + float(system), size


def measure(args, work):
    results = {}  # (tool, rows) -> dict
    for rows in args.rows:
        book = os.path.join(work, "bench-%d.xlsx" % rows)
        subprocess.check_call([args.sheetport, "bench", "generate", "--rows", str(rows), "-o", book, "--no-progress"],
                              stdout=subprocess.DEVNULL)
        xml = os.path.join(work, "sheet1-%d.xml" % rows)
        with zipfile.ZipFile(book) as archive, open(xml, "wb") as out:
            shutil.copyfileobj(archive.open("xl/worksheets/sheet1.xml"), out, 1 << 20)
        values = {"@FILE@": book, "@XML@": xml, "@OUT@": os.path.join(work, "out"), "@ROWS@": str(rows)}
        sizes = {"xlsx": os.path.getsize(book), "xml": os.path.getsize(xml)}
        pending = {tool.name: tool for tool in selected(args)}
        samples = {name: [] for name in pending}
        for run in range(max(args.runs, args.slow_runs)):
            for name, tool in list(pending.items()):
                wall, kib, cpu, size = timed(tool.argv(values), work)
                samples[name].append((wall, kib, cpu, size))
                print("  %-36s rows=%-8d run %d: %7.2f s %8d KiB" % (name, rows, run + 1, wall, kib), file=sys.stderr)
                slow = statistics.median(s[0] for s in samples[name]) > 10
                if len(samples[name]) >= (args.slow_runs if slow else args.runs):
                    del pending[name]
        for tool in selected(args):
            runs = samples[tool.name]
            results[(tool.name, rows)] = {
                "tool": tool, "rows": rows, "runs": len(runs),
                "seconds": statistics.median(r[0] for r in runs),
                "cpu": statistics.median(r[2] for r in runs),
                "kib": max(r[1] for r in runs), "sizes": sizes, "written": runs[-1][3],
            }
        os.remove(xml)
    return results


def machine():
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    memory = next((int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal")), 0)
    debian = open("/etc/debian_version").read().strip() if os.path.exists("/etc/debian_version") else "?"
    return "%s, %d cores, %.0f GiB, Linux %s, Debian %s" % (model, os.cpu_count(), memory / 2**20, platform.release(), debian)


def versions(args):
    def pkg(name):
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", name], capture_output=True, text=True).stdout
        return out or "?"
    sheetport = subprocess.run([args.sheetport, "--version"], capture_output=True, text=True).stdout.strip()
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    return [
        ("SheetPort", sheetport + " (release build%s, " % (", Swift runtime linked statically" if "/static/" in args.sheetport else "")
         + (swift[0] if swift else "swift ?") + ")"),
        ("fastexcel", version("fastexcel")), ("python-calamine", version("python-calamine")),
        ("openpyxl", version("openpyxl")), ("xlsx2csv", version("xlsx2csv")), ("XlsxWriter", version("XlsxWriter")),
        ("libxlsxwriter", pkg("libxlsxwriter-dev")), ("libxml2", pkg("libxml2")), ("libzip", pkg("libzip4")),
        ("zlib", pkg("zlib1g")), ("ISA-L", pkg("libisal2")), ("Python", platform.python_version()),
    ]


def ratio(a, b):
    return a / b if b else float("nan")


def report(args, results, started, load):
    rows_list = args.rows
    names = [tool.name for tool in selected(args)]
    lines = ["# Benchmark results", "",
             "Written by `Benchmarks/run.sh` from one run; do not edit by hand (run it again).", "",
             "- **Date**: %s UTC to %s UTC" % (started, datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M")),
             "- **Machine**: %s" % machine(),
             "- **Load average** before and after: %s / %s" % (load, open("/proc/loadavg").read().split(" ", 3)[:3]),
             "- **Command**: `%s`" % " ".join(["Benchmarks/run.sh"] + [str(r) for r in rows_list]
                                              + (["(--only '%s')" % args.only] if args.only else [])),
             "- **Runs**: %d per tool (%d for a tool whose median is over 10 s); wall-clock median "
             "(a monotonic clock around each run), "
             "peak RSS the highest of the runs (`/usr/bin/time`), CPU = user + system median." % (args.runs, args.slow_runs),
             "- **Versions**: " + ", ".join("%s %s" % item for item in versions(args)), "",
             "The workbook: `sheetport bench generate --rows N`: a header and N rows x 10 columns (numbers, "
             "repeated and unique strings, dates, booleans, formulas with cached values), strings in a "
             "shared-string table as Excel writes them. Python tools are timed as whole processes "
             "(interpreter start and imports included, about 0.1-0.3 s), as their users run them.", ""]
    goals = []
    for rows in rows_list:
        def goal(text, measure, bound, sense, *needed):
            if all((name, rows) in results for name in needed):
                goals.append((rows, text, measure(lambda name: results[(name, rows)]), bound, sense))
        goal("read (counting sink) <= 0.5 x fastexcel", lambda get: ratio(get("SheetPort read")["seconds"], get("fastexcel")["seconds"]),
             0.5, "<=", "SheetPort read", "fastexcel")
        goal("convert --to csv <= 0.5 x fastexcel", lambda get: ratio(get("SheetPort convert to CSV")["seconds"], get("fastexcel")["seconds"]),
             0.5, "<=", "SheetPort convert to CSV", "fastexcel")
        goal("read peak memory <= 64 MiB", lambda get: get("SheetPort read")["kib"] / 1024, 64, "<=", "SheetPort read")
        goal("convert --to csv peak memory <= 64 MiB", lambda get: get("SheetPort convert to CSV")["kib"] / 1024, 64, "<=",
             "SheetPort convert to CSV")
        goal("write <= 0.5 x libxlsxwriter constant_memory (both level 6)",
             lambda get: ratio(get("SheetPort write (shared strings)")["seconds"], get("libxlsxwriter constant_memory")["seconds"]),
             0.5, "<=", "SheetPort write (shared strings)", "libxlsxwriter constant_memory")
        goal("convert --to csv >= 10 x faster than xlsx2csv (issue 5)",
             lambda get: ratio(get("xlsx2csv")["seconds"], get("SheetPort convert to CSV")["seconds"]), 10, ">=",
             "xlsx2csv", "SheetPort convert to CSV")
        goal("check <= 1.2 x plain read (issue 5)", lambda get: ratio(get("SheetPort check")["seconds"], get("SheetPort read")["seconds"]),
             1.2, "<=", "SheetPort check", "SheetPort read")
    lines += ["## Goals (issue 16; two of issue 5)", "", "| rows | goal | measured | met |", "|---:|---|---:|---|"]
    for rows, goal, value, bound, sense in goals:
        met = value <= bound if sense == "<=" else value >= bound
        lines.append("| %s | %s | %.2f | %s |" % (format(rows, ","), goal, value, "yes" if met else "**no**"))
    lines.append("")
    for kind, base in (("read", "SheetPort read"), ("write", "SheetPort write (shared strings)")):
        lines += ["## %s" % ("Reading the first worksheet" if kind == "read" else "Writing the benchmark sheet"), "",
                  "Ratio = the tool's median time / %s's (below 1: faster than SheetPort)." % base, "",
                  "| tool | rows | cells | runs | median s | CPU s | peak RSS MiB | ratio | cells/s |" + (" file MB |" if kind == "write" else ""),
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if kind == "write" else "")]
        for name in names:
            for rows in rows_list:
                result = results[(name, rows)]
                if result["tool"].kind != kind:
                    continue
                cells = rows * 10 + 10
                reference = results.get((base, rows), result)["seconds"]
                line = "| %s | %s | %s | %d | %.2f | %.2f | %.1f | %.2f | %s |" % (
                    name, format(rows, ","), format(cells, ","), result["runs"], result["seconds"], result["cpu"],
                    result["kib"] / 1024, ratio(result["seconds"], reference),
                    format(int(cells / result["seconds"]), ",") if result["seconds"] > 0 else "-")
                if kind == "write":
                    line += " %s |" % ("%.1f" % (result["written"] / 1e6) if result["written"] else "-")
                lines.append(line)
        lines.append("")
    any_tool = names[0]
    lines += ["Sizes: " + "; ".join("%s rows: xlsx %.1f MB, worksheet XML %.1f MB" % (
        format(rows, ","), results[(any_tool, rows)]["sizes"]["xlsx"] / 1e6,
        results[(any_tool, rows)]["sizes"]["xml"] / 1e6) for rows in rows_list), "",
              "![time and peak memory against rows](results.png)", ""]
    # Instruction counts per thread are measured by hand with callgrind (load-independent);
    # PROFILE.md holds them and is copied in, so that RESULTS.md has the whole picture.
    profile = os.path.join(HERE, "PROFILE.md")
    if os.path.exists(profile):
        lines += [open(profile).read()]
    with open(os.path.join(args.out, "RESULTS.md"), "w") as out:
        out.write("\n".join(lines))


def chart(args, results):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(2, 2, figsize=(14, 10))
    for column, kind in enumerate(("read", "write")):
        for tool in selected(args):
            if tool.kind != kind:
                continue
            xs = args.rows
            style = dict(marker="o", linestyle="--" if tool.floor else "-",
                         linewidth=2.5 if tool.name.startswith("SheetPort") else 1.2)
            axes[0][column].plot(xs, [results[(tool.name, r)]["seconds"] for r in xs], label=tool.name, **style)
            axes[1][column].plot(xs, [results[(tool.name, r)]["kib"] / 1024 for r in xs], label=tool.name, **style)
        for row, label in enumerate(("median seconds", "peak RSS (MiB)")):
            axis = axes[row][column]
            axis.set_xscale("log")
            axis.set_yscale("log")
            axis.set_xlabel("rows (x 10 columns)")
            axis.set_ylabel(label)
            axis.set_title("%s: %s" % (kind, label))
            axis.grid(True, which="both", alpha=0.3)
            axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(os.path.join(args.out, "results.png"), dpi=90)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sheetport", required=True)
    parser.add_argument("--xml-floor", required=True)
    parser.add_argument("--inflate-floor", required=True)
    parser.add_argument("--libxlsxwriter", required=True)
    parser.add_argument("--rows", type=int, nargs="+", default=[20000, 200000, 1000000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--slow-runs", type=int, default=1)
    parser.add_argument("--out", default=HERE)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    started = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M")
    load = open("/proc/loadavg").read().split(" ", 3)[:3]
    work = tempfile.mkdtemp(prefix="sheetport-bench.")
    try:
        results = measure(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(args, results, started, load)
    chart(args, results)
    print(open(os.path.join(args.out, "RESULTS.md")).read())


if __name__ == "__main__":
    main()
