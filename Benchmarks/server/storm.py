#!/usr/bin/env python3
"""Connection storm against a running `sheetport serve` on loopback (issue 12).

Opens BURSTS bursts of CONNECTIONS TCP connections from SOURCE that send nothing, HOLD seconds
apart, and counts how many of each the server has not closed (held, or waiting in the listen
queue). With every burst still open (the attacker holds them; --close closes each burst after
its count instead), it measures how long a fresh `GET /api/limits` from PROBE (another client
address: all of 127.0.0.0/8 is loopback) and then from SOURCE takes to be answered.

    python3 Benchmarks/server/storm.py --port 8080 [--bursts 2] [--connections 520] [--hold 1] [--close]

Standard library only, loopback only, every wait bounded (--timeout). Prints one line per
burst and one per probe; exit 1 when a probe got no answer within --timeout.
"""

import argparse
import errno
import select
import socket
import sys
import time


def loopback(address):
    parts = address.split(".")
    if len(parts) != 4 or parts[0] != "127" or not all(p.isdigit() and 0 <= int(p) <= 255 for p in parts):
        raise SystemExit(f"storm.py: {address!r} is not a loopback address (127.x.y.z)")
    return address


def open_burst(port, source, count):
    """Starts `count` non-blocking connects from `source`; the sockets that started."""
    sockets = []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((source, 0))
        s.setblocking(False)
        code = s.connect_ex(("127.0.0.1", port))
        if code not in (0, errno.EINPROGRESS):
            s.close()
            continue
        sockets.append(s)
    return sockets


def still_open(sockets):
    """How many of `sockets` the server has neither refused nor closed (nothing to read, no EOF)."""
    alive = 0
    for s in sockets:
        try:
            poller = select.poll()
            poller.register(s, select.POLLIN)
            events = poller.poll(0)
            if events and events[0][1] & (select.POLLERR | select.POLLNVAL):
                continue
            if events:
                data = s.recv(1, socket.MSG_PEEK)
                if not data:
                    continue  # closed by the server
            alive += 1
        except OSError:
            continue
    return alive


def probe(port, source, timeout):
    """Seconds until `GET /api/limits` from `source` is answered 200 (None: not within timeout)."""
    started = time.monotonic()
    request = b"GET /api/limits HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    while time.monotonic() - started < timeout:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
                s.settimeout(1)
                s.bind((source, 0))
                s.connect(("127.0.0.1", port))
                s.sendall(request)
                answer = s.recv(64)
                if answer.startswith(b"HTTP/1.1 200"):
                    return time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.05)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True, help="the server's port on 127.0.0.1")
    parser.add_argument("--bursts", type=int, default=2)
    parser.add_argument("--connections", type=int, default=520, help="connections a burst (at most 4000)")
    parser.add_argument("--hold", type=float, default=1.0, help="seconds between a burst and its count")
    parser.add_argument("--close", action="store_true", help="close each burst after its count")
    parser.add_argument("--source", default="127.0.0.1", help="the storm's source address")
    parser.add_argument("--probe", default="127.0.0.2", help="another client's source address")
    parser.add_argument("--timeout", type=float, default=60, help="the longest a probe waits")
    options = parser.parse_args()
    source, other = loopback(options.source), loopback(options.probe)
    if not 1 <= options.connections <= 4000 or not 1 <= options.bursts <= 20 or not 0 <= options.hold <= 60:
        raise SystemExit("storm.py: --connections 1..4000, --bursts 1..20, --hold 0..60")

    held = []
    for burst in range(1, options.bursts + 1):
        sockets = open_burst(options.port, source, options.connections)
        time.sleep(options.hold)
        alive = still_open(sockets)
        print(f"burst {burst}: {len(sockets)} connections opened, {alive} not closed by the server after {options.hold:g} s")
        if options.close:
            for s in sockets:
                s.close()
        else:
            held += sockets

    failed = False
    for name, address in (("another client", other), ("the storm's address", source)):
        seconds = probe(options.port, address, options.timeout)
        if seconds is None:
            failed = True
            print(f"fresh request from {name} ({address}): no answer within {options.timeout:g} s")
        else:
            print(f"fresh request from {name} ({address}): answered after {seconds:.3f} s")
    for s in held:
        s.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
