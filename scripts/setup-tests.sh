#!/usr/bin/env bash
# Installs what the tests need and a fresh machine lacks: Debian's chromium (browser tests),
# PostgreSQL 15 (storage and cluster tests), python3-venv (Schemathesis) and cargo-nextest.
# Does nothing when all are there. Run by scripts/test.sh, so the README's test command is all a
# fresh machine needs; installing Debian packages needs root (or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
if [ -f web-tests/package.json ] && ! command -v chromium >/dev/null 2>&1; then
  need_apt+=(chromium)
fi
if [ ! -x "${PG_BIN:-/usr/lib/postgresql/15/bin}/postgres" ]; then
  need_apt+=(postgresql-15)
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  need_apt+=(python3-venv)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  echo "setup-tests: installing ${need_apt[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
command -v cargo-nextest >/dev/null 2>&1 || cargo install --locked cargo-nextest
