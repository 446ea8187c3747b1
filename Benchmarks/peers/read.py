"""Read-benchmark peers: read the first worksheet of a workbook the way each library's users
do, and print how many cells it holds (a sanity check that every tool read the whole sheet).

Usage: python read.py TOOL FILE       TOOL: fastexcel | calamine | openpyxl
  fastexcel  fastexcel.read_excel(FILE).load_sheet(0, header_row=None): the whole sheet into
             Arrow columns (calamine underneath)
  calamine   python-calamine: CalamineWorkbook.from_path(FILE).get_sheet_by_index(0).to_python()
  openpyxl   openpyxl read-only mode, iterating rows with values_only=True (its streaming mode)
"""
import sys


def fastexcel_cells(path):
    import fastexcel
    sheet = fastexcel.read_excel(path).load_sheet(0, header_row=None)
    return sheet.height * sheet.width


def calamine_cells(path):
    from python_calamine import CalamineWorkbook
    rows = CalamineWorkbook.from_path(path).get_sheet_by_index(0).to_python()
    return len(rows) * (len(rows[0]) if rows else 0)


def openpyxl_cells(path):
    import openpyxl
    workbook = openpyxl.load_workbook(path, read_only=True)
    cells = 0
    for row in workbook.worksheets[0].iter_rows(values_only=True):
        cells += len(row)
    workbook.close()
    return cells


TOOLS = {"fastexcel": fastexcel_cells, "calamine": calamine_cells, "openpyxl": openpyxl_cells}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in TOOLS:
        sys.exit(__doc__)
    print(TOOLS[sys.argv[1]](sys.argv[2]), "cells")
