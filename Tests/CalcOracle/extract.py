#!/usr/bin/env python3
"""Dump the formulas, constants, cached values, defined names and tables of workbooks as JSON.

For every .xlsx/.xlsm in SOURCE that has at least one formula, writes DEST/<name>.json:
{"file", "date1904", "sheets": [{"name", "cells": [{"ref", "f"?, "array"?, "v": typed value}]}],
 "names": [{"name", "value", "sheet"?}], "tables": [{"name", "sheet", "ref", "header", "totals", "columns"}]}
A typed value is {"t": "n"|"s"|"b"|"e"|"empty", "v": ...}. With a formula, "v" is the cached value
(from a data_only load). The SheetPortCalc oracle test loads these, drops the cached values,
recomputes and compares.

Usage: extract.py SOURCE_DIR DEST_DIR
"""
import datetime
import json
import os
import resource
import signal
import sys
import warnings

import openpyxl
from openpyxl.utils.datetime import to_excel
from openpyxl.worksheet.formula import ArrayFormula

warnings.filterwarnings("ignore")


def typed(value, epoch):
    if value is None:
        return {"t": "empty"}
    if isinstance(value, bool):
        return {"t": "b", "v": value}
    if isinstance(value, (int, float)):
        return {"t": "n", "v": float(value)}
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return {"t": "n", "v": float(to_excel(value, epoch))}
    if isinstance(value, datetime.timedelta):
        return {"t": "n", "v": value.total_seconds() / 86400}
    text = str(value)
    if text in ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!", "#CALC!"):
        return {"t": "e", "v": text}
    return {"t": "s", "v": text}


def dump(path):
    wb = openpyxl.load_workbook(path, data_only=False)
    values = openpyxl.load_workbook(path, data_only=True)
    epoch = wb.epoch
    out = {"file": os.path.basename(path), "date1904": epoch != datetime.datetime(1899, 12, 30), "sheets": [], "names": [], "tables": []}
    formulas = 0
    for ws in wb.worksheets:
        vs = values[ws.title]
        cells = []
        for row in ws.iter_rows():
            for c in row:
                if c.value is None:
                    continue
                entry = {"ref": c.coordinate}
                cached = vs[c.coordinate].value
                link = vs[c.coordinate].hyperlink
                if link is not None and cached in (link.location, link.display, link.target):
                    cached = None  # openpyxl puts a hyperlink's text where a formula has no cached value
                if isinstance(c.value, ArrayFormula):
                    entry["f"] = (c.value.text or "").lstrip("=")
                    entry["array"] = c.value.ref
                    entry["v"] = typed(cached, epoch)
                    formulas += 1
                elif (c.data_type == "f" or (isinstance(c.value, str) and c.value.startswith("="))) and cached != c.value:
                    entry["f"] = str(c.value)[1:]
                    entry["v"] = typed(cached, epoch)
                    formulas += 1
                elif c.data_type == "e":
                    entry["v"] = {"t": "e", "v": str(c.value)}
                else:
                    entry["v"] = typed(c.value, epoch)
                cells.append(entry)
        # Members of array formulas carry only cached values.
        out["sheets"].append({"name": ws.title, "cells": cells})
        for table in ws.tables.values():
            out["tables"].append({
                "name": table.displayName or table.name, "sheet": ws.title, "ref": table.ref,
                "header": int(table.headerRowCount if table.headerRowCount is not None else 1),
                "totals": int(table.totalsRowCount or 0),
                "columns": [col.name for col in table.tableColumns],
            })
        try:
            for name, dn in ws.defined_names.items():
                out["names"].append({"name": name, "value": dn.attr_text, "sheet": ws.title})
        except AttributeError:
            pass
    try:
        items = wb.defined_names.items()
    except AttributeError:
        items = [(d.name, d) for d in wb.defined_names.definedName]
    for name, dn in items:
        if dn.localSheetId is not None:
            out["names"].append({"name": name, "value": dn.attr_text, "sheet": wb.sheetnames[dn.localSheetId]})
        else:
            out["names"].append({"name": name, "value": dn.attr_text})
    return out if formulas else None


def one(path, target):
    """Dumps one workbook in a child process with bounded memory and time; True when written."""
    pid = os.fork()
    if pid == 0:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        signal.alarm(120)
        code = 1
        try:
            data = dump(path)
            if data is not None:
                with open(target, "w") as f:
                    json.dump(data, f)
                code = 0
            else:
                code = 2
        except BaseException as exc:  # a workbook openpyxl cannot read is skipped
            print(f"skip {os.path.basename(path)}: {exc.__class__.__name__}: {exc}", file=sys.stderr)
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def main():
    source, dest = sys.argv[1], sys.argv[2]
    os.makedirs(dest, exist_ok=True)
    written = 0
    for name in sorted(os.listdir(source)):
        if not name.lower().endswith((".xlsx", ".xlsm")):
            continue
        if one(os.path.join(source, name), os.path.join(dest, name + ".json")):
            written += 1
    print(f"{written} workbooks with formulas written to {dest}")


if __name__ == "__main__":
    main()
