#!/usr/bin/env python3
"""What a sheet costs on disk, and whether deleting gives it back (issue 26), in one run.

    python3 Benchmarks/server/storage.py --sheetport .build/release/sheetport [--rows 20000 200000]
        [--postgres] [--markdown OUT.md]

For each size, `sheetport bench generate` writes the benchmark workbook; then:
- SQLite (the embedded store): a real `sheetport serve` with a new data folder; the folder's bytes
  (the database, its WAL, staged uploads, the key) after a checkpoint that truncates the WAL
  (`PRAGMA wal_checkpoint(TRUNCATE)`, as the server's own checkpoints do); each workbook imported,
  the folder measured again: stored bytes per sheet against the xlsx; then every sheet deleted
  and the folder measured: it must be within 1.2x its size before the imports.
- PostgreSQL (--postgres; the cluster of SHEETPORT_TEST_POSTGRES, else a throwaway one of
  Scripts/postgres.sh): `pg_total_relation_size` of the server's tables (with their TOAST and
  indexes) after the imports, per sheet against the xlsx; every sheet deleted; autovacuum given
  time (a plain `VACUUM`, what autovacuum runs, stands in for its next round so the run does
  not wait for its naptime); the same workbooks imported again: the database must not grow by
  more than 20 %. Each measurement waits (at most 30 s) for the server's vacuum of
  `staged_uploads`, which runs just after a job's end is visible.
History (sheet_events) and staged uploads are in the tables and the folder measured. Prints a
Markdown section (and writes it to --markdown).
"""

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from local_server import LocalServer, import_workbook  # noqa: E402
from instances import Cluster, Instance  # noqa: E402

TABLES = ["sessions", "sheets", "grants", "row_blocks", "comments", "sheet_events", "jobs", "staged_uploads", "meta"]


def folder_bytes(data):
    """Bytes of every regular file under the data folder, after a checkpoint truncating the WAL."""
    connection = sqlite3.connect(os.path.join(data, "sheetport.db"), timeout=30)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    connection.close()
    total = 0
    for root, _, files in os.walk(data):
        for name in files:
            path = os.path.join(root, name)
            if os.path.isfile(path) and not os.path.islink(path):
                total += os.path.getsize(path)
    return total


def delete(server_request, sheet):
    connection, response = server_request("DELETE", f"/api/sheets/{sheet}")
    response.read()
    connection.close()
    if response.status != 204:
        raise SystemExit(f"storage.py: deleting {sheet} answered {response.status}")


def sqlite_run(sheetport, books, folder):
    os.makedirs(os.path.join(folder, "sqlite"))
    server = LocalServer(sheetport, os.path.join(folder, "sqlite"))
    try:
        before = folder_bytes(server.data)
        lines = []
        sheets = []
        for rows, book in books:
            start = folder_bytes(server.data)
            sheets.append(server.import_workbook(book))
            stored = folder_bytes(server.data) - start
            xlsx = os.path.getsize(book)
            lines.append((rows, xlsx, stored))
        full = folder_bytes(server.data)
        for sheet in sheets:
            delete(server.open, sheet)
        after = folder_bytes(server.data)
        return lines, before, full, after
    finally:
        server.close()


def pg_size(cluster, url):
    tables = ", ".join(f"'{name}'" for name in TABLES)
    out = subprocess.run([cluster.psql, "-qAt", url, "-c",
                          f"SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                          f"WHERE c.relname IN ({tables}) AND c.relkind = 'r'"],
                         check=True, capture_output=True, text=True, timeout=120).stdout.strip()
    return int(out or 0)


def pg_tables(cluster, url):
    """Per table: heap, TOAST (with its index), indexes, live and dead tuples (the statistics
    collector's view, flushed first) -- where a sheet's bytes are."""
    subprocess.run([cluster.psql, "-qAt", url, "-c", "SELECT pg_stat_force_next_flush()"],
                   capture_output=True, text=True, timeout=60)
    tables = ", ".join(f"'{name}'" for name in TABLES + ["cell_history"])
    out = subprocess.run([cluster.psql, "-qAt", "-F", "\t", url, "-c",
                          f"SELECT c.relname, pg_relation_size(c.oid), "
                          f"coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0), pg_indexes_size(c.oid), "
                          f"coalesce(s.n_live_tup, 0), coalesce(s.n_dead_tup, 0) FROM pg_class c "
                          f"LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid "
                          f"WHERE c.relname IN ({tables}) AND c.relkind = 'r' ORDER BY 1"],
                         check=True, capture_output=True, text=True, timeout=120).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def pg_settle(cluster, url, limit=30):
    """Waits (at most `limit` seconds) until `staged_uploads` holds no piece and its size is under
    a piece (1 MiB): the server vacuums it just after a job ends, which is after the job's end is
    visible to the client polling it."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        out = subprocess.run([cluster.psql, "-qAt", "-F", " ", url, "-c",
                              "SELECT count(*), pg_total_relation_size('staged_uploads') FROM staged_uploads"],
                             check=True, capture_output=True, text=True, timeout=60).stdout.split()
        if int(out[0]) == 0 and int(out[1]) < (1 << 20):
            return
        time.sleep(0.1)


def pg_database_size(cluster, url):
    out = subprocess.run([cluster.psql, "-qAt", url, "-c", "SELECT pg_database_size(current_database())"],
                         check=True, capture_output=True, text=True, timeout=120).stdout.strip()
    return int(out)


def postgres_run(sheetport, books, folder):
    cluster = Cluster()
    try:
        url = cluster.create_database(f"storage_{os.getpid()}")
        key = os.path.join(folder, "seal.key")
        with open(key, "wb") as f:
            f.write(os.urandom(32))
        os.chmod(key, 0o600)
        instance = Instance(sheetport, os.path.join(folder, "pg"), url, key)
        token = subprocess.run([sheetport, "token", "issue", "--database", url, "--key-file", key, "--subject", "bench"],
                               check=True, capture_output=True, text=True, timeout=60).stdout.strip()

        def request(method, path, body=None, headers=None):
            return instance.request(token, method, path, body=body, headers=headers)

        def import_all():
            return [import_workbook(request, book) for _, book in books]

        try:
            lines = []
            sheets = []
            for rows, book in books:
                start = pg_size(cluster, url)
                sheets.append(import_workbook(request, book))
                pg_settle(cluster, url)
                lines.append((rows, os.path.getsize(book), pg_size(cluster, url) - start))
            detail = pg_tables(cluster, url)
            first = pg_database_size(cluster, url)
            for sheet in sheets:
                delete(request, sheet)
            subprocess.run([cluster.psql, "-q", url, "-c", "VACUUM"], check=True, timeout=600, stdout=subprocess.DEVNULL)
            import_all()
            pg_settle(cluster, url)
            second = pg_database_size(cluster, url)
            return lines, first, second, detail
        finally:
            instance.stop()
    finally:
        cluster.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sheetport", required=True)
    parser.add_argument("--rows", type=int, nargs="+", default=[20000, 200000])
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--markdown")
    args = parser.parse_args()
    sheetport = os.path.abspath(args.sheetport)
    with tempfile.TemporaryDirectory(prefix="sheetport-storage.") as folder:
        books = []
        for rows in args.rows:
            book = os.path.join(folder, f"bench-{rows}.xlsx")
            subprocess.run([sheetport, "bench", "generate", "--rows", str(rows), "-o", book, "--no-progress"],
                           check=True, timeout=600, stdout=subprocess.DEVNULL)
            books.append((rows, book))
        out = [f"### Storage ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, `Benchmarks/server/storage.py`)", ""]
        lines, before, full, after = sqlite_run(sheetport, books, folder)
        out += ["| store | rows | xlsx bytes | stored bytes | stored / xlsx |", "|---|---:|---:|---:|---:|"]
        for rows, xlsx, stored in lines:
            out.append(f"| SQLite (data folder) | {rows} | {xlsx} | {stored} | {stored / xlsx:.2f} |")
        pg = postgres_run(sheetport, books, folder) if args.postgres else None
        if pg:
            for rows, xlsx, stored in pg[0]:
                out.append(f"| PostgreSQL (tables) | {rows} | {xlsx} | {stored} | {stored / xlsx:.2f} |")
        out += ["", f"SQLite data folder: {before} bytes before the imports, {full} with them, {after} after deleting "
                    f"every sheet ({after / before:.2f}x the size before; goal <= 1.20x)."]
        if pg:
            out += ["", "PostgreSQL after the imports, per table (bytes; TOAST with its index):", "",
                    "| table | heap | TOAST | indexes | live rows | dead rows |", "|---|---:|---:|---:|---:|---:|"]
            out += [f"| {' | '.join(row)} |" for row in pg[3]]
            out.append("")
            out.append(f"PostgreSQL database: {pg[1]} bytes after the imports, {pg[2]} after deleting them, a VACUUM "
                       f"and importing them again ({(pg[2] - pg[1]) / pg[1] * 100:+.1f} %; goal <= +20 %).")
        text = "\n".join(out) + "\n"
        print(text)
        if args.markdown:
            with open(args.markdown, "w") as f:
                f.write(text)


if __name__ == "__main__":
    main()
