#!/usr/bin/env python3
"""The calculation benchmark's workbook (issue 24): one sheet, a header and N data rows.

Columns A-E are inputs (id, quantity, price, a lookup key, a name); F-M are eight formula
columns, every row the same shapes (as a filled column is):

    F  =B2*C2                                     arithmetic
    G  =IF(F2>500,"high","low")                   IF
    H  =ROUND(F2*1.0825,2)                        ROUND
    I  =SUM(A2:C2)                                SUM over the row
    J  =VLOOKUP(D2,$P$2:$R$1001,2,FALSE)          VLOOKUP over the 1,000-row table
    K  =SUMIF($P$2:$P$1001,D2,$R$2:$R$1001)       SUMIF over the same table
    L  =E2&"-"&D2                                 text joining
    M  =M1+H2 (M2 is =H2)                         a running total: each row reads the previous

P-R rows 2-1001 hold the lookup table (key, rate, weight) on the same sheet.

No formula has a cached value: XlsxWriter is given an empty value, so each formula cell is
written `<f>...</f><v></v>` (as openpyxl writes formulas): an engine must compute every one.
Prints the expected last running total (computed here, in row order, as the engine must) as
JSON on standard output: {"rows": N, "last_row": ..., "running_total": ...}.

Usage: make_calc_workbook.py ROWS OUT.xlsx
"""
import json
import sys
from decimal import ROUND_HALF_UP, Decimal

import xlsxwriter

TABLE_ROWS = 1000


def main() -> None:
    rows, path = int(sys.argv[1]), sys.argv[2]
    book = xlsxwriter.Workbook(path, {"constant_memory": True})
    sheet = book.add_worksheet("Data")
    for col, title in enumerate(["id", "qty", "price", "key", "name", "amount", "band", "gross",
                                 "rowsum", "rate", "weight", "label", "total", "", "",
                                 "tkey", "trate", "tweight"]):
        if title:
            sheet.write_string(0, col, title)
    total = 0.0
    for k in range(rows):
        r = k + 1              # zero-based row index; the sheet row is r + 1
        n = r + 1
        qty = (k * 7) % 23 + 1
        price = round(((k * 13) % 997) / 10 + 0.25, 2)
        key = f"K{(k * 31) % TABLE_ROWS}"
        sheet.write_number(r, 0, k + 1)
        sheet.write_number(r, 1, qty)
        sheet.write_number(r, 2, price)
        sheet.write_string(r, 3, key)
        sheet.write_string(r, 4, f"item{k % 5000}")
        sheet.write_formula(r, 5, f"=B{n}*C{n}", None, "")
        sheet.write_formula(r, 6, f'=IF(F{n}>500,"high","low")', None, "")
        sheet.write_formula(r, 7, f"=ROUND(F{n}*1.0825,2)", None, "")
        sheet.write_formula(r, 8, f"=SUM(A{n}:C{n})", None, "")
        sheet.write_formula(r, 9, f"=VLOOKUP(D{n},$P$2:$R${TABLE_ROWS + 1},2,FALSE)", None, "")
        sheet.write_formula(r, 10, f"=SUMIF($P$2:$P${TABLE_ROWS + 1},D{n},$R$2:$R${TABLE_ROWS + 1})", None, "")
        sheet.write_formula(r, 11, f'=E{n}&"-"&D{n}', None, "")
        sheet.write_formula(r, 12, f"=H{n}" if k == 0 else f"=M{n - 1}+H{n}", None, "")
        if k < TABLE_ROWS:
            sheet.write_string(r, 15, f"K{k}")
            sheet.write_number(r, 16, round(0.5 + (k % 37) / 100, 2))
            sheet.write_number(r, 17, (k * 3) % 101)
        # The same operations in the same order as the formulas; ROUND as Excel rounds: the
        # value to 15 significant digits, then half away from zero.
        gross = Decimal(f"{qty * price * 1.0825:.15g}").quantize(Decimal("0.01"), ROUND_HALF_UP)
        total += float(gross)
    book.close()
    json.dump({"rows": rows, "last_row": rows + 1, "running_total": total}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
