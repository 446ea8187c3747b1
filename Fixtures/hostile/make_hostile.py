#!/usr/bin/env python3
"""Generate hostile workbooks for `sheetport check`, and optionally check each one.

    python3 Fixtures/hostile/make_hostile.py OUTDIR                      # write them all
    python3 Fixtures/hostile/make_hostile.py OUTDIR --check SHEETPORT    # and run `SHEETPORT check --json`
                                                                         # on each: code, time, peak RSS
    python3 Fixtures/hostile/make_hostile.py OUTDIR --expected           # and print EXPECTED as JSON
    python3 Fixtures/hostile/make_hostile.py --make-real                 # (re)make the two committed files

Python 3 standard library only for the generated files; they are large (a GiB zip bomb inflates
from ~1 MiB) or many-entried, so they are made at test time, never committed. Two are real files
made by real tools and committed beside this script, because those tools may be missing in CI:

  * encrypted.xlsx   -- an openpyxl workbook encrypted with msoffcrypto-tool (password "hostile")
  * legacy_xls.xlsx  -- a BIFF8 .xls saved by LibreOffice (`soffice --convert-to xls`), named .xlsx

`--make-real` remakes them (needs msoffcrypto-tool, openpyxl and soffice).
EXPECTED maps every file to the finding code `check` must give (None: importable).
"""
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>
<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>
</Types>"""
ROOT_RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>
</Relationships>"""
WORKBOOK = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">
<sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>"""
WORKBOOK_RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>
</Relationships>"""
SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
EMPTY_STRINGS = '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>'


def sheet(body, dimension=None, tail=""):
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    return f"{SHEET_HEAD}{dim}<sheetData>{body}</sheetData>{tail}</worksheet>"


def package(path, sheet_xml, strings=EMPTY_STRINGS, extra=(), stored=False, rels=WORKBOOK_RELS):
    """A minimal one-sheet package; `extra` adds (name, bytes) entries after the usual ones;
    `strings=None` leaves the shared-string part out (its relationship then dangles)."""
    mode = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w", mode) as z:
        z.writestr("[Content_Types].xml", CONTENT_TYPES)
        z.writestr("_rels/.rels", ROOT_RELS)
        z.writestr("xl/workbook.xml", WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", rels)
        z.writestr("xl/worksheets/sheet1.xml", sheet_xml)
        if strings is not None:
            z.writestr("xl/sharedStrings.xml", strings)
        for name, data in extra:
            z.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)


def strings_bomb(path, mib=300):
    """The shared-string table inflates to `mib` MiB of 1,000-character items (about 300 KiB compressed)."""
    item = b"<si><t>" + b"a" * 1000 + b"</t></si>"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in [("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", ROOT_RELS),
                           ("xl/workbook.xml", WORKBOOK), ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
                           ("xl/worksheets/sheet1.xml", sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'))]:
            z.writestr(name, data)
        with z.open("xl/sharedStrings.xml", "w") as out:
            out.write(b'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">')
            for _ in range(mib):
                out.write(item * 1024)
            out.write(b"</sst>")


def zip_bomb(path, gib=1):
    """The worksheet part inflates to `gib` GiB of repeated bytes (about 1 MiB compressed)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in [("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", ROOT_RELS),
                           ("xl/workbook.xml", WORKBOOK), ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
                           ("xl/sharedStrings.xml", EMPTY_STRINGS)]:
            z.writestr(name, data)
        info = zipfile.ZipInfo("xl/worksheets/sheet1.xml", (1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with z.open(info, "w", force_zip64=True) as out:
            out.write((SHEET_HEAD + "<sheetData>").encode())
            chunk = b" " * (1 << 24)
            for _ in range(gib << 6):
                out.write(chunk)
            out.write(b"</sheetData></worksheet>")


def billion_laughs():
    lol = '<!ENTITY lol0 "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol%d;" % (i - 1)) * 10}">' for i in range(1, 10))
    return ('<?xml version="1.0"?><!DOCTYPE sst [' + lol + ']>'
            '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&lol9;</t></si></sst>')


def external_entity():
    return ('<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
            '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&xxe;</t></si></sst>')


PLAIN = sheet('<row r="1"><c r="A1"><v>1</v></c></row>')


def make_all(out):
    """Writes every generated file into `out`; returns their names."""
    os.makedirs(out, exist_ok=True)
    p = lambda name: os.path.join(out, name)
    zip_bomb(p("zip_bomb.xlsx"))
    package(p("billion_laughs.xlsx"), PLAIN, strings=billion_laughs())
    package(p("external_entity.xlsx"), PLAIN, strings=external_entity())
    package(p("dotdot_entry.xlsx"), PLAIN, extra=[("../../evil.sh", b"echo owned")])
    package(p("absolute_entry.xlsx"), PLAIN, extra=[("/etc/evil.conf", b"owned")])
    with_duplicate = p("duplicate_entry.xlsx")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate name: that is the point
        package(with_duplicate, PLAIN, extra=[("xl/worksheets/sheet1.xml", sheet('<row r="1"><c r="A1"><v>2</v></c></row>').encode())])
    good = io.BytesIO()
    package(good, PLAIN)
    data = good.getvalue()
    with open(p("truncated.xlsx"), "wb") as f:
        f.write(data[: len(data) // 2])
    # A flipped byte in a STORED entry's data: the CRC no longer matches.
    stored = io.BytesIO()
    package(stored, sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>checksum me</t></is></c></row>'), stored=True)
    flipped = bytearray(stored.getvalue())
    at = flipped.index(b"checksum me")
    flipped[at] ^= 0x20
    with open(p("crc_flip.xlsx"), "wb") as f:
        f.write(bytes(flipped))
    with zipfile.ZipFile(p("many_entries.xlsx"), "w", zipfile.ZIP_STORED) as z:
        for name, text in [("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", ROOT_RELS), ("xl/workbook.xml", WORKBOOK),
                           ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS), ("xl/worksheets/sheet1.xml", PLAIN),
                           ("xl/sharedStrings.xml", EMPTY_STRINGS)]:
            z.writestr(name, text)
        for i in range(20_000):
            z.writestr(f"xl/media/pad{i}.bin", b"")
    package(p("xfd_whole_grid.xlsx"), sheet('<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>', dimension="A1:XFD1048576"))
    package(p("row_past_grid.xlsx"), sheet('<row r="1048577"><c r="A1048577"><v>1</v></c></row>'))
    package(p("column_past_grid.xlsx"), sheet('<row r="1"><c r="XFE1"><v>1</v></c></row>'))
    long_text = "x" * 40_000
    package(p("long_text.xlsx"), sheet(f'<row r="1"><c r="A1" t="inlineStr"><is><t>{long_text}</t></is></c></row>'))
    package(p("long_shared_text.xlsx"), sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'),
            strings=f'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>{long_text}</t></si></sst>')
    merges = "".join(f'<mergeCell ref="A{2 * i + 1}:B{2 * i + 2}"/>' for i in range(20_000))
    package(p("merged_20000.xlsx"), sheet('<row r="1"><c r="A1"><v>1</v></c></row>', tail=f'<mergeCells count="20000">{merges}</mergeCells>'))
    # A shared-string table that inflates to 300 MiB of text at about 1,000:1: refused by the
    # expansion ratio once past 256 MiB (12 MiB of distinct text, as honest exports hold, reads).
    strings_bomb(p("text_bomb.xlsx"))
    # Dangling relationships: to a part the import reads (the cells' text) and to one it does not.
    package(p("dangling_shared_strings.xlsx"), sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>'), strings=None)
    theme = ('<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme" '
             'Target="theme/theme1.xml"/>\n</Relationships>')
    package(p("dangling_theme.xlsx"), PLAIN, rels=WORKBOOK_RELS.replace("</Relationships>", theme))
    with open(p("not_a_zip.xlsx"), "w") as f:
        f.write("name,value\nthis is CSV,1\n")
    open(p("empty.xlsx"), "wb").close()
    for real in ("encrypted.xlsx", "legacy_xls.xlsx"):
        shutil.copy(os.path.join(HERE, real), p(real))
    return sorted(EXPECTED)


EXPECTED = {
    "zip_bomb.xlsx": "zip-bomb",
    "billion_laughs.xlsx": "forbidden-dtd",
    "external_entity.xlsx": "forbidden-dtd",
    "dotdot_entry.xlsx": "unsafe-zip-entry",
    "absolute_entry.xlsx": "unsafe-zip-entry",
    "duplicate_entry.xlsx": "unsafe-zip-entry",
    "truncated.xlsx": "corrupt-zip",
    "crc_flip.xlsx": "corrupt-zip",
    "many_entries.xlsx": "zip-bomb",
    "xfd_whole_grid.xlsx": "exceeds-limit",
    "row_past_grid.xlsx": "exceeds-limit",
    "column_past_grid.xlsx": "exceeds-limit",
    "long_text.xlsx": "exceeds-limit",
    "long_shared_text.xlsx": "exceeds-limit",
    "merged_20000.xlsx": None,
    "dangling_shared_strings.xlsx": "missing-part",
    "dangling_theme.xlsx": None,
    "text_bomb.xlsx": "zip-bomb",
    "not_a_zip.xlsx": "not-a-zip",
    "empty.xlsx": "not-a-zip",
    "encrypted.xlsx": "encrypted-workbook",
    "legacy_xls.xlsx": "legacy-xls",
}


def check(out, sheetport):
    """Runs `sheetport check --json` on each file; prints code, seconds and peak RSS; exit 1 on a mismatch."""
    failures = 0
    print(f"{'file':24} {'expected':20} {'got':20} {'seconds':>8} {'peak RSS MB':>12}")
    for name in sorted(EXPECTED):
        started = time.monotonic()
        with tempfile.NamedTemporaryFile() as rss_file:
            # /usr/bin/time measures the child alone (a forked Python child would count Python's pages).
            command = [sheetport, "check", "--json", os.path.join(out, name)]
            if os.path.exists("/usr/bin/time"):
                command = ["/usr/bin/time", "-f", "%M", "-o", rss_file.name] + command
            result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60)
            stdout = result.stdout
            measured = open(rss_file.name).read().split()
            rss = int(measured[-1]) / 1024 if measured else float("nan")
        seconds = time.monotonic() - started
        report = json.loads(stdout)
        errors = [f["code"] for f in report["findings"] if f["severity"] == "error"]
        got = errors[0] if errors else None
        ok = got == EXPECTED[name] and seconds < 10
        failures += not ok
        print(f"{name:24} {str(EXPECTED[name]):20} {str(got):20} {seconds:8.2f} {rss:12.1f} {'' if ok else 'FAIL'}")
    return failures


def make_real():
    """Remakes the committed encrypted.xlsx and legacy_xls.xlsx with msoffcrypto-tool, openpyxl and soffice."""
    import msoffcrypto
    import openpyxl
    with tempfile.TemporaryDirectory() as tmp:
        book = openpyxl.Workbook()
        book.active.title = "Secret"
        book.active["A1"] = "hostile"
        plain = os.path.join(tmp, "plain.xlsx")
        book.save(plain)
        with open(plain, "rb") as source, open(os.path.join(HERE, "encrypted.xlsx"), "wb") as target:
            office = msoffcrypto.OfficeFile(source)
            office.encrypt("hostile", target)
        subprocess.run(["soffice", "--headless", "--convert-to", "xls", "--outdir", tmp, plain], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.copy(os.path.join(tmp, "plain.xls"), os.path.join(HERE, "legacy_xls.xlsx"))


if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["--make-real"]:
        make_real()
        sys.exit(0)
    if not args:
        sys.exit(__doc__)
    make_all(args[0])
    if len(args) == 2 and args[1] == "--expected":
        print(json.dumps(EXPECTED))
    if len(args) == 3 and args[1] == "--check":
        sys.exit(1 if check(args[0], args[2]) else 0)
