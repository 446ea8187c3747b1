"""A real `sheetport serve` for a benchmark script: started on a loopback ephemeral port over
a new data directory in `folder` (the script's, which it removes), with a session token issued
for `bench`, its JSON API called over plain HTTP, and stopped however the script ends.

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
    def __init__(self, sheetport, folder, *serve_arguments):
        data = os.path.join(folder, "data")
        self.process = subprocess.Popen([sheetport, "serve", "--data", data, "--listen", "127.0.0.1:0", *serve_arguments],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            address = self.process.stdout.readline().strip().removeprefix("listening on http://")
            self.host, port = address.split(":")
            self.port = int(port)
            self.token = subprocess.run([sheetport, "token", "issue", "--data", data, "--subject", "bench"],
                                        check=True, capture_output=True, text=True).stdout.strip()
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
        """Stops the server."""
        self.process.terminate()
        self.process.wait()

    def request(self, method, path, body=None, raw=None, filename=None):
        """The answer's status and bytes: `body` sent as JSON, or `raw` as a workbook upload named `filename`."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=600)
        headers = {"Authorization": f"Bearer {self.token}"}
        payload = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        if payload is not None:
            headers["Content-Type"] = "application/json" if raw is None else "application/octet-stream"
        if filename:
            headers["X-Filename"] = filename
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        text = response.read()
        connection.close()
        return response.status, text

    def call(self, method, path, body=None, raw=None, filename=None):
        """The answer's status and its JSON (None when empty)."""
        status, text = self.request(method, path, body, raw, filename)
        return status, json.loads(text) if text else None

    def import_workbook(self, path, poll=0.05):
        """Imports the workbook at `path`, waits for its job to end, and answers the sheet's id."""
        with open(path, "rb") as handle:
            status, job = self.call("POST", "/api/imports", raw=handle.read(), filename=os.path.basename(path))
        assert status in (200, 201, 202), job
        job_id = job["job"]["id"]
        while True:
            status, job = self.call("GET", f"/api/imports/{job_id}")
            if job["job"]["status"] not in ("running", "queued"):
                break
            time.sleep(poll)
        assert job["job"]["status"] == "succeeded", job
        return job["job"]["result"]["sheet"]["id"]
