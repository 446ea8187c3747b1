"""Write-benchmark peers: the benchmark sheet (a header and ROWS rows x 10 columns, the cells
of Benchmarks/write/libxlsxwriter_write.c and SheetPort's SyntheticSheet) written by each
library's streaming mode.

Usage: python write.py TOOL OUT.xlsx ROWS      TOOL: xlsxwriter | openpyxl
  xlsxwriter  XlsxWriter with constant_memory (rows flushed as they end, strings inline),
              zlib level 6 (its zipfile default)
  openpyxl    openpyxl write_only mode (rows streamed to a temporary file)
Data rows are sheet rows r = 2 .. ROWS+1:
  A r | B r*1.25 | C alpha/beta/gamma/delta[r%4] | D "item-r" | E date 45000 + r%1000
  | F r even | G r/7 | H =A r*2 (cached 2r) | I north/south/east/west[r%4] | J r%100
"""
import datetime
import sys

WORDS_C = ["alpha", "beta", "gamma", "delta"]
WORDS_I = ["north", "south", "east", "west"]
EPOCH = datetime.datetime(1899, 12, 30)


def write_xlsxwriter(path, rows):
    import xlsxwriter
    workbook = xlsxwriter.Workbook(path, {"constant_memory": True})
    sheet = workbook.add_worksheet()
    date = workbook.add_format({"num_format": "yyyy-mm-dd"})
    for c in range(10):
        sheet.write_string(0, c, "c%d" % (c + 1))
    for r in range(2, rows + 2):
        row = r - 1
        sheet.write_number(row, 0, r)
        sheet.write_number(row, 1, r * 1.25)
        sheet.write_string(row, 2, WORDS_C[r % 4])
        sheet.write_string(row, 3, "item-%d" % r)
        sheet.write_number(row, 4, 45000 + r % 1000, date)
        sheet.write_boolean(row, 5, r % 2 == 0)
        sheet.write_number(row, 6, r / 7)
        sheet.write_formula(row, 7, "=A%d*2" % r, None, 2 * r)
        sheet.write_string(row, 8, WORDS_I[r % 4])
        sheet.write_number(row, 9, r % 100)
    workbook.close()


def write_openpyxl(path, rows):
    import openpyxl
    from openpyxl.cell import WriteOnlyCell
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet()
    sheet.append(["c%d" % (c + 1) for c in range(10)])
    for r in range(2, rows + 2):
        date = WriteOnlyCell(sheet, value=EPOCH + datetime.timedelta(days=45000 + r % 1000))
        date.number_format = "yyyy-mm-dd"
        # openpyxl writes no cached value for formulas
        sheet.append([r, r * 1.25, WORDS_C[r % 4], "item-%d" % r, date, r % 2 == 0, r / 7,
                      "=A%d*2" % r, WORDS_I[r % 4], r % 100])
    workbook.save(path)


TOOLS = {"xlsxwriter": write_xlsxwriter, "openpyxl": write_openpyxl}

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in TOOLS:
        sys.exit(__doc__)
    TOOLS[sys.argv[1]](sys.argv[2], int(sys.argv[3]))
