#!/usr/bin/env python3
"""Value-agreement test: SheetPort's cell JSONL against two oracle libraries.

Usage: compare.py --sheetport BINARY [--corpus DIR ...] [--out DIR] [--jobs 2]

By default the corpus is ../shared/corpus plus Fixtures/producers (workbooks written by
LibreOffice, Gnumeric, openpyxl and XlsxWriter) and Fixtures/heldout (the shapes held-out
workbooks showed: a sheet compressed past 121:1, damaged compressed data); each --corpus
replaces that default.

expected-errors.tsv (file, code, reason) lists files SheetPort must refuse with that finding
code (damaged archives the oracles may or may not read): such a file agrees when
``sheetport convert`` fails with ``(code)`` and fails otherwise.

For every corpus file the first worksheet is read by openpyxl and python-calamine
(oracle.py, each in its own subprocess with a timeout and a memory limit; outputs cached
under OUT/cache keyed by the file's sha256) and by ``sheetport convert FILE --to jsonl
--no-recalc``: the values the file stores, as the oracles read them (by default convert also
computes the formulas stored without a value, which the oracles leave empty).

A cell position is *counted* when both oracles read the file and agree on it: both give
the same normalised value, or both give nothing while SheetPort emits a value (an extra
cell).  Positions where the oracles disagree are reported separately and not counted.
SheetPort cells of type ``empty`` (formula without a cached value) are ignored.  A file
*agrees* when all its counted cells match and SheetPort read it.

known-differences.tsv (file, ref, reason; ref ``*`` = whole file) lists accepted
differences: they are reported, do not count as failures, and entries that no longer
occur are reported as stale.  The run passes (exit 0) when file agreement and cell
agreement reach --min-files / --min-cells percent (with --strict, also no unlisted
mismatch and no stale entry).  The last line printed is
``value-agreement: N passed, M failed``.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import resource
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ORACLES = ("openpyxl", "calamine")
REF_RE = re.compile(r"^([A-Z]+)([0-9]+)$")


# ---------------------------------------------------------------- running programs

def run_limited(cmd, timeout, mem_mib):
    """Run cmd with a wall-clock timeout and an address-space limit (MiB, 0 = none).

    Returns (returncode, stdout, stderr); returncode is None on timeout.  The child gets
    its own process group so a timeout kills everything it started.
    """
    lim = mem_mib * 1024 * 1024
    # prlimit right after the spawn avoids running Python code between fork and exec
    # (unsafe with threads); elsewhere fall back to preexec_fn.
    use_prlimit = hasattr(resource, "prlimit")
    preexec = None
    if mem_mib and not use_prlimit:
        preexec = lambda: resource.setrlimit(resource.RLIMIT_AS, (lim, lim))  # noqa: E731
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, preexec_fn=preexec, start_new_session=True)
    if mem_mib and use_prlimit:
        try:
            resource.prlimit(proc.pid, resource.RLIMIT_AS, (lim, lim))
        except ProcessLookupError:
            pass
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out, err
    return proc.returncode, out, err


def last_line(data):
    """The last non-comment line of a program's stderr, for error messages."""
    lines = [l for l in data.decode("utf-8", "replace").splitlines()
             if l.strip() and not l.startswith("# ")]
    return lines[-1][:300] if lines else ""


def parse_jsonl(data):
    """Parse cell JSONL into {ref: (type, value)}; raise ValueError on a contract breach.

    Cells of type ``empty`` and empty strings are dropped (they carry no value).
    Duplicate refs and cells out of row-major order are contract breaches.
    """
    cells, last = {}, (0, 0)
    # split on "\n" only: splitlines() would also split on U+2028, U+0085 inside strings
    for n, line in enumerate(data.decode("utf-8").split("\n"), 1):
        if not line.strip():
            continue
        obj = json.loads(line)
        ref, typ = str(obj["ref"]).upper(), obj["type"]
        if typ == "empty" or (typ == "string" and obj.get("value") == ""):
            continue  # not values; python-calamine cannot tell "" from nothing
        m = REF_RE.match(ref)
        if not m:
            raise ValueError(f"line {n}: bad ref {ref!r}")
        pos = (int(m.group(2)), col_number(m.group(1)))
        if ref in cells:
            raise ValueError(f"line {n}: duplicate ref {ref}")
        if pos < last:
            raise ValueError(f"line {n}: {ref} out of row-major order")
        last = pos
        cells[ref] = (typ, obj.get("value"))
    return cells


def col_number(letters):
    """'A' -> 1, 'AB' -> 28."""
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def ref_key(ref):
    """Sort key for a cell reference ('*' first)."""
    m = REF_RE.match(ref)
    return (int(m.group(2)), col_number(m.group(1))) if m else (0, 0)


# ---------------------------------------------------------------- oracles (cached)

def oracle_versions(python):
    """{distribution: version} of the oracle libraries in python, or None if missing."""
    code = ("import openpyxl, python_calamine; from importlib.metadata import version; "
            "print(version('openpyxl'), version('python-calamine'))")
    proc = subprocess.run([python, "-c", code], capture_output=True, text=True)
    if proc.returncode:
        return None
    return dict(zip(("openpyxl", "python-calamine"), proc.stdout.split()))


def oracle_fingerprint(versions):
    """Short hash of oracle.py and the library versions: part of every cache key."""
    h = hashlib.sha256((HERE / "oracle.py").read_bytes())
    h.update(json.dumps(versions, sort_keys=True).encode())
    return h.hexdigest()[:12]


def read_oracle(name, path, digest, args):
    """Return the oracle's view of path: {ok, error, sheet, notes, cells}, cached by sha256."""
    cache = Path(args.out) / "cache" / f"{digest}.{name}.{args.fingerprint}.json"
    if cache.exists():
        result = json.loads(cache.read_text())
        result["cells"] = {k: tuple(v) for k, v in result["cells"].items()}
        return result
    rc, out, err = run_limited([args.python, str(HERE / "oracle.py"), "--oracle", name,
                                "--mem-limit", "0", str(path)], args.timeout, args.oracle_mem)
    result = {"ok": rc == 0, "error": "", "sheet": None, "notes": [], "cells": {}}
    for line in err.decode("utf-8", "replace").splitlines():
        if line.startswith("# sheet: "):
            result["sheet"] = line[9:]
        elif line.startswith("# note: "):
            result["notes"].append(line[8:])
    if rc == 0:
        result["cells"] = parse_jsonl(out)
    else:
        result["error"] = (f"timeout after {args.timeout}s" if rc is None
                           else last_line(err) or f"exit status {rc}")
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_suffix(".tmp")
    tmp.write_text(json.dumps(result, ensure_ascii=False))
    tmp.replace(cache)
    return result


def read_sheetport(path, args):
    """Run ``sheetport convert FILE --to jsonl --no-recalc``; return (cells, error)."""
    rc, out, err = run_limited([args.sheetport, "convert", str(path), "--to", "jsonl", "--no-recalc"],
                               args.timeout, args.sheetport_mem)
    if rc is None:
        return {}, f"timeout after {args.timeout}s"
    if rc != 0:
        return {}, f"exit status {rc}: {last_line(err)}"
    try:
        return parse_jsonl(out), None
    except (ValueError, KeyError, TypeError, json.JSONDecodeError) as exc:
        return {}, f"invalid JSONL: {exc}"


# ---------------------------------------------------------------- comparison

def same(a, b):
    """Equality of two normalised (type, value) cells; numbers compare as floats."""
    if a is None or b is None:
        return a is b
    if a[0] != b[0]:
        return False
    if a[0] == "number":
        try:
            return float(a[1]) == float(b[1])
        except (TypeError, ValueError):
            return False
    return a[1] == b[1]


def show(cell):
    """Short display form of a cell."""
    if cell is None:
        return "(nothing)"
    text = f"{cell[0]}:{json.dumps(cell[1], ensure_ascii=False)}"
    return text if len(text) <= 100 else text[:60] + "..." + text[-37:]  # keep both ends


def compare_file(path, args):
    """Compare one corpus file.

    Returns a dict: ``status`` ("compared", "unread": an oracle failed, or
    "sheet-disagreement": the oracles chose different first worksheets), ``counted`` and
    ``matched`` cell counts, ``mismatches`` as [ref, oracle cell, sheetport cell, known
    reason] (ref "*" when SheetPort failed on the file), ``disagreements`` as (ref,
    openpyxl cell, calamine cell, sheetport cell), and the raw oracle results.
    """
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    o = {name: read_oracle(name, path, digest, args) for name in ORACLES}
    res = {"file": path.name, "oracles": o, "status": "unread", "counted": 0, "matched": 0,
           "mismatches": [], "disagreements": [], "sheetport_error": None, "sheetport_cells": 0}
    sp, res["sheetport_error"] = read_sheetport(path, args)
    res["sheetport_cells"] = len(sp)
    if path.name in args.expected_errors:
        code = args.expected_errors[path.name]
        res["status"] = "expected-error"
        res["expected_error_met"] = res["sheetport_error"] is not None and f"({code})" in res["sheetport_error"]
        return res
    if not all(o[n]["ok"] for n in ORACLES):
        return res
    if o["openpyxl"]["sheet"] != o["calamine"]["sheet"]:
        res["status"] = "sheet-disagreement"
        return res
    a, b = o["openpyxl"]["cells"], o["calamine"]["cells"]
    for ref in sorted(set(a) | set(b) | set(sp), key=ref_key):
        va, vb, vs = a.get(ref), b.get(ref), sp.get(ref)
        if not same(va, vb):
            res["disagreements"].append((ref, va, vb, vs))
            continue
        if va is None and vs is None:
            continue
        res["counted"] += 1
        if res["sheetport_error"] is None and same(va, vs):
            res["matched"] += 1
        elif res["sheetport_error"] is None:
            res["mismatches"].append([ref, va, vs, None])
    if res["sheetport_error"] is not None:
        res["mismatches"].insert(0, ["*", None, None, None])
    res["status"] = "compared"
    return res


def read_tsv(path, header):
    """The rows of a three-column TSV (file, `header`, reason), comments and the header left out."""
    if not path.exists():
        return
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 3:
            sys.exit(f"{path}:{n}: expected file<TAB>{header}<TAB>reason")
        if (parts[0], parts[1]) != ("file", header):
            yield parts


def load_expected_errors(path):
    """Read expected-errors.tsv into {file: code}."""
    return {parts[0]: parts[1] for parts in read_tsv(path, "code")}


def load_known(path):
    """Read known-differences.tsv into {(file, ref): reason}."""
    return {(parts[0], parts[1].upper()): parts[2] for parts in read_tsv(path, "ref")}


def apply_known(results, known, subset=False):
    """Mark mismatches covered by known differences; return the stale known entries.

    With subset (only some corpus files were compared) entries for other files are ignored.
    """
    used = set()
    by_name = {r["file"]: r for r in results}
    for r in results:
        for mm in r["mismatches"]:
            for key in ((r["file"], mm[0]), (r["file"], "*")):
                if key in known:
                    mm[3] = known[key]
                    used.add(key)
                    break
    stale = []
    for key, reason in sorted(known.items()):
        r = by_name.get(key[0])
        if key not in used and not (subset and r is None):
            why = ("file not in corpus" if r is None else
                   "file not read by both oracles" if r["status"] != "compared" else
                   "difference no longer occurs")
            stale.append((key[0], key[1], reason, why))
    return stale


# ---------------------------------------------------------------- report

def summarize(results, stale, args):
    """Build the report text and the pass/fail verdict."""
    compared = [r for r in results if r["status"] == "compared"]
    expected = [r for r in results if r["status"] == "expected-error"]
    unmet = [r for r in expected if not r["expected_error_met"]]
    n_read = {n: sum(r["oracles"][n]["ok"] for r in results) for n in ORACLES}
    failed = [r for r in compared if any(mm[3] is None for mm in r["mismatches"])]
    passed = len(compared) - len(failed)
    counted = sum(r["counted"] for r in compared)
    matched = sum(r["matched"] for r in compared)
    sp_fail = [r for r in compared if r["sheetport_error"]]
    other_sheet = sum(r["status"] == "sheet-disagreement" for r in results)
    unlisted = [(r, mm) for r in compared for mm in r["mismatches"] if mm[3] is None]
    listed = [(r, mm) for r in compared for mm in r["mismatches"] if mm[3] is not None]
    # A known whole-file SheetPort failure accounts for all the file's counted cells.
    known_cells = sum(r["counted"] if mm[0] == "*" else 1 for r, mm in listed)
    dis = [(r, d) for r in compared for d in r["disagreements"]]
    kinds = Counter(f"{d[1][0] if d[1] else 'nothing'}/{d[2][0] if d[2] else 'nothing'}"
                    for _, d in dis)
    err_only = [d for _, d in dis if d[1] and d[1][0] == "error" and d[2] is None]
    err_sp = sum(1 for d in err_only if same(d[1], d[3]))
    pct = lambda a, b: 100.0 * a / b if b else 100.0
    file_pct, cell_pct = pct(passed, len(compared)), pct(matched + known_cells, counted)
    ok = bool(compared) and file_pct >= args.min_files and cell_pct >= args.min_cells and not unmet
    if args.strict:
        ok = ok and not unlisted and not stale

    head = [
        f"SheetPort value agreement (first worksheet) over {len(results)} files in {', '.join(args.corpus)}",
        f"oracles: openpyxl {args.versions['openpyxl']}, "
        f"python-calamine {args.versions['python-calamine']}",
        f"files read by openpyxl: {n_read['openpyxl']}, by calamine: {n_read['calamine']}, "
        f"by both: {len(compared) + other_sheet} ({other_sheet} with a different first sheet)",
        f"files compared: {len(compared)}; agreeing: {passed} ({file_pct:.2f}%); "
        f"failing: {len(failed)}; sheetport could not read: {len(sp_fail)}",
        f"cells counted: {counted}; matching: {matched} ({pct(matched, counted):.3f}%); "
        f"known differences: {known_cells}; agreement incl. known: {cell_pct:.3f}%",
        f"oracle disagreements (not counted): {len(dis)} positions in "
        f"{len({r['file'] for r, _ in dis})} files; {len(err_only)} of them are error cells "
        f"python-calamine cannot represent (sheetport matches openpyxl on {err_sp}); "
        f"openpyxl/calamine kinds: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()),
        f"expected errors: {len(expected) - len(unmet)} of {len(expected)} files refused with the listed code"
        + "".join(f"; UNMET {r['file']}: sheetport: {r['sheetport_error'] or 'read it'}" for r in unmet),
        f"criteria: files >= {args.min_files}%, cells >= {args.min_cells}%"
        f"{', no unlisted mismatch or stale entry' if args.strict else ''}: "
        f"{'PASS' if ok else 'FAIL'}",
    ]

    def mm_line(r, mm):
        if mm[0] == "*":
            return (f"{r['file']}\t*\tsheetport: {r['sheetport_error']} "
                    f"({r['counted']} counted cells)")
        return f"{r['file']}\t{mm[0]}\toracles={show(mm[1])}\tsheetport={show(mm[2])}"

    unlisted_lines = [mm_line(r, mm) for r, mm in unlisted]
    body = head + ["", f"== unlisted mismatches ({len(unlisted)}) =="] + unlisted_lines
    body += ["", f"== known differences ({len(listed)}) =="]
    body += [mm_line(r, mm) + f"\t[known: {mm[3]}]" for r, mm in listed]
    body += ["", f"== stale known differences ({len(stale)}) =="]
    body += [f"{f}\t{ref}\t{reason}\t[stale: {why}]" for f, ref, reason, why in stale]
    body += ["", f"== oracle disagreements ({len(dis)}) =="]
    body += [f"{r['file']}\t{d[0]}\topenpyxl={show(d[1])}\tcalamine={show(d[2])}"
             f"\tsheetport={show(d[3])}" for r, d in dis]
    body += ["", "== files not compared =="]
    for r in results:
        if r["status"] in ("compared", "expected-error"):
            continue
        o = r["oracles"]
        what = " | ".join(f"{n}: " + (f"sheet {o[n]['sheet']!r}" if o[n]["ok"] else o[n]["error"])
                          for n in ORACLES)
        sp = r["sheetport_error"] or f"{r['sheetport_cells']} cells"
        body.append(f"{r['file']}\t{what} | sheetport: {sp}")
    console = head + ([""] + ["unlisted mismatches:"] + unlisted_lines if unlisted else [])
    console += ([""] + ["stale known differences:"]
                + [f"{f}\t{ref}\t[{why}]" for f, ref, _, why in stale] if stale else [])
    return "\n".join(body) + "\n", "\n".join(console), ok, passed, len(failed)


def main(argv=None):
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sheetport", required=True, help="path to the sheetport binary")
    ap.add_argument("--corpus", action="append",
                    help="corpus directory, repeatable (its files/ subdirectory is used when present); "
                         "default: ../shared/corpus and Fixtures/producers")
    ap.add_argument("--out", default=str(HERE / "out"), help="cache and report directory")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--known", default=str(HERE / "known-differences.tsv"))
    ap.add_argument("--expected", default=str(HERE / "expected-errors.tsv"),
                    help="files SheetPort must refuse, with the finding code")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per program run")
    ap.add_argument("--oracle-mem", type=int, default=2048, help="oracle memory limit, MiB")
    ap.add_argument("--sheetport-mem", type=int, default=4096,
                    help="sheetport memory limit, MiB (0: none)")
    ap.add_argument("--python", default=sys.executable, help="python with the oracle libraries")
    ap.add_argument("--min-files", type=float, default=98.0, help="required file agreement, %%")
    ap.add_argument("--min-cells", type=float, default=99.9, help="required cell agreement, %%")
    ap.add_argument("--strict", action="store_true",
                    help="also fail on any unlisted mismatch or stale known difference")
    ap.add_argument("files", nargs="*", help="only these corpus file names (default: all)")
    args = ap.parse_args(argv)

    if not (os.path.isfile(args.sheetport) and os.access(args.sheetport, os.X_OK)):
        print(f"compare.py: sheetport binary not found: {args.sheetport}", file=sys.stderr)
        return 2
    args.corpus = args.corpus or [str(ROOT.parent / "shared" / "corpus"), str(ROOT / "Fixtures" / "producers"),
                                  str(ROOT / "Fixtures" / "heldout")]
    paths = []
    for folder in map(Path, args.corpus):
        folder = folder / "files" if (folder / "files").is_dir() else folder
        if not folder.is_dir():
            print(f"compare.py: no corpus folder {folder}", file=sys.stderr)
            return 2
        paths += sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in (".xlsx", ".xlsm", ".xltx", ".xltm"))
    if args.files:
        paths = [p for p in paths if p.name in set(args.files)]
    if not paths:
        print(f"compare.py: no corpus files in {', '.join(args.corpus)}", file=sys.stderr)
        return 2
    args.expected_errors = load_expected_errors(Path(args.expected))
    args.versions = oracle_versions(args.python)
    if args.versions is None:
        print(f"compare.py: {args.python} lacks openpyxl/python-calamine; run Scripts/venv.sh "
              "and use .venv/bin/python", file=sys.stderr)
        return 2
    args.fingerprint = oracle_fingerprint(args.versions)
    cache = Path(args.out) / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    for old in cache.glob("*.json"):  # outputs of an older oracle.py or library version
        if not old.name.endswith(f".{args.fingerprint}.json"):
            old.unlink()

    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(lambda p: compare_file(p, args), paths))
    stale = apply_known(results, load_known(Path(args.known)), subset=bool(args.files))
    report, console, ok, passed, failed = summarize(results, stale, args)
    (Path(args.out) / "report.txt").write_text(report)
    print(console)
    print(f"report: {Path(args.out) / 'report.txt'}")
    print(f"value-agreement: {passed} passed, {failed} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
