#!/usr/bin/env python3
"""Writes an honest text-heavy xlsx with XlsxWriter, as a data export would (issue 39, item 1).

Usage: make_text_workbook.py ROWS OUT.xlsx [--seed N]

Columns: id (a number), a UUID, an e-mail address and a free-text comment, every value
unique, so the shared-string table grows with the rows: 300,000 rows make a ~24 MB file
(the issue's was 19.5 MB) whose shared strings hold ~60 MB of text. Deterministic for a seed. Needs XlsxWriter
(`pip install XlsxWriter`; the project .venv has openpyxl only).
"""
import random
import sys
import uuid

import xlsxwriter

WORDS = ("order delivered late customer asked refund invoice attached please check the "
         "shipment address again thanks for the quick reply package damaged replacement sent "
         "tracking number updated warehouse stock low next week follow up call").split()


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    rows, out = int(args[0]), args[1]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 39
    rng = random.Random(seed)
    book = xlsxwriter.Workbook(out)  # shared strings, as xlsxwriter writes by default
    sheet = book.add_worksheet("Data")
    sheet.write_row(0, 0, ["id", "uuid", "email", "comment"])
    for row in range(1, rows + 1):
        ident = uuid.UUID(int=rng.getrandbits(128), version=4)
        user = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(5, 12)))
        comment = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20)))
        sheet.write_number(row, 0, row)
        sheet.write_string(row, 1, str(ident))
        sheet.write_string(row, 2, f"{user}.{row}@example.com")
        sheet.write_string(row, 3, f"{comment} #{row}")
    book.close()


if __name__ == "__main__":
    main()
