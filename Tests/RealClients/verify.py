#!/usr/bin/env python3
"""Open written workbooks with four real clients and check they read the expected cells.

Usage:
    verify.py DIR [DIR ...]                       # every NAME.xlsx with a NAME.jsonl next to it
    verify.py --expected CELLS.jsonl BOOK.xlsx    # one pair (repeatable: --expected A.jsonl A.xlsx ...)
    options: --clients openpyxl,calamine,libreoffice,gnumeric  --strict  --timeout S  --keep DIR

The JSONL (Docs/Reference/Formats.md, "Cell JSONL") lists the cells that were written into the first worksheet
of the workbook. Each workbook is opened by:

  openpyxl     load_workbook(data_only=True) for cached values (through
               Tests/ValueAgreement/oracle.py, same normalisation), and data_only=False for the
               formula text; any warning openpyxl emits while loading is a failure.
  calamine     python-calamine CalamineWorkbook...to_python() (through oracle.py).
  libreoffice  soffice --headless --convert-to csv, "save cell contents as shown" off, private
               profile, timeout. No CSV, or an empty CSV for a workbook with cells, is a failure.
  gnumeric     ssconvert with the configurable text exporter, format=raw (unformatted values);
               messages on stderr about the file are failures, except a short explicit list of
               tolerated messages (TOLERATED_GNUMERIC, shown on the line; --strict fails them).

One line per workbook per client ("ok" or "FAIL: reason, first differing cell"), then a summary;
exit status 0 when every check passed, 1 when any failed, 2 on usage errors or missing clients.
The comparison rules are in README.md next to this file and in the match_* functions below.
"""

import argparse
import csv
import datetime as dt
import json
import math
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import warnings
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "ValueAgreement"))

try:
    import oracle  # noqa: E402  (Tests/ValueAgreement/oracle.py: readers and normalisation)
    import openpyxl  # noqa: E402,F401
    import python_calamine  # noqa: E402,F401
except ImportError:
    venv_python = ROOT / ".venv" / "bin" / "python"
    if venv_python.exists() and Path(sys.prefix).resolve() != (ROOT / ".venv").resolve():
        os.execv(str(venv_python), [str(venv_python), __file__] + sys.argv[1:])
    sys.exit("verify.py: needs openpyxl and python-calamine; run Scripts/venv.sh "
             "and use .venv/bin/python")

from compare import REF_RE, col_number  # noqa: E402  (Tests/ValueAgreement/compare.py)

CLIENTS = ("openpyxl", "calamine", "libreoffice", "gnumeric")
EPOCH_1900 = dt.datetime(1899, 12, 30)
EPOCH_1904 = dt.datetime(1904, 1, 1)
VERBOSE = False  # -v: list every differing cell
HALF_MS_DAYS = 0.0005 / 86400  # JSONL dates are rounded to the millisecond

# Gnumeric stderr lines that are not about the file (GTK/GLib/dbus environment noise).
GNUMERIC_NOISE = [
    re.compile(p) for p in (
        r"^\(ssconvert:\d+\): (Gtk|Gdk|GLib-GIO|dbind|dconf|GLib-GObject|GdkPixbuf)-",
        r"^\*\* \(ssconvert:\d+\): WARNING \*\*: .*(dbus|D-Bus|accessibility|AT-SPI|atk-bridge)",
        r"Failed to connect to the session bus|Unable to acquire session bus|Error retrieving accessibility bus",
        r"^\s*$",
    )
]

# Gnumeric messages about the file that real producers trigger and that are Gnumeric's reader
# limitations rather than defects of the file. They are reported on the line ("ok*") and
# counted in the summary; --strict makes them failures. SheetPort's writer should trigger none.
TOLERATED_GNUMERIC = [
    (re.compile(r"^Unhandled object of type Note$"),
     "Gnumeric does not import legacy VML comment shapes (Excel, XlsxWriter and LibreOffice write them for every comment)"),
    (re.compile(r"^Unexpected element '(workbookProtection|x:TextHAlign|x:TextVAlign)' in state"),
     "element valid in the schema that Gnumeric's xlsx reader has no handler for (openpyxl writes an empty <workbookProtection/>, LibreOffice VML text alignment)"),
    (re.compile(r"^Undefined number format id '4[1-4]'$"),
     "ids 41-44 are Excel's locale-dependent accounting formats, used without a <numFmt> by LibreOffice's cell styles; not in ECMA-376's built-in table"),
]

# openpyxl warnings that real producers trigger on valid files (same treatment as above).
TOLERATED_OPENPYXL = [
    (re.compile(r"^Workbook contains no default style, apply openpyxl's default$"),
     "Gnumeric writes no <cellStyles> (optional in ECMA-376); openpyxl then adds its own Normal style"),
]


# ---------------------------------------------------------------- expected cells

class Cell:
    """One expected cell from the JSONL."""
    __slots__ = ("ref", "type", "value", "formula")

    def __init__(self, ref, typ, value, formula):
        self.ref, self.type, self.value, self.formula = ref, typ, value, formula

    @property
    def has_value(self):
        """A value a client must show (not a formula without cached value, not "")."""
        return self.type != "empty" and not (self.type == "string" and self.value == "")


def pos_of(ref):
    """'B3' -> (3, 2)."""
    m = REF_RE.match(ref.upper())
    if not m:
        raise ValueError(f"bad ref {ref!r}")
    return int(m.group(2)), col_number(m.group(1))


def load_expected(path):
    """Read the JSONL into {(row, col): Cell}."""
    cells = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh.read().split("\n"), 1):
            if not line.strip():
                continue
            obj = json.loads(line)
            pos = pos_of(str(obj["ref"]))
            if pos in cells:
                raise ValueError(f"{path}:{n}: duplicate ref {obj['ref']}")
            cells[pos] = Cell(oracle.col_letters(pos[1]) + str(pos[0]), obj["type"],
                              obj.get("value"), obj.get("formula"))
    return cells


def date1904(book):
    """True when the workbook uses the 1904 date system (workbookPr/@date1904)."""
    try:
        with zipfile.ZipFile(book) as z:
            names = {n.lower(): n for n in z.namelist()}
            for cand in ("xl/workbook.xml", "workbook.xml"):
                if cand in names:
                    xml = z.read(names[cand])[:20000].decode("utf-8", "replace")
                    return bool(re.search(r"date1904\s*=\s*[\"'](1|true)[\"']", xml))
    except (zipfile.BadZipFile, OSError):
        pass
    return False


def parse_iso(text):
    """'YYYY-MM-DDTHH:MM:SS.sss' -> datetime."""
    return dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f")


def iso_to_serials(text, is1904):
    """The spreadsheet serials a JSONL date may come from (inverse of the contract's rendering).

    Before 1900-01-01 (times of day on 1899-12-30, elapsed times like [h]:mm): days since
    1899-12-30, in both date systems. 1904 system: days since 1904-01-01. 1900 system: serial
    1 = 1900-01-01; serials below 61 skip Excel's fictitious 1900-02-29 (serial 60), which the
    contract renders as 1900-02-28, so 1900-02-28 is serial 59 or 60.
    """
    when = parse_iso(text)
    if when < dt.datetime(1900, 1, 1):
        return [(when - EPOCH_1900) / dt.timedelta(days=1)]
    if is1904:
        return [(when - EPOCH_1904) / dt.timedelta(days=1)]
    serial = (when - EPOCH_1900) / dt.timedelta(days=1)
    if when >= dt.datetime(1900, 3, 1):
        return [serial]
    if when.date() == dt.date(1900, 2, 28):
        return [serial - 1, serial]
    return [serial - 1]


def lo_instants(text, is1904):
    """The instants LibreOffice shows for a JSONL date: its epoch plus the serial.

    LibreOffice has no fictitious 1900-02-29, so serials 1-60 show one day earlier than in
    Excel (serial 1 is 1899-12-31), and in 1904 workbooks a serial below 1 shows on
    1904-01-01 where the contract puts it on 1899-12-30.
    """
    epoch = EPOCH_1904 if is1904 else EPOCH_1900
    return [epoch + dt.timedelta(days=s) for s in iso_to_serials(text, is1904)]


# ---------------------------------------------------------------- comparison

def compare(expected, observed, match, client, skip_missing=lambda cell: False):
    """Compare {pos: Cell} with a client's {pos: observed}; return (ok, reason).

    Every expected value must be there and match; the client must show nothing where the
    JSONL has no cell. Formulas without a cached value (type empty): the caller decides
    whether the client may show a value (recalculating clients do).
    """
    diffs = []
    for pos in sorted(set(expected) | set(observed)):
        cell, obs = expected.get(pos), observed.get(pos)
        ref = oracle.col_letters(pos[1]) + str(pos[0])
        if cell is None:
            diffs.append(f"{ref}: extra cell {show(obs)} (nothing expected)")
        elif not cell.has_value:
            if obs is not None and client in ("openpyxl", "calamine"):
                diffs.append(f"{ref}: expected no cached value ({cell.type} {cell.value!r}), "
                             f"got {show(obs)}")
        elif obs is None:
            if not skip_missing(cell):
                diffs.append(f"{ref}: missing, expected {cell.type} {show(cell.value)}")
        else:
            why = match(cell, obs)
            if why:
                diffs.append(f"{ref}: expected {cell.type} {show(cell.value)}, got {show(obs)}"
                             + (f" ({why})" if why is not True else ""))
    if diffs:
        if VERBOSE:
            return False, f"{len(diffs)} differences:\n    " + "\n    ".join(diffs)
        more = f" (+{len(diffs) - 1} more)" if len(diffs) > 1 else ""
        return False, diffs[0] + more
    return True, ""


def show(value):
    """Short repr for messages."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, tuple) else \
        f"{value[0]} {json.dumps(value[1], ensure_ascii=False)}"
    return text if len(text) <= 80 else text[:60] + "..." + text[-17:]


def same_number(a, b, rel):
    """a == b, or within rel relative tolerance (rel 0: exact)."""
    a, b = float(a), float(b)
    if a == b:
        return True
    return rel > 0 and abs(a - b) <= rel * max(abs(a), abs(b))


def match_typed(cell, obs):
    """openpyxl / calamine: normalised (type, value) equal; numbers exactly, dates as ISO text."""
    typ, value = obs
    if typ != cell.type:
        return f"type {typ}"
    if typ == "number":
        return None if same_number(value, cell.value, 0) else "number differs"
    return None if value == cell.value else "value differs"


# ---------------------------------------------------------------- CSV text matching

NUMBER_RE = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
DECOR_RE = re.compile(r"[,$€£¥\s]")  # thousands separators and currency symbols (en-US)


def number_from_text(text):
    """Parse a CSV number; return (value, half a unit of the last shown digit) or None.

    Handles plain and scientific numbers, percentages, thousands separators, currency
    symbols and accounting parentheses for negatives.
    """
    t = text.strip()
    negative = t.startswith("(") and t.endswith(")")
    if negative:
        t = t[1:-1]
    percent = t.endswith("%")
    if percent:
        t = t[:-1]
    t = DECOR_RE.sub("", t)
    if t.startswith("-$") or t.startswith("$-"):
        t = "-" + t[2:]
    if not NUMBER_RE.match(t):
        return None
    mantissa, _, exponent = t.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    scale = 10.0 ** (int(exponent) if exponent else 0) * (0.01 if percent else 1.0)
    value = float(t) * (0.01 if percent else 1.0)
    return (-value if negative else value), 0.5 * 10.0 ** -decimals * scale


def match_csv_number(text, expected, rel):
    """A CSV number against an expected double: exact, within the shown precision, or rel."""
    parsed = number_from_text(text)
    if parsed is None:
        return "not a number"
    value, half_unit = parsed
    if same_number(value, expected, rel):
        return None
    if abs(value - float(expected)) <= half_unit * (1 + 1e-9):
        return None
    return "number differs"


DATE_PATTERNS = [
    # (regex, kind); kind: "date" (day resolution), "datetime", "mdy", "mdy-time", "time"
    (re.compile(r"^(\d{4})-(\d{2})-(\d{2})$"), "date"),
    (re.compile(r"^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?(?: ?([AaPp][Mm]))?$"), "datetime"),
    (re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})$"), "date"),
    (re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?(?: ?([AaPp][Mm]))?$"), "datetime"),
    (re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})$"), "mdy"),
    (re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4}) (\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?(?: ?([AaPp][Mm]))?$"), "mdy-time"),
    (re.compile(r"^(\d+):(\d{2})(?::(\d{2}(?:\.\d+)?))?(?: ?([AaPp][Mm]))?$"), "time"),
]


def _hour(h, ampm):
    h = int(h)
    if ampm:
        h = h % 12 + (12 if ampm.upper() == "PM" else 0)
    return h


def _resolution(minute, second):
    """Resolution of a shown time in seconds: 60 without seconds, else the fraction shown."""
    if second is None:
        return 60.0
    decimals = len(second.partition(".")[2])
    return 10.0 ** -decimals


def match_csv_date(text, cell, is1904):
    """A date shown as text (LibreOffice CSV) against the JSONL ISO date.

    The shown value may be rounded or truncated to its resolution (a day, a minute, a second
    or the shown fraction of a second): it matches when it is less than one resolution unit
    away from the instant LibreOffice has for the cell (lo_instants). Times with no date shown
    are compared modulo 24 hours unless the hours run past 23 (elapsed-time formats like
    [h]:mm, compared as a duration from 1899-12-30). A plain number is compared with the serial.
    """
    wants = lo_instants(cell.value, is1904)
    for regex, kind in DATE_PATTERNS:
        m = regex.match(text.strip())
        if not m:
            continue
        g = m.groups()
        try:
            if kind in ("date", "mdy"):
                if kind == "date":
                    y, mo, d = int(g[0]), int(g[1]), int(g[2])
                else:
                    y, mo, d = _year(g[2]), int(g[0]), int(g[1])
                shown = dt.date(y, mo, d)
                return None if any(w.date() == shown for w in wants) else "date differs"
            if kind in ("datetime", "mdy-time"):
                if kind == "datetime":
                    y, mo, d = int(g[0]), int(g[1]), int(g[2])
                else:
                    y, mo, d = _year(g[2]), int(g[0]), int(g[1])
                shown = dt.datetime(y, mo, d, _hour(g[3], g[6]), int(g[4])) + \
                    dt.timedelta(seconds=float(g[5] or 0))
                res = _resolution(g[4], g[5])
                ok = any(abs((w - shown).total_seconds()) < res for w in wants)
                return None if ok else "date-time differs"
            # time only
            hours = _hour(g[0], g[3])
            shown = hours * 3600 + int(g[1]) * 60 + float(g[2] or 0)
            res = _resolution(g[1], g[2])
            since_epoch = (parse_iso(cell.value) - EPOCH_1900).total_seconds()
            if hours >= 24:
                diff = abs(since_epoch - shown)
            else:
                diff = abs((since_epoch - shown + 43200) % 86400 - 43200)
            return None if diff < res else "time differs"
        except ValueError:
            return "unparsable date"
    if number_from_text(text) is not None:
        oks = [match_csv_number(text, s, 1e-15) for s in iso_to_serials(cell.value, is1904)]
        return None if None in oks else "serial differs"
    return "not a date"


def _year(text):
    """Two-digit years as LibreOffice en-US reads them (30-99: 19xx)."""
    y = int(text)
    return y if len(text) > 2 else y + (2000 if y < 30 else 1900)


def match_csv(cell, text, is1904, rel, client):
    """One CSV field against an expected cell (LibreOffice shown values, Gnumeric raw)."""
    if cell.type == "string":
        return None if text == cell.value else "string differs"
    if cell.type == "boolean":
        return None if text.upper() == ("TRUE" if cell.value else "FALSE") else "boolean differs"
    if cell.type == "error":
        return None if text == cell.value else "error differs"
    if cell.type == "number":
        return match_csv_number(text, cell.value, rel)
    if cell.type == "date":
        if client == "gnumeric":  # format=raw: the serial; the JSONL is rounded to the ms
            parsed = number_from_text(text)
            if parsed is None:
                return "not a serial"
            diff = min(abs(parsed[0] - s) for s in iso_to_serials(cell.value, is1904))
            return None if diff <= HALF_MS_DAYS * (1 + 1e-6) + 1e-12 else "serial differs"
        return match_csv_date(text, cell, is1904)
    return f"unknown type {cell.type}"


def read_csv(path):
    """{(row, col): text} of the non-empty fields of a CSV file (UTF-8)."""
    cells = {}
    with open(path, encoding="utf-8-sig", newline="") as fh:
        for r, row in enumerate(csv.reader(fh), 1):
            for c, text in enumerate(row, 1):
                if text != "":
                    cells[(r, c)] = text
    return cells


# ---------------------------------------------------------------- clients

def run(cmd, timeout, env=None, mem_mib=0):
    """Run cmd in its own process group; (rc or None on timeout, stdout, stderr) as text.

    mem_mib limits the child's address space (python-calamine aborts the whole process on a
    failed allocation, e.g. a lying <dimension>; in a child that is just a failed check).
    """
    limit = mem_mib * 1024 * 1024
    preexec = (lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))) if mem_mib else None
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True, env=env,
                            preexec_fn=preexec)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


class Book:
    """One workbook under test and what the clients need to know about it."""

    def __init__(self, xlsx, jsonl):
        self.xlsx, self.jsonl = Path(xlsx), Path(jsonl)
        self.name = self.xlsx.name
        self.expected = load_expected(self.jsonl)
        self.is1904 = date1904(self.xlsx)
        self.sheet_name = None   # first worksheet, set by check_openpyxl
        self.sheet_index = None  # its 1-based position among all sheets (LibreOffice)
        self.formula_recalc_rel = 1e-12


def first_sheet_info(book):
    """(name, 1-based index among all sheets) of the first worksheet, from the package."""
    oracle.patch_openpyxl()
    oracle.WORKSHEET_NAMES.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_openpyxl reports them
        wb = openpyxl.load_workbook(book.xlsx, read_only=True)
    try:
        name = oracle.WORKSHEET_NAMES[0]
        return name, wb.sheetnames.index(name) + 1
    finally:
        wb.close()


def check_openpyxl(book, args):
    """Cached values (data_only=True, via oracle.py), formulas (data_only=False), warnings."""
    oracle.patch_openpyxl()
    oracle.WORKSHEET_NAMES.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wb = openpyxl.load_workbook(book.xlsx, data_only=False)
    failing, tolerated = [], []
    for w in caught:
        msg = f"{w.category.__name__}: {w.message}"
        reason = next((why for rx, why in TOLERATED_OPENPYXL if rx.search(str(w.message))), None)
        (failing if reason is None or args.strict else tolerated).append(msg)
    if failing:
        msgs = "; ".join(dict.fromkeys(failing))
        return False, f"openpyxl warned while loading: {msgs[:300]}"
    ws = wb.worksheets[0]
    # formulas: every expected formula, and no formula where none is expected
    formulas = {}
    for (row, col), c in ws._cells.items():
        if c.data_type == "f":
            value = c.value
            text = getattr(value, "text", value)  # ArrayFormula / DataTableFormula
            formulas[(row, col)] = str(text or "")
    for pos in sorted(set(formulas) | {p for p, c in book.expected.items() if c.formula}):
        cell = book.expected.get(pos)
        want = ("=" + cell.formula) if cell and cell.formula else None
        got = formulas.get(pos)
        if got is not None and not got.startswith("="):
            got = "=" + got
        if want != got:
            ref = oracle.col_letters(pos[1]) + str(pos[0])
            return False, f"{ref}: formula expected {show(want)}, got {show(got)}"
    oracle.WORKSHEET_NAMES.clear()
    notes = []
    observed = {}
    for row, col, typ, value in oracle.read_openpyxl(str(book.xlsx),
                                                     lambda kind, text: notes.append(text)):
        observed[(row, col)] = (typ, value)
    ok, reason = compare(book.expected, observed, match_typed, "openpyxl")
    if ok and tolerated:
        return True, "tolerated: " + "; ".join(dict.fromkeys(tolerated))
    return ok, reason


def check_calamine(book, args):
    """Values through python-calamine; it cannot represent error cells (they read as '')."""
    observed = {}
    for row, col, typ, value in oracle.read_calamine(str(book.xlsx), lambda kind, text: None):
        observed[(row, col)] = (typ, value)
    return compare(book.expected, observed, match_typed, "calamine",
                   skip_missing=lambda cell: cell.type == "error")


LO_FILTER = "Text - txt - csv (StarCalc)"


def check_libreoffice(book, args):
    """soffice --convert-to csv (values not as shown, en-US, UTF-8), first worksheet only."""
    out = Path(tempfile.mkdtemp(prefix="lo-", dir=args.work))
    # Tokens: separator ',', text delimiter '"', UTF-8 (76), start row 1, no column formats,
    # language en-US (1033), quoted field as text off, detect special numbers on,
    # save cell contents as shown OFF, export formulas off, remove spaces off,
    # sheet N (1-based; the first worksheet's position among all sheets).
    options = f"44,34,76,1,,1033,false,true,false,false,false,{book.sheet_index}"
    cmd = [args.soffice, f"-env:UserInstallation={args.lo_profile}", "--headless", "--norestore",
           "--nolockcheck", "--convert-to", f"csv:{LO_FILTER}:{options}", "--outdir", str(out),
           str(book.xlsx)]
    rc, stdout, stderr = run(cmd, args.timeout)
    if rc is None:
        return False, f"soffice timed out after {args.timeout}s"
    produced = sorted(out.glob("*.csv"))
    if rc != 0 or not produced:
        msg = " ".join((stderr + " " + stdout).split())
        msg = re.sub(r"Warning: failed to launch javaldx - java may not function correctly ?", "", msg)
        return False, f"soffice did not convert (exit {rc}): {msg[:300]}"
    observed = read_csv(produced[0])
    if not observed and any(c.has_value for c in book.expected.values()):
        return False, "soffice wrote an empty CSV"
    return compare(book.expected, observed,
                   lambda cell, text: match_csv(cell, text, book.is1904,
                                                book.formula_recalc_rel if cell.formula else 1e-15,
                                                "libreoffice"),
                   "libreoffice")


def gnumeric_quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def check_gnumeric(book, args):
    """ssconvert with the configurable text exporter, raw values, the first worksheet."""
    out = Path(tempfile.mkdtemp(prefix="gn-", dir=args.work)) / "out.csv"
    options = "format=raw separator=, quoting-mode=auto charset=UTF-8 eol=unix"
    if book.sheet_name is not None:
        options += f" sheet={gnumeric_quote(book.sheet_name)}"
    env = dict(os.environ, NO_AT_BRIDGE="1", GIO_USE_VFS="local")
    rc, stdout, stderr = run([args.ssconvert, "-T", "Gnumeric_stf:stf_assistant", "-O", options,
                              str(book.xlsx), str(out)], args.timeout, env)
    if rc is None:
        return False, f"ssconvert timed out after {args.timeout}s"
    # Multi-line messages: a line starting with a tab continues the previous one.
    messages = []
    for line in (stderr + stdout).splitlines():
        if line.startswith("\t") and messages:
            messages[-1] += " " + line.strip()
        elif not any(p.search(line) for p in GNUMERIC_NOISE):
            messages.append(line.strip())
    failing, tolerated = [], []
    for msg in messages:
        reason = next((why for rx, why in TOLERATED_GNUMERIC if rx.search(msg)), None)
        if reason is None or args.strict:
            failing.append(msg)
        else:
            tolerated.append(msg)
    if rc != 0 or not out.exists():
        return False, f"ssconvert failed (exit {rc}): {'; '.join(messages)[:300]}"
    if failing:
        uniq = list(dict.fromkeys(failing))
        return False, f"ssconvert warned: {'; '.join(uniq)[:300]}"
    observed = read_csv(out)
    # ssconvert's text export starts at the top-left cell of the used range, not at A1
    # (it does so for workbooks from any producer): move its fields back into place.
    if book.expected:
        top = min(r for r, _ in book.expected) - 1
        left = min(c for _, c in book.expected) - 1
        observed = {(r + top, c + left): text for (r, c), text in observed.items()}
    ok, reason = compare(book.expected, observed,
                         lambda cell, text: match_csv(cell, text, book.is1904,
                                                      book.formula_recalc_rel if cell.formula else 1e-15,
                                                      "gnumeric"),
                         "gnumeric")
    if ok and tolerated:
        return True, "tolerated: " + "; ".join(dict.fromkeys(tolerated))
    return ok, reason


CHECKS = {"openpyxl": check_openpyxl, "calamine": check_calamine,
          "libreoffice": check_libreoffice, "gnumeric": check_gnumeric}
IN_PROCESS = ("openpyxl", "calamine")  # Python libraries: run in a child process each


def in_child(what, book, args):
    """Run a Python-library step (a client check, or "info") in a child process.

    Returns the child's JSON answer; a crash, timeout or memory exhaustion is a failure.
    """
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", what,
           str(book.xlsx), str(book.jsonl)] + (["--strict"] if args.strict else []) \
        + (["-v"] if args.verbose else [])
    rc, out, err = run(cmd, args.timeout, mem_mib=args.mem_limit)
    if rc is None:
        raise RuntimeError(f"timed out after {args.timeout}s")
    lines = out.strip().splitlines()
    if rc != 0 or not lines:
        lines = [l.strip() for l in err.strip().splitlines() if l.strip()]
        tail = lines[-1:] if "Traceback (most recent call last):" in err else lines[:3]
        raise RuntimeError(f"crashed (exit {rc}): {' | '.join(tail)[:300]}")
    return json.loads(lines[-1])


def worker(what, xlsx, jsonl, args):
    """--worker mode: one step for one workbook; prints a JSON line."""
    book = Book(xlsx, jsonl)
    if what == "info":
        name, index = first_sheet_info(book)
        print(json.dumps({"name": name, "index": index}))
        return 0
    try:
        ok, reason = CHECKS[what](book, args)
    except (Exception, MemoryError) as exc:
        ok, reason = False, f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    print(json.dumps({"ok": ok, "reason": reason}, ensure_ascii=False))
    return 0


# ---------------------------------------------------------------- main

def collect(args, ap):
    """The (xlsx, jsonl) pairs to verify."""
    pairs = []
    for jsonl, xlsx in args.expected or []:
        pairs.append((Path(xlsx), Path(jsonl)))
    for d in args.dirs:
        d = Path(d)
        if d.is_file() and d.suffix.lower() in (".xlsx", ".xlsm"):
            pairs.append((d, d.with_suffix(".jsonl")))
            continue
        if not d.is_dir():
            ap.error(f"not a directory or workbook: {d}")
        found = sorted(p for p in d.iterdir() if p.suffix.lower() in (".xlsx", ".xlsm"))
        for x in found:
            if x.with_suffix(".jsonl").exists():
                pairs.append((x, x.with_suffix(".jsonl")))
            else:
                print(f"verify: skipping {x} (no {x.with_suffix('.jsonl').name})", file=sys.stderr)
    for x, j in pairs:
        if not x.is_file() or not j.is_file():
            ap.error(f"missing file: {x if not x.is_file() else j}")
    return pairs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See Tests/RealClients/README.md for the comparison rules.")
    ap.add_argument("dirs", nargs="*", help="directories of NAME.xlsx + NAME.jsonl pairs "
                                            "(or workbooks with a .jsonl next to them)")
    ap.add_argument("--expected", nargs=2, action="append", metavar=("CELLS.jsonl", "BOOK.xlsx"),
                    help="one pair; repeatable")
    ap.add_argument("--clients", default=",".join(CLIENTS),
                    help="comma-separated subset of " + ",".join(CLIENTS))
    ap.add_argument("--strict", action="store_true",
                    help="tolerated client messages (TOLERATED_GNUMERIC, TOLERATED_OPENPYXL) fail too")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per soffice/ssconvert run")
    ap.add_argument("--keep", help="keep the clients' CSV output in this directory")
    ap.add_argument("--mem-limit", type=int, default=2048,
                    help="address-space limit of the openpyxl/calamine child processes, MiB")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every differing cell")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose
    if args.worker:
        return worker(args.worker, args.dirs[0], args.dirs[1], args)
    clients = [c.strip() for c in args.clients.split(",") if c.strip()]
    for c in clients:
        if c not in CLIENTS:
            ap.error(f"unknown client {c!r}")
    pairs = collect(args, ap)
    if not pairs:
        ap.error("no workbooks to verify")
    args.soffice = shutil.which("soffice") or shutil.which("libreoffice")
    args.ssconvert = shutil.which("ssconvert")
    missing = [c for c, exe in (("libreoffice", args.soffice), ("gnumeric", args.ssconvert))
               if c in clients and not exe]
    if missing:
        print(f"verify: {', '.join(missing)} not installed; run Scripts/setup.sh --clients "
              f"(or choose --clients)", file=sys.stderr)
        return 2

    if args.keep:
        Path(args.keep).mkdir(parents=True, exist_ok=True)
        args.work = tempfile.mkdtemp(prefix="verify-", dir=args.keep)
    else:
        args.work = tempfile.mkdtemp(prefix="sheetport-realclients-")
    args.lo_profile = Path(args.work, "lo-profile").as_uri()  # private LibreOffice profile

    failures, tolerated, checks = 0, 0, 0
    width = max(len(x.name) for x, _ in pairs)
    try:
        for xlsx, jsonl in pairs:
            try:
                book = Book(xlsx, jsonl)
            except (ValueError, KeyError, TypeError) as exc:  # json errors are ValueErrors
                print(f"{xlsx.name:<{width}}  {'*':<11}  FAIL: bad expected JSONL {jsonl}: "
                      f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}")
                failures += 1
                checks += 1
                continue
            try:  # the first worksheet's name and position, for LibreOffice and Gnumeric
                info = in_child("info", book, args)
                book.sheet_name, book.sheet_index = info["name"], info["index"]
            except Exception as exc:
                book.sheet_name, book.sheet_index = None, 1
                print(f"verify: {xlsx.name}: cannot tell the first worksheet ({exc}); "
                      f"using the first sheet", file=sys.stderr)
            for client in clients:
                checks += 1
                try:
                    if client in IN_PROCESS:
                        answer = in_child(client, book, args)
                        ok, reason = answer["ok"], answer["reason"]
                    else:
                        ok, reason = CHECKS[client](book, args)
                except Exception as exc:
                    ok, reason = False, f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
                if ok:
                    tolerated += bool(reason)
                    verdict = "ok" if not reason else f"ok* ({reason})"
                else:
                    failures += 1
                    verdict = f"FAIL: {reason}"
                print(f"{xlsx.name:<{width}}  {client:<11}  {verdict}", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(args.work, ignore_errors=True)
    print(f"real-clients: {len(pairs)} workbooks, {checks} checks, {checks - failures} passed "
          f"({tolerated} with tolerated client messages), {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
