"""A real `sheetport serve` for a benchmark script: started on a loopback ephemeral port over
a new data directory in `folder` (the script's, which it removes), with a session token issued
for `bench` (also in a 0600 token file, for the CLI's `--token-file`), its JSON API called over
plain HTTP, and stopped however the script ends. The server's standard error goes to
`folder/server.log`; every wait is bounded.

    with tempfile.TemporaryDirectory() as folder, LocalServer(sheetport, folder, "--calc-timeout", "600") as server:
        sheet = server.import_workbook(path)
        status, answer = server.call("POST", f"/api/sheets/{sheet}/cells", {"cells": [...]})
"""
import http.client
import json
import os
import subprocess
import time


class LocalServer:
    def __init__(self, sheetport, folder, *serve_arguments, launcher=(), wait=60):
        """`sheetport serve SERVE_ARGUMENTS`, run through `launcher` (a valgrind command line,
        say) when given; waits up to `wait` seconds for its address."""
        self.data = os.path.join(folder, "data")
        self.log = open(os.path.join(folder, "server.log"), "w")
        self.process = subprocess.Popen([*launcher, sheetport, "serve", "--data", self.data, "--listen", "127.0.0.1:0",
                                         *serve_arguments], stdout=subprocess.PIPE, stderr=self.log, text=True)
        try:
            self.host, self.port = "127.0.0.1", None
            deadline = time.monotonic() + wait
            while self.port is None and time.monotonic() < deadline:
                line = self.process.stdout.readline()
                if not line:
                    break
                for word in line.split():
                    if word.startswith("http://127.0.0.1:"):
                        self.port = int(word.rsplit(":", 1)[1].rstrip("/"))
            if self.port is None:
                raise SystemExit(f"local_server.py: the server did not print its address (see {self.log.name})")
            self.url = f"http://{self.host}:{self.port}"
            self.token = subprocess.run([sheetport, "token", "issue", "--data", self.data, "--subject", "bench"],
                                        check=True, capture_output=True, text=True, timeout=60).stdout.strip()
            self.token_file = os.path.join(folder, "token")
            with open(self.token_file, "w") as f:
                f.write(self.token)
            os.chmod(self.token_file, 0o600)
        except BaseException:
            self.close()
            raise

    @property
    def pid(self):
        return self.process.pid

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def close(self):
        """Stops the server (killed when it has not ended 30 s after SIGTERM)."""
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()

    def open(self, method, path, body=None, headers=None, timeout=600):
        """The connection and its response, not yet read: `body` bytes or a file, `headers` added."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        connection.request(method, path, body=body, headers={"Authorization": f"Bearer {self.token}", **(headers or {})})
        return connection, connection.getresponse()

    def request(self, method, path, body=None, raw=None, filename=None):
        """The answer's status and bytes: `body` sent as JSON, or `raw` as a workbook upload named `filename`."""
        payload = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        headers = {}
        if payload is not None:
            headers["Content-Type"] = "application/json" if raw is None else "application/octet-stream"
        if filename:
            headers["X-Filename"] = filename
        connection, response = self.open(method, path, payload, headers)
        text = response.read()
        connection.close()
        return response.status, text

    def call(self, method, path, body=None, raw=None, filename=None):
        """The answer's status and its JSON (None when empty)."""
        status, text = self.request(method, path, body, raw, filename)
        return status, json.loads(text) if text else None

    def import_workbook(self, path, poll=0.02):
        """Imports the workbook at `path`, waits for its job to end, and answers the sheet's id."""
        return import_workbook(self.open, path, poll)

    def export(self, sheet):
        """GET the sheet's export: (seconds to the first body byte, seconds to the last, bytes)."""
        start = time.monotonic()
        connection, response = self.open("GET", f"/api/sheets/{sheet}/export.xlsx")
        size = len(response.read(1))
        first_byte = time.monotonic() - start
        while True:
            chunk = response.read(1 << 16)
            if not chunk:
                break
            size += len(chunk)
        connection.close()
        if response.status != 200:
            raise SystemExit(f"local_server.py: export of {sheet} answered {response.status}")
        return first_byte, time.monotonic() - start, size


def import_workbook(open_request, path, poll=0.02, limit=1800):
    """Uploads the workbook at `path` through `open_request(method, path, body=, headers=)` (which
    answers a connection and its response, as `LocalServer.open` does: another server's, say),
    waits at most `limit` seconds for its job, and answers the sheet's id."""
    with open(path, "rb") as f:
        connection, response = open_request("POST", "/api/imports", body=f,
                                            headers={"X-Filename": os.path.basename(path),
                                                     "Content-Length": str(os.path.getsize(path))})
        job = json.loads(response.read())["job"]
        connection.close()
    deadline = time.monotonic() + limit
    while job["status"] not in ("succeeded", "failed", "cancelled") and time.monotonic() < deadline:
        time.sleep(poll)
        connection, response = open_request("GET", f"/api/imports/{job['id']}")
        job = json.loads(response.read())["job"]
        connection.close()
    if job["status"] != "succeeded":
        raise SystemExit(f"local_server.py: import of {path} ended {job['status']}: {job.get('error')}")
    return job["result"]["sheet"]["id"]
