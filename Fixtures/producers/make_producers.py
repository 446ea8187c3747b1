#!/usr/bin/env python3
"""Writes workbooks with real producers, for the reader's tests (value agreement with
openpyxl and python-calamine, and the corpus-style no-crash test).

Usage: python3 Fixtures/producers/make_producers.py   (from the project root)

Needs: soffice (Debian's libreoffice-calc-nogui), ssconvert (gnumeric), and openpyxl and
XlsxWriter in the project's .venv (Scripts/venv.sh makes it; XlsxWriter is installed here on
demand). The outputs are committed; producers stamp times into docProps, so a rerun gives
equal content, not equal bytes.

- lo_mixed.xlsx           LibreOffice Calc from mixed.fods (written below): dates, times,
                          percentages, booleans, formulas with cached values, styles, a merged
                          header, a comment, a second sheet.
- gnumeric_mixed.xlsx     Gnumeric's xlsx writer, from lo_mixed.xlsx.
- openpyxl_mixed.xlsx     openpyxl: formulas without cached values, dates, styles, 1904 off.
- xlsxwriter_mixed.xlsx   XlsxWriter: shared strings, formulas with cached values, dates,
                          formats, a comment, merged cells.
- xlsxwriter_constant_memory.xlsx  XlsxWriter's constant_memory mode (inline strings).
- openpyxl_1904_dxfs.xlsx openpyxl in the 1904 date system (serial 0 = 1904-01-01, times,
                          dates past 2000) with conditional formats whose differential formats
                          carry numFmt elements that clash with the cells' (id 14 as "0.00%").
- lo_1904_dxfs.xlsx       LibreOffice Calc's xlsx of openpyxl_1904_dxfs.xlsx (its own styles and dxfs).
- gnumeric_1904_dxfs.xlsx Gnumeric's xlsx of openpyxl_1904_dxfs.xlsx.

`make_producers.py 1904` writes only the last three (no XlsxWriter needed). VENV_PYTHON
names another Python with openpyxl (e.g. a shared .venv).
"""
import datetime
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV_PY = os.environ.get("VENV_PYTHON") or os.path.join(ROOT, ".venv", "bin", "python")
ROWS = 40
NAMES = ["Ærøskøbing", "naïve café", "東京", "Zürich", "plain", "a, b", 'say "hi"', "line\nbreak"]


def fods():
    """A flat OpenDocument spreadsheet, the source LibreOffice converts."""
    rows = []
    rows.append('<table:table-row><table:table-cell table:style-name="bold" office:value-type="string" '
                'table:number-columns-spanned="2"><text:p>Sales report</text:p></table:table-cell>'
                '<table:covered-table-cell/></table:table-row>')
    header = ["Date", "Qty", "Price", "Total", "Name", "Paid", "Share", "Time"]
    rows.append("<table:table-row>" + "".join(
        f'<table:table-cell table:style-name="bold" office:value-type="string"><text:p>{h}</text:p></table:table-cell>'
        for h in header) + "</table:table-row>")
    for i in range(ROWS):
        r = i + 3
        day = datetime.date(2024, 1, 1) + datetime.timedelta(days=i * 3)
        qty = i % 7 + 1
        price = round(1.25 + i * 0.1, 2)
        name = NAMES[i % len(NAMES)].replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
        lines = "".join(f"<text:p>{part}</text:p>" for part in name.split("\n"))
        comment = ('<office:annotation><dc:creator>Reviewer</dc:creator><text:p>check this row</text:p>'
                   '</office:annotation>') if i == 0 else ""
        cells = [
            f'<table:table-cell table:style-name="date" office:value-type="date" office:date-value="{day.isoformat()}"><text:p>{day}</text:p></table:table-cell>',
            f'<table:table-cell office:value-type="float" office:value="{qty}"><text:p>{qty}</text:p></table:table-cell>',
            f'<table:table-cell table:style-name="fill" office:value-type="float" office:value="{price}"><text:p>{price}</text:p></table:table-cell>',
            f'<table:table-cell table:formula="of:=[.B{r}]*[.C{r}]" office:value-type="float" office:value="{qty * price}"><text:p>{qty * price}</text:p></table:table-cell>',
            f'<table:table-cell table:style-name="italic" office:value-type="string">{comment}{lines}</table:table-cell>',
            f'<table:table-cell office:value-type="boolean" office:boolean-value="{"true" if i % 2 else "false"}"><text:p>{"TRUE" if i % 2 else "FALSE"}</text:p></table:table-cell>',
            f'<table:table-cell table:style-name="percent" office:value-type="percentage" office:value="{i / 40}"><text:p>{i / 40:.0%}</text:p></table:table-cell>',
            f'<table:table-cell table:style-name="time" office:value-type="time" office:time-value="PT{i % 24:02d}H{(i * 7) % 60:02d}M00S"><text:p>x</text:p></table:table-cell>',
        ]
        rows.append("<table:table-row>" + "".join(cells) + "</table:table-row>")
    rows.append(f'<table:table-row><table:table-cell table:number-columns-repeated="3"/>'
                f'<table:table-cell table:formula="of:=SUM([.D3:.D{ROWS + 2}])" office:value-type="float" office:value="0">'
                f'<text:p>0</text:p></table:table-cell></table:table-row>')
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
 xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:automatic-styles>
 <number:date-style style:name="Ndate"><number:year number:style="long"/><number:text>-</number:text><number:month number:style="long"/><number:text>-</number:text><number:day number:style="long"/></number:date-style>
 <number:time-style style:name="Ntime"><number:hours number:style="long"/><number:text>:</number:text><number:minutes number:style="long"/></number:time-style>
 <number:percentage-style style:name="Npct"><number:number number:decimal-places="0" number:min-integer-digits="1"/><number:text>%</number:text></number:percentage-style>
 <style:style style:name="bold" style:family="table-cell"><style:text-properties fo:font-weight="bold"/></style:style>
 <style:style style:name="italic" style:family="table-cell"><style:text-properties fo:font-style="italic"/></style:style>
 <style:style style:name="fill" style:family="table-cell"><style:table-cell-properties fo:background-color="#ffff00"/><style:paragraph-properties fo:text-align="end"/><style:text-properties fo:color="#c00000"/></style:style>
 <style:style style:name="date" style:family="table-cell" style:data-style-name="Ndate"/>
 <style:style style:name="time" style:family="table-cell" style:data-style-name="Ntime"/>
 <style:style style:name="percent" style:family="table-cell" style:data-style-name="Npct"/>
</office:automatic-styles>
<office:body><office:spreadsheet>
<table:table table:name="Sales">{"".join(rows)}</table:table>
<table:table table:name="Notes"><table:table-row><table:table-cell office:value-type="string"><text:p>only the first sheet is imported</text:p></table:table-cell></table:table-row></table:table>
</office:spreadsheet></office:body></office:document>
"""


def libreoffice(work):
    source = os.path.join(work, "mixed.fods")
    with open(source, "w", encoding="utf-8") as f:
        f.write(fods())
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{work}/profile",
                    "--convert-to", "xlsx", "--outdir", work, source], check=True, capture_output=True)
    shutil.copy(os.path.join(work, "mixed.xlsx"), os.path.join(HERE, "lo_mixed.xlsx"))


def gnumeric():
    subprocess.run(["ssconvert", "--export-type=Gnumeric_Excel:xlsx2", os.path.join(HERE, "lo_mixed.xlsx"),
                    os.path.join(HERE, "gnumeric_mixed.xlsx")], check=True, capture_output=True)


PY_WRITERS = r'''
import datetime, sys
import openpyxl, xlsxwriter
from openpyxl.styles import Font, PatternFill, Alignment
out, rows, names = sys.argv[1], int(sys.argv[2]), sys.argv[3].split("|")

wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Data"
ws.append(["Date", "Qty", "Price", "Total", "Name", "Paid"])
for c in ws[1]:
    c.font = Font(bold=True)
for i in range(rows):
    r = i + 2
    ws.append([datetime.datetime(2024, 1, 1, 8, 30) + datetime.timedelta(days=i, minutes=i),
               i % 7 + 1, 1.25 + i * 0.1, f"=B{r}*C{r}", names[i % len(names)], bool(i % 2)])
    ws.cell(r, 3).fill = PatternFill("solid", fgColor="FFFF00")
    ws.cell(r, 5).alignment = Alignment(horizontal="center")
ws.column_dimensions["E"].width = 24
ws.row_dimensions[1].height = 28
wb.create_sheet("Second")["A1"] = "not imported"
wb.save(out + "/openpyxl_mixed.xlsx")

for mode in ("mixed", "constant_memory"):
    book = xlsxwriter.Workbook(out + f"/xlsxwriter_{mode}.xlsx", {"constant_memory": mode == "constant_memory"})
    sheet = book.add_worksheet("Report")
    bold = book.add_format({"bold": True, "font_color": "#C00000"})
    date = book.add_format({"num_format": "yyyy-mm-dd hh:mm"})
    money = book.add_format({"num_format": "#,##0.00", "bg_color": "#DDEBF7", "align": "right"})
    sheet.write_row(0, 0, ["Date", "Qty", "Price", "Total", "Name", "Paid", "Error"], bold)
    for i in range(rows):
        r = i + 1
        sheet.write_datetime(r, 0, datetime.datetime(2023, 12, 30, 12) + datetime.timedelta(hours=i * 5), date)
        sheet.write_number(r, 1, i % 7 + 1)
        sheet.write_number(r, 2, 1.25 + i * 0.1, money)
        sheet.write_formula(r, 3, f"=B{r + 1}*C{r + 1}", money, (i % 7 + 1) * (1.25 + i * 0.1))
        sheet.write_string(r, 4, names[i % len(names)])
        sheet.write_boolean(r, 5, bool(i % 3))
        if i % 10 == 0:
            sheet.write_formula(r, 6, "=1/0", None, "#DIV/0!")
    if mode == "mixed":
        sheet.merge_range(rows + 2, 0, rows + 2, 3, "merged note", bold)
        sheet.write_comment(1, 4, "a comment", {"author": "Reviewer"})
        book.add_worksheet("Other").write(0, 0, "second sheet")
    book.close()
'''


def python_writers():
    subprocess.run([VENV_PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "xlsxwriter==3.3.1"],
                   check=True)
    subprocess.run([VENV_PY, "-c", PY_WRITERS, HERE, str(ROWS), "|".join(NAMES)], check=True)


PY_1904 = r'''
import datetime, sys
import openpyxl
from openpyxl.formatting.rule import CellIsRule, Rule
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.styles.numbers import NumberFormat
from openpyxl.utils.datetime import CALENDAR_MAC_1904
out, rows = sys.argv[1], int(sys.argv[2])

wb = openpyxl.Workbook()
wb.epoch = CALENDAR_MAC_1904
ws = wb.active
ws.title = "Dates1904"
ws.append(["Date", "Amount", "Stamp", "Time", "Built-in 14"])
for i in range(rows):
    r = i + 2
    ws.cell(r, 1, datetime.datetime(1904, 1, 1) + datetime.timedelta(days=i * 37)).number_format = "yyyy-mm-dd"
    ws.cell(r, 2, (i - 5) * 12.5).number_format = "#,##0.00"
    ws.cell(r, 3, datetime.datetime(2024, 1, 31, 13, 45) + datetime.timedelta(hours=i * 7)).number_format = "yyyy-mm-dd hh:mm:ss"
    ws.cell(r, 4, datetime.time(i % 24, (i * 7) % 60)).number_format = "hh:mm"
    ws.cell(r, 5, datetime.datetime(2020, 2, 29) + datetime.timedelta(days=i)).number_format = "mm-dd-yy"
# Differential formats whose numFmt ids clash with the cells': 14 as a percentage, 164 as a number.
for area, code, ident in (("E2:E200", "0.00%", 14), ("A2:A200", "0.0", 164)):
    dxf = DifferentialStyle(numFmt=NumberFormat(numFmtId=ident, formatCode=code))
    ws.conditional_formatting.add(area, Rule(type="cellIs", operator="greaterThan", formula=["0"], dxf=dxf))
wb.save(out + "/openpyxl_1904_dxfs.xlsx")
'''


def dates_1904_and_dxfs(work):
    subprocess.run([VENV_PY, "-c", PY_1904, HERE, str(ROWS)], check=True)
    source = os.path.join(work, "source.xlsx")
    shutil.copy(os.path.join(HERE, "openpyxl_1904_dxfs.xlsx"), source)
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{work}/profile",
                    "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", os.path.join(work, "lo"), source],
                   check=True, capture_output=True)
    shutil.copy(os.path.join(work, "lo", "source.xlsx"), os.path.join(HERE, "lo_1904_dxfs.xlsx"))
    subprocess.run(["ssconvert", "--export-type=Gnumeric_Excel:xlsx2", os.path.join(HERE, "openpyxl_1904_dxfs.xlsx"),
                    os.path.join(HERE, "gnumeric_1904_dxfs.xlsx")], check=True, capture_output=True)


def main():
    if sys.argv[1:] == ["1904"]:
        with tempfile.TemporaryDirectory() as work:
            dates_1904_and_dxfs(work)
        return
    with tempfile.TemporaryDirectory() as work:
        libreoffice(work)
    gnumeric()
    python_writers()
    with tempfile.TemporaryDirectory() as work:
        dates_1904_and_dxfs(work)
    print("wrote", ", ".join(sorted(f for f in os.listdir(HERE) if f.endswith(".xlsx"))))


if __name__ == "__main__":
    sys.exit(main())
