#!/usr/bin/env python3
"""Random formulas over SheetPortCalc's functions, evaluated by IronCalc and LibreOffice.

Usage: peers.py --functions REGISTRY.json --out CASES.json [--seed N] [--per-function K]

REGISTRY.json is the engine's table as the Swift test writes it: [{"name", "min", "max",
"volatile", "scalar"}]. For every function that is not volatile, K formulas with that function at
the root are drawn from a generator seeded with (seed, name), so a function added to the engine
adds formulas and changes none of the others'. Arguments are the hostile inputs of column A
(empty, text numbers, errors, booleans, huge and tiny numbers, the serials around 1900-02-29),
literals of the same kinds, operators and calls of a fixed set of everyday functions; ranges go
only where the function takes them (not a scalar function, whose range argument Excel would
intersect implicitly, which the peers do not agree on).

Writes {"inputs": [{"ref", "v"}], "cases": [{"formula", "ironcalc": typed, "libreoffice": typed}]}
where typed is {"t": "n"|"s"|"b"|"e"|"empty"|"skip", "v"}; "skip" is a formula the peer could not
evaluate (IronCalc panicked) or did not give back. Formula k is in cell E(k+1) of Sheet1 in
every engine, so ROW() and COLUMN() mean the same everywhere.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import warnings

import openpyxl
from openpyxl.utils.formulas import FORMULAE

warnings.filterwarnings("ignore")

ERRORS = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")

# Column A: the hostile values (A1 stays empty).
INPUTS = {
    "A2": 1, "A3": "12", "A4": " 3 ", "A5": "abc", "A6": True, "A7": False, "A8": "#N/A", "A9": "#DIV/0!",
    "A10": 1e300, "A11": 1e-300, "A12": 60, "A13": 59, "A14": 61, "A15": -2.5, "A16": 0,
    "B1": 3, "B2": 1, "B3": 4, "B4": 1, "B5": 5, "B6": 9, "B7": 2, "B8": 6,
    "C1": "a", "C2": "B", "C3": "a*", "C4": ">2", "C5": "1900-02-29", "C6": "2/28/1900", "C7": "x y", "C8": "3",
}
ERROR_INPUTS = {"A8", "A9"}
SCALAR_REFS = [f"A{r}" for r in range(1, 17) if f"A{r}" not in ERROR_INPUTS] + ["B1", "B5", "C1", "C3", "C4", "C5", "C6", "C8"]
RANGES = ["A1:A16", "B1:B8", "C1:C8", "A2:A7", "B1:B4", "A10:A14"]
LITERALS = ["0", "1", "-1", "2.5", "0.5", "3", "10", "1E+308", "1E-307", "-1E+300", "60", "59", "61", "2958465",
            '"12"', '" 3 "', '""', '"abc"', '"1900-02-29"', '"2/29/1900"', '"1/1/1900"', '"TRUE"', '"-1e3"',
            "TRUE", "FALSE", "DATE(1900,2,28)", "DATE(1900,2,29)", "DATE(1900,3,1)"]
# Errors, rarer: most formulas should compute something.
ERROR_LEAVES = ["A8", "A9", "#N/A", "#DIV/0!", "#VALUE!"]
OPERATORS = ["+", "-", "*", "/", "^", "&", "=", "<", ">", "<>", "<=", ">="]
# The everyday functions nested inside: a fixed set, so that the formulas of one function never
# change when the engine gains another.
NESTED = {"SUM": (1, 3), "IF": (3, 3), "ROUND": (2, 2), "LEN": (1, 1), "ABS": (1, 1), "VALUE": (1, 1), "N": (1, 1),
          "ISNUMBER": (1, 1), "IFERROR": (2, 2), "MAX": (1, 2), "CONCATENATE": (2, 2), "INT": (1, 1), "NOT": (1, 1),
          "MID": (3, 3), "DATE": (3, 3), "TEXT": (2, 2), "AND": (2, 2), "MOD": (2, 2)}
NESTED_SCALAR = {"SUM": False, "MAX": False, "AND": False}


def leaf(rng, ranges):
    r = rng.random()
    if r < 0.04:
        return rng.choice(ERROR_LEAVES)
    if ranges and r < 0.3:
        return rng.choice(RANGES)
    if r < 0.6:
        return rng.choice(SCALAR_REFS)
    return rng.choice(LITERALS)


def expression(rng, depth, ranges):
    if depth <= 0 or rng.random() < 0.5:
        return leaf(rng, ranges)
    if rng.random() < 0.35:
        return "(" + expression(rng, depth - 1, False) + rng.choice(OPERATORS) + expression(rng, depth - 1, False) + ")"
    name = rng.choice(sorted(NESTED))
    low, high = NESTED[name]
    takes = not NESTED_SCALAR.get(name, True)
    return name + "(" + ",".join(expression(rng, depth - 1, takes) for _ in range(rng.randint(low, high))) + ")"


def formulas_for(spec, seed, count):
    rng = random.Random(f"{seed}:{spec['name']}")
    high = min(spec["max"], spec["min"] + 2)
    ranges = not spec["scalar"]
    out = []
    for _ in range(count):
        n = rng.randint(spec["min"], high)
        out.append(spec["name"] + "(" + ",".join(expression(rng, 2, ranges) for _ in range(n)) + ")")
    return out


def typed(value):
    if value is None:
        return {"t": "empty"}
    if isinstance(value, bool):
        return {"t": "b", "v": value}
    if isinstance(value, (int, float)):
        return {"t": "n", "v": float(value)}
    text = str(value)
    if text in ERRORS:
        return {"t": "e", "v": text}
    return {"t": "s", "v": text}


def ironcalc(formulas):
    import ironcalc as ic

    def fresh():
        model = ic.create("model", "en", "UTC")
        for ref, value in INPUTS.items():
            column, row = ord(ref[0]) - 64, int(ref[1:])
            if ref in ERROR_INPUTS:
                model.set_user_input(0, row, column, value)
            elif isinstance(value, bool):
                model.update_cell_with_bool(0, row, column, value)
            elif isinstance(value, (int, float)):
                model.update_cell_with_number(0, row, column, float(value))
            else:
                model.update_cell_with_text(0, row, column, value)
        return model

    # IronCalc's panics print a backtrace each on standard error: keep it for our own lines.
    saved = os.dup(2)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    try:
        return evaluate(fresh, formulas)
    finally:
        os.dup2(saved, 2)


def evaluate(fresh, formulas):
    model, results = fresh(), []
    for k, f in enumerate(formulas):
        row = k + 1
        try:
            model.set_user_input(0, row, 5, "=" + f)
            model.evaluate()
            value = model.get_cell_value_by_ref(f"Sheet1!E{row}")
            kind = str(model.get_cell_type(0, row, 5))
            results.append({"t": "e", "v": value} if kind.endswith("ErrorValue") else typed(value))
            model.set_user_input(0, row, 5, "")
        except BaseException:  # IronCalc panics on some inputs (a Rust panic): skip, start a new model
            results.append({"t": "skip"})
            model = fresh()
    return results


def stored(formula):
    """The formula as the file stores it: functions newer than Excel 2007 carry `_xlfn.`."""
    out, i = [], 0
    while i < len(formula):
        c = formula[i]
        if c == '"':
            j = formula.index('"', i + 1)
            while j + 1 < len(formula) and formula[j + 1] == '"':
                j = formula.index('"', j + 2)
            out.append(formula[i:j + 1])
            i = j + 1
            continue
        if c.isalpha():
            j = i
            while j < len(formula) and (formula[j].isalnum() or formula[j] in "._"):
                j += 1
            word = formula[i:j]
            if j < len(formula) and formula[j] == "(" and word.upper() not in FORMULAE:
                word = "_xlfn." + word
            out.append(word)
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


def libreoffice(formulas, folder):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sheet1"
    for ref, value in INPUTS.items():
        sheet[ref] = value
        if ref in ERROR_INPUTS:
            sheet[ref].data_type = "e"
    for k, f in enumerate(formulas):
        sheet[f"E{k + 1}"] = "=" + stored(f)
    source = os.path.join(folder, "formulas.xlsx")
    book.save(source)
    outdir = os.path.join(folder, "out")
    profile = "file://" + os.path.join(folder, "profile")
    # A private profile: another soffice running on the machine does not take the conversion over.
    subprocess.run(["soffice", f"-env:UserInstallation={profile}", "--headless", "--convert-to", "xlsx",
                    "--outdir", outdir, source], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=150)
    values = openpyxl.load_workbook(os.path.join(outdir, "formulas.xlsx"), data_only=True)["Sheet1"]
    formulas_back = openpyxl.load_workbook(os.path.join(outdir, "formulas.xlsx"))["Sheet1"]
    results = []
    for k in range(len(formulas)):
        cell = values[f"E{k + 1}"]
        back = formulas_back[f"E{k + 1}"].value
        if not (isinstance(back, str) and back.startswith("=")):
            results.append({"t": "skip"})  # LibreOffice did not keep it a formula
        elif cell.data_type == "e":
            results.append({"t": "e", "v": str(cell.value)})
        elif cell.value is None:
            results.append({"t": "s", "v": ""})  # an empty text result is stored as no value
        else:
            results.append(typed(cell.value))
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--functions", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", default="20261202")
    parser.add_argument("--per-function", type=int, default=12)
    args = parser.parse_args()
    with open(args.functions) as f:
        registry = json.load(f)
    formulas = []
    for spec in sorted(registry, key=lambda s: s["name"]):
        if not spec["volatile"]:
            formulas += formulas_for(spec, args.seed, args.per_function)
    folder = tempfile.mkdtemp(prefix="sheetport-differential.")
    try:
        office = libreoffice(formulas, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    iron = ironcalc(formulas)
    inputs = [{"ref": ref, "v": {"t": "e", "v": v} if ref in ERROR_INPUTS else typed(v)} for ref, v in INPUTS.items()]
    with open(args.out, "w") as out:
        json.dump({"inputs": inputs, "cases": [{"formula": f, "ironcalc": i, "libreoffice": o}
                                               for f, i, o in zip(formulas, iron, office)]}, out)
    print(f"{len(formulas)} formulas evaluated by IronCalc and LibreOffice written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
