#!/usr/bin/env python3
"""Print the first worksheet of an XLSX file as cell JSONL, as seen by one oracle library.

Usage: oracle.py --oracle openpyxl|calamine FILE

Output follows Docs/Reference/Formats.md, "Cell JSONL", restricted to values: one
``{"ref","type","value"}`` object per non-empty cell, rows top to bottom, cells left to
right, ``type`` one of number/string/boolean/error/date.  Formulas are not reported (both
oracles give cached values only).  The name of the chosen sheet and notes about cells the
oracle cannot represent go to stderr as ``# sheet: NAME`` / ``# note: TEXT`` lines.

"First worksheet" is the first sheet of type worksheet in workbook order: chartsheets,
dialog and macro sheets are skipped, hidden sheets count.

Normalisation (see README.md for the per-oracle details):

* numbers  -> JSON numbers (int or float, compared numerically by compare.py)
* strings  -> JSON strings; empty strings are skipped (python-calamine uses '' for "nothing")
* dates    -> ``YYYY-MM-DDTHH:MM:SS.sss``; ``date`` at midnight, ``time`` on 1899-12-30,
  ``timedelta`` as 1899-12-30 plus the delta; sub-millisecond parts rounded to the
  nearest millisecond (both libraries already round serials to whole milliseconds)
* errors   -> openpyxl only (``data_type == 'e'``).  python-calamine turns error cells into
  '' and so cannot report them at all.

The process limits its own address space (``--mem-limit``, default 2 GiB) before touching
the file, so entity or zip bombs fail with MemoryError instead of exhausting the machine;
callers add a wall-clock timeout.  Exit status: 0 on success, 1 when the oracle cannot
read the file (message on stderr).
"""

import argparse
import datetime as dt
import json
import re
import resource
import sys
import warnings

EPOCH_1900 = dt.datetime(1899, 12, 30)


def col_letters(col):
    """Return the column letters for a 1-based column number (1 -> 'A', 28 -> 'AB')."""
    letters = ""
    while col > 0:
        col, rem = divmod(col - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def iso_ms(value):
    """Render a datetime as YYYY-MM-DDTHH:MM:SS.sss, rounding microseconds to milliseconds."""
    ms = (value.microsecond + 500) // 1000
    value = value.replace(microsecond=0) + dt.timedelta(milliseconds=ms)
    return (f"{value.year:04d}-{value.month:02d}-{value.day:02d}T{value.hour:02d}:"
            f"{value.minute:02d}:{value.second:02d}.{value.microsecond // 1000:03d}")


def normalize(value):
    """Map a Python cell value to (type, json_value), or None for "no value".

    Dates that cannot be rendered (outside years 1-9999 after rounding) count as no value.
    """
    try:
        return _normalize(value)
    except OverflowError:
        return None


def _normalize(value):
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "boolean", value
    if isinstance(value, (int, float)):
        return "number", value
    if isinstance(value, str):
        return "string", value
    if isinstance(value, dt.datetime):          # before date: datetime is a date subclass
        return "date", iso_ms(value)
    if isinstance(value, dt.date):
        return "date", iso_ms(dt.datetime.combine(value, dt.time()))
    if isinstance(value, dt.time):
        return "date", iso_ms(dt.datetime.combine(EPOCH_1900.date(), value))
    if isinstance(value, dt.timedelta):
        return "date", iso_ms(EPOCH_1900 + value)
    # Rich text objects (not produced with rich_text=False) and anything unexpected.
    return "string", str(value)


XML_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")


def unescape_xstring(text):
    """Decode OOXML ``_xHHHH_`` escapes (ST_Xstring); ``_x005F_`` is a literal underscore.

    Escaped UTF-16 surrogate pairs are combined; lone surrogates become U+FFFD.
    """
    if "_x" not in text:
        return text
    text = XML_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


WORKSHEET_NAMES = []


def patch_openpyxl():
    """Make openpyxl report what the file contains, not what its object model adds.

    * Merged ranges: openpyxl replaces every non-anchor cell by an empty MergedCell,
      discarding values stored there.  Merged ranges are not bound at all.
    * Hyperlinks: assigning a hyperlink to an empty cell sets its value to the link
      target.  Hyperlinks are not bound at all.
    * ``_xHHHH_`` escapes in shared and inline strings: openpyxl only deletes the text
      ``x005F_`` from shared strings and decodes nothing.  Text content is decoded here
      instead, and shared strings are read without openpyxl's replacement.
    * Sheet kinds: openpyxl loads macro and dialog sheets as worksheets.  Only worksheet
      and chartsheet relationships are loaded; the names of the worksheets in workbook
      order are recorded in WORKSHEET_NAMES (openpyxl silently skips a sheet whose part
      is missing, which read_openpyxl detects with it).
    """
    from openpyxl.cell.text import Text
    from openpyxl.reader import excel
    from openpyxl.reader.workbook import WorkbookParser
    from openpyxl.worksheet._reader import WorksheetReader
    from openpyxl.xml.constants import SHEET_MAIN_NS
    from openpyxl.xml.functions import iterparse

    if getattr(Text, "_value_agreement_patched", False):
        return
    WorksheetReader.bind_merged_cells = lambda self: None
    WorksheetReader.bind_hyperlinks = lambda self: None
    all_sheets = WorkbookParser.find_sheets

    def find_sheets(self):
        for sheet, rel in all_sheets(self):
            if rel.Type.endswith("/worksheet"):
                WORKSHEET_NAMES.append(sheet.name)
            elif not rel.Type.endswith("/chartsheet"):
                continue
            yield sheet, rel

    WorkbookParser.find_sheets = find_sheets
    raw_content = Text.content.fget
    Text.content = property(lambda self: unescape_xstring(raw_content(self)))
    Text._value_agreement_patched = True

    def read_string_table(xml_source):
        strings, tag = [], "{%s}si" % SHEET_MAIN_NS
        for _, node in iterparse(xml_source):
            if node.tag == tag:
                strings.append(Text.from_tree(node).content)
                node.clear()
        return strings

    excel.read_string_table = read_string_table


def read_openpyxl(path, note):
    """Yield (row, col, type, value) for the first worksheet using openpyxl (data_only)."""
    import openpyxl

    patch_openpyxl()
    bad_dates = set()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wb = openpyxl.load_workbook(path, data_only=True)
    for w in caught:
        # openpyxl turns a date-formatted serial outside datetime's range into a fake
        # '#VALUE!' error; those cells are not errors in the file, so drop them.
        m = re.match(r"Cell (\S+) is marked as a date", str(w.message))
        if m:
            bad_dates.add(m.group(1))
    if not wb.worksheets:
        raise ValueError("workbook has no worksheet")
    ws = wb.worksheets[0]
    if ws.title != WORKSHEET_NAMES[0]:
        raise ValueError(f"first worksheet {WORKSHEET_NAMES[0]!r} not loaded (part missing?)")
    note("sheet", ws.title)
    for (row, col), cell in sorted(ws._cells.items()):
        ref = col_letters(col) + str(row)
        if ref in bad_dates:
            note("note", f"{ref}: date serial out of range, openpyxl reports #VALUE!; skipped")
            continue
        if cell.data_type == "e":
            if cell.value not in (None, ""):
                yield row, col, "error", str(cell.value)
            continue
        norm = normalize(cell.value)
        if norm:
            yield (row, col) + norm


def read_calamine(path, note):
    """Yield (row, col, type, value) for the first worksheet using python-calamine."""
    from python_calamine import CalamineWorkbook, SheetTypeEnum

    wb = CalamineWorkbook.from_path(path)
    names = [m.name for m in wb.sheets_metadata if m.typ == SheetTypeEnum.WorkSheet]
    if not names:
        raise ValueError("workbook has no worksheet")
    sheet = wb.get_sheet_by_name(names[0])
    note("sheet", names[0])
    # skip_empty_area=False anchors the grid at A1; older releases anchored it at .start,
    # so add the offset only when the grid is not anchored at A1.
    rows = sheet.to_python(skip_empty_area=False)
    start = sheet.start or (0, 0)
    anchored = sheet.end is None or len(rows) == sheet.end[0] + 1
    r0, c0 = (0, 0) if anchored else start
    for r, values in enumerate(rows):
        for c, value in enumerate(values):
            norm = normalize(value)
            if norm:
                yield (r0 + r + 1, c0 + c + 1) + norm


READERS = {"openpyxl": read_openpyxl, "calamine": read_calamine}


def main(argv=None):
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--oracle", choices=sorted(READERS), default="openpyxl")
    ap.add_argument("--mem-limit", type=int, default=2048,
                    help="address space limit in MiB (0: none)")
    ap.add_argument("file")
    args = ap.parse_args(argv)
    if args.mem_limit:
        limit = args.mem_limit * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    def note(kind, text):
        print(f"# {kind}: {text}", file=sys.stderr)

    try:
        lines = [json.dumps({"ref": col_letters(col) + str(row), "type": typ, "value": value},
                            ensure_ascii=False).encode("utf-8") + b"\n"
                 for row, col, typ, value in sorted(READERS[args.oracle](args.file, note))]
    except (Exception, MemoryError) as exc:  # any failure = the oracle cannot read the file
        print("error: " + " ".join(f"{type(exc).__name__}: {exc}".split())[:500], file=sys.stderr)
        return 1
    sys.stdout.buffer.writelines(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
