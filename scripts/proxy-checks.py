#!/usr/bin/env python3
"""The checks of scripts/proxy-test.sh: what a client sees of the instances through each proxy.

    scripts/proxy-checks.py NAME=PLAIN,TLS,SOURCE ...

NAME is the proxy's name, PLAIN and TLS the address:port of its plain HTTP and its HTTPS
listener, SOURCE the loopback address (127.0.0.2, ...) this client connects from, one per proxy,
so that the instances count each proxy's requests as another client. The instances run with
`--trusted-proxy 127.0.0.1 --signups-per-address-hour 2`. Through each proxy, over real sockets:

(a) the site answers: /readyz, the home page, the API (`GET /api/games`);
(b) a client that sends `X-Forwarded-Proto: https` over plain HTTP gets no `Secure` cookie on
    sign-up nor on log-in, while a log-in over the proxy's HTTPS gets `Secure` ones;
(c) a request head trickled one line a second is cut off by the proxy after about 10 s (this
    check waits on real time by nature: one per proxy, all at once, beside the others);
(d) a WebSocket (`/api/lobby/ws`) opens with `Origin: http://<the proxy's address and port>`
    (and over HTTPS with `https://...` and the HTTPS port), and is refused (403) with the same
    host on another port, with `https://` over plain HTTP, or with another host;
(e) a client that names other addresses in `X-Forwarded-For` is still counted as itself: of
    two more sign-ups, each claiming another address, the second is refused (429), the
    sign-ups of its own address being spent.

Prints each check with PASS or FAIL; exits 1 when any failed.
"""

import base64
import http.client
import json
import os
import select
import socket
import ssl
import sys
import threading
import time
from dataclasses import dataclass, field

PASSWORD = "trickle-proxy-check-7"
# Check (c): the proxies' documented head timeout, and how far from it the cut may come.
HEAD_TIMEOUT = 10.0
CUT_WINDOW = (HEAD_TIMEOUT - 2.0, HEAD_TIMEOUT + 3.0)
GIVE_UP = 25.0


@dataclass
class Proxy:
    name: str
    host: str
    port: int
    tls_port: int
    source: str
    results: list = field(default_factory=list)

    def check(self, label: str, ok: bool, saw: str) -> None:
        line = f"{'PASS' if ok else 'FAIL'}  {self.name:8} {label}: {saw}"
        print(line, flush=True)
        self.results.append(ok)


def parse(arg: str) -> Proxy:
    name, rest = arg.split("=", 1)
    plain, tls, source = rest.split(",")
    host, port = plain.rsplit(":", 1)
    return Proxy(name, host, int(port), int(tls.rsplit(":", 1)[1]), source)


def request(p: Proxy, method: str, path: str, body=None, headers=None, tls=False):
    """One request on a new connection from the proxy's source address: (status, headers, body)."""
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        conn = http.client.HTTPSConnection(
            p.host, p.tls_port, timeout=10, source_address=(p.source, 0), context=context
        )
    else:
        conn = http.client.HTTPConnection(
            p.host, p.port, timeout=10, source_address=(p.source, 0)
        )
    headers = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def cookies(headers) -> dict[str, list[str]]:
    """The cookies set by a response: name -> its attributes, lower case."""
    out = {}
    for value in headers.get_all("Set-Cookie") or []:
        name = value.split("=", 1)[0].strip()
        out[name] = [a.strip().split("=", 1)[0].lower() for a in value.split(";")[1:]]
    return out


def secure_flags(headers) -> str:
    c = cookies(headers)
    return ", ".join(f"{n}{' Secure' if 'secure' in a else ' (not Secure)'}" for n, a in c.items())


def site_answers(p: Proxy) -> None:
    status, _, _ = request(p, "GET", "/readyz")
    p.check("(a) GET /readyz", status == 200, f"{status}")
    status, headers, body = request(p, "GET", "/")
    html = headers.get("Content-Type", "").startswith("text/html") and b"<html" in body.lower()
    saw = f"{status} {headers.get('Content-Type')}"
    p.check("(a) GET / is the home page", status == 200 and html, saw)
    status, headers, body = request(p, "GET", "/api/games")
    try:
        json.loads(body)
        is_json = True
    except ValueError:
        is_json = False
    p.check("(a) GET /api/games is JSON", status == 200 and is_json, f"{status}")


def no_secure_cookie_by_the_clients_word(p: Proxy) -> None:
    forged = {"X-Forwarded-Proto": "https"}
    account = {"name": f"{p.name}a", "password": PASSWORD}
    status, headers, _ = request(p, "POST", "/api/accounts", account, forged)
    c = cookies(headers)
    ok = status == 201 and "mabula_session" in c and not any("secure" in a for a in c.values())
    p.check(
        "(b) sign-up over HTTP saying X-Forwarded-Proto: https sets no Secure cookie",
        ok,
        f"{status}; {secure_flags(headers) or 'no cookie'}",
    )
    status, headers, _ = request(p, "POST", "/api/session", account, forged)
    c = cookies(headers)
    ok = status == 200 and "mabula_session" in c and not any("secure" in a for a in c.values())
    p.check(
        "(b) log-in over HTTP saying X-Forwarded-Proto: https sets no Secure cookie",
        ok,
        f"{status}; {secure_flags(headers) or 'no cookie'}",
    )
    status, headers, _ = request(p, "POST", "/api/session", account, tls=True)
    c = cookies(headers)
    ok = status == 200 and "mabula_session" in c and all("secure" in a for a in c.values())
    p.check(
        "(b) log-in over the proxy's HTTPS sets Secure cookies",
        ok,
        f"{status}; {secure_flags(headers) or 'no cookie'}",
    )


def counted_as_itself(p: Proxy) -> None:
    statuses = []
    for n, claimed in enumerate(["198.51.100.7", "198.51.100.8"]):
        status, _, _ = request(
            p,
            "POST",
            "/api/accounts",
            {"name": f"{p.name}x{n}", "password": PASSWORD},
            {"X-Forwarded-For": claimed},
        )
        statuses.append(status)
    p.check(
        "(e) sign-ups claiming other addresses in X-Forwarded-For count as this client's "
        "(2 an hour: 201, then 429)",
        statuses == [201, 429],
        " then ".join(map(str, statuses)),
    )


def websocket(p: Proxy, origin: str, tls: bool = False) -> str:
    """The status line of a WebSocket handshake for the lobby with `origin`."""
    key = base64.b64encode(os.urandom(16)).decode()
    port = p.tls_port if tls else p.port
    raw = socket.create_connection((p.host, port), timeout=10, source_address=(p.source, 0))
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        raw = context.wrap_socket(raw)
    with raw as s:
        s.sendall(
            (
                "GET /api/lobby/ws HTTP/1.1\r\n"
                f"Host: {p.host}:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Origin: {origin}\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                break
            head += chunk
    return head.split(b"\r\n", 1)[0].decode(errors="replace")


def origin_checked(p: Proxy) -> None:
    other_port = p.port + 1 if p.port < 65535 else p.port - 1
    for origin, tls, want, what in [
        (f"http://{p.host}:{p.port}", False, "101", "opens with this site's Origin"),
        (f"https://{p.host}:{p.tls_port}", True, "101", "opens over HTTPS with this site's Origin"),
        (f"http://{p.host}:{other_port}", False, "403", "is refused from another port"),
        (f"https://{p.host}:{p.port}", False, "403", "is refused with another scheme"),
        ("http://mabula.example.net", False, "403", "is refused with another host"),
    ]:
        line = websocket(p, origin, tls)
        ok = line.split(" ")[1:2] == [want]
        p.check(f"(d) /api/lobby/ws {what} ({origin}, want {want})", ok, line or "no answer")


def trickle(p: Proxy, outcome: dict) -> None:
    """Sends a request head one line a second and notes when and how the proxy ended it."""
    start = time.monotonic()
    answer = b""
    how = "still open"
    try:
        s = socket.create_connection((p.host, p.port), timeout=10, source_address=(p.source, 0))
    except OSError as e:
        outcome[p.name] = (0.0, f"could not connect: {e}")
        return
    with s:
        lines = [b"GET /readyz HTTP/1.1\r\n", f"Host: {p.host}:{p.port}\r\n".encode()]
        n = 0
        next_line = start
        while time.monotonic() - start < GIVE_UP:
            now = time.monotonic()
            if now >= next_line:
                line = lines[n] if n < len(lines) else f"X-Trickle-{n}: {n}\r\n".encode()
                n += 1
                next_line += 1.0
                try:
                    s.sendall(line)
                except OSError as e:
                    how = f"sending failed ({e.__class__.__name__})"
                    break
            readable, _, _ = select.select([s], [], [], max(0.0, next_line - time.monotonic()))
            if readable:
                try:
                    chunk = s.recv(4096)
                except OSError as e:
                    how = f"reset ({e.__class__.__name__})"
                    break
                if not chunk:
                    how = "closed"
                    break
                answer += chunk
    elapsed = time.monotonic() - start
    saw = f"{how} after {elapsed:.1f} s and {n} lines"
    if answer:
        saw += "; it answered " + answer.split(b"\r\n", 1)[0].decode(errors="replace")
    outcome[p.name] = (elapsed, saw)


def main() -> None:
    proxies = [parse(a) for a in sys.argv[1:]]
    if not proxies:
        sys.exit(__doc__)
    # (c) runs for about 10 s; every proxy's at once, beside the other checks.
    outcome: dict = {}
    trickles = [threading.Thread(target=trickle, args=(p, outcome)) for p in proxies]
    for t in trickles:
        t.start()
    print(
        f"....  (c) a request head trickled one line a second to each proxy; waiting up to "
        f"{GIVE_UP:.0f} s for the proxies to cut it off (real time, one per proxy)",
        flush=True,
    )
    for p in proxies:
        checks = (site_answers, no_secure_cookie_by_the_clients_word, counted_as_itself, origin_checked)
        for check in checks:
            try:
                check(p)
            except (OSError, http.client.HTTPException) as e:
                p.check(check.__name__.replace("_", " "), False, f"{e.__class__.__name__}: {e}")
    for t in trickles:
        t.join()
    for p in proxies:
        elapsed, saw = outcome[p.name]
        ok = CUT_WINDOW[0] <= elapsed <= CUT_WINDOW[1]
        p.check(
            f"(c) a head trickled one line a second is cut off at {HEAD_TIMEOUT:.0f} s "
            f"({CUT_WINDOW[0]:.0f} to {CUT_WINDOW[1]:.0f} s)",
            ok,
            saw,
        )
    failed = sum(not ok for p in proxies for ok in p.results)
    total = sum(len(p.results) for p in proxies)
    print(f"proxy-checks: {total - failed} of {total} checks passed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
