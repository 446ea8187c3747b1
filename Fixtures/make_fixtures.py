#!/usr/bin/env python3
"""Generate the hand-crafted reader fixtures in Fixtures/reader/.

    python3 Fixtures/make_fixtures.py            # (re)write every fixture
    python3 Fixtures/make_fixtures.py --check    # regenerate into a temp dir, compare byte for byte

Python 3 standard library only. Output is deterministic: zip entries are sorted by name, every
entry has the timestamp 1980-01-01 00:00:00, fixed permissions, and DEFLATE level 6 (except
root_workbook, which deliberately uses STORED entries). Byte identity of the DEFLATE streams
assumes the stock zlib (a zlib-ng build may compress differently; the entry contents would
still be identical, which --check reports separately).

Every fixture is a minimal OOXML package built from literal XML below. Next to each package the
script writes <name>.expected.jsonl: exactly what `sheetport convert <name>.xlsx --to jsonl` must
print (Docs/Reference/Formats.md, "Cell JSONL"). The expected rows are written BY HAND in this file, next to the
XML they describe; nothing here reads the packages back. The only code between the hand-written
rows and the .jsonl files is the JSON serialiser `jsonl_line` below:

  * keys in the order ref, type, value[, formula]; separators "," and ":" with no spaces;
  * numbers: an integral double is written without a fraction (3, not 3.0; 1500 for "1.5E+3");
    any other double in shortest round-trip form exactly as Python's repr() prints it
    (0.30000000000000004, 1e-05, 3.010299956639812);
  * strings: JSON-escaped like json.dumps(..., ensure_ascii=False): '"' and '\\' escaped,
    control characters as \\n \\r \\t \\b \\f or \\u00XX (lowercase hex), "/" NOT escaped,
    everything else (all non-ASCII) written raw as UTF-8;
  * one object per line, each line ending in "\\n" (also the last one).

Decisions the Swift reader must follow (also listed in reader/README.md):

  * 1900 date system: serial < 1 is a time on 1899-12-30 (0.5 -> 1899-12-30T12:00:00.000);
    1 <= serial < 60 is 1899-12-31 + serial days (1 -> 1900-01-01, 59 -> 1900-02-28);
    serial 60, Excel's phantom 1900-02-29, is rendered 1900-02-28T00:00:00.000 exactly as
    openpyxl's from_excel does (it adds the extra day only for 0 < serial < 60, and 60 falls
    through to 1899-12-30 + 60 days = 1900-02-28); serial >= 61 is 1899-12-30 + serial days
    (61 -> 1900-03-01).
  * 1904 date system: 1904-01-01 + serial days, serials below 1 included: day 0 is a real
    date there, which Excel shows (0 -> 1904-01-01T00:00:00.000, 0.5 ->
    1904-01-01T12:00:00.000). The "time with no date part on 1899-12-30" rule is the 1900
    system's, whose day 0 ("1900-01-00") is no date. openpyxl and calamine give a bare time
    for serials below 1 in both systems (Tests/ValueAgreement/known-differences.tsv).
  * Time of day is rounded to the nearest millisecond; a carry moves to the next day
    (45322.999999999 -> 2024-02-01T00:00:00.000).
  * Elapsed-time formats ([h]:mm:ss) show a duration, not a point in time: such cells are
    dates counted from 1899-12-30 with no calendar correction in either date system, as
    openpyxl's and calamine's timedelta read (1.25 -> 1899-12-31T06:00:00.000).
  * A cell whose only value is an empty string (an empty shared or inline string) shows
    nothing and is not written, like a cell with no value; a t="str" formula whose cached
    <v></v> is empty is a string cell with value "" (the formula makes it a cell); a t="n"
    cell with an empty <v/> has no value (not written, or "empty"/null with a formula).
  * _xHHHH_ escapes are decoded in every <t> of shared and inline strings, hex digits in
    either case, one left-to-right pass (so _x005F_x0041_ is the literal text "_x0041_");
    anything not matching _x[0-9A-Fa-f]{4}_ is kept as is.
  * --sheet N is the 1-based position among ALL <sheet> entries of workbook.xml (chartsheets
    included); in multi_sheet, --sheet 3 and --sheet Data are the same worksheet.
  * Theme colour indices follow Excel, not the order of theme1.xml: 0 = lt1, 1 = dk1,
    2 = lt2, 3 = dk2, 4..9 = accent1..6, 10 = hlink, 11 = folHlink. Tint: HLS lightness
    L' = L * (1 + tint) for tint < 0, L' = L * (1 - tint) + tint for tint > 0, computed in
    floating point, channels rounded to the nearest integer at the end. The alpha byte of an
    ARGB colour is ignored ("00FF0000" is #FF0000).
"""

import argparse
import json
import os
import sys
import tempfile
import xml.dom.minidom
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "reader")

# --------------------------------------------------------------------------- namespaces

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

STRICT_MAIN = "http://purl.oclc.org/ooxml/spreadsheetml/main"
STRICT_R_NS = "http://purl.oclc.org/ooxml/officeDocument/relationships"
STRICT_RT = "http://purl.oclc.org/ooxml/officeDocument/relationships/"

CT_WORKBOOK = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
CT_WORKSHEET = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
CT_CHARTSHEET = "application/vnd.openxmlformats-officedocument.spreadsheetml.chartsheet+xml"
CT_STYLES = "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"
CT_SST = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
CT_THEME = "application/vnd.openxmlformats-officedocument.theme+xml"
CT_COMMENTS = "application/vnd.openxmlformats-officedocument.spreadsheetml.comments+xml"
CT_VML = "application/vnd.openxmlformats-officedocument.vmlDrawing"
CT_DRAWING = "application/vnd.openxmlformats-officedocument.drawing+xml"
CT_CHART = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
CT_RELS = "application/vnd.openxmlformats-package.relationships+xml"

DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

# --------------------------------------------------------------------------- small builders


def content_types(overrides, defaults=(("rels", CT_RELS), ("xml", "application/xml"))):
    parts = [DECL, '<Types xmlns="%s">' % CT_NS]
    for ext, ctype in defaults:
        parts.append('<Default Extension="%s" ContentType="%s"/>' % (ext, ctype))
    for name, ctype in overrides:
        parts.append('<Override PartName="%s" ContentType="%s"/>' % (name, ctype))
    parts.append("</Types>")
    return "".join(parts)


def relationships(rels):
    """rels: (id, type, target) or (id, type, target, "External")."""
    parts = [DECL, '<Relationships xmlns="%s">' % PKG_RELS]
    for rel in rels:
        extra = ' TargetMode="External"' if len(rel) > 3 else ""
        parts.append('<Relationship Id="%s" Type="%s" Target="%s"%s/>'
                     % (rel[0], rel[1], xml_attr(rel[2]), extra))
    parts.append("</Relationships>")
    return "".join(parts)


def xml_attr(s):
    return s.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def workbook(sheets, pr='<workbookPr/>', main=MAIN, r_ns=R_NS, extra_attrs=""):
    """sheets: (name, sheetId, rId[, state])."""
    out = [DECL, '<workbook xmlns="%s" xmlns:r="%s"%s>' % (main, r_ns, extra_attrs), pr,
           '<bookViews><workbookView/></bookViews><sheets>']
    for s in sheets:
        state = ' state="%s"' % s[3] if len(s) > 3 else ""
        out.append('<sheet name="%s" sheetId="%d"%s r:id="%s"/>' % (xml_attr(s[0]), s[1], state, s[2]))
    out.append("</sheets></workbook>")
    return "".join(out)


def worksheet(sheet_data, before="", after="", main=MAIN, r_ns=R_NS, dimension=None):
    dim = '<dimension ref="%s"/>' % dimension if dimension else ""
    return (DECL + '<worksheet xmlns="%s" xmlns:r="%s">' % (main, r_ns) + dim + before
            + "<sheetData>" + sheet_data + "</sheetData>" + after + "</worksheet>")


def sst(items, main=MAIN, count=None):
    """items: the inner XML of each <si>."""
    return (DECL + '<sst xmlns="%s" count="%d" uniqueCount="%d">' % (main, count or len(items), len(items))
            + "".join("<si>%s</si>" % i for i in items) + "</sst>")


DEFAULT_FONT = '<font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
DEFAULT_FILLS = '<fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>'


def styles(cell_xfs=('<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',),
           num_fmts=(), fonts=(DEFAULT_FONT,), fills=(DEFAULT_FILLS,), main=MAIN):
    """num_fmts: (id, formatCode) with the code as plain text (escaped here)."""
    out = [DECL, '<styleSheet xmlns="%s">' % main]
    if num_fmts:
        out.append('<numFmts count="%d">' % len(num_fmts))
        for fid, code in num_fmts:
            out.append('<numFmt numFmtId="%d" formatCode="%s"/>' % (fid, xml_attr(code)))
        out.append("</numFmts>")
    fills_xml = "".join(fills)
    out.append('<fonts count="%d">%s</fonts>' % (len(fonts), "".join(fonts)))
    out.append('<fills count="%d">%s</fills>' % (fills_xml.count("<fill>"), fills_xml))
    out.append('<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>')
    out.append('<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>')
    out.append('<cellXfs count="%d">%s</cellXfs>' % (len(cell_xfs), "".join(cell_xfs)))
    out.append('<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>')
    out.append("</styleSheet>")
    return "".join(out)


def standard_package(sheet_xml, sst_xml=None, styles_xml=None, workbook_xml=None,
                     extra_parts=(), extra_wb_rels=(), extra_overrides=(), extra_defaults=()):
    """The usual Excel layout: xl/workbook.xml, xl/worksheets/sheet1.xml, ..."""
    overrides = [("/xl/workbook.xml", CT_WORKBOOK), ("/xl/worksheets/sheet1.xml", CT_WORKSHEET)]
    wb_rels = [("rId1", RT + "worksheet", "worksheets/sheet1.xml")]
    entries = {"xl/worksheets/sheet1.xml": sheet_xml}
    if styles_xml is not None:
        overrides.append(("/xl/styles.xml", CT_STYLES))
        wb_rels.append(("rId2", RT + "styles", "styles.xml"))
        entries["xl/styles.xml"] = styles_xml
    if sst_xml is not None:
        overrides.append(("/xl/sharedStrings.xml", CT_SST))
        wb_rels.append(("rId3", RT + "sharedStrings", "sharedStrings.xml"))
        entries["xl/sharedStrings.xml"] = sst_xml
    overrides.extend(extra_overrides)
    wb_rels.extend(extra_wb_rels)
    entries.update(dict(extra_parts))
    defaults = [("rels", CT_RELS), ("xml", "application/xml")] + list(extra_defaults)
    entries["[Content_Types].xml"] = content_types(sorted(overrides), defaults)
    entries["_rels/.rels"] = relationships([("rId1", RT + "officeDocument", "xl/workbook.xml")])
    entries["xl/workbook.xml"] = workbook_xml or workbook([("Sheet1", 1, "rId1")])
    entries["xl/_rels/workbook.xml.rels"] = relationships(wb_rels)
    return entries


# --------------------------------------------------------------------------- expected output


class E:
    """One expected JSONL object, written by hand."""

    def __init__(self, ref, type_, value, formula=None):
        self.ref, self.type, self.value, self.formula = ref, type_, value, formula


def json_number(x):
    if isinstance(x, bool):
        raise TypeError("bool is not a number")
    if isinstance(x, int):
        return str(x)
    if x != x or x in (float("inf"), float("-inf")):
        raise ValueError("not representable in JSON")
    if x.is_integer():
        return str(int(x))
    return repr(x)


def json_value(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return json_number(v)
    return json.dumps(v, ensure_ascii=False)


def jsonl_line(e):
    s = '{"ref":%s,"type":%s,"value":%s' % (json.dumps(e.ref), json.dumps(e.type), json_value(e.value))
    if e.formula is not None:
        s += ',"formula":%s' % json.dumps(e.formula, ensure_ascii=False)
    return s + "}\n"


def jsonl(rows):
    return "".join(jsonl_line(e) for e in rows)


def N(ref, v, f=None):
    return E(ref, "number", v, f)


def S(ref, v, f=None):
    return E(ref, "string", v, f)


def B(ref, v, f=None):
    return E(ref, "boolean", v, f)


def ERR(ref, v, f=None):
    return E(ref, "error", v, f)


def D(ref, v, f=None):
    return E(ref, "date", v, f)


def EMPTY(ref, f):
    return E(ref, "empty", None, f)


def inline(ref, text, attrs=""):
    """An inline string cell; `text` is already XML (escape it yourself)."""
    return '<c r="%s" t="inlineStr"%s><is><t>%s</t></is></c>' % (ref, attrs, text)


# =========================================================================== fixtures
# Each function returns (entries, outputs): entries maps zip entry name -> str|bytes,
# outputs maps an extra file name in reader/ -> text (the .expected.jsonl etc.).

FIXTURES = []


def fixture(fn):
    FIXTURES.append(fn)
    return fn


# --------------------------------------------------------------------------- shared_strings_rich

@fixture
def shared_strings_rich():
    items = [
        # 0: rich text runs, joined; run properties ignored.
        '<r><rPr><b/><sz val="11"/><color rgb="FFFF0000"/><rFont val="Calibri"/><family val="2"/></rPr>'
        '<t>Bold</t></r><r><rPr><sz val="11"/><rFont val="Calibri"/><family val="2"/></rPr>'
        '<t xml:space="preserve"> and plain</t></r>',
        # 1: phonetic run (furigana) and phoneticPr must be skipped.
        '<t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1" type="noConversion"/>',
        # 2: leading/trailing spaces kept.
        '<t xml:space="preserve">  padded  </t>',
        # 3: the empty string.
        '<t/>',
        # 4: non-ASCII, including a character outside the BMP.
        '<t>naïve café – Ærøskøbing – Ελληνικά – 日本語 – 🎉</t>',
        # 5: XML entities and characters JSON must escape.
        '<t>&lt;tag&gt; &amp; "quoted" \\back\\slash\\ \'apos\'</t>',
        # 6: rich runs with a literal line feed and a phonetic run after them.
        '<r><t>line one</t></r><r><rPr><i/></rPr><t xml:space="preserve">\nline two</t></r>'
        '<rPh sb="0" eb="4"><t>ignored</t></rPh>',
        # 7: a run that is a single space.
        '<r><t xml:space="preserve"> </t></r>',
    ]
    sheet = worksheet(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
        '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>3</v></c></row>'
        '<row r="3"><c r="A3" t="s"><v>4</v></c><c r="B3" t="s"><v>5</v></c></row>'
        '<row r="4"><c r="A4" t="s"><v>6</v></c><c r="B4" t="s"><v>7</v></c><c r="C4" t="s"><v>0</v></c></row>')
    expected = [
        S("A1", "Bold and plain"),
        S("B1", "東京"),
        S("A2", "  padded  "),
        # B2 is the empty shared string: a cell that shows nothing is not written.
        S("A3", "naïve café – Ærøskøbing – Ελληνικά – 日本語 – 🎉"),
        S("B3", "<tag> & \"quoted\" \\back\\slash\\ 'apos'"),
        S("A4", "line one\nline two"),
        S("B4", " "),
        S("C4", "Bold and plain"),
    ]
    return standard_package(sheet, sst_xml=sst(items, count=9)), {"expected": jsonl(expected)}


# --------------------------------------------------------------------------- xhhhh_escapes

@fixture
def xhhhh_escapes():
    items = [
        "<t>a_x000D_b</t>",                       # 0: CR
        "<t>tab_x0009_here</t>",                  # 1: TAB
        "<t>_x005F_x0041_</t>",                   # 2: escaped underscore -> literal "_x0041_"
        "<t>low_x000a_case</t>",                  # 3: lowercase hex -> LF
        "<t>_x00G1_ _x41_ _x0041 x0041_</t>",     # 4: none of these is an escape: kept as is
        "<t>_x0041__x0042_</t>",                  # 5: two adjacent escapes -> "AB"
        "<r><t>x_x0009_</t></r><r><rPr><b/></rPr><t>_x0041_y</t></r>",  # 6: escapes inside runs
        "<t>CRLF_x000D__x000A_end</t>",           # 7: CR LF pair
    ]
    sheet = worksheet(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c>'
        '<c r="D1" t="s"><v>3</v></c></row>'
        '<row r="2"><c r="A2" t="s"><v>4</v></c><c r="B2" t="s"><v>5</v></c><c r="C2" t="s"><v>6</v></c>'
        '<c r="D2" t="s"><v>7</v></c></row>'
        # the same in inline strings
        '<row r="3">' + inline("A3", "a_x000D_b") + inline("B3", "tab_x0009_here")
        + inline("C3", "_x005F_x0041_") + inline("D3", "low_x000a_case") + '</row>'
        '<row r="4">' + inline("A4", "_x00G1_ _x41_ _x0041 x0041_") + inline("B4", "_x0041__x0042_")
        + '<c r="C4" t="inlineStr"><is><r><t>x_x0009_</t></r><r><rPr><b/></rPr><t>_x0041_y</t></r></is></c>'
        + inline("D4", "CRLF_x000D__x000A_end") + '</row>')
    expected = [
        S("A1", "a\rb"), S("B1", "tab\there"), S("C1", "_x0041_"), S("D1", "low\ncase"),
        S("A2", "_x00G1_ _x41_ _x0041 x0041_"), S("B2", "AB"), S("C2", "x\tAy"), S("D2", "CRLF\r\nend"),
        S("A3", "a\rb"), S("B3", "tab\there"), S("C3", "_x0041_"), S("D3", "low\ncase"),
        S("A4", "_x00G1_ _x41_ _x0041 x0041_"), S("B4", "AB"), S("C4", "x\tAy"), S("D4", "CRLF\r\nend"),
    ]
    return standard_package(sheet, sst_xml=sst(items)), {"expected": jsonl(expected)}


# --------------------------------------------------------------------------- cell_types

@fixture
def cell_types():
    sheet = worksheet(
        '<row r="1">'
        '<c r="A1"><v>42</v></c>'
        '<c r="B1"><v>1.5</v></c>'
        '<c r="C1"><v>-7.25</v></c>'
        '<c r="D1"><v>1E-5</v></c>'
        '<c r="E1"><v>0.30000000000000004</v></c>'
        '<c r="F1"><v>1.5E+3</v></c>'
        '<c r="G1" t="n"><v>3.0</v></c>'
        '<c r="H1"><v>0.1</v></c>'
        '<c r="I1"><f>A1*2</f><v>84</v></c>'
        '</row>'
        '<row r="2">'
        '<c r="A2" t="s"><v>0</v></c>'
        '<c r="B2" t="str"><f>CONCATENATE("a","b")</f><v>ab</v></c>'
        '<c r="C2" t="inlineStr"><is><r><t>inl</t></r><r><rPr><i/></rPr><t>ine</t></r></is></c>'
        '<c r="D2" t="inlineStr"><is><t>plain inline</t></is></c>'
        '<c r="E2" t="str"><f>IF(A1&gt;0,"yes","no")</f><v>yes</v></c>'
        '</row>'
        '<row r="3">'
        '<c r="A3" t="b"><v>0</v></c>'
        '<c r="B3" t="b"><v>1</v></c>'
        '<c r="C3" t="b"><f>1=1</f><v>1</v></c>'
        '</row>'
        '<row r="4">'
        '<c r="A4" t="e"><f>1/0</f><v>#DIV/0!</v></c>'
        '<c r="B4" t="e"><v>#N/A</v></c>'
        '<c r="C4" t="e"><v>#REF!</v></c>'
        '</row>'
        '<row r="5">'
        '<c r="A5" t="d"><v>2024-01-31T13:45:00</v></c>'
        '<c r="B5" t="d"><v>2024-01-31</v></c>'
        '<c r="C5" t="d"><v>2024-02-29T23:59:59.250</v></c>'
        '</row>'
        '<row r="6">'
        '<c r="A6" s="1"/>'                                   # style only: not written
        '<c r="B6"><f>NOW()</f></c>'                          # no cached value
        '<c r="C6" t="n"><v/></c>'                            # empty <v/>: no value, not written
        '<c r="D6"><f>A1+1</f><v/></c>'                       # formula, empty <v/>: no cached value
        '<c r="E6" t="str"><f>""</f><v></v></c>'              # formula whose cached result is ""
        '</row>')
    st = styles(cell_xfs=(
        '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
        '<xf numFmtId="0" fontId="0" fillId="2" borderId="0" xfId="0" applyFill="1"/>'),
        fills=(DEFAULT_FILLS, '<fill><patternFill patternType="solid"><fgColor rgb="FFFFFF00"/>'
               '<bgColor indexed="64"/></patternFill></fill>'))
    expected = [
        N("A1", 42), N("B1", 1.5), N("C1", -7.25), N("D1", 1e-05), N("E1", 0.30000000000000004),
        N("F1", 1500), N("G1", 3), N("H1", 0.1), N("I1", 84, "A1*2"),
        S("A2", "shared text"), S("B2", "ab", 'CONCATENATE("a","b")'), S("C2", "inline"),
        S("D2", "plain inline"), S("E2", "yes", 'IF(A1>0,"yes","no")'),
        B("A3", False), B("B3", True), B("C3", True, "1=1"),
        ERR("A4", "#DIV/0!", "1/0"), ERR("B4", "#N/A"), ERR("C4", "#REF!"),
        D("A5", "2024-01-31T13:45:00.000"), D("B5", "2024-01-31T00:00:00.000"),
        D("C5", "2024-02-29T23:59:59.250"),
        EMPTY("B6", "NOW()"), EMPTY("D6", "A1+1"), S("E6", "", '""'),
    ]
    return (standard_package(sheet, sst_xml=sst(["<t>shared text</t>"]), styles_xml=st),
            {"expected": jsonl(expected)})


# --------------------------------------------------------------------------- no_cell_refs

@fixture
def no_cell_refs():
    sheet = worksheet(
        # row 1 (no r): A1, B1, then an explicit D1, then E1
        '<row><c><v>1</v></c><c><v>2</v></c><c r="D1"><v>4</v></c><c><v>5</v></c></row>'
        # row 2 (no r): A2, an empty <c/> that still takes column B, then C2
        '<row><c t="inlineStr"><is><t>a</t></is></c><c/><c><v>3</v></c></row>'
        # row 5 (explicit): A5, explicit C5
        '<row r="5"><c><v>6</v></c><c r="C5"><v>7</v></c></row>'
        # row 6 (no r, continues after 5): explicit B6, then C6
        '<row><c r="B6"><v>8</v></c><c><v>9</v></c></row>'
        # row 7 (no r): empty, but it still counts
        '<row/>'
        # row 8 (no r)
        '<row><c><v>10</v></c></row>')
    expected = [
        N("A1", 1), N("B1", 2), N("D1", 4), N("E1", 5),
        S("A2", "a"), N("C2", 3),
        N("A5", 6), N("C5", 7),
        N("B6", 8), N("C6", 9),
        N("A8", 10),
    ]
    return standard_package(sheet), {"expected": jsonl(expected)}


# --------------------------------------------------------------------------- shared_formulas

@fixture
def shared_formulas():
    # Translation rule (Excel): a dependent's formula is the master's text with every relative
    # row/column part moved by (dependent - master); $-anchored parts, string literals, function
    # names (LOG10 is a valid-looking cell reference but is followed by "("), sheet names and
    # whole-column / whole-row parts that are absolute stay put. References to other sheets move
    # like any other reference.
    sheet1 = worksheet(
        '<row r="1">'
        '<c r="A1"><v>1</v></c>'
        '<c r="B1"><f t="shared" ref="B1:B5" si="0">A1*2</f><v>2</v></c>'
        '<c r="C1"><f t="shared" ref="C1:C3" si="1">$A1+A$1+$A$1+SUM(A1:A3)</f><v>9</v></c>'
        '<c r="D1"><f t="shared" ref="D1:D3" si="2">Sheet2!A1+\'My Sheet\'!B$2+SUM(Sheet2!A1:A2)</f><v>405</v></c>'
        '<c r="E1" t="str"><f t="shared" ref="E1:E2" si="3">IF(A1&gt;0,"A1"&amp;A1,"B$2")</f><v>A11</v></c>'
        '<c r="F1"><f t="shared" ref="F1:F2" si="4">LOG10(A1)*10</f><v>0</v></c>'
        '</row>'
        '<row r="2">'
        '<c r="A2"><v>2</v></c>'
        '<c r="B2"><f t="shared" si="0"/><v>4</v></c>'
        '<c r="C2"><f t="shared" si="1"/><v>13</v></c>'
        '<c r="D2"><f t="shared" si="2"/><v>705</v></c>'
        '<c r="E2" t="str"><f t="shared" si="3"/><v>A12</v></c>'
        '<c r="F2"><f t="shared" si="4"/><v>3.010299956639812</v></c>'
        '</row>'
        '<row r="3">'
        '<c r="A3"><v>3</v></c>'
        '<c r="B3"><f t="shared" si="0"/><v>6</v></c>'
        '<c r="C3"><f t="shared" si="1"/><v>17</v></c>'
        '<c r="D3"><f t="shared" si="2"/><v>605</v></c>'
        '</row>'
        '<row r="4"><c r="A4"><v>4</v></c><c r="B4"><f t="shared" si="0"/><v>8</v></c></row>'
        '<row r="5"><c r="A5"><v>5</v></c><c r="B5"><f t="shared" si="0"/><v>10</v></c></row>'
        '<row r="7"><c r="A7"><v>10</v></c><c r="B7"><v>20</v></c><c r="C7"><v>30</v></c></row>'
        '<row r="8">'
        '<c r="A8"><f t="shared" ref="A8:C8" si="5">A7+$A7+A$7</f><v>30</v></c>'
        '<c r="B8"><f t="shared" si="5"/><v>50</v></c>'
        '<c r="C8"><f t="shared" si="5"/><v>70</v></c>'
        '</row>'
        '<row r="10">'
        '<c r="G10"><f t="shared" ref="G10:H11" si="6">SUM(A:A)+SUM(7:7)+SUM($A:$A)</f><v>170</v></c>'
        '<c r="H10"><f t="shared" si="6"/><v>215</v></c>'
        '</row>'
        '<row r="11">'
        '<c r="G11"><f t="shared" si="6"/><v>260</v></c>'
        '<c r="H11"><f t="shared" si="6"/><v>305</v></c>'
        '</row>')
    sheet2 = worksheet('<row r="1"><c r="A1"><v>100</v></c></row><row r="2"><c r="A2"><v>200</v></c></row>'
                       '<row r="3"><c r="A3"><v>300</v></c></row>')
    sheet3 = worksheet('<row r="2"><c r="B2"><v>5</v></c></row>')
    entries = standard_package(
        sheet1,
        workbook_xml=workbook([("Sheet1", 1, "rId1"), ("Sheet2", 2, "rId4"), ("My Sheet", 3, "rId5")]),
        extra_parts=[("xl/worksheets/sheet2.xml", sheet2), ("xl/worksheets/sheet3.xml", sheet3)],
        extra_wb_rels=[("rId4", RT + "worksheet", "worksheets/sheet2.xml"),
                       ("rId5", RT + "worksheet", "worksheets/sheet3.xml")],
        extra_overrides=[("/xl/worksheets/sheet2.xml", CT_WORKSHEET), ("/xl/worksheets/sheet3.xml", CT_WORKSHEET)])
    expected = [
        N("A1", 1),
        N("B1", 2, "A1*2"),
        N("C1", 9, "$A1+A$1+$A$1+SUM(A1:A3)"),
        N("D1", 405, "Sheet2!A1+'My Sheet'!B$2+SUM(Sheet2!A1:A2)"),
        S("E1", "A11", 'IF(A1>0,"A1"&A1,"B$2")'),
        N("F1", 0, "LOG10(A1)*10"),
        N("A2", 2),
        N("B2", 4, "A2*2"),
        N("C2", 13, "$A2+A$1+$A$1+SUM(A2:A4)"),
        N("D2", 705, "Sheet2!A2+'My Sheet'!B$2+SUM(Sheet2!A2:A3)"),
        S("E2", "A12", 'IF(A2>0,"A1"&A2,"B$2")'),
        N("F2", 3.010299956639812, "LOG10(A2)*10"),
        N("A3", 3),
        N("B3", 6, "A3*2"),
        N("C3", 17, "$A3+A$1+$A$1+SUM(A3:A5)"),
        N("D3", 605, "Sheet2!A3+'My Sheet'!B$2+SUM(Sheet2!A3:A4)"),
        N("A4", 4), N("B4", 8, "A4*2"),
        N("A5", 5), N("B5", 10, "A5*2"),
        N("A7", 10), N("B7", 20), N("C7", 30),
        N("A8", 30, "A7+$A7+A$7"),
        N("B8", 50, "B7+$A7+B$7"),
        N("C8", 70, "C7+$A7+C$7"),
        N("G10", 170, "SUM(A:A)+SUM(7:7)+SUM($A:$A)"),
        N("H10", 215, "SUM(B:B)+SUM(7:7)+SUM($A:$A)"),
        N("G11", 260, "SUM(A:A)+SUM(8:8)+SUM($A:$A)"),
        N("H11", 305, "SUM(B:B)+SUM(8:8)+SUM($A:$A)"),
    ]
    return entries, {"expected": jsonl(expected)}


# --------------------------------------------------------------------------- array_formula

@fixture
def array_formula():
    # The formula is reported on the master (top-left) cell only; the other cells of the range
    # carry only their cached values and are plain numbers.
    sheet = worksheet(
        '<row r="1">'
        '<c r="A1"><f t="array" ref="A1:A3">{1;2;3}</f><v>1</v></c>'
        '<c r="B1"><f t="array" ref="B1:B3">A1:A3*2</f><v>2</v></c>'
        '<c r="C1"><f t="array" ref="C1">SUM(A1:A3*B1:B3)</f><v>28</v></c>'
        '</row>'
        '<row r="2"><c r="A2"><v>2</v></c><c r="B2"><v>4</v></c></row>'
        '<row r="3"><c r="A3"><v>3</v></c><c r="B3"><v>6</v></c></row>')
    expected = [
        N("A1", 1, "{1;2;3}"), N("B1", 2, "A1:A3*2"), N("C1", 28, "SUM(A1:A3*B1:B3)"),
        N("A2", 2), N("B2", 4),
        N("A3", 3), N("B3", 6),
    ]
    return standard_package(sheet), {"expected": jsonl(expected)}


# --------------------------------------------------------------------------- dates

DATE_NUM_FMTS = (
    (164, "yyyy-mm-dd hh:mm:ss.000"),        # date + fractional seconds
    (165, "[h]:mm:ss"),                      # elapsed time: a time format -> date
    (166, '"day "0'),                        # quoted text: NOT a date
    (167, "[Red]0.00"),                      # colour: NOT a date
    (168, "\\d0"),                           # escaped d: NOT a date
    (169, "0.00;[Red]-0.00"),                # two sections, NOT a date
    (170, "mmm-yy"),                         # date
    (171, "[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy"),  # system long date with locale tag: date
    (172, "0.00E+00"),                       # scientific: NOT a date
    (173, "[$USD]\\ #,##0.00"),              # currency tag containing D and S: NOT a date
)


def date_fixture(rows, date1904):
    """rows: (numFmtId, <v> text, formula or None, hand-written expected E without ref)."""
    fmt_ids = []
    for r in rows:
        if r[0] not in fmt_ids:
            fmt_ids.append(r[0])
    xfs = ['<xf numFmtId="%d" fontId="0" fillId="0" borderId="0" xfId="0"%s/>'
           % (fid, ' applyNumberFormat="1"' if fid else "") for fid in fmt_ids]
    st = styles(cell_xfs=xfs, num_fmts=DATE_NUM_FMTS)
    xml_rows, expected = [], []
    for i, (fid, v, f, (etype, evalue)) in enumerate(rows, start=1):
        s = fmt_ids.index(fid)
        fx = "<f>%s</f>" % f if f else ""
        label = "numFmtId %d, serial %s" % (fid, v)
        xml_rows.append('<row r="%d">%s<c r="B%d" s="%d">%s<v>%s</v></c></row>'
                        % (i, inline("A%d" % i, label), i, s, fx, v))
        expected.append(S("A%d" % i, label))
        expected.append(E("B%d" % i, etype, evalue, f))
    pr = '<workbookPr date1904="1"/>' if date1904 else "<workbookPr/>"
    entries = standard_package(worksheet("".join(xml_rows)), styles_xml=st,
                               workbook_xml=workbook([("Sheet1", 1, "rId1")], pr=pr))
    return entries, {"expected": jsonl(expected)}


@fixture
def dates_1900():
    # Expected values worked out by hand (1900 system, see the module docstring):
    #   serial 1 = 1900-01-01, 59 = 1900-02-28, 60 = phantom 1900-02-29 -> 1900-02-28 (openpyxl),
    #   61 = 1900-03-01; 45292 = 2024-01-01; 45322 = 2024-01-31;
    #   0.5729166666666666 day = 13:45:00; 49530.123 s = 13:45:30.123; 2958465 = 9999-12-31.
    rows = [
        (14, "1", None, ("date", "1900-01-01T00:00:00.000")),
        (14, "59", None, ("date", "1900-02-28T00:00:00.000")),
        (14, "60", None, ("date", "1900-02-28T00:00:00.000")),   # phantom 1900-02-29, as openpyxl
        (14, "61", None, ("date", "1900-03-01T00:00:00.000")),
        (14, "45322", None, ("date", "2024-01-31T00:00:00.000")),
        (22, "45322.572916666664", None, ("date", "2024-01-31T13:45:00.000")),
        (18, "0.5", None, ("date", "1899-12-30T12:00:00.000")),  # time only
        (18, "0", None, ("date", "1899-12-30T00:00:00.000")),    # time only, midnight
        (164, "45322.5732653125", None, ("date", "2024-01-31T13:45:30.123")),  # fractional second
        (165, "1.25", None, ("date", "1899-12-31T06:00:00.000")),  # [h]:mm:ss, 30 elapsed hours
        (166, "45322", None, ("number", 45322)),
        (167, "45322.5", None, ("number", 45322.5)),
        (168, "7", None, ("number", 7)),
        (169, "-1.5", None, ("number", -1.5)),
        (170, "45292", None, ("date", "2024-01-01T00:00:00.000")),
        (171, "45322", None, ("date", "2024-01-31T00:00:00.000")),
        (172, "12345.678", None, ("number", 12345.678)),
        (173, "1234.5", None, ("number", 1234.5)),
        (0, "45322", None, ("number", 45322)),                   # General
        (22, "45322.999999999", None, ("date", "2024-02-01T00:00:00.000")),  # ms rounding carries
        (14, "2958465", None, ("date", "9999-12-31T00:00:00.000")),
        (14, "45322", "DATE(2024,1,31)", ("date", "2024-01-31T00:00:00.000")),
    ]
    return date_fixture(rows, date1904=False)


@fixture
def dates_1904():
    # 1904 system: serial 0 = 1904-01-01, no phantom day (1904 is a leap year: 59 = 1904-02-29);
    # 43860 = 2024-01-31 (45322 - 1462).
    rows = [
        (14, "0", None, ("date", "1904-01-01T00:00:00.000")),    # Excel shows 1904-01-01
        (22, "0.75", None, ("date", "1904-01-01T18:00:00.000")),
        (14, "1", None, ("date", "1904-01-02T00:00:00.000")),
        (14, "59", None, ("date", "1904-02-29T00:00:00.000")),
        (14, "60", None, ("date", "1904-03-01T00:00:00.000")),
        (14, "61", None, ("date", "1904-03-02T00:00:00.000")),
        (14, "43860", None, ("date", "2024-01-31T00:00:00.000")),
        (22, "43860.572916666664", None, ("date", "2024-01-31T13:45:00.000")),
        (18, "0.5", None, ("date", "1904-01-01T12:00:00.000")),  # see docstring: day 0 is a date
        (164, "43860.5732653125", None, ("date", "2024-01-31T13:45:30.123")),
        (165, "1.25", None, ("date", "1899-12-31T06:00:00.000")),
        (166, "43860", None, ("number", 43860)),
        (167, "43860.5", None, ("number", 43860.5)),
        (168, "7", None, ("number", 7)),
        (169, "-1.5", None, ("number", -1.5)),
        (170, "43830", None, ("date", "2024-01-01T00:00:00.000")),
        (0, "43860", None, ("number", 43860)),
    ]
    return date_fixture(rows, date1904=True)


# --------------------------------------------------------------------------- strict_ooxml

@fixture
def strict_ooxml():
    sheet = worksheet(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>1.5</v></c><c r="C1" t="b"><v>1</v></c>'
        '<c r="D1" t="e"><v>#N/A</v></c><c r="E1"><f>B1*2</f><v>3</v></c>'
        '<c r="F1" s="1"><v>45322</v></c><c r="G1" t="d"><v>2024-01-31T13:45:00</v></c></row>'
        '<row r="2"><c r="A2" t="inlineStr"><is><t>inline</t></is></c><c r="B2" t="s"><v>1</v></c></row>',
        main=STRICT_MAIN, r_ns=STRICT_R_NS)
    st = styles(cell_xfs=('<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
                          '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'),
                main=STRICT_MAIN)
    entries = {
        "[Content_Types].xml": content_types(sorted([
            ("/xl/workbook.xml", CT_WORKBOOK), ("/xl/worksheets/sheet1.xml", CT_WORKSHEET),
            ("/xl/styles.xml", CT_STYLES), ("/xl/sharedStrings.xml", CT_SST)])),
        "_rels/.rels": relationships([("rId1", STRICT_RT + "officeDocument", "xl/workbook.xml")]),
        "xl/workbook.xml": workbook([("Strict", 1, "rId1")], main=STRICT_MAIN, r_ns=STRICT_R_NS,
                                    extra_attrs=' conformance="strict"'),
        "xl/_rels/workbook.xml.rels": relationships([
            ("rId1", STRICT_RT + "worksheet", "worksheets/sheet1.xml"),
            ("rId2", STRICT_RT + "styles", "styles.xml"),
            ("rId3", STRICT_RT + "sharedStrings", "sharedStrings.xml")]),
        "xl/worksheets/sheet1.xml": sheet,
        "xl/styles.xml": st,
        "xl/sharedStrings.xml": sst(["<t>Name</t>", "<r><t>rich </t></r><r><rPr><b/></rPr><t>strict</t></r>"],
                                    main=STRICT_MAIN),
    }
    expected = [
        S("A1", "Name"), N("B1", 1.5), B("C1", True), ERR("D1", "#N/A"), N("E1", 3, "B1*2"),
        D("F1", "2024-01-31T00:00:00.000"), D("G1", "2024-01-31T13:45:00.000"),
        S("A2", "inline"), S("B2", "rich strict"),
    ]
    return entries, {"expected": jsonl(expected)}


# --------------------------------------------------------------------------- prefixed_x

@fixture
def prefixed_x():
    X = 'xmlns:x="%s"' % MAIN
    wb = (DECL + '<x:workbook %s xmlns:r="%s"><x:workbookPr/><x:bookViews><x:workbookView/></x:bookViews>'
          '<x:sheets><x:sheet name="Sheet1" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>' % (X, R_NS))
    sheet = (DECL + '<x:worksheet %s xmlns:r="%s"><x:dimension ref="A1:D2"/><x:sheetData>'
             '<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1"><x:v>2.5</x:v></x:c>'
             '<x:c r="C1" s="1"><x:v>45322</x:v></x:c><x:c r="D1" t="b"><x:v>0</x:v></x:c></x:row>'
             '<x:row r="2"><x:c r="A2" t="s"><x:v>1</x:v></x:c>'
             '<x:c r="B2"><x:f>B1*4</x:f><x:v>10</x:v></x:c>'
             '<x:c r="C2" t="inlineStr"><x:is><x:t xml:space="preserve"> inline x </x:t></x:is></x:c>'
             '<x:c r="D2" t="str"><x:f>"s"&amp;"x"</x:f><x:v>sx</x:v></x:c></x:row>'
             '</x:sheetData></x:worksheet>' % (X, R_NS))
    strings = (DECL + '<x:sst %s count="2" uniqueCount="2">'
               '<x:si><x:t>prefixed</x:t></x:si>'
               '<x:si><x:r><x:rPr><x:b/></x:rPr><x:t>rich</x:t></x:r><x:r><x:t xml:space="preserve"> run</x:t></x:r>'
               '<x:rPh sb="0" eb="1"><x:t>skip</x:t></x:rPh></x:si>'
               '</x:sst>' % X)
    st = (DECL + '<x:styleSheet %s>'
          '<x:fonts count="1"><x:font><x:sz val="11"/><x:name val="Calibri"/></x:font></x:fonts>'
          '<x:fills count="2"><x:fill><x:patternFill patternType="none"/></x:fill>'
          '<x:fill><x:patternFill patternType="gray125"/></x:fill></x:fills>'
          '<x:borders count="1"><x:border><x:left/><x:right/><x:top/><x:bottom/><x:diagonal/></x:border></x:borders>'
          '<x:cellStyleXfs count="1"><x:xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></x:cellStyleXfs>'
          '<x:cellXfs count="2"><x:xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
          '<x:xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></x:cellXfs>'
          '</x:styleSheet>' % X)
    entries = standard_package(sheet, sst_xml=strings, styles_xml=st, workbook_xml=wb)
    expected = [
        S("A1", "prefixed"), N("B1", 2.5), D("C1", "2024-01-31T00:00:00.000"), B("D1", False),
        S("A2", "rich run"), N("B2", 10, "B1*4"), S("C2", " inline x "), S("D2", "sx", '"s"&"x"'),
    ]
    return entries, {"expected": jsonl(expected)}


# --------------------------------------------------------------------------- row_per_cell

@fixture
def row_per_cell():
    # The shape of ExcelDataReader's test file for its issue 324: 20 rows x 13 columns, every
    # cell in an <x:row> of its own (namespace-prefixed, no <dimension>), so each row number
    # appears 13 times. Consecutive <row> elements with the same r are one row, their cells
    # merged in column order: row 20 lists its cells from M back to A to show the ordering.
    X = 'xmlns:x="%s"' % MAIN
    wb = (DECL + '<x:workbook %s xmlns:r="%s"><x:sheets><x:sheet name="Sheet1" sheetId="1" r:id="rId1"/>'
          '</x:sheets></x:workbook>' % (X, R_NS))
    letters = "ABCDEFGHIJKLM"
    headers = ["Id", "Name", "Qty", "Price", "Total", "Code", "Region", "Flag", "Score", "Rank",
               "Note", "Ratio", "Last"]
    strings = list(headers)
    cells, expected = [], []
    for row in range(1, 21):
        order = list(range(13))
        if row == 20:
            order.reverse()
        row_cells = {}
        for col in order:
            ref = "%s%d" % (letters[col], row)
            if row == 1:
                xml_cell = '<x:c r="%s" t="s"><x:v>%d</x:v></x:c>' % (ref, col)
                row_cells[col] = S(ref, headers[col])
            elif col in (1, 6, 10):
                text = "%s %d" % (headers[col].lower(), row)
                strings.append(text)
                xml_cell = '<x:c r="%s" t="s"><x:v>%d</x:v></x:c>' % (ref, len(strings) - 1)
                row_cells[col] = S(ref, text)
            else:
                value = row * 100 + col
                xml_cell = '<x:c r="%s"><x:v>%d</x:v></x:c>' % (ref, value)
                row_cells[col] = N(ref, value)
            cells.append('<x:row r="%d">%s</x:row>' % (row, xml_cell))
        expected.extend(row_cells[c] for c in range(13))
    sheet = (DECL + '<x:worksheet %s xmlns:r="%s"><x:sheetData>%s</x:sheetData></x:worksheet>'
             % (X, R_NS, "".join(cells)))
    sst_xml = (DECL + '<x:sst %s count="%d" uniqueCount="%d">' % (X, len(strings), len(strings))
               + "".join("<x:si><x:t>%s</x:t></x:si>" % t for t in strings) + "</x:sst>")
    entries = standard_package(sheet, sst_xml=sst_xml, workbook_xml=wb)
    return entries, {"expected": jsonl(expected)}


# --------------------------------------------------------------------------- backslash_and_case

@fixture
def backslash_and_case():
    # Zip entry names use "\" and a different case than the part names the relationships and
    # [Content_Types].xml use; OPC part names compare case-insensitively. The worksheet target is
    # absolute (/xl/worksheets/sheet1.xml), the shared strings target relative.
    sheet = worksheet('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>7</v></c></row>'
                      '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2"><f>B1*3</f><v>21</v></c></row>')
    entries = {
        "[Content_Types].xml": content_types(sorted([
            ("/xl/workbook.xml", CT_WORKBOOK), ("/xl/worksheets/sheet1.xml", CT_WORKSHEET),
            ("/xl/sharedStrings.xml", CT_SST)])),
        "_rels\\.rels": relationships([("rId1", RT + "officeDocument", "xl/workbook.xml")]),
        "xl\\workbook.xml": workbook([("Sheet1", 1, "rId1")]),
        "xl\\_rels\\workbook.xml.rels": relationships([
            ("rId1", RT + "worksheet", "/xl/worksheets/sheet1.xml"),
            ("rId2", RT + "sharedStrings", "sharedStrings.xml")]),
        "xl\\Worksheets\\Sheet1.xml": sheet,
        "xl\\SharedStrings.xml": sst(["<t>backslash</t>", "<t>case</t>"]),
    }
    expected = [S("A1", "backslash"), N("B1", 7), S("A2", "case"), N("B2", 21, "B1*3")]
    return entries, {"expected": jsonl(expected)}


# --------------------------------------------------------------------------- root_workbook

@fixture
def root_workbook():
    # The workbook part is /workbook.xml; its relationships are /_rels/workbook.xml.rels and its
    # parts sit at the package root. Entries are STORED (not deflated) here, as some writers do.
    sheet = worksheet('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>1</v></c></row>'
                      '<row r="2"><c r="A2" t="inlineStr"><is><t>root</t></is></c><c r="B2" t="b"><v>1</v></c></row>')
    entries = {
        "[Content_Types].xml": content_types(sorted([
            ("/workbook.xml", CT_WORKBOOK), ("/sheet1.xml", CT_WORKSHEET), ("/sharedStrings.xml", CT_SST)])),
        "_rels/.rels": relationships([("rId1", RT + "officeDocument", "workbook.xml")]),
        "workbook.xml": workbook([("Sheet1", 1, "rId1")]),
        "_rels/workbook.xml.rels": relationships([
            ("rId1", RT + "worksheet", "sheet1.xml"), ("rId2", RT + "sharedStrings", "sharedStrings.xml")]),
        "sheet1.xml": sheet,
        "sharedStrings.xml": sst(["<t>at the root</t>"]),
    }
    expected = [S("A1", "at the root"), N("B1", 1), S("A2", "root"), B("B2", True)]
    return entries, {"expected": jsonl(expected), "_stored": True}


# --------------------------------------------------------------------------- missing_relationships

@fixture
def missing_relationships():
    # No _rels/.rels and no xl/_rels/workbook.xml.rels, as some generators write: the workbook
    # is found by its content type, its sheet by the conventional name worksheets/sheet1.xml,
    # and the shared strings and styles by content type / their usual names.
    sheet = worksheet('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" s="1"><v>45322</v></c></row>')
    entries = standard_package(sheet, sst_xml=sst(["<t>no rels</t>"]),
                               styles_xml=styles(cell_xfs=('<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
                                                           '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0"/>')))
    del entries["_rels/.rels"]
    del entries["xl/_rels/workbook.xml.rels"]
    expected = [S("A1", "no rels"), D("B1", "2024-01-31T00:00:00.000")]
    return entries, {"expected": jsonl(expected)}


# --------------------------------------------------------------------------- multi_sheet

@fixture
def multi_sheet():
    # Workbook order: Chart1 (chartsheet), Hidden (worksheet, state="hidden"), Data (worksheet).
    # Default = first WORKSHEET = Hidden. --sheet Data and --sheet 3 (1-based over all sheets)
    # both select Data. (--sheet 1 names a chartsheet, which has no cells.)
    C_NS = "http://schemas.openxmlformats.org/drawingml/2006/chart"
    A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
    XDR_NS = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
    chartsheet = (DECL + '<chartsheet xmlns="%s" xmlns:r="%s"><sheetPr/><sheetViews>'
                  '<sheetView zoomScale="100" workbookViewId="0"/></sheetViews>'
                  '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>'
                  '<drawing r:id="rId1"/></chartsheet>' % (MAIN, R_NS))
    drawing = (DECL + '<xdr:wsDr xmlns:xdr="%s" xmlns:a="%s" xmlns:r="%s" xmlns:c="%s">'
               '<xdr:absoluteAnchor><xdr:pos x="0" y="0"/><xdr:ext cx="8667750" cy="6286500"/>'
               '<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart 1"/>'
               '<xdr:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></xdr:cNvGraphicFramePr></xdr:nvGraphicFramePr>'
               '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>'
               '<a:graphic><a:graphicData uri="%s"><c:chart r:id="rId1"/></a:graphicData></a:graphic>'
               '</xdr:graphicFrame><xdr:clientData/></xdr:absoluteAnchor></xdr:wsDr>'
               % (XDR_NS, A_NS, R_NS, C_NS, C_NS))
    chart = (DECL + '<c:chartSpace xmlns:c="%s" xmlns:a="%s" xmlns:r="%s"><c:chart><c:autoTitleDeleted val="1"/>'
             '<c:plotArea><c:layout/><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>'
             '<c:varyColors val="0"/><c:ser><c:idx val="0"/><c:order val="0"/>'
             '<c:cat><c:strRef><c:f>Data!$A$2:$A$3</c:f></c:strRef></c:cat>'
             '<c:val><c:numRef><c:f>Data!$B$2:$B$3</c:f></c:numRef></c:val></c:ser>'
             '<c:axId val="10"/><c:axId val="20"/></c:barChart>'
             '<c:catAx><c:axId val="10"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>'
             '<c:axPos val="b"/><c:crossAx val="20"/></c:catAx>'
             '<c:valAx><c:axId val="20"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/>'
             '<c:axPos val="l"/><c:crossAx val="10"/></c:valAx></c:plotArea><c:plotVisOnly val="1"/></c:chart>'
             '</c:chartSpace>' % (C_NS, A_NS, R_NS))
    hidden = worksheet('<row r="1">' + inline("A1", "hidden sheet") + '<c r="B1"><v>1</v></c></row>')
    data = worksheet('<row r="1">' + inline("A1", "Item") + inline("B1", "Qty") + '</row>'
                     '<row r="2">' + inline("A2", "apples") + '<c r="B2"><v>3</v></c></row>'
                     '<row r="3">' + inline("A3", "pears") + '<c r="B3"><v>4.5</v></c></row>')
    entries = {
        "[Content_Types].xml": content_types(sorted([
            ("/xl/workbook.xml", CT_WORKBOOK), ("/xl/chartsheets/sheet1.xml", CT_CHARTSHEET),
            ("/xl/worksheets/sheet1.xml", CT_WORKSHEET), ("/xl/worksheets/sheet2.xml", CT_WORKSHEET),
            ("/xl/drawings/drawing1.xml", CT_DRAWING), ("/xl/charts/chart1.xml", CT_CHART)])),
        "_rels/.rels": relationships([("rId1", RT + "officeDocument", "xl/workbook.xml")]),
        "xl/workbook.xml": workbook([("Chart1", 1, "rId1"), ("Hidden", 2, "rId2", "hidden"), ("Data", 3, "rId3")]),
        "xl/_rels/workbook.xml.rels": relationships([
            ("rId1", RT + "chartsheet", "chartsheets/sheet1.xml"),
            ("rId2", RT + "worksheet", "worksheets/sheet1.xml"),
            ("rId3", RT + "worksheet", "worksheets/sheet2.xml")]),
        "xl/chartsheets/sheet1.xml": chartsheet,
        "xl/chartsheets/_rels/sheet1.xml.rels": relationships([("rId1", RT + "drawing", "../drawings/drawing1.xml")]),
        "xl/drawings/drawing1.xml": drawing,
        "xl/drawings/_rels/drawing1.xml.rels": relationships([("rId1", RT + "chart", "../charts/chart1.xml")]),
        "xl/charts/chart1.xml": chart,
        "xl/worksheets/sheet1.xml": hidden,
        "xl/worksheets/sheet2.xml": data,
    }
    expected_hidden = [S("A1", "hidden sheet"), N("B1", 1)]
    expected_data = [S("A1", "Item"), S("B1", "Qty"), S("A2", "apples"), N("B2", 3), S("A3", "pears"), N("B3", 4.5)]
    return entries, {"expected": jsonl(expected_hidden),
                     "sheet-Data.expected.jsonl": jsonl(expected_data),
                     "sheet-3.expected.jsonl": jsonl(expected_data)}


# --------------------------------------------------------------------------- dimension_lies

@fixture
def dimension_lies():
    sheet = worksheet('<row r="1">' + inline("A1", "first") + '</row>'
                      '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>',
                      dimension="A1:XFD1048576")
    return standard_package(sheet), {"expected": jsonl([S("A1", "first"), N("XFD1048576", 1)])}


# --------------------------------------------------------------------------- utf16

@fixture
def utf16():
    # xl/worksheets/sheet1.xml is UTF-16LE with a BOM (FF FE) and encoding="UTF-16" in its
    # declaration; the other parts are UTF-8.
    text = ('<?xml version="1.0" encoding="UTF-16" standalone="yes"?>\n'
            '<worksheet xmlns="%s" xmlns:r="%s"><sheetData>'
            '<row r="1">' % (MAIN, R_NS) + inline("A1", "UTF-16 ✓ ünïcödé") + '<c r="B1"><v>2.25</v></c></row>'
            '<row r="2">' + inline("A2", "😀 outside the BMP") + '<c r="B2" t="s"><v>0</v></c></row>'
            '</sheetData></worksheet>')
    sheet = b"\xff\xfe" + text.encode("utf-16-le")
    entries = standard_package(sheet, sst_xml=sst(["<t>shared ½</t>"]))
    expected = [S("A1", "UTF-16 ✓ ünïcödé"), N("B1", 2.25), S("A2", "😀 outside the BMP"), S("B2", "shared ½")]
    return entries, {"expected": jsonl(expected)}


# --------------------------------------------------------------------------- styles_kept

THEME_XML = (
    DECL + '<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Office Theme">'
    '<a:themeElements><a:clrScheme name="Office">'
    '<a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1>'
    '<a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1>'
    '<a:dk2><a:srgbClr val="44546A"/></a:dk2>'
    '<a:lt2><a:srgbClr val="E7E6E6"/></a:lt2>'
    '<a:accent1><a:srgbClr val="4472C4"/></a:accent1>'
    '<a:accent2><a:srgbClr val="ED7D31"/></a:accent2>'
    '<a:accent3><a:srgbClr val="A5A5A5"/></a:accent3>'
    '<a:accent4><a:srgbClr val="FFC000"/></a:accent4>'
    '<a:accent5><a:srgbClr val="5B9BD5"/></a:accent5>'
    '<a:accent6><a:srgbClr val="70AD47"/></a:accent6>'
    '<a:hlink><a:srgbClr val="0563C1"/></a:hlink>'
    '<a:folHlink><a:srgbClr val="954F72"/></a:folHlink>'
    '</a:clrScheme>'
    '<a:fontScheme name="Office">'
    '<a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont>'
    '<a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont>'
    '</a:fontScheme>'
    '<a:fmtScheme name="Office">'
    '<a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'
    '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'
    '</a:fillStyleLst>'
    '<a:lnStyleLst><a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>'
    '<a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>'
    '<a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst>'
    '<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle>'
    '<a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>'
    '<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'
    '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'
    '</a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>')


@fixture
def styles_kept():
    fonts = (
        DEFAULT_FONT,                                                                     # 0 plain
        '<font><b/><sz val="11"/><name val="Calibri"/></font>',                           # 1 bold
        '<font><i val="1"/><sz val="11"/><name val="Calibri"/></font>',                   # 2 italic
        '<font><b val="0"/><sz val="11"/><name val="Calibri"/></font>',                   # 3 b val=0: not bold
        '<font><sz val="11"/><color rgb="FFC00000"/><name val="Calibri"/></font>',        # 4 rgb
        '<font><sz val="11"/><color theme="3" tint="0.3999755851924192"/><name val="Calibri"/></font>',  # 5
        '<font><sz val="11"/><color theme="5" tint="-0.249977111117893"/><name val="Calibri"/></font>',  # 6
        '<font><sz val="11"/><color theme="1"/><name val="Calibri"/></font>',             # 7 theme 1 = dk1
        '<font><sz val="11"/><color indexed="10"/><name val="Calibri"/></font>',          # 8 indexed
        '<font><b/><i/><sz val="11"/><color indexed="18"/><name val="Calibri"/></font>',  # 9 b+i+indexed
    )
    fills = (
        DEFAULT_FILLS,                                                                    # 0 none, 1 gray125
        '<fill><patternFill patternType="solid"><fgColor rgb="FFFFFF00"/><bgColor indexed="64"/></patternFill></fill>',  # 2
        '<fill><patternFill patternType="solid"><fgColor theme="0" tint="-0.1499984740745262"/>'
        '<bgColor indexed="64"/></patternFill></fill>',                                   # 3
        '<fill><patternFill patternType="solid"><fgColor indexed="22"/><bgColor indexed="64"/></patternFill></fill>',  # 4
        '<fill><patternFill patternType="solid"><fgColor rgb="00FF0000"/><bgColor indexed="64"/></patternFill></fill>',  # 5
        '<fill><patternFill patternType="solid"><fgColor theme="4"/><bgColor indexed="64"/></patternFill></fill>',  # 6
        '<fill><patternFill patternType="solid"><fgColor rgb="FFDDEBF7"/><bgColor indexed="64"/></patternFill></fill>',  # 7
    )

    def xf(num=0, font=0, fill=0, align=None):
        attrs = ' applyNumberFormat="1"' if num else ""
        attrs += ' applyFont="1"' if font else ""
        attrs += ' applyFill="1"' if fill else ""
        attrs += ' applyAlignment="1"' if align else ""
        body = '><alignment horizontal="%s"/></xf>' % align if align else "/>"
        return '<xf numFmtId="%d" fontId="%d" fillId="%d" borderId="0" xfId="0"%s%s' % (num, font, fill, attrs, body)

    xfs = (
        xf(),                       # 0 default
        xf(font=1),                 # 1 bold
        xf(font=2),                 # 2 italic
        xf(font=3),                 # 3 b val="0"
        xf(font=4),                 # 4 rgb colour
        xf(font=5),                 # 5 theme 3 (dk2) tint +0.4
        xf(font=6),                 # 6 theme 5 (accent2) tint -0.25
        xf(font=7),                 # 7 theme 1 (dk1, sysClr)
        xf(font=8),                 # 8 indexed 10
        xf(fill=2),                 # 9 fill rgb
        xf(fill=3),                 # 10 fill theme 0 (lt1) tint -0.15
        xf(fill=4),                 # 11 fill indexed 22
        xf(fill=5),                 # 12 fill ARGB with alpha 00
        xf(fill=6),                 # 13 fill theme 4 (accent1)
        xf(num=4, align="center"),  # 14
        xf(num=10, align="right"),  # 15
        xf(num=164, align="left"),  # 16
        xf(num=2, font=9, fill=7, align="center"),  # 17
    )
    st = styles(cell_xfs=xfs, num_fmts=((164, "0.000"),), fonts=fonts, fills=fills)
    sheet = worksheet(
        '<row r="1">' + inline("A1", "Bold", ' s="1"') + inline("B1", "Italic", ' s="2"')
        + inline("C1", "Not bold", ' s="3"') + inline("D1", "Plain") + '</row>'
        '<row r="2">' + inline("A2", "rgb C00000", ' s="4"') + inline("B2", "dk2 tint +0.4", ' s="5"')
        + inline("C2", "accent2 tint -0.25", ' s="6"') + inline("D2", "dk1", ' s="7"')
        + inline("E2", "indexed 10", ' s="8"') + '</row>'
        '<row r="3">' + inline("A3", "fill FFFF00", ' s="9"') + inline("B3", "fill lt1 -0.15", ' s="10"')
        + inline("C3", "fill indexed 22", ' s="11"') + inline("D3", "fill alpha 00", ' s="12"')
        + inline("E3", "fill accent1", ' s="13"') + '</row>'
        '<row r="4"><c r="A4" s="14"><v>1234.5</v></c><c r="B4" s="15"><v>0.25</v></c>'
        '<c r="C4" s="16"><v>3.14159</v></c><c r="D4" s="17"><v>42</v></c></row>')
    entries = standard_package(
        sheet, styles_xml=st,
        extra_parts=[("xl/theme/theme1.xml", THEME_XML)],
        extra_wb_rels=[("rId4", RT + "theme", "theme/theme1.xml")],
        extra_overrides=[("/xl/theme/theme1.xml", CT_THEME)])
    expected = [
        S("A1", "Bold"), S("B1", "Italic"), S("C1", "Not bold"), S("D1", "Plain"),
        S("A2", "rgb C00000"), S("B2", "dk2 tint +0.4"), S("C2", "accent2 tint -0.25"), S("D2", "dk1"),
        S("E2", "indexed 10"),
        S("A3", "fill FFFF00"), S("B3", "fill lt1 -0.15"), S("C3", "fill indexed 22"), S("D3", "fill alpha 00"),
        S("E3", "fill accent1"),
        N("A4", 1234.5), N("B4", 0.25), N("C4", 3.14159), N("D4", 42),
    ]

    def st_(bold=False, italic=False, horizontal=None, numFmt="General", fill=None, color=None):
        return {"bold": bold, "italic": italic, "horizontal": horizontal, "numFmt": numFmt,
                "fill": fill, "color": color}

    # Hand-computed colours (see module docstring for the theme index map and the tint rule):
    #   dk2 44546A, tint +0.3999755851924192: HLS L 0.3412 -> 0.6047 -> RGB(132.3,151.2,176.3) = #8497B0
    #   accent2 ED7D31, tint -0.249977111117893: L 0.5608 -> 0.4206 -> RGB(197.3,90.0,17.2) = #C55A11
    #   lt1 FFFFFF (sysClr window), tint -0.1499984740745262: L 1 -> 0.85 -> 216.75 = #D9D9D9
    #   dk1 (sysClr windowText lastClr 000000) = #000000; accent1 = #4472C4
    #   indexed palette: 10 = #FF0000, 18 = #000080, 22 = #C0C0C0
    expected_styles = {
        "A1": st_(bold=True),
        "B1": st_(italic=True),
        "C1": st_(),
        "D1": st_(),
        "A2": st_(color="#C00000"),
        "B2": st_(color="#8497B0"),
        "C2": st_(color="#C55A11"),
        "D2": st_(color="#000000"),
        "E2": st_(color="#FF0000"),
        "A3": st_(fill="#FFFF00"),
        "B3": st_(fill="#D9D9D9"),
        "C3": st_(fill="#C0C0C0"),
        "D3": st_(fill="#FF0000"),
        "E3": st_(fill="#4472C4"),
        "A4": st_(horizontal="center", numFmt="#,##0.00"),
        "B4": st_(horizontal="right", numFmt="0.00%"),
        "C4": st_(horizontal="left", numFmt="0.000"),
        "D4": st_(bold=True, italic=True, horizontal="center", numFmt="0.00", fill="#DDEBF7", color="#000080"),
    }
    doc = {
        "notes": [
            "Resolved formatting per cell of the first worksheet: the parts Sheets keeps.",
            "numFmt is the format code (built-ins: 0 General, 2 0.00, 4 #,##0.00, 10 0.00%).",
            "fill is the fgColor of a solid patternFill; color is the font colour; null = not set.",
            "Theme indices: 0 lt1, 1 dk1, 2 lt2, 3 dk2, 4-9 accent1-6 (Excel's mapping, not theme1.xml order).",
            "Tint on HLS lightness: L*(1+tint) if tint<0, L*(1-tint)+tint if tint>0; round channels at the end.",
            "The ARGB alpha byte is ignored; indexed colours come from the standard 64-colour palette.",
        ],
        "cells": expected_styles,
    }
    return entries, {"expected": jsonl(expected), "styles.json": json.dumps(doc, indent=2, ensure_ascii=False) + "\n"}


# --------------------------------------------------------------------------- comments_hyperlinks_merged

@fixture
def comments_hyperlinks_merged():
    sheet = worksheet(
        '<row r="1" ht="30" customHeight="1">' + inline("A1", "Merged title") + '<c r="B1"/></row>'
        '<row r="2"><c r="A2"/><c r="B2"/></row>'
        '<row r="3" ht="18.75"><c r="A3"><v>1</v></c><c r="B3"><v>2</v></c></row>'
        '<row r="4">' + inline("D4", "Merged across") + '<c r="E4"/><c r="F4"/></row>'
        '<row r="5">' + inline("A5", "Example link") + inline("B5", "Back to top") + '</row>'
        '<row r="6">' + inline("C6", "mail us") + '</row>',
        before='<sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/>'
               '<cols><col min="1" max="1" width="20.7109375" customWidth="1"/>'
               '<col min="2" max="3" width="12.5" customWidth="1"/>'
               '<col min="6" max="6" width="30" customWidth="1"/></cols>',
        after='<mergeCells count="2"><mergeCell ref="A1:B2"/><mergeCell ref="D4:F4"/></mergeCells>'
              '<hyperlinks><hyperlink ref="A5" r:id="rId1"/>'
              '<hyperlink ref="B5" location="Sheet1!A1" display="Back to top"/>'
              '<hyperlink ref="C6:D6" r:id="rId2" tooltip="Write to us"/></hyperlinks>'
              '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>'
              '<legacyDrawing r:id="rId4"/>')
    comments = (
        DECL + '<comments xmlns="%s"><authors><author>Alice Example</author><author>Bob</author></authors>'
        '<commentList>'
        '<comment ref="A1" authorId="0"><text>'
        '<r><rPr><b/><sz val="9"/><color indexed="81"/><rFont val="Tahoma"/><family val="2"/></rPr><t>Alice Example:</t></r>'
        '<r><rPr><sz val="9"/><color indexed="81"/><rFont val="Tahoma"/><family val="2"/></rPr>'
        '<t xml:space="preserve">\nCheck the title.</t></r>'
        '</text></comment>'
        '<comment ref="C3" authorId="1"><text><t>Plain note &amp; "quotes" – ünïcode</t></text></comment>'
        '</commentList></comments>' % MAIN)
    vml_shape = (
        '<v:shape id="_x0000_s%d" type="#_x0000_t202" style="position:absolute;margin-left:59.25pt;'
        'margin-top:1.5pt;width:108pt;height:59.25pt;z-index:%d;visibility:hidden" fillcolor="#ffffe1" '
        'o:insetmode="auto"><v:fill color2="#ffffe1"/><v:shadow on="t" color="black" obscured="t"/>'
        '<v:path o:connecttype="none"/><v:textbox style="mso-direction-alt:auto"><div style="text-align:left"/>'
        '</v:textbox><x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/>'
        '<x:Anchor>%s</x:Anchor><x:AutoFill>False</x:AutoFill><x:Row>%d</x:Row><x:Column>%d</x:Column>'
        '</x:ClientData></v:shape>')
    vml = ('<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
           'xmlns:x="urn:schemas-microsoft-com:office:excel">'
           '<o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="1"/></o:shapelayout>'
           '<v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe">'
           '<v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>'
           + vml_shape % (1025, 1, "1, 15, 0, 2, 3, 15, 3, 16", 0, 0)
           + vml_shape % (1026, 2, "3, 15, 2, 2, 5, 15, 6, 16", 2, 2)
           + '</xml>')
    entries = standard_package(
        sheet,
        extra_parts=[
            ("xl/worksheets/_rels/sheet1.xml.rels", relationships([
                ("rId1", RT + "hyperlink", "https://example.com/report?id=7&lang=en", "External"),
                ("rId2", RT + "hyperlink", "mailto:team@example.com", "External"),
                ("rId3", RT + "comments", "../comments1.xml"),
                ("rId4", RT + "vmlDrawing", "../drawings/vmlDrawing1.vml")])),
            ("xl/comments1.xml", comments),
            ("xl/drawings/vmlDrawing1.vml", vml)],
        extra_overrides=[("/xl/comments1.xml", CT_COMMENTS)],
        extra_defaults=[("vml", CT_VML)])
    expected = [
        S("A1", "Merged title"), N("A3", 1), N("B3", 2), S("D4", "Merged across"),
        S("A5", "Example link"), S("B5", "Back to top"), S("C6", "mail us"),
    ]
    meta = {
        "notes": [
            "Sheet metadata of the first worksheet. Cells covered by a merge other than its top-left cell are",
            "empty (<c r=\"B1\"/>) and not written to JSONL; C3 has a comment but no cell.",
            "columnWidths expands <col min max> per column letter; rowHeights lists rows with an ht attribute.",
            "A comment's text is all of its runs joined, exactly as stored (including Excel's 'Author:' run).",
        ],
        "mergedCells": ["A1:B2", "D4:F4"],
        "columnWidths": {"A": 20.7109375, "B": 12.5, "C": 12.5, "F": 30},
        "rowHeights": [
            {"row": 1, "height": 30, "customHeight": True},
            {"row": 3, "height": 18.75, "customHeight": False},
        ],
        "comments": [
            {"ref": "A1", "author": "Alice Example", "text": "Alice Example:\nCheck the title."},
            {"ref": "C3", "author": "Bob", "text": "Plain note & \"quotes\" – ünïcode"},
        ],
        "hyperlinks": [
            {"ref": "A5", "target": "https://example.com/report?id=7&lang=en", "location": None},
            {"ref": "B5", "target": None, "location": "Sheet1!A1"},
            {"ref": "C6:D6", "target": "mailto:team@example.com", "location": None},
        ],
    }
    return entries, {"expected": jsonl(expected),
                     "meta.json": json.dumps(meta, indent=2, ensure_ascii=False) + "\n"}


# --------------------------------------------------------------------------- dxfs_number_formats

@fixture
def dxfs_number_formats():
    # Differential formats (conditional formatting, table styles) carry numFmt elements of their
    # own. Excel writes them with ids that clash with the workbook's: here dxfs redefine built-in
    # 14 as "0.00%" and custom 164 as "0.0", and define 165 that numFmts does not. Only
    # styleSheet/numFmts defines the cells' formats: 14 and 164 stay dates, 165 is General.
    x14 = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"
    xfs = ['<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
           '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>',
           '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>',
           '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>',
           '<xf numFmtId="10" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>']
    dxfs = ('<dxfs count="3">'
            '<dxf><numFmt numFmtId="14" formatCode="0.00%"/><fill><patternFill><bgColor rgb="FFFFC7CE"/></patternFill></fill></dxf>'
            '<dxf><font><b/></font><numFmt numFmtId="164" formatCode="0.0"/></dxf>'
            '<dxf><numFmt numFmtId="165" formatCode="yyyy-mm-dd"/></dxf>'
            '</dxfs><tableStyles count="0" defaultTableStyle="TableStyleMedium2" defaultPivotStyle="PivotStyleLight16"/>'
            '<extLst><ext uri="{46F421CA-312F-682f-3DD2-61675219B42D}" xmlns:x14="' + x14 + '">'
            '<x14:dxfs count="1"><dxf><numFmt numFmtId="14" formatCode="0.0"/></dxf></x14:dxfs></ext></extLst>')
    st = styles(cell_xfs=xfs, num_fmts=((164, "yyyy-mm-dd hh:mm"),)).replace("</styleSheet>", dxfs + "</styleSheet>")
    sheet = worksheet(
        '<row r="1"><c r="A1" s="1"><v>45322</v></c><c r="B1" s="2"><v>45322.5</v></c>'
        '<c r="C1" s="3"><v>45322</v></c><c r="D1" s="4"><v>0.25</v></c></row>',
        after='<conditionalFormatting sqref="A1:D1"><cfRule type="cellIs" dxfId="0" priority="1" operator="greaterThan">'
              '<formula>0</formula></cfRule></conditionalFormatting>')
    expected = [
        D("A1", "2024-01-31T00:00:00.000"),   # built-in 14, not the dxf's 0.00%
        D("B1", "2024-01-31T12:00:00.000"),   # numFmts' 164, not the dxf's 0.0
        N("C1", 45322),                        # 165 only in a dxf: General
        N("D1", 0.25),                         # built-in 10 (0.00%)
    ]
    return standard_package(sheet, styles_xml=st), {"expected": jsonl(expected)}


# =========================================================================== writing

README = """\
# Reader fixtures

Generated by `python3 Fixtures/make_fixtures.py` (stdlib only, deterministic; `--check` verifies the
committed files). Each `<name>.xlsx` comes with `<name>.expected.jsonl`: the exact output of
`sheetport convert <name>.xlsx --to jsonl` (Docs/Reference/Formats.md, "Cell JSONL"), written by hand in the script.
The decisions behind the expected values (1900 serial 60, times without a date part, elapsed times, theme index mapping, ...)
are listed in the docstring of `make_fixtures.py`.

| fixture | what it tests |
|---|---|
| `shared_strings_rich` | shared strings: rich runs joined, `<rPh>` phonetic runs skipped, `xml:space="preserve"` spaces kept, empty item (not written: a cell that shows nothing), non-ASCII and non-BMP text, JSON escaping |
| `xhhhh_escapes` | `_xHHHH_` decoding in shared and inline strings: `_x000D_`, `_x0009_`, `_x005F_x0041_` (literal `_x0041_`), lowercase `_x000a_`, invalid forms kept, escapes inside runs |
| `cell_types` | every cell type: n (int, float, negative, `1E-5`, `0.30000000000000004`, `1.5E+3`, `3.0`), s, str, inlineStr with runs, b, e, d (ISO); style-only cell and empty `<v/>` not written; formula without cached value = `empty`; `t="str"` with empty `<v></v>` = `""` |
| `no_cell_refs` | rows and cells without `r`: columns count left to right (an empty `<c/>` takes a column), rows count up from the last explicit row, `<row/>` takes a row number |
| `shared_formulas` | shared formula expansion: vertical, horizontal and 2-D ranges, `$` anchors, other-sheet refs (`Sheet2!`, `'My Sheet'!`), string literals, `LOG10(`, whole columns/rows |
| `array_formula` | `t="array"` formulas: the formula only on the master cell, cached values in the whole range |
| `dates_1900` | date detection by numFmt (built-in 14/18/22, custom date/elapsed/locale formats vs quoted text, colours, escapes, sections, scientific, currency tags) and 1900 serials incl. 59/60/61, time-only, fractional seconds, ms rounding carry, 9999-12-31 |
| `dates_1904` | the same with `date1904="1"`: serial 0 = 1904-01-01 (as Excel shows it; not 1899-12-30), serial 1 = 1904-01-02, 1904 is a leap year, no phantom day |
| `dxfs_number_formats` | `numFmt` elements inside `<dxfs>` (and an extension's `x14:dxfs`) redefining ids 14 and 164 do not change the cells' number formats: only `<numFmts>` under `<styleSheet>` defines them |
| `strict_ooxml` | Strict OOXML namespaces and relationship types (`purl.oclc.org`) |
| `prefixed_x` | every SpreadsheetML element with an `x:` prefix (OpenXML SDK style) in workbook, sheet, sharedStrings and styles |
| `row_per_cell` | every cell in an `<x:row>` of its own (ExcelDataReader issue 324's shape, 20 x 13): consecutive rows with the same `r` are one row, cells merged in column order (row 20 lists them M to A) |
| `backslash_and_case` | zip entry names with `\\` separators and a different case than the part names; an absolute relationship target |
| `root_workbook` | the workbook part at the package root (`/workbook.xml`, `/sheet1.xml`); STORED (uncompressed) entries |
| `multi_sheet` | chartsheet first, then hidden worksheet `Hidden` (the default), then `Data`; `multi_sheet.sheet-Data.expected.jsonl` / `multi_sheet.sheet-3.expected.jsonl` are the output of `--sheet Data` / `--sheet 3` |
| `dimension_lies` | `<dimension ref="A1:XFD1048576"/>` with two cells, one at XFD1048576 (no preallocation from the dimension) |
| `utf16` | a worksheet part encoded UTF-16LE with a BOM, including a surrogate pair |
| `styles_kept` | bold/italic (incl. `b val="0"`), horizontal alignment, number formats, fill and font colours from rgb, theme+tint and indexed; `styles_kept.styles.json` lists the resolved style per cell |
| `comments_hyperlinks_merged` | merged cells, hyperlinks (external, internal location, range), column widths, row heights, legacy comments with authors; `comments_hyperlinks_merged.meta.json` lists the expected metadata |
| `missing_relationships` | no `_rels/.rels` and no workbook relationships: the workbook is found by content type, the sheet, shared strings and styles by their conventional names |
"""


def write_zip(path, entries, stored=False):
    # Python's zipfile writes data descriptors only for unseekable output; to a regular file every
    # header is complete, and the same input gives the same bytes.
    with zipfile.ZipFile(path, "w") as zf:
        for name in sorted(entries):
            data = entries[name]
            if isinstance(data, str):
                data = data.encode("utf-8")
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            if stored:
                info.compress_type = zipfile.ZIP_STORED
                zf.writestr(info, data)
            else:
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, data, compresslevel=6)


def sanity_check(path, entries):
    with zipfile.ZipFile(path) as zf:
        bad = zf.testzip()
        if bad is not None:
            raise SystemExit("%s: bad CRC in %s" % (path, bad))
        names = zf.namelist()
        lowered = [n.replace("\\", "/").lower() for n in names]
        if len(set(lowered)) != len(lowered):
            raise SystemExit("%s: entry names collide" % path)
        for name in names:
            data = zf.read(name)
            if data != (entries[name].encode("utf-8") if isinstance(entries[name], str) else entries[name]):
                raise SystemExit("%s: %s does not round-trip" % (path, name))
            if name.lower().endswith((".xml", ".rels", ".vml")):
                try:
                    xml.dom.minidom.parseString(data)
                except Exception as exc:  # noqa: BLE001 - report any parser failure
                    raise SystemExit("%s: %s is not well-formed: %s" % (path, name, exc))


def generate(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for fn in FIXTURES:
        name = fn.__name__
        entries, outputs = fn()
        stored = outputs.pop("_stored", False)
        xlsx = os.path.join(out_dir, name + ".xlsx")
        write_zip(xlsx, entries, stored=stored)
        sanity_check(xlsx, entries)
        written.append(xlsx)
        for key, text in outputs.items():
            fname = name + (".expected.jsonl" if key == "expected" else "." + key)
            if fname.endswith(".json"):
                json.loads(text)
            else:
                for line in text.splitlines():
                    json.loads(line)
            p = os.path.join(out_dir, fname)
            with open(p, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            written.append(p)
    p = os.path.join(out_dir, "README.md")
    with open(p, "w", encoding="utf-8", newline="\n") as f:
        f.write(README)
    written.append(p)
    return written


def check():
    with tempfile.TemporaryDirectory() as tmp:
        fresh = generate(tmp)
        status = 0
        for p in fresh:
            name = os.path.basename(p)
            committed = os.path.join(OUT_DIR, name)
            if not os.path.exists(committed):
                print("missing: %s" % name)
                status = 1
                continue
            with open(p, "rb") as a, open(committed, "rb") as b:
                new, old = a.read(), b.read()
            if new == old:
                continue
            status = 1
            if name.endswith(".xlsx"):
                with zipfile.ZipFile(p) as za, zipfile.ZipFile(committed) as zb:
                    same = (za.namelist() == zb.namelist()
                            and all(za.read(n) == zb.read(n) for n in za.namelist()))
                print("differs: %s (%s)" % (name, "same entry contents; compressed bytes differ" if same
                                             else "entry contents differ"))
            else:
                print("differs: %s" % name)
        known = {os.path.basename(p) for p in fresh}
        for name in sorted(os.listdir(OUT_DIR)):
            if name not in known:
                print("stale: %s" % name)
                status = 1
        if status == 0:
            print("all %d files identical" % len(fresh))
        return status


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="regenerate into a temp dir and compare")
    args = ap.parse_args()
    if args.check:
        sys.exit(check())
    for p in generate(OUT_DIR):
        print(os.path.relpath(p, os.path.dirname(HERE)))


if __name__ == "__main__":
    main()
