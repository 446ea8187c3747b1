#!/usr/bin/env python3
"""Print the cell JSONL (Docs/Reference/Formats.md, "Cell JSONL") of the write benchmark's workbook.

Usage: expected_jsonl.py [--printf16] ROWS > book.jsonl

--printf16: numbers as libxlsxwriter stores them. libxlsxwriter writes doubles with printf
"%.16G" (utility.h, lxw_sprintf_dbl), which does not round-trip every double: r/7.0 for r=3 is
stored as 0.4285714285714285, not 0.42857142857142855. Without the flag the numbers are the
exact doubles (what a round-trip writer such as SheetPort's must store).

The same cells libxlsxwriter_write.c writes (and `sheetport bench write` is to write):
sheet row 1 is the header "c1".."c10"; data rows r = 2 .. ROWS+1 (r is the sheet row number):
A r, B r*1.25, C alpha|beta|gamma|delta[r%4], D "item-r", E date serial 45000 + r%1000
("yyyy-mm-dd"), F r%2==0, G r/7.0, H =A<r>*2 cached 2r, I north|south|east|west[r%4], J r%100.
Used with Tests/RealClients/verify.py to check the written workbook in real clients.
"""
import datetime as dt
import json
import sys

C_WORDS = ("alpha", "beta", "gamma", "delta")
I_WORDS = ("north", "south", "east", "west")


def cells(rows, num=lambda x: x):
    for c in range(1, 11):
        yield {"ref": f"{chr(64 + c)}1", "type": "string", "value": f"c{c}"}
    for r in range(2, rows + 2):
        day = dt.date(1899, 12, 30) + dt.timedelta(days=45000 + r % 1000)
        yield {"ref": f"A{r}", "type": "number", "value": r}
        yield {"ref": f"B{r}", "type": "number", "value": num(r * 1.25)}
        yield {"ref": f"C{r}", "type": "string", "value": C_WORDS[r % 4]}
        yield {"ref": f"D{r}", "type": "string", "value": f"item-{r}"}
        yield {"ref": f"E{r}", "type": "date", "value": day.isoformat() + "T00:00:00.000"}
        yield {"ref": f"F{r}", "type": "boolean", "value": r % 2 == 0}
        yield {"ref": f"G{r}", "type": "number", "value": num(r / 7.0)}
        yield {"ref": f"H{r}", "type": "number", "value": 2 * r, "formula": f"A{r}*2"}
        yield {"ref": f"I{r}", "type": "string", "value": I_WORDS[r % 4]}
        yield {"ref": f"J{r}", "type": "number", "value": r % 100}


if __name__ == "__main__":
    args = sys.argv[1:]
    printf16 = "--printf16" in args
    args = [a for a in args if a != "--printf16"]
    if len(args) != 1 or not args[0].isdigit():
        sys.exit("usage: expected_jsonl.py [--printf16] ROWS")
    num = (lambda x: float("%.16G" % x)) if printf16 else (lambda x: x)
    out = sys.stdout
    for cell in cells(int(args[0]), num):
        out.write(json.dumps(cell, separators=(",", ":")) + "\n")
