#!/usr/bin/env python3
"""Workbooks for the reader bugs that held-out real workbooks showed (issue 13) and that need
more than an expected JSONL: a sheet that compresses past 100:1, and damaged compressed data.

    python3 Fixtures/heldout/make_heldout.py           # (re)write the files here
    python3 Fixtures/heldout/make_heldout.py --check   # regenerate into a temp dir, compare

Python 3 standard library only, deterministic (fixed PRNG seed, stock zlib at level 9, entries
dated 1980-01-01). The packages are built with Fixtures/make_fixtures.py's helpers.

- high_ratio.xlsx        A worksheet of repeated styled cells (the shape of a real 850 KB workbook
                         whose 57 MB sheet compresses 121:1, scaled down) that inflates about
                         145 times its compressed size, to 3.2 MB. It must read: the expansion
                         ratio alone is no bomb (Apache POI refuses such files).
- crc_damage.xlsx        One byte of the worksheet's deflate data flipped so that zlib inflates to
                         the end without complaint but the text is changed early (the XML breaks
                         there) and the CRC-32 at the end of the entry does not match: it must be
                         reported as corrupt-zip naming xl/worksheets/sheet1.xml, not as
                         malformed-xml.
- inflate_damage.xlsx    The same flip, and a second one near the end where zlib fails with a data
                         error, chunks after the text broke: corrupt-zip as well.
- strings_crc_damage.xlsx  The same CRC damage in xl/sharedStrings.xml (read before the sheet).

The flipped bits are searched for deterministically (the first that give the wanted damage);
the chosen offsets are printed.
"""
import argparse
import io
import os
import random
import sys
import tempfile
import xml.parsers.expat
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import make_fixtures as mf  # noqa: E402

SHEET = "xl/worksheets/sheet1.xml"
STRINGS = "xl/sharedStrings.xml"
FILES = ["high_ratio.xlsx", "crc_damage.xlsx", "inflate_damage.xlsx", "strings_crc_damage.xlsx"]


def styled_styles():
    fills = mf.DEFAULT_FILLS + '<fill><patternFill patternType="solid"><fgColor rgb="FFFFF2CC"/><bgColor indexed="64"/></patternFill></fill>'
    xfs = ['<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
           '<xf numFmtId="4" fontId="0" fillId="2" borderId="0" xfId="0" applyNumberFormat="1" applyFill="1"/>',
           '<xf numFmtId="14" fontId="0" fillId="2" borderId="0" xfId="0" applyNumberFormat="1" applyFill="1"/>']
    return mf.styles(cell_xfs=xfs, fills=(fills,))


def high_ratio_entries():
    """Rows of the same styled blank cells and a dated cell, as an export with formatted blank
    columns writes them: 3.2 MB of XML that deflates about 145:1."""
    rows = ['<row r="%d">%s<c s="2"><v>45322</v></c><c s="1"><v>%d</v></c></row>' % (r, '<c s="1"/>' * 80, r % 7)
            for r in range(1, 3750)]
    return mf.standard_package(mf.worksheet("".join(rows)), styles_xml=styled_styles())


def varied_entries():
    """A sheet of varied numbers and inline text (about 400 KB), and shared strings, so that a
    flipped byte early in the deflate data changes the text long before zlib or the CRC can tell."""
    rng = random.Random(13)
    rows = []
    for r in range(1, 4001):
        rows.append('<row r="%d"><c r="A%d"><v>%d</v></c><c r="B%d" t="s"><v>%d</v></c>'
                    '<c r="C%d" t="inlineStr"><is><t>item %d</t></is></c></row>'
                    % (r, r, rng.randrange(1000), r, r % 200, r, rng.randrange(100)))
    strings = mf.sst(["<t>label %d %s</t>" % (i, "".join(rng.choice("abcd") for _ in range(30))) for i in range(200)])
    return mf.standard_package(mf.worksheet("".join(rows)), sst_xml=strings)


def well_formed_prefix_breaks(text):
    """Whether expat finds an error in `text` (a document cut short is not an error here)."""
    parser = xml.parsers.expat.ParserCreate()
    try:
        parser.Parse(text, False)
        return False
    except xml.parsers.expat.ExpatError:
        return True


def inflate(data):
    """(output, error or None): raw inflate of `data`, output up to the error."""
    inflater = zlib.decompressobj(-15)
    out = bytearray()
    for at in range(0, len(data), 4096):
        try:
            out += inflater.decompress(data[at:at + 4096])
        except zlib.error as error:
            return bytes(out), str(error)
    return bytes(out), None if inflater.eof else "truncated"


def damage(plain, compressed, want):
    """`compressed` with the damage `want`: "crc", one flipped bit after which zlib inflates
    cleanly to text that breaks the XML within the first 64 KiB, the CRC-32 no longer matching;
    "inflate", that flip and a second one in the last quarter of the data where zlib fails, a
    chunk or more after the text broke (zlib mostly fails right where a single flip is). The
    flips are listed as (offset, bit)."""
    flips = []
    for offset in range(200, len(compressed) // 4):
        for bit in (0x01, 0x10, 0x80):
            flipped = bytearray(compressed)
            flipped[offset] ^= bit
            out, error = inflate(bytes(flipped))
            differs = next((i for i, (a, b) in enumerate(zip(out, plain)) if a != b), None)
            if (error is None and differs is not None and differs < 65536
                    and well_formed_prefix_breaks(out[:differs + 2048]) and zlib.crc32(out) != zlib.crc32(plain)):
                flips.append((offset, bit))
                break
        if flips:
            break
    if not flips:
        raise SystemExit("no flip gives CRC damage")
    if want == "inflate":
        for offset in range(len(compressed) * 3 // 4, len(compressed) - 16):
            flipped = bytearray(compressed)
            for at, bit in flips + [(offset, 0x80)]:
                flipped[at] ^= bit
            out, error = inflate(bytes(flipped))
            if error is not None and error != "truncated" and len(out) > 128 << 10:
                flips.append((offset, 0x80))
                break
        if len(flips) < 2:
            raise SystemExit("no flip gives an inflate error")
    damaged = bytearray(compressed)
    for at, bit in flips:
        damaged[at] ^= bit
    return bytes(damaged), flips


def write_package(path, entries, damaged=None, want=None):
    """Writes the package with every entry deflated at level 9; flips one byte of `damaged`'s data."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name in sorted(entries):
            data = entries[name].encode("utf-8") if isinstance(entries[name], str) else entries[name]
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data, compresslevel=9)
    package = bytearray(buffer.getvalue())
    note = ""
    if damaged:
        with zipfile.ZipFile(io.BytesIO(bytes(package))) as z:
            info = z.getinfo(damaged)
        header = info.header_offset
        name_length = int.from_bytes(package[header + 26:header + 28], "little")
        extra_length = int.from_bytes(package[header + 28:header + 30], "little")
        start = header + 30 + name_length + extra_length
        compressed = bytes(package[start:start + info.compress_size])
        plain = entries[damaged].encode("utf-8")
        package[start:start + len(compressed)], flips = damage(plain, compressed, want)
        note = " (%s: deflate data bytes flipped: %s)" % (damaged, ", ".join("%d ^ 0x%02X" % flip for flip in flips))
    with open(path, "wb") as f:
        f.write(package)
    return note


def generate(out):
    os.makedirs(out, exist_ok=True)
    varied = varied_entries()
    notes = [write_package(os.path.join(out, "high_ratio.xlsx"), high_ratio_entries()),
             write_package(os.path.join(out, "crc_damage.xlsx"), varied, SHEET, "crc"),
             write_package(os.path.join(out, "inflate_damage.xlsx"), varied, SHEET, "inflate"),
             write_package(os.path.join(out, "strings_crc_damage.xlsx"), varied, STRINGS, "crc")]
    return [(os.path.join(out, name), note) for name, note in zip(FILES, notes)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="regenerate into a temp dir and compare")
    args = parser.parse_args()
    if not args.check:
        for path, note in generate(HERE):
            print(os.path.relpath(path, os.path.dirname(HERE)) + note)
        return
    with tempfile.TemporaryDirectory() as temporary:
        status = 0
        for path, _ in generate(temporary):
            name = os.path.basename(path)
            with open(path, "rb") as fresh, open(os.path.join(HERE, name), "rb") as committed:
                if fresh.read() != committed.read():
                    print("differs: " + name)
                    status = 1
        print("all %d files identical" % len(FILES) if status == 0 else "")
        sys.exit(status)


if __name__ == "__main__":
    main()
