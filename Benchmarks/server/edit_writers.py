#!/usr/bin/env python3
"""Concurrent writers through two instances on one PostgreSQL database (issue 25's third goal).

    python3 Benchmarks/server/edit_writers.py --sheetport .build/release/sheetport
        [--writers 10] [--writes 50] [--rows 2000] [--instances 2]

Starts INSTANCES `sheetport serve --database` on a new database of the cluster `instances.py`
uses (SHEETPORT_TEST_POSTGRES, or a throwaway one of Scripts/postgres.sh). Each of WRITERS
writers creates its own sheet, writes a ROWS-row running total into it in one batch (column A
numbers, column B `=B{n-1}+A{n}`), then WRITES single-cell writes of A1 (every total depends on
it), alternating the instances write by write. Every write must answer 200 with a version one
past the writer's last one; at the end each sheet's last total must be what the writes make it,
read through the other instance. Prints throughput (writes/s of the write phase, the sheets'
setup apart), p50 and p95, errors, and each instance's peak resident memory (VmHWM) beside the
default `--calc-memory` (512M) plus 128 MB. Loopback only.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from instances import Cluster, Instance, peak_mib  # noqa: E402


def call(instance, token, method, path, body=None):
    connection, response = instance.request(token, method, path, body=json.dumps(body).encode() if body is not None else None,
                                            headers={"Content-Type": "application/json"} if body is not None else None)
    text = response.read()
    connection.close()
    return response.status, json.loads(text) if text else None


def prepare(number, instances, token, args):
    """A writer's own sheet with its running total; returns (sheet id, version, failures)."""
    status, created = call(instances[0], token, "POST", "/api/sheets", {"name": f"writer {number}"})
    if status != 201:
        return None, 0, [f"writer {number}: create answered {status}: {created}"]
    cells = [{"ref": "A1", "input": "1"}, {"ref": "B1", "input": "=A1"}]
    for row in range(2, args.rows + 1):
        cells += [{"ref": f"A{row}", "input": str(row % 7)}, {"ref": f"B{row}", "input": f"=B{row - 1}+A{row}"}]
    status, answer = call(instances[1 % len(instances)], token, "POST", f"/api/sheets/{created['id']}/cells", {"cells": cells})
    if status != 200:
        return None, 0, [f"writer {number}: the running total answered {status}: {str(answer)[:300]}"]
    return created["id"], answer["version"], []


def writer(number, sheet, version, instances, token, args):
    """One writer's WRITES writes of A1 on its sheet; returns (write seconds, failures)."""
    failures = []
    times = []
    for index in range(args.writes):
        instance = instances[(number + index) % len(instances)]
        started = time.monotonic()
        status, answer = call(instance, token, "POST", f"/api/sheets/{sheet}/cells", {"cells": [{"ref": "A1", "input": str(index + 2)}]})
        times.append(time.monotonic() - started)
        if status != 200:
            failures.append(f"writer {number}, write {index + 1}: {status} {str(answer)[:300]}")
            continue
        if answer["version"] != version + 1:
            failures.append(f"writer {number}, write {index + 1}: version {answer['version']} after {version}")
        version = answer["version"]
    expected = (args.writes + 1) + sum(row % 7 for row in range(2, args.rows + 1))
    status, window = call(instances[(number + args.writes) % len(instances)], token, "GET", f"/api/sheets/{sheet}/rows?start={args.rows}&count=1")
    last = window["rows"][0]["cells"][1]["value"] if status == 200 and window["rows"] else None
    if last != expected:
        failures.append(f"writer {number}: last total {last}, expected {expected}")
    return times, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sheetport", required=True)
    parser.add_argument("--writers", type=int, default=10)
    parser.add_argument("--writes", type=int, default=50)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--instances", type=int, default=2)
    args = parser.parse_args()
    sheetport = os.path.abspath(args.sheetport)
    folder = tempfile.mkdtemp(prefix="sheetport-writers-")
    cluster = Cluster()
    instances = []
    try:
        url = cluster.create_database(f"writers_{os.getpid()}")
        key_file = os.path.join(folder, "seal.key")
        for index in range(args.instances):
            instance = Instance(sheetport, os.path.join(folder, f"instance-{index + 1}"), url, key_file)
            instances.append(instance)
        token = subprocess.run([sheetport, "token", "issue", "--database", url, "--key-file", key_file, "--subject", "bench"], check=True,
                               capture_output=True, text=True, timeout=60).stdout.strip()
        times, failures = [], []
        with concurrent.futures.ThreadPoolExecutor(args.writers) as pool:
            prepared = list(pool.map(lambda n: prepare(n, instances, token, args), range(1, args.writers + 1)))
            failures += [f for p in prepared for f in p[2]]
            started = time.monotonic()
            futures = [pool.submit(writer, n + 1, sheet, version, instances, token, args)
                       for n, (sheet, version, _) in enumerate(prepared) if sheet]
            for future in futures:
                times += future.result()[0]
                failures += future.result()[1]
            wall = time.monotonic() - started
        peaks = [peak_mib(i.pid) for i in instances]
    finally:
        for instance in instances:
            instance.stop()
        cluster.stop()
    times.sort()
    p50 = times[len(times) // 2] if times else 0
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))] if times else 0
    budget = 512 + 128  # the instances run with the default --calc-memory (512M)
    print(f"| {args.writers} writers x {args.writes} writes of A1 ({args.rows:,}-row running total each), {args.instances} instances, PostgreSQL | |")
    print("|---|---|")
    print(f"| writes | {len(times)} in {wall:.2f} s: {len(times) / wall:.1f} writes/s |")
    print(f"| write p50 / p95 | {p50:.3f} / {p95:.3f} s |")
    print(f"| errors | {len(failures)} |")
    print(f"| peak RSS per instance | {', '.join(f'{p:.0f} MiB' for p in peaks)} (budget {budget} MiB) |")
    print(f"\nload average {os.getloadavg()[0]:.2f}")
    for failure in failures[:20]:
        print(failure)
    if failures:
        print(f"(run folder kept: {folder})")
        sys.exit(1)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
