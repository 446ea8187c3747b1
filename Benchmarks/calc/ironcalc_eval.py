#!/usr/bin/env python3
"""IronCalc's side of Benchmarks/calc.sh: load an xlsx, evaluate every formula, read one cell.

Usage: ironcalc_eval.py FILE.xlsx 'Sheet!M20001'   (prints the cell's value)
"""
import sys

import ironcalc


def main() -> None:
    path, ref = sys.argv[1], sys.argv[2]
    model = ironcalc.load_from_xlsx(path, "en", "UTC")
    model.evaluate()
    print(model.get_cell_value_by_ref(ref))


if __name__ == "__main__":
    main()
