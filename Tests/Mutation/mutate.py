#!/usr/bin/env python3
"""Mutation smoke test: the reader must never crash or hang on damaged workbooks.

Usage: mutate.py --sheetport BINARY [--seed N] [--cases N] [--keep DIR]

Takes the scripted fixtures, the real-producer fixtures and the small files of
../shared/corpus, damages them (bytes flipped, deleted, duplicated, or SpreadsheetML
fragments spliced into an XML part, re-zipped; or raw bytes of the archive flipped), and
runs `sheetport convert --to jsonl` and `--to csv` on each. Any exit status other than 0
(read) or 3 (the input refused with an error, Docs/Reference/CLI.md) is a crash; more than 20 seconds is a hang. Then
`sheetport check --json` must exit 0 or 1 with a JSON report that agrees with the status. Failing
inputs are kept in --keep. Seeded, so a run is repeatable. The last line reads
`mutation-smoke: N passed, M failed`.
"""
import argparse
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import warnings
import zipfile
from pathlib import Path

warnings.filterwarnings("ignore", "Duplicate name", UserWarning)  # duplicates are part of the damage
ROOT = Path(__file__).resolve().parent.parent.parent
SPLICES = [b'<c r="A1">', b'</row>', b'r="XFD1"', b'<f t="shared" si="0"/>', b'"', b'&#38;', b't="s"',
           b'<v>99999999</v>', b'_x', b'<row r="0">', b'<is><t>', b'<![CDATA[x]]>', b'<!DOCTYPE x>',
           b'<c r="A1048577">', b't="d"><v>2024-13-45', b'<f t="array" ref="A1:B2">', b'\xff\xfe']


def sources():
    files = sorted((ROOT / "Fixtures" / "reader").glob("*.xlsx")) + sorted((ROOT / "Fixtures" / "producers").glob("*.xlsx"))
    corpus = ROOT.parent / "shared" / "corpus" / "files"
    if corpus.is_dir():
        files += sorted(p for p in corpus.iterdir() if p.stat().st_size < 200_000)
    return files


def damage_part(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not data:
            break
        at = rng.randrange(len(data))
        op = rng.random()
        if op < 0.4:
            data[at] = rng.randrange(256)
        elif op < 0.6:
            del data[at:at + rng.randint(1, 20)]
        elif op < 0.8:
            data[at:at] = rng.choice(SPLICES)
        else:
            other = rng.randrange(len(data))
            data[at:at] = data[other:other + rng.randint(1, 50)]
    return bytes(data)


def mutate(original, rng):
    try:
        archive = zipfile.ZipFile(io.BytesIO(original))
        names = archive.namelist()
    except Exception:
        names = []
    if names and rng.random() < 0.8:
        xml = [n for n in names if n.endswith((".xml", ".rels"))] or names
        target = rng.choice(xml)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as rezipped:
            for name in names:
                try:
                    content = archive.read(name)
                except Exception:
                    continue
                rezipped.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)),
                                  damage_part(content, rng) if name == target else content)
        return out.getvalue()
    data = bytearray(original)
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def check_problem(sheetport, case):
    """`sheetport check --json` must answer 0 or 1 with one JSON report, in bounded time."""
    try:
        run = subprocess.run([sheetport, "check", "--json", str(case)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20)
    except subprocess.TimeoutExpired:
        return "hang (check)"
    if run.returncode not in (0, 1):
        return f"exit {run.returncode} (check): {run.stderr.decode(errors='replace')[-200:]}"
    try:
        report = json.loads(run.stdout)
    except ValueError:
        return "check printed no JSON report"
    if report["importable"] != (run.returncode == 0):
        return "check's exit status disagrees with importable"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sheetport", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--keep", default=str(ROOT / "Tests" / "Mutation" / "failures"))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    files = sources()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        case = Path(work) / "case.xlsx"
        for index in range(args.cases):
            source = rng.choice(files)
            case.write_bytes(mutate(source.read_bytes(), rng))
            problem = None
            for fmt in ("jsonl", "csv"):
                try:
                    run = subprocess.run([args.sheetport, "convert", str(case), "--to", fmt, "--no-progress"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=20)
                except subprocess.TimeoutExpired:
                    problem = f"hang ({fmt})"
                    break
                if run.returncode not in (0, 3):
                    problem = f"exit {run.returncode} ({fmt}): {run.stderr.decode(errors='replace')[-200:]}"
                    break
            if not problem:
                problem = check_problem(args.sheetport, case)
            if problem:
                failed += 1
                os.makedirs(args.keep, exist_ok=True)
                kept = Path(args.keep) / f"seed{args.seed}-case{index}-{source.name}"
                kept.write_bytes(case.read_bytes())
                print(f"{kept}: {problem}")
            else:
                passed += 1
    print(f"mutation-smoke: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
