#!/usr/bin/env python3
"""Issue 35, attack 4: one user's long write against another user's small reads.

Starts `sheetport serve` (the binary given) on a fresh data directory, has "ann" store
A1:A{rows} and then write {formulas} COUNTIF cells over them (the long write), and, once the
write is under way, has "bob" send {reads} small reads of his own sheet at once, each on its own
connection. Prints how long the write took and how many reads were answered (200) before it
ended, after it, or not at all (closed, refused, timed out). With --writes, bob's requests are
small writes of his sheet instead.

    python3 Scripts/long-write-reads.py .build/debug/sheetport [--formulas 1500] [--rows 2000] [--reads 12]
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request


def call(base, token, method, path, body=None, timeout=300):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", "Bearer " + token)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sheetport")
    parser.add_argument("--formulas", type=int, default=1500)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--reads", type=int, default=12)
    parser.add_argument("--writes", action="store_true", help="bob's requests are small writes of his sheet instead of reads")
    parser.add_argument("--head-start", type=float, default=0.5, help="seconds between the write and the reads")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="long-write-")
    data = os.path.join(folder, "data")
    server = subprocess.Popen([args.sheetport, "serve", "--data", data, "--listen", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        match = re.search(r"http://[0-9.]+:[0-9]+", line)
        if not match:
            sys.exit("the server did not say where it listens: " + line)
        base = match.group(0)
        token = lambda subject: subprocess.run([args.sheetport, "token", "issue", "--data", data, "--subject", subject],
                                               check=True, capture_output=True, text=True).stdout.strip()
        ann, bob = token("ann"), token("bob")
        sheet_a = json.loads(call(base, ann, "POST", "/api/sheets", {"name": "A"})[1])["id"]
        sheet_b = json.loads(call(base, bob, "POST", "/api/sheets", {"name": "B"})[1])["id"]
        call(base, ann, "POST", f"/api/sheets/{sheet_a}/cells", {"cells": [{"ref": f"A{r}", "input": str(r)} for r in range(1, args.rows + 1)]})
        call(base, bob, "POST", f"/api/sheets/{sheet_b}/cells", {"cells": [{"ref": "A1", "input": "21"}, {"ref": "B1", "input": "=A1*2"}]})

        cells = [{"ref": f"C{r}", "input": f'=COUNTIF($A$1:$A${args.rows},">"&ROW())'} for r in range(1, args.formulas + 1)]
        ended = {}
        def write():
            started = time.monotonic()
            status, _ = call(base, ann, "POST", f"/api/sheets/{sheet_a}/cells", {"cells": cells})
            ended["write"] = (time.monotonic(), status, time.monotonic() - started)
        writer = threading.Thread(target=write)
        writer.start()
        time.sleep(args.head_start)
        results = [None] * args.reads
        def read(k):
            try:
                if args.writes:
                    status, _ = call(base, bob, "POST", f"/api/sheets/{sheet_b}/cells", {"cells": [{"ref": f"D{k + 1}", "input": str(k)}]}, timeout=120)
                else:
                    status, _ = call(base, bob, "GET", f"/api/sheets/{sheet_b}/rows?start=1&count=10", timeout=120)
            except Exception as error:  # closed without an answer, refused, timed out
                status = type(error).__name__
            results[k] = (time.monotonic(), status)
        readers = [threading.Thread(target=read, args=(k,)) for k in range(args.reads)]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join()
        writer.join()
        write_end, write_status, write_took = ended["write"]
        before = sum(1 for at, status in results if status == 200 and at < write_end)
        after = sum(1 for at, status in results if status == 200 and at >= write_end)
        failed = [status for _, status in results if status != 200]
        print(f"{args.sheetport}: write {write_status} in {write_took:.1f} s; of {args.reads} {'writes' if args.writes else 'reads'} by another user: "
              f"{before} answered before it ended, {after} after, {len(failed)} not answered {failed}")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
