#!/usr/bin/env python3
"""Whether two CSV files hold the same values: the same records, text equal, numbers within
1e-9 relative (engines print the last digits of a double differently). Prints the first
difference and exits 1, else prints how many values agree.

Usage: same_values.py A.csv B.csv
"""
import csv
import math
import sys


def same(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)


def main() -> None:
    with open(sys.argv[1], newline="") as fa, open(sys.argv[2], newline="") as fb:
        left, right = list(csv.reader(fa)), list(csv.reader(fb))
    if len(left) != len(right):
        print(f"{len(left)} records against {len(right)}")
        sys.exit(1)
    values = 0
    for n, (ra, rb) in enumerate(zip(left, right), start=1):
        if len(ra) != len(rb) or not all(same(a, b) for a, b in zip(ra, rb)):
            print(f"record {n} differs: {ra} against {rb}")
            sys.exit(1)
        values += len(ra)
    print(f"{values} values equal in {len(left)} records")


if __name__ == "__main__":
    main()
