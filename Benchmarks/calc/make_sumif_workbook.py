#!/usr/bin/env python3
"""The whole-column comparison benchmark's workbook (issue 39 item 11): one sheet, a header and
N data rows, column A numbers and column B `=SUMIF(A:A,">"&A2)` down every row, so each row
sums the numbers greater than its own over the whole column (n squared additions by a scan).

The numbers are integers from -50,000 to 50,000 (ties among them), or with `--decimals` two
decimal places (12.34: sums that could round, which SheetPort adds in row order as Excel does,
so this is the slow path). Seeded: the same workbook each run. No formula has a cached value
(`<f>..</f><v></v>`): an engine must compute every one.

Usage: make_sumif_workbook.py ROWS OUT.xlsx [--decimals]
"""
import random
import sys

import xlsxwriter


def main() -> None:
    rows, path = int(sys.argv[1]), sys.argv[2]
    decimals = "--decimals" in sys.argv[3:]
    rng = random.Random(39)
    book = xlsxwriter.Workbook(path, {"constant_memory": True})
    sheet = book.add_worksheet("Data")
    sheet.write_string(0, 0, "x")
    sheet.write_string(0, 1, "greater")
    for r in range(1, rows + 1):
        x = rng.randint(-5_000_000, 5_000_000) / 100 if decimals else rng.randint(-50_000, 50_000)
        sheet.write_number(r, 0, x)
        sheet.write_formula(r, 1, f'=SUMIF(A:A,">"&A{r + 1})', None, "")
    book.close()


if __name__ == "__main__":
    main()
