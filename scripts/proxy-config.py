#!/usr/bin/env python3
"""Prints the nginx or HAProxy configuration of docs/deploy.md, ready to run on this machine.

    scripts/proxy-config.py nginx --listen 127.0.0.1:8000 --server 127.0.0.1:8081 ...
    scripts/proxy-config.py haproxy --listen 127.0.0.1:8000 --tls 127.0.0.1:8443 \\
        --cert tls.pem --server 127.0.0.1:8081 ...

The text is the first ```nginx (or ```haproxy) fenced block of docs/deploy.md, exactly, but for
these lines, each of which must be in the block as written here (else the page changed and this
script says which line it misses):

nginx
    `listen 443 ssl;`         -> `listen LISTEN;`, and `listen TLS ssl;` after it with --tls
    `# ssl_certificate ...; ssl_certificate_key ...;`
                              -> `ssl_certificate CERT; ssl_certificate_key KEY;` with --tls
haproxy
    `bind :80`                -> `bind LISTEN`
    `# bind :443 ssl crt /etc/haproxy/mabula.pem`
                              -> `bind TLS ssl crt CERT` with --tls (CERT holds the key too)
    `hash $route consistent;` -> removed with --round-robin (the `map` that sets $route stays,
                                 unused)
both
    the `server` lines naming 10.0.0.11:8080, 10.0.0.12:8080, ...
                              -> one line per --server, made from the first of them, with the
                                 address (and HAProxy's server name: s1, s2, ...) replaced

The block is the part of a configuration that the page shows: nginx's goes inside `http { }`,
HAProxy's after a `global` section; the caller adds those (paths, pid file, logs).
"""

import argparse
import re
import sys
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent.parent / "docs" / "deploy.md"
PLACEHOLDER = re.compile(r"10\.0\.0\.1\d:8080")


def block(text: str, lang: str) -> list[str]:
    """The lines of the first fenced block of `lang`."""
    lines = text.splitlines()
    try:
        start = lines.index("```" + lang) + 1
        end = lines.index("```", start)
    except ValueError:
        sys.exit(f"proxy-config: no ```{lang} block in {DEPLOY}")
    return lines[start:end]


def replace_line(lines: list[str], old: str, new: list[str]) -> list[str]:
    """`lines` with the one line reading `old` (indentation aside) replaced by `new`, indented
    as it was."""
    found = [i for i, line in enumerate(lines) if line.strip() == old]
    if len(found) != 1:
        sys.exit(f"proxy-config: {DEPLOY} has {len(found)} lines `{old}` in its block, not one")
    i = found[0]
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    return lines[:i] + [indent + n for n in new] + lines[i + 1 :]


def replace_servers(lines: list[str], servers: list[str], haproxy: bool) -> list[str]:
    found = [i for i, line in enumerate(lines) if PLACEHOLDER.search(line)]
    if not found or found != list(range(found[0], found[0] + len(found))):
        sys.exit(f"proxy-config: {DEPLOY}: the server lines (10.0.0.1N:8080) are not one run")
    template = lines[found[0]]
    new = []
    for n, address in enumerate(servers, 1):
        line = PLACEHOLDER.sub(address, template)
        if haproxy:
            # `server NAME ADDRESS ...`
            line = re.sub(r"^(\s*server\s+)\S+", rf"\g<1>s{n}", line)
        new.append(line)
    return lines[: found[0]] + new + lines[found[-1] + 1 :]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("proxy", choices=["nginx", "haproxy"])
    parser.add_argument("--listen", required=True, help="plain HTTP address:port")
    parser.add_argument("--tls", help="HTTPS address:port (needs --cert)")
    parser.add_argument("--cert", help="certificate (HAProxy: certificate and key, one file)")
    parser.add_argument("--key", help="private key (nginx)")
    parser.add_argument("--server", action="append", required=True, help="an instance")
    parser.add_argument("--round-robin", action="store_true", help="nginx: no routing by game")
    args = parser.parse_args()
    if args.tls and not args.cert or args.proxy == "nginx" and args.tls and not args.key:
        parser.error("--tls needs --cert (and --key for nginx)")
    if args.round_robin and args.proxy != "nginx":
        parser.error("--round-robin is for nginx (HAProxy's block is round robin)")

    lines = block(DEPLOY.read_text(), args.proxy)
    if args.proxy == "nginx":
        listen = [f"listen {args.listen};"] + ([f"listen {args.tls} ssl;"] if args.tls else [])
        lines = replace_line(lines, "listen 443 ssl;", listen)
        if args.tls:
            lines = replace_line(
                lines,
                "# ssl_certificate ...; ssl_certificate_key ...;",
                [f"ssl_certificate {args.cert}; ssl_certificate_key {args.key};"],
            )
        if args.round_robin:
            lines = replace_line(lines, "hash $route consistent;", [])
    else:
        lines = replace_line(lines, "bind :80", [f"bind {args.listen}"])
        if args.tls:
            lines = replace_line(
                lines,
                "# bind :443 ssl crt /etc/haproxy/mabula.pem",
                [f"bind {args.tls} ssl crt {args.cert}"],
            )
    lines = replace_servers(lines, args.server, args.proxy == "haproxy")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
