#!/usr/bin/env bash
# The browser tests: builds `mabula`, serves it on a free port with a fresh SQLite database,
# runs the playwright-core tests against it with Debian's chromium, and stops the server.
# Screenshots of the key screens land in web-tests/screenshots/.
# The node tests of the pages' models (tests/*-model.test.mjs) run with them, and the API's
# TypeScript shapes (types/openapi.d.ts) are checked against the served OpenAPI document.
#
#   bash run.sh                 # everything
#   MABULA_BIN=path bash run.sh # skip the build, test that binary
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
root=$(cd .. && pwd)

chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "run.sh: no browser at $chromium (apt-get install chromium)" >&2
  exit 1
fi
# npm writes node_modules/.package-lock.json as it installs: older than the lock, it is stale.
[ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund

if [ -z "${MABULA_BIN:-}" ]; then
  target=${CARGO_TARGET_DIR:-$root/target}
  case "$target" in /*) ;; *) target="$root/$target" ;; esac
  # The suite's one build (opt-level 1), a no-op after the Rust tests.
  "$root/scripts/build.sh"
  MABULA_BIN="$target/debug/mabula"
fi

tmp=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# Short engine thinking keeps a whole game against it, and its analysis, within seconds; the
# tests send bursts of requests, make many accounts and leave engine games unfinished, so the rate
# limit, the sign-up limit and the cap on engine games per address are off. The server's clock is
# a controlled one (`--clock-file`): a test that needs "30 s later" moves it (helpers.mjs,
# `advanceClock`); the test files run one after the other.
"$MABULA_BIN" serve --bind 127.0.0.1:0 --database "$tmp/mabula.sqlite3" \
  --engine-movetime-ms 40 --analysis-ms 200 --rate-limit 0 --signups-per-address-hour 0 \
  --max-engine-games-per-address 0 --clock-file "$tmp/clock" \
  >"$tmp/stdout" 2>"$tmp/stderr" &
pid=$!

url=""
for _ in $(seq 1 300); do
  url=$(grep -o 'http://[0-9.]*:[0-9]*/' "$tmp/stdout" | head -n 1 || true)
  [ -n "$url" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "run.sh: the server did not start:" >&2
    cat "$tmp/stderr" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "run.sh: the server printed no address" >&2
  exit 1
fi
echo "run.sh: testing $url"

rm -rf "$here/screenshots"
mkdir -p "$here/screenshots"
status=0
# The API's TypeScript shapes (types/openapi.d.ts, for tsconfig.json) must match this server's.
MABULA_URL="$url" node openapi-types.mjs || status=$?
MABULA_URL="$url" CHROMIUM="$chromium" SCREENSHOTS="$here/screenshots" MABULA_CLOCK_FILE="$tmp/clock" \
  node --test --test-concurrency=1 tests/ || status=$?
if [ "$status" -ne 0 ]; then
  echo "run.sh: the last lines of the server log:" >&2
  tail -n 40 "$tmp/stderr" >&2
fi
exit "$status"
