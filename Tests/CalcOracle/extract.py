#!/usr/bin/env python3
"""Dump the formulas, constants, cached values, defined names and tables of workbooks as JSON.

For every .xlsx/.xlsm in SOURCE that has at least one formula, writes DEST/<name>.json:
{"file", "date1904", "sheets": [{"name", "cells": [{"ref", "f"?, "array"?, "v": typed value}]}],
 "names": [{"name", "value", "sheet"?}], "tables": [{"name", "sheet", "ref", "header", "totals", "columns"}]}
A typed value is {"t": "n"|"s"|"b"|"e"|"empty", "v": ...}. With a formula, "v" is the cached value
(from a data_only load). The SheetPortCalc oracle test loads these, drops the cached values,
recomputes and compares.

Usage: extract.py SOURCE_DIR DEST_DIR
       extract.py --ironcalc DEST_FILE [COUNT]   random formulas evaluated by IronCalc, as JSON
       (the SheetPortCalc differential test reads DEST_FILE from CALC_IRONCALC_FILE)
"""
import datetime
import json
import os
import resource
import signal
import sys
import warnings

import openpyxl
from openpyxl.utils.datetime import to_excel
from openpyxl.worksheet.formula import ArrayFormula

warnings.filterwarnings("ignore")


def typed(value, epoch):
    if value is None:
        return {"t": "empty"}
    if isinstance(value, bool):
        return {"t": "b", "v": value}
    if isinstance(value, (int, float)):
        return {"t": "n", "v": float(value)}
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return {"t": "n", "v": float(to_excel(value, epoch))}
    if isinstance(value, datetime.timedelta):
        return {"t": "n", "v": value.total_seconds() / 86400}
    text = str(value)
    if text in ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!", "#CALC!"):
        return {"t": "e", "v": text}
    return {"t": "s", "v": text}


def dump(path):
    wb = openpyxl.load_workbook(path, data_only=False)
    values = openpyxl.load_workbook(path, data_only=True)
    epoch = wb.epoch
    out = {"file": os.path.basename(path), "date1904": epoch != datetime.datetime(1899, 12, 30), "sheets": [], "names": [], "tables": []}
    formulas = 0
    for ws in wb.worksheets:
        vs = values[ws.title]
        cells = []
        for row in ws.iter_rows():
            for c in row:
                if c.value is None:
                    continue
                entry = {"ref": c.coordinate}
                cached = vs[c.coordinate].value
                link = vs[c.coordinate].hyperlink
                if link is not None and cached in (link.location, link.display, link.target):
                    cached = None  # openpyxl puts a hyperlink's text where a formula has no cached value
                if isinstance(c.value, ArrayFormula):
                    entry["f"] = (c.value.text or "").lstrip("=")
                    entry["array"] = c.value.ref
                    entry["v"] = typed(cached, epoch)
                    formulas += 1
                elif (c.data_type == "f" or (isinstance(c.value, str) and c.value.startswith("="))) and cached != c.value:
                    entry["f"] = str(c.value)[1:]
                    entry["v"] = typed(cached, epoch)
                    formulas += 1
                elif c.data_type == "e":
                    entry["v"] = {"t": "e", "v": str(c.value)}
                else:
                    entry["v"] = typed(c.value, epoch)
                cells.append(entry)
        # Members of array formulas carry only cached values.
        out["sheets"].append({"name": ws.title, "cells": cells})
        for table in ws.tables.values():
            out["tables"].append({
                "name": table.displayName or table.name, "sheet": ws.title, "ref": table.ref,
                "header": int(table.headerRowCount if table.headerRowCount is not None else 1),
                "totals": int(table.totalsRowCount or 0),
                "columns": [col.name for col in table.tableColumns],
            })
        try:
            for name, dn in ws.defined_names.items():
                out["names"].append({"name": name, "value": dn.attr_text, "sheet": ws.title})
        except AttributeError:
            pass
    try:
        items = wb.defined_names.items()
    except AttributeError:
        items = [(d.name, d) for d in wb.defined_names.definedName]
    for name, dn in items:
        if dn.localSheetId is not None:
            out["names"].append({"name": name, "value": dn.attr_text, "sheet": wb.sheetnames[dn.localSheetId]})
        else:
            out["names"].append({"name": name, "value": dn.attr_text})
    return out if formulas else None


def one(path, target):
    """Dumps one workbook in a child process with bounded memory and time; True when written."""
    pid = os.fork()
    if pid == 0:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        signal.alarm(120)
        code = 1
        try:
            data = dump(path)
            if data is not None:
                with open(target, "w") as f:
                    json.dump(data, f)
                code = 0
            else:
                code = 2
        except BaseException as exc:  # a workbook openpyxl cannot read is skipped
            print(f"skip {os.path.basename(path)}: {exc.__class__.__name__}: {exc}", file=sys.stderr)
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


INPUTS = {"A1": 1, "A2": -2.5, "A3": "3", "A4": True, "A5": "abc", "A7": 0, "A8": 1e10, "A9": " 12 ", "A10": "Hello World"}
FUNCTIONS = {
    "SUM": 3, "ROUND": 2, "ABS": 1, "IF": 3, "LEN": 1, "LEFT": 2, "MID": 3, "MOD": 2, "INT": 1, "AND": 2, "OR": 2,
    "NOT": 1, "MAX": 3, "MIN": 3, "AVERAGE": 2, "CONCATENATE": 2, "UPPER": 1, "TRIM": 1, "ISNUMBER": 1, "ISTEXT": 1,
    "IFERROR": 2, "SQRT": 1, "POWER": 2, "ROUNDUP": 2, "ROUNDDOWN": 2, "SIGN": 1, "EXACT": 2, "REPT": 2, "VALUE": 1,
    "FIND": 2, "SEARCH": 2, "SUBSTITUTE": 3, "RIGHT": 2, "LOWER": 1, "PRODUCT": 2, "COUNT": 3, "COUNTA": 3, "N": 1,
    "TRUNC": 1, "CEILING": 2, "FLOOR": 2, "EVEN": 1, "ODD": 1, "FACT": 1,
    "CHOOSE": 3, "ISBLANK": 1, "ISERROR": 1, "LN": 1, "EXP": 1, "LOG10": 1, "PROPER": 1, "CHAR": 1, "CODE": 1,
    # statistical
    "NORM.S.DIST": 2, "NORM.DIST": 4, "NORM.INV": 3, "BINOM.DIST": 4, "POISSON.DIST": 3, "EXPON.DIST": 3, "GAMMALN": 1,
    "FISHER": 1, "T.DIST": 3, "CHISQ.DIST": 3, "STANDARDIZE": 3, "PHI": 1, "PERMUT": 2, "AVEDEV": 3, "DEVSQ": 3,
    "GEOMEAN": 2, "STDEVA": 3, "WEIBULL.DIST": 4, "LOGNORM.DIST": 4, "GAMMA.DIST": 4,
}


def random_formula(rng, depth):
    if depth <= 0 or rng.random() < 0.25:
        kind = rng.random()
        if kind < 0.45:
            return rng.choice(list(INPUTS) + ["A6", "A1:A3", "A1:A10"]) if rng.random() < 0.8 else "A1:A10"
        if kind < 0.8:
            return rng.choice(["0", "1", "2", "-1", "0.5", "3.75", "10", "1E+3", "100", "0.1"])
        if kind < 0.95:
            return rng.choice(['"x"', '"12"', '""', '"Abc"', '" a b "', '"2024-01-31"'])
        return rng.choice(["TRUE", "FALSE"])
    if rng.random() < 0.4:
        op = rng.choice(["+", "-", "*", "/", "^", "&", "=", "<", ">", "<>"])
        return "(" + random_formula(rng, depth - 1) + op + random_formula(rng, depth - 1) + ")"
    name = rng.choice(sorted(FUNCTIONS))
    args = [random_formula(rng, depth - 1) for _ in range(FUNCTIONS[name])]
    return name + "(" + ",".join(args) + ")"


def financial_formulas():
    """The financial functions on realistic terms (a grid of dates, rates, frequencies and bases):
    random arguments give them errors mostly. Appended after the random formulas, whose sequence
    they leave unchanged."""
    spans = [("DATE(2008,2,15)", "DATE(2017,11,15)"), ("DATE(2011,1,25)", "DATE(2011,11,15)"),
             ("DATE(2020,2,29)", "DATE(2030,8,31)"), ("DATE(2023,1,31)", "DATE(2024,2,29)")]
    out = []
    for s, m in spans:
        for basis in range(5):
            for freq in (1, 2, 4):
                for name in ("COUPDAYBS", "COUPDAYS", "COUPDAYSNC", "COUPNCD", "COUPNUM", "COUPPCD"):
                    out.append(f"{name}({s},{m},{freq},{basis})")
                out += [f"PRICE({s},{m},0.0575,0.065,100,{freq},{basis})", f"YIELD({s},{m},0.0575,95.04,100,{freq},{basis})",
                        f"DURATION({s},{m},0.08,0.09,{freq},{basis})", f"MDURATION({s},{m},0.08,0.09,{freq},{basis})",
                        f"ACCRINT({s}-200,{s}+20,{m},0.1,1000,{freq},{basis})"]
            out += [f"DISC({s},{m},97.975,100,{basis})", f"INTRATE({s},{m},1000000,1014420,{basis})",
                    f"RECEIVED({s},{m},1000000,0.0575,{basis})", f"PRICEDISC({s},{m},0.0525,100,{basis})",
                    f"YIELDDISC({s},{m},99.795,100,{basis})", f"ACCRINTM({s},{m},0.1,1000,{basis})",
                    f"PRICEMAT({m},{m}+400,{s},0.061,0.065,{basis})", f"YIELDMAT({m},{m}+400,{s},0.0625,100.0123,{basis})",
                    f"AMORLINC(2400,{s},{s}+100,300,2,0.15,{basis})", f"AMORDEGRC(2400,{s},{s}+100,300,2,0.15,{basis})",
                    f"ODDLPRICE({s}+10,{s}+150,{s}-30,0.0375,0.0405,100,2,{basis})",
                    f"ODDLYIELD({s}+10,{s}+150,{s}-30,0.0375,99.875,100,2,{basis})"]
    for rate in ("0.1/12", "0.08", "-0.05", "0"):
        for typ in (0, 1):
            out += [f"PMT({rate},36,8000,100,{typ})", f"IPMT({rate},5,36,8000,100,{typ})", f"PPMT({rate},5,36,8000,100,{typ})",
                    f"FV({rate},36,-200,-500,{typ})", f"PV({rate},36,-200,500,{typ})", f"NPER({rate},-200,8000,100,{typ})",
                    f"CUMIPMT(0.09/12,360,125000,13,24,{typ})", f"CUMPRINC(0.09/12,360,125000,13,24,{typ})"]
        out += [f"ISPMT({rate},3,36,8000)", f"NPV({rate},-10000,3000,4200,6800)"]
    for period in (1, 2, 5, 7):
        out += [f"DB(1000000,100000,6,{period},7)", f"DDB(2400,300,10,{period},1.5)", f"SYD(30000,7500,10,{period})",
                f"VDB(2400,300,10,{period - 1},{period}+0.5)", f"VDB(2400,300,10,0,{period},1.5,TRUE)"]
    out += ["SLN(30000,7500,10)", "RATE(48,-200,8000)", "RATE(24,-1000,-10000,100000,1)", "EFFECT(0.0525,4)", "NOMINAL(0.053543,4)",
            "PDURATION(0.025,2000,2200)", "RRI(96,10000,11000)", "DOLLARDE(1.02,16)", "DOLLARFR(1.125,32)",
            "FVSCHEDULE(1,{0.09,0.11,0.1})", "IRR({-70000,12000,15000,18000,21000,26000})", "MIRR({-120000,39000,30000,21000,37000,46000},0.1,0.12)",
            "XNPV(0.09,{-10000,2750,4250,3250,2750},{39448,39508,39751,39859,39904})",
            "XIRR({-10000,2750,4250,3250,2750},{39448,39508,39751,39859,39904})",
            "TBILLEQ(DATE(2008,3,31),DATE(2008,6,1),0.0914)", "TBILLPRICE(DATE(2008,3,31),DATE(2008,6,1),0.09)",
            "TBILLYIELD(DATE(2008,3,31),DATE(2008,6,1),98.45)",
            "ODDFPRICE(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,10,15),DATE(2009,3,1),0.0785,0.0625,100,2,1)",
            "ODDFYIELD(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,10,15),DATE(2009,3,1),0.0575,84.5,100,2,0)"]
    return out


def family_formulas():
    """Engineering, math, text, information and date functions on realistic arguments (random ones
    give them errors mostly); appended after the financial formulas."""
    out = []
    for n in ("0", "1", "7", "-7", "100", "511", "-512", "2.5", "TRUE", '"12"'):
        out += [f"DEC2BIN({n})", f"DEC2OCT({n})", f"DEC2HEX({n})", f"DEC2HEX({n},8)", f"BITAND({n},12)", f"BITOR({n},5)",
                f"BITXOR({n},3)", f"BITLSHIFT({n},2)", f"BITRSHIFT({n},1)", f"DELTA({n},7)", f"GESTEP({n},1)",
                f"ERF({n})", f"ERFC({n})", f"ERF(0,{n})", f"FACTDOUBLE({n})", f"SQRTPI({n})", f"COMBINA({n},2)",
                f"COT({n})", f"CSC({n})", f"SEC({n})", f"COTH({n})", f"CSCH({n})", f"SECH({n})", f"ACOT({n})", f"ACOTH({n})",
                f"ASINH({n})", f"ACOSH({n})", f"ATANH({n})", f"ROMAN({n})", f"BASE({n},16)", f"BASE({n},2,12)"]
    for t in ('"101"', '"1111111111"', '"777"', '"7777777777"', '"FF"', '"FFFFFFFFFF"', '"1G"', '""'):
        out += [f"BIN2DEC({t})", f"OCT2DEC({t})", f"HEX2DEC({t})", f"BIN2HEX({t})", f"HEX2BIN({t})", f"OCT2HEX({t})",
                f"HEX2OCT({t})", f"BIN2OCT({t},4)", f"OCT2BIN({t})", f"DECIMAL({t},16)", f"DECIMAL({t},36)"]
    for x in ("0.5", "1", "2.5", "10", "32"):
        for n in (0, 1, 2, 5):
            out += [f"BESSELI({x},{n})", f"BESSELJ({x},{n})", f"BESSELK({x},{n})", f"BESSELY({x},{n})"]
    for z in ('"3+4i"', '"-2.5j"', '"i"', '"1-i"', '"0"', '"4+3i"', "7"):
        out += [f"IMABS({z})", f"IMAGINARY({z})", f"IMREAL({z})", f"IMARGUMENT({z})", f"IMCONJUGATE({z})", f"IMSIN({z})",
                f"IMCOS({z})", f"IMTAN({z})", f"IMSINH({z})", f"IMCOSH({z})", f"IMSEC({z})", f"IMCSC({z})", f"IMCOT({z})",
                f"IMSECH({z})", f"IMCSCH({z})", f"IMEXP({z})", f"IMLN({z})", f"IMLOG10({z})", f"IMLOG2({z})", f"IMSQRT({z})",
                f"IMPOWER({z},3)", f"IMDIV({z},\"1+2i\")", f"IMSUB({z},\"1+2i\")", f"IMSUM({z},\"1+2i\",3)",
                f"IMPRODUCT({z},\"1+2i\")"]
    out += ["COMPLEX(3,4)", 'COMPLEX(3,-4,"j")', "COMPLEX(0,1)", "COMPLEX(1.5,0)", "COMPLEX(0,0)"]
    for v, a, b in (("1", "m", "ft"), ("68", "F", "C"), ("1", "lbm", "kg"), ("1", "km", "mi"), ("100", "C", "K"), ("1", "gal", "l"),
                    ("1", "hr", "sec"), ("1", "atm", "Pa"), ("1", "kW", "HP"), ("1", "byte", "bit"), ("1", "ft2", "m2"),
                    ("1", "Nmi", "m"), ("1", "cal", "J"), ("1", "mph", "m/s"), ("1", "m", "sec"), ("2", "Rank", "Reau")):
        out.append(f'CONVERT({v},"{a}","{b}")')
    for r in ("499", "1999", "3999", "4"):
        for form in range(5):
            out.append(f"ROMAN({r},{form})")
    out += ['ARABIC("MCMXII")', 'ARABIC("mmxxiv")', 'ARABIC("IIII")', 'ARABIC("")', 'ARABIC("X1")',
            "MULTINOMIAL(2,3,4)", "MULTINOMIAL(0,1)", "SERIESSUM(2,0,1,{1,2,3})", "SERIESSUM(0.5,1,2,{2,2,2})",
            "SUMX2MY2({2,3,9},{6,5,11})", "SUMX2PY2({2,3,9},{6,5,11})", "SUMXMY2({2,3,9},{6,5,11})", "SUMXMY2({1,2},{1,2,3})",
            "GCD(24,36,8)", "LCM(4,6,10)", "SUM(MUNIT(3))"]
    h = '"Little Red Riding Hood\'s red hood"'
    for args in ('"Red"', '"red"', '"red",2', '"red",-1', '"red",2,1', '"hood",,1', '"x"', '"x",,,,"none"', '"d",-1,,1', '""'):
        out += [f"TEXTBEFORE({h},{args})", f"TEXTAFTER({h},{args})"]
    out += ['VALUETOTEXT("a")', 'VALUETOTEXT("a",1)', "VALUETOTEXT(12.5)", "VALUETOTEXT(TRUE,1)",
            'ARRAYTOTEXT({1,"a";TRUE,2})', 'ARRAYTOTEXT({1,"a";TRUE,2},1)', "ROWS(TEXTSPLIT(\"a,b;c\",\",\",\";\"))"]
    for s, e, w in (("DATE(2006,1,1)", "DATE(2006,1,31)", "1"), ("DATE(2006,1,1)", "DATE(2006,2,1)", "7"),
                    ("DATE(2020,2,1)", "DATE(2020,3,31)", '"0010001"'), ("DATE(2024,12,20)", "DATE(2024,12,1)", "11")):
        out += [f"NETWORKDAYS.INTL({s},{e},{w})", f"WORKDAY.INTL({s},15,{w})", f"WORKDAY.INTL({e},-15,{w})"]
    return out


def ironcalc(dest, count):
    import random
    import ironcalc as ic
    rng = random.Random(20261202)
    # (Date functions are left out: IronCalc panics on out-of-range dates.)

    def fresh():
        model = ic.create("model", "en", "UTC")
        for ref, value in INPUTS.items():
            row = int(ref[1:])
            if isinstance(value, bool):
                model.update_cell_with_bool(0, row, 1, value)
            elif isinstance(value, (int, float)):
                model.update_cell_with_number(0, row, 1, float(value))
            else:
                model.update_cell_with_text(0, row, 1, value)
        return model

    model = fresh()
    cases = []
    skipped = 0
    formulas = [random_formula(rng, 3) for _ in range(count)] + financial_formulas() + family_formulas()
    for f in formulas:
        try:
            model.set_user_input(0, 1, 3, "=" + f)
            model.evaluate()
            value = model.get_cell_value_by_ref("Sheet1!C1")
            kind = str(model.get_cell_type(0, 1, 3))
        except BaseException:  # IronCalc panics on some inputs: skip them, start a new model
            skipped += 1
            model = fresh()
            continue
        typed_value = {"t": "e", "v": value} if kind.endswith("ErrorValue") else typed(value, None)
        cases.append({"formula": f, "v": typed_value})
    print(f"{skipped} formulas IronCalc could not evaluate", file=sys.stderr)
    inputs = [{"ref": ref, "v": typed(value, None)} for ref, value in INPUTS.items()]
    with open(dest, "w") as out:
        json.dump({"inputs": inputs, "cases": cases}, out)
    print(f"{len(cases)} formulas evaluated by IronCalc written to {dest}")


def main():
    if sys.argv[1] == "--ironcalc":
        ironcalc(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 2000)
        return
    source, dest = sys.argv[1], sys.argv[2]
    os.makedirs(dest, exist_ok=True)
    written = 0
    for name in sorted(os.listdir(source)):
        if not name.lower().endswith((".xlsx", ".xlsm")):
            continue
        if one(os.path.join(source, name), os.path.join(dest, name + ".json")):
            written += 1
    print(f"{written} workbooks with formulas written to {dest}")


if __name__ == "__main__":
    main()
