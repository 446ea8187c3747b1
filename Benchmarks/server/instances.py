#!/usr/bin/env python3
"""Several `sheetport serve` instances on one PostgreSQL database (issue 17): 1 against 2.

    python3 Benchmarks/server/instances.py --sheetport .build/release/sheetport [--instances 1 2]
        [--books 16] [--rows 20000] [--clients 4] [--repeat 1] [--markdown OUT.md] [--keep]

Uses the throwaway cluster of SHEETPORT_TEST_POSTGRES (and SHEETPORT_PG_DIR) when set, else
starts one with Scripts/postgres.sh and stops it at the end. For each instance count N, on a
new database of that cluster: N instances (`serve --database URL --key-file K --data DIR_i`,
one shared key file), BOOKS uploads of one generated workbook (`sheetport bench generate`)
spread round-robin over the instances by CLIENTS concurrent clients, until every job ended;
then an export of every sheet, round-robin over the instances, by CLIENTS concurrent clients.

Every import must succeed and every export must be complete: 200, a chunked body that ends
with its last chunk, and bytes that open as a zip whose members all check (zipfile.testzip),
with the worksheet inside. A failure is counted and described in the report, never retried
away (a 503 of the export cap is retried after its Retry-After and counted apart); the run's
folder, with each instance's server.log and the failed bodies, is kept when anything failed.

Reports imports/s, cells/s, exports/s, MB/s, each instance's CPU seconds (user+sys, from
/proc) and peak resident memory (VmHWM), PostgreSQL's CPU seconds (the postmaster, its live
backends and its ended ones), and the load average: on a shared machine the wall-clock figures
depend on what else runs; CPU seconds much less. Loopback only, every wait bounded.
"""

import argparse
import concurrent.futures
import glob
import http.client
import io
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from path import server_cpu as process_cpu, server_peak_mib as peak_mib  # noqa: E402


class Cluster:
    """The PostgreSQL cluster: the one of the environment, or a throwaway one of Scripts/postgres.sh."""

    def __init__(self):
        self.url = os.environ.get("SHEETPORT_TEST_POSTGRES")
        self.folder = os.environ.get("SHEETPORT_PG_DIR")
        self.owned = False
        if not self.url:
            exports = subprocess.run([os.path.join(ROOT, "Scripts", "postgres.sh"), "start"], check=True,
                                     capture_output=True, text=True, timeout=120).stdout
            for line in exports.splitlines():
                name, _, value = line.removeprefix("export ").partition("=")
                if name == "SHEETPORT_TEST_POSTGRES":
                    self.url = value.strip("'")
                elif name == "SHEETPORT_PG_DIR":
                    self.folder = value.strip("'")
            self.owned = True
        if not self.url or "/postgres?" not in self.url:
            raise SystemExit(f"instances.py: a cluster URL of Scripts/postgres.sh's form is needed, not {self.url!r}")
        versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"), key=lambda p: int(p.split("/")[4].split(".")[0]))
        if not versions:
            raise SystemExit("instances.py: no psql (run Scripts/setup.sh --postgres)")
        self.psql = versions[-1]

    def create_database(self, name):
        subprocess.run([self.psql, "-q", "-v", "ON_ERROR_STOP=1", self.url, "-c", f"CREATE DATABASE {name}"],
                       check=True, timeout=60, stdout=subprocess.DEVNULL)
        return self.url.replace("/postgres?", f"/{name}?")

    def cpu(self):
        """CPU seconds of the cluster: the postmaster with its ended children, and its live ones."""
        if not self.folder:
            return None
        try:
            with open(os.path.join(self.folder, "data", "postmaster.pid")) as f:
                postmaster = int(f.readline())
            total = process_cpu(postmaster, children=True)
            for entry in os.listdir("/proc"):
                if entry.isdigit():
                    try:
                        with open(f"/proc/{entry}/stat") as f:
                            parent = int(f.read().rsplit(")", 1)[1].split()[1])
                        if parent == postmaster:
                            total += process_cpu(int(entry))
                    except OSError:
                        pass  # ended meanwhile: counted in the postmaster's children
            return total
        except OSError:
            return None

    def stop(self):
        if self.owned:
            subprocess.run([os.path.join(ROOT, "Scripts", "postgres.sh"), "stop", self.folder], timeout=120,
                           stderr=subprocess.DEVNULL)


class Instance:
    """One `sheetport serve --database` on a loopback ephemeral port, its log in its folder."""

    def __init__(self, sheetport, folder, url, key_file):
        os.makedirs(folder)
        self.folder = folder
        self.log = open(os.path.join(folder, "server.log"), "w")
        self.process = subprocess.Popen([sheetport, "serve", "--database", url, "--key-file", key_file,
                                         "--data", os.path.join(folder, "data"), "--listen", "127.0.0.1:0"],
                                        stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.port = None
        line = self.process.stdout.readline()  # "listening on http://127.0.0.1:PORT", or EOF if it ended
        for word in line.split():
            if word.startswith("http://127.0.0.1:"):
                self.port = int(word.rsplit(":", 1)[1].rstrip("/"))
        if self.port is None:
            self.stop()
            with open(os.path.join(folder, "server.log")) as f:
                raise SystemExit(f"instances.py: an instance did not start: {line!r} {f.read()[-2000:]}")
        self.pid = self.process.pid

    def request(self, token, method, path, body=None, headers=None, timeout=600):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        all_headers = {"Authorization": f"Bearer {token}"}
        all_headers.update(headers or {})
        connection.request(method, path, body=body, headers=all_headers)
        return connection, connection.getresponse()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)
        self.log.close()


def upload(instance, token, book):
    """POSTs the workbook; returns the job id, or raises with what was answered."""
    with open(book, "rb") as f:
        connection, response = instance.request(token, "POST", "/api/imports", body=f,
                                                headers={"X-Filename": "book.xlsx",
                                                         "Content-Length": str(os.path.getsize(book))})
        body = response.read()
        connection.close()
    if response.status != 202:
        raise RuntimeError(f"upload answered {response.status}: {body[:300]!r}")
    return json.loads(body)["job"]["id"]


def wait_for_jobs(instances, token, jobs, deadline):
    """Polls every job (round-robin over the instances) until each ended; returns {job: job JSON}."""
    ended = {}
    turn = itertools.cycle(instances)
    while len(ended) < len(jobs):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{len(jobs) - len(ended)} jobs still running at the deadline")
        for job in jobs:
            if job in ended:
                continue
            connection, response = next(turn).request(token, "GET", f"/api/imports/{job}")
            body = response.read()
            connection.close()
            state = json.loads(body)["job"]
            if state["status"] in ("succeeded", "failed", "cancelled"):
                ended[job] = state
        time.sleep(0.05)
    return ended


def export(instance, token, sheet, failures_folder):
    """GETs the export and checks it whole; returns (bytes, 503 retries) or raises with the reason."""
    retries = 0
    deadline = time.monotonic() + 600
    while True:
        connection, response = instance.request(token, "GET", f"/api/sheets/{sheet}/export.xlsx")
        if response.status == 503 and time.monotonic() < deadline:
            response.read()
            connection.close()
            retries += 1
            time.sleep(min(float(response.getheader("Retry-After") or 1), 2))
            continue
        break
    status = response.status
    chunked = (response.getheader("Transfer-Encoding") or "").lower() == "chunked"
    parts = []
    problem = None
    try:
        while True:
            chunk = response.read(1 << 16)
            if not chunk:
                break
            parts.append(chunk)
    except http.client.IncompleteRead as error:
        # http.client raises this when the chunked body ends without its last chunk.
        parts.append(error.partial)
        problem = f"body cut without the chunked body's last chunk ({sum(map(len, parts))} bytes read before)"
    except (http.client.HTTPException, OSError) as error:
        problem = f"body cut after {sum(map(len, parts))} bytes ({type(error).__name__}: {error})"
    connection.close()
    body = b"".join(parts)
    if problem is None and status != 200:
        problem = f"answered {status}: {body[:300]!r}"
    if problem is None and not chunked and response.getheader("Content-Length") is None:
        problem = "neither chunked nor of a stated length"
    if problem is None:
        try:
            with zipfile.ZipFile(io.BytesIO(body)) as archive:
                bad = archive.testzip()
                names = archive.namelist()
            if bad is not None:
                problem = f"zip member {bad} fails its CRC"
            elif not any(name.startswith("xl/worksheets/sheet") for name in names):
                problem = f"no worksheet in the zip ({len(names)} members)"
        except (zipfile.BadZipFile, EOFError, ValueError) as error:
            problem = f"{len(body)} bytes that do not open as a zip ({error}); tail {body[-32:]!r}"
    if problem is not None:
        with open(os.path.join(failures_folder, f"export-{sheet}.bin"), "wb") as f:
            f.write(body)
        raise RuntimeError(problem)
    return len(body), retries


def run_instances(args, sheetport, cluster, book, count, attempt, folder):
    """One measured run with `count` instances; returns a dict of figures and failures."""
    run_folder = os.path.join(folder, f"{count}-instances-{attempt}")
    os.makedirs(run_folder)
    url = cluster.create_database(f"bench_{count}_{attempt}_{os.getpid()}")
    key_file = os.path.join(run_folder, "seal.key")
    # The first instance creates the key file; the others start after it, with the same key.
    instances = []
    failures = []
    try:
        for index in range(count):
            instances.append(Instance(sheetport, os.path.join(run_folder, f"instance-{index + 1}"), url, key_file))
        token = subprocess.run([sheetport, "token", "issue", "--database", url, "--subject", "bench"], check=True,
                               capture_output=True, text=True, timeout=60).stdout.strip()

        cpu = [process_cpu(i.pid) for i in instances]
        pg_cpu = cluster.cpu()
        start = time.monotonic()
        targets = [instances[n % count] for n in range(args.books)]
        jobs = []
        with concurrent.futures.ThreadPoolExecutor(args.clients) as pool:
            futures = [pool.submit(upload, target, token, book) for target in targets]
            for n, future in enumerate(futures):
                try:
                    jobs.append(future.result())
                except Exception as error:  # noqa: BLE001 - every failure is reported
                    failures.append(f"import {n + 1} through instance {n % count + 1}: {error}")
        ended = wait_for_jobs(instances, token, jobs, time.monotonic() + 3600)
        import_wall = time.monotonic() - start
        import_cpu = [process_cpu(i.pid) - c for i, c in zip(instances, cpu)]
        import_pg = None if pg_cpu is None else cluster.cpu() - pg_cpu
        sheets = []
        for job, state in ended.items():
            if state["status"] == "succeeded":
                sheets.append(state["result"]["sheet"]["id"])
            else:
                failures.append(f"import job {job} ended {state['status']}: {state.get('error')}")

        cpu = [process_cpu(i.pid) for i in instances]
        pg_cpu = cluster.cpu()
        start = time.monotonic()
        exported = 0
        retries = 0
        with concurrent.futures.ThreadPoolExecutor(args.clients) as pool:
            futures = [pool.submit(export, instances[n % count], token, sheet, run_folder) for n, sheet in enumerate(sheets)]
            for n, future in enumerate(futures):
                try:
                    size, retried = future.result()
                    exported += size
                    retries += retried
                except Exception as error:  # noqa: BLE001 - every failure is reported
                    failures.append(f"export of sheet {sheets[n]} through instance {n % count + 1}: {error}")
        export_wall = time.monotonic() - start
        export_cpu = [process_cpu(i.pid) - c for i, c in zip(instances, cpu)]
        export_pg = None if pg_cpu is None else cluster.cpu() - pg_cpu
        peaks = [peak_mib(i.pid) for i in instances]
    finally:
        for instance in instances:
            instance.stop()
    # What an instance logged as an incident (a failed export after its first byte goes there).
    incidents = []
    for index in range(count):
        with open(os.path.join(run_folder, f"instance-{index + 1}", "server.log"), errors="replace") as f:
            incidents += [f"instance {index + 1}: {line.strip()[:400]}" for line in f if "incident" in line.lower()]
    return {
        "count": count, "attempt": attempt, "folder": run_folder, "failures": failures, "incidents": incidents,
        "imports": len(sheets), "import_wall": import_wall, "import_cpu": import_cpu, "import_pg": import_pg,
        "exports": len(sheets) - sum(f.startswith("export") for f in failures), "export_wall": export_wall,
        "export_bytes": exported, "export_cpu": export_cpu, "export_pg": export_pg, "retries": retries,
        "peaks": peaks, "load": os.getloadavg(),
    }


def shown(argument):
    """A command-line argument as the report shows it: paths in the project relative to its root."""
    path = os.path.abspath(argument)
    return os.path.relpath(path, ROOT) if os.path.exists(path) and path.startswith(ROOT + os.sep) else argument


def seconds_list(values):
    return " + ".join(f"{v:.1f}" for v in values)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sheetport", required=True)
    parser.add_argument("--instances", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--books", type=int, default=16)
    parser.add_argument("--rows", type=int, default=20000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each instance count (to look for rare failures)")
    parser.add_argument("--markdown")
    parser.add_argument("--keep", action="store_true", help="keep the run's folder even when nothing failed")
    args = parser.parse_args()
    sheetport = os.path.abspath(args.sheetport)
    folder = tempfile.mkdtemp(prefix="sheetport-instances-")
    cluster = Cluster()
    load_before = os.getloadavg()
    results = []
    try:
        book = os.path.join(folder, "book.xlsx")
        subprocess.run([sheetport, "bench", "generate", "--rows", str(args.rows), "-o", book, "--no-progress"],
                       check=True, timeout=1800, stdout=subprocess.DEVNULL)
        for attempt in range(1, args.repeat + 1):
            for count in args.instances:
                result = run_instances(args, sheetport, cluster, book, count, attempt, folder)
                results.append(result)
                state = "ok" if not result["failures"] else f"{len(result['failures'])} FAILED"
                print(f"instances.py: {count} instance(s), run {attempt}: {state}", file=sys.stderr, flush=True)
    finally:
        cluster.stop()
    failed = any(r["failures"] for r in results)
    cells = args.rows * 10
    book_mb = os.path.getsize(book) / 1e6
    lines = [
        "## Several instances on one PostgreSQL database (issue 17)",
        "",
        f"{args.books} imports of one {args.rows:,}-row x 10-column workbook ({book_mb:.1f} MB), spread round-robin "
        f"over the instances by {args.clients} concurrent clients, then an export of every sheet the same way; "
        f"{os.cpu_count()} cores, load average {load_before[0]:.2f} before the runs. CPU is user+sys seconds, "
        "per instance; PostgreSQL's is the whole cluster's.",
        "",
        f"`{' '.join(['python3'] + [shown(argument) for argument in sys.argv])}`",
        "",
        "| instances | run | imports/s | cells/s | import CPU s (instances / PostgreSQL) | exports/s | MB/s | "
        "export CPU s (instances / PostgreSQL) | peak RSS MiB | load avg after | failures |",
        "|---:|---:|---:|---:|---|---:|---:|---|---|---|---:|",
    ]
    for r in results:
        pg_import = "?" if r["import_pg"] is None else f"{r['import_pg']:.1f}"
        pg_export = "?" if r["export_pg"] is None else f"{r['export_pg']:.1f}"
        lines.append(
            f"| {r['count']} | {r['attempt']} | {r['imports'] / r['import_wall']:.2f} | "
            f"{r['imports'] * cells / r['import_wall'] / 1e6:.2f} M | {seconds_list(r['import_cpu'])} / {pg_import} | "
            f"{r['exports'] / r['export_wall']:.2f} | {r['export_bytes'] / 1e6 / r['export_wall']:.1f} | "
            f"{seconds_list(r['export_cpu'])} / {pg_export} | {' + '.join(f'{p:.0f}' for p in r['peaks'])} | "
            f"{r['load'][0]:.2f} | {len(r['failures'])} |")
    lines.append("")
    retried = sum(r["retries"] for r in results)
    if retried:
        lines += [f"- exports answered 503 (the cap on exports at once) and retried: {retried}", ""]
    for r in results:
        for failure in r["failures"]:
            lines.append(f"- **failed** ({r['count']} instances, run {r['attempt']}): {failure}")
        for incident in r["incidents"]:
            lines.append(f"- logged ({r['count']} instances, run {r['attempt']}): {incident}")
    if failed:
        lines += ["", f"The run's folder (server logs, failed bodies) is kept: {folder}", ""]
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    if not failed and not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    elif args.keep:
        print(f"instances.py: kept {folder}", file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
