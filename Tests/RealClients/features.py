#!/usr/bin/env python3
"""Check what a written workbook carries beyond cell values in real clients: comments (notes),
column widths, row heights and the formatting Sheets keeps.

Usage: features.py BOOK.xlsx EXPECTED.json

EXPECTED.json, for the first worksheet:
    {"comments": {"B2": {"text": "...", "author": "..."}},
     "columnWidths": {"A": 20.0}, "rowHeights": {"1": 30.0},
     "styles": {"A1": {"bold": true, "italic": false, "horizontal": "center",
                       "numFmt": "0.00", "fill": "#RRGGBB", "color": "#RRGGBB"}}}

  openpyxl     comments with their authors, column widths, row heights and every style member
  libreoffice  the notes it shows (converted to flat ODS, office:annotation of each cell), and
               the widths, heights and styles it read: the book saved again by LibreOffice as
               xlsx (it writes back only what it read), checked as openpyxl checks the original
               (widths within LibreOffice's rounding to its own units)
  gnumeric     the notes it shows and the row heights (converted to .gnumeric XML)

One line per client, exit status 1 when any check failed. The clients are started the way
verify.py starts them (private LibreOffice profile, timeouts).
"""
import gzip
import json
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import verify  # noqa: E402  (also re-executes under .venv when openpyxl is missing)
import openpyxl  # noqa: E402
from openpyxl.utils import get_column_letter  # noqa: E402

TIMEOUT = 120


def check_openpyxl(book, expected, width_tolerance=1e-9, height_tolerance=1e-9, automatic=()):
    """The problems openpyxl finds in BOOK against EXPECTED. AUTOMATIC: what a client writes
    for a member it leaves automatic ("horizontal": "general", "color": "#000000"), read as unset."""
    ws = openpyxl.load_workbook(book).worksheets[0]
    problems = []
    for ref, comment in expected.get("comments", {}).items():
        got = ws[ref].comment
        if got is None or got.text != comment["text"] or got.author != comment["author"]:
            problems.append(f"{ref} comment {got.text if got else None!r} by {got.author if got else None!r}")
    for letter, width in expected.get("columnWidths", {}).items():
        # openpyxl keys a <col min max> range by its first column
        index = openpyxl.utils.column_index_from_string(letter)
        got = next((d.width for d in ws.column_dimensions.values() if d.min <= index <= d.max), None)
        if abs((got or 0) - width) > width_tolerance:
            problems.append(f"column {letter} width {got}")
    for row, height in expected.get("rowHeights", {}).items():
        if abs((ws.row_dimensions[int(row)].height or 0) - height) > height_tolerance:
            problems.append(f"row {row} height {ws.row_dimensions[int(row)].height}")
    for ref, style in expected.get("styles", {}).items():
        cell = ws[ref]
        got = {"bold": bool(cell.font.b), "italic": bool(cell.font.i),
               "horizontal": cell.alignment.horizontal, "numFmt": cell.number_format,
               "fill": "#" + cell.fill.fgColor.rgb[2:] if cell.fill.fill_type == "solid" else None,
               "color": "#" + cell.font.color.rgb[2:] if cell.font.color is not None and isinstance(cell.font.color.rgb, str) else None}
        for key, value in automatic:
            if got[key] == value:
                got[key] = None
        want = {"bold": False, "italic": False, "horizontal": None, "numFmt": "General", "fill": None, "color": None}
        want.update(style)
        if got != want:
            problems.append(f"{ref} style {got} != {want}")
    return problems


def annotations_libreoffice(book, work):
    out = Path(tempfile.mkdtemp(prefix="lo-", dir=work))
    profile = Path(tempfile.mkdtemp(prefix="lo-profile-", dir=work)).as_uri()
    rc, _, err = verify.run(["soffice", f"-env:UserInstallation={profile}", "--headless", "--norestore",
                             "--convert-to", "fods", "--outdir", str(out), str(book)], TIMEOUT)
    files = list(out.glob("*.fods"))
    if rc != 0 or not files:
        raise RuntimeError(f"soffice did not convert (exit {rc}): {err[:200]}")
    ns = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
          "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
          "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0"}
    table = ET.parse(files[0]).getroot().find(".//table:table", ns)
    notes, row = {}, 0
    for row_element in table.iter(f"{{{ns['table']}}}table-row"):
        row += 1
        column = 0
        for cell in row_element:
            if not cell.tag.endswith("table-cell"):
                continue
            column += 1
            note = cell.find("office:annotation", ns)
            if note is not None:
                lines = ["".join(p.itertext()) for p in note.findall("text:p", ns)]
                notes[f"{get_column_letter(column)}{row}"] = "\n".join(lines)
            column += int(cell.get(f"{{{ns['table']}}}number-columns-repeated", "1")) - 1
        row += int(row_element.get(f"{{{ns['table']}}}number-rows-repeated", "1")) - 1
    return notes


def formats_libreoffice(book, expected, work):
    out = Path(tempfile.mkdtemp(prefix="lo-xlsx-", dir=work))
    profile = Path(tempfile.mkdtemp(prefix="lo-profile-", dir=work)).as_uri()
    rc, _, err = verify.run(["soffice", f"-env:UserInstallation={profile}", "--headless", "--norestore",
                             "--convert-to", "xlsx", "--outdir", str(out), str(book)], TIMEOUT)
    files = list(out.glob("*.xlsx"))
    if rc != 0 or not files:
        raise RuntimeError(f"soffice did not convert to xlsx (exit {rc}): {err[:200]}")
    wanted = {key: expected[key] for key in ("columnWidths", "rowHeights", "styles") if key in expected}
    # LibreOffice keeps widths in 1/100 mm and writes them back as characters of its default
    # font: a width comes back within a quarter character; heights within 1/20 point.
    return check_openpyxl(files[0], wanted, width_tolerance=0.25, height_tolerance=0.05,
                          automatic=(("horizontal", "general"), ("color", "#000000")))


def gnumeric_sheet(book, work):
    out = Path(tempfile.mkdtemp(prefix="gn-", dir=work)) / "book.gnumeric"
    rc, _, err = verify.run(["ssconvert", str(book), str(out)], TIMEOUT)
    if rc != 0 or not out.exists():
        raise RuntimeError(f"ssconvert failed (exit {rc}): {err[:200]}")
    root = ET.fromstring(gzip.open(out).read())
    ns = {"gnm": "http://www.gnumeric.org/v10.dtd"}
    return root.find(".//gnm:Sheet", ns), ns


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: features.py BOOK.xlsx EXPECTED.json")
    book, expected = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text())
    want_notes = {ref: c["text"] for ref, c in expected.get("comments", {}).items()}
    failed = False
    with tempfile.TemporaryDirectory(prefix="sheetport-features-") as work:
        results = []
        results.append(("openpyxl", check_openpyxl(book, expected)))
        try:
            notes = annotations_libreoffice(book, work)
            problems = [] if notes == want_notes else [f"notes {notes} != {want_notes}"]
            results.append(("libreoffice", problems + formats_libreoffice(book, expected, work)))
        except RuntimeError as error:
            results.append(("libreoffice", [str(error)]))
        try:
            sheet, ns = gnumeric_sheet(book, work)
            problems = []
            notes = {c.get("ObjectBound"): c.get("Text") for c in sheet.iter(f"{{{ns['gnm']}}}CellComment")}
            if notes != want_notes:
                problems.append(f"notes {notes} != {want_notes}")
            heights = {str(int(r.get("No")) + 1): float(r.get("Unit")) for r in sheet.iter(f"{{{ns['gnm']}}}RowInfo")}
            for row, height in expected.get("rowHeights", {}).items():
                if abs(heights.get(row, -1) - height) > 0.01:
                    problems.append(f"row {row} height {heights.get(row)}")
            results.append(("gnumeric", problems))
        except RuntimeError as error:
            results.append(("gnumeric", [str(error)]))
    for client, problems in results:
        print(f"{book.name:30} {client:12} " + ("ok" if not problems else "FAIL: " + "; ".join(problems)[:500]))
        failed = failed or bool(problems)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
