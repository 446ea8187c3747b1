#!/usr/bin/env python3
"""Writes a large xlsx for memory and speed measurements, streaming (stdlib only).

Usage: make_large_workbook.py ROWS OUT.xlsx [COLUMNS] [--inline-unique] [--shared-formula-rows]

Each row has numbers, a repeated and a unique string (through a shared-string table, as
Excel writes them; with --inline-unique the unique one is an inline string, so the
shared-string table stays small), a date, a boolean and a formula with a cached value (with
--shared-formula-rows: G and H of each row are a shared-formula group of their own); the
sheet XML is written straight into the zip entry, so memory stays small whatever ROWS is.
"""
import sys
import zipfile

CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>"""
RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"""
WORKBOOK = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>"""
WORKBOOK_RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>"""
STYLES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>"""
REPEATED = ["north", "south", "east", "west", "central"]


def column(index):
    name = ""
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def main():
    inline_unique = "--inline-unique" in sys.argv
    shared_rows = "--shared-formula-rows" in sys.argv
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rows = int(args[0])
    out = args[1]
    columns = int(args[2]) if len(args) > 2 else 10
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as package:
        for name, text in (("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", RELS),
                           ("xl/workbook.xml", WORKBOOK), ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
                           ("xl/styles.xml", STYLES)):
            package.writestr(name, text)
        # Shared strings: the repeated ones first, then one unique string per row.
        with package.open("xl/sharedStrings.xml", "w", force_zip64=True) as part:
            part.write(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                       b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">')
            for text in REPEATED:
                part.write(f"<si><t>{text}</t></si>".encode())
            for row in range(1, rows + 1 if not inline_unique else 1):
                part.write(f"<si><t>item {row:08d}</t></si>".encode())
            part.write(b"</sst>")
        with package.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            part.write(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                       b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                       + f'<dimension ref="A1:{column(columns)}{rows}"/><sheetData>'.encode())
            for row in range(1, rows + 1):
                cells = [
                    f'<c r="A{row}"><v>{row}</v></c>',
                    f'<c r="B{row}"><v>{row * 1.25}</v></c>',
                    f'<c r="C{row}" t="s"><v>{row % len(REPEATED)}</v></c>',
                    (f'<c r="D{row}" t="inlineStr"><is><t>item {row:08d}</t></is></c>' if inline_unique
                     else f'<c r="D{row}" t="s"><v>{len(REPEATED) + row - 1}</v></c>'),
                    f'<c r="E{row}" s="1"><v>{45000 + row % 3000}</v></c>',
                    f'<c r="F{row}" t="b"><v>{row % 2}</v></c>',
                    f'<c r="G{row}"><f>A{row}*2</f><v>{row * 2}</v></c>',
                ]
                if shared_rows:
                    cells[6] = f'<c r="G{row}"><f t="shared" ref="G{row}:H{row}" si="{row - 1}">A{row}*2</f><v>{row * 2}</v></c>'
                    cells.append(f'<c r="H{row}"><f t="shared" si="{row - 1}"/><v>{row * 2.5}</v></c>')
                for extra in range(len(cells) + 1, columns + 1):
                    cells.append(f'<c r="{column(extra)}{row}"><v>{(row * extra) % 9973 / 7}</v></c>')
                part.write(f'<row r="{row}">{"".join(cells[:columns])}</row>'.encode())
            part.write(b"</sheetData></worksheet>")


if __name__ == "__main__":
    main()
