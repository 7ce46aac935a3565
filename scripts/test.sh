#!/usr/bin/env bash
# Runs every test of the project: rustfmt and clippy, the Rust workspace (unit, integration,
# property, differential, perft and doc tests), every shipped puzzle proven again, the storage
# tests against a throwaway PostgreSQL server, the Python package's tests, Schemathesis against
# the OpenAPI document of a running server, the nginx and HAProxy configurations of
# docs/deploy.md in front of three servers, and the browser tests. Starts and installs what the
# tests need: system packages (scripts/setup-tests.sh), the Python package and its test tools
# into target/pyvenv (scripts/python-tests.sh), Schemathesis into target/venv.
#
# One build serves every step: the dev profile with every feature of every crate (`learn`
# included), so that the Rust tests, the `mabula` that the server, browser and Python tests run,
# and the Python extension are the same compiled code. Each step's time is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/steps.sh
own_report=false
if [ -z "${STEPS_OWNER:-}" ]; then
  # Called by hand: this script prints the times (else its caller does, after its own steps).
  export STEPS_OWNER=test.sh
  own_report=true
fi

# The PostgreSQL this script started is stopped and its directory removed at the end.
own_postgres=""
cleanup() {
  if [ -n "$own_postgres" ]; then
    bash "$own_postgres/stop.sh" >/dev/null 2>&1 || true
    rm -rf "$own_postgres"
  fi
  if $own_report; then steps_report; fi
}
trap 'cleanup' EXIT

step "install what the tests need" scripts/setup-tests.sh
# A Node.js that setup-tests.sh installed because the system's is older than 20.
if [ -x target/node/node_modules/.bin/node ]; then
  export PATH="$PWD/target/node/node_modules/.bin:$PATH"
fi

if [ -z "${MABULA_TEST_POSTGRES_URL:-}" ] && [ -x scripts/start-postgres.sh ]; then
  if url=$(scripts/start-postgres.sh 2>"${TMPDIR:-/tmp}/test-sh-postgres.$$"); then
    export MABULA_TEST_POSTGRES_URL="$url"
    own_postgres=$(grep -o ' in /[^ ]*' "${TMPDIR:-/tmp}/test-sh-postgres.$$" | head -n 1 | cut -c5-)
    rm -f "${TMPDIR:-/tmp}/test-sh-postgres.$$"
    echo "test.sh: PostgreSQL at $MABULA_TEST_POSTGRES_URL"
  else
    echo "test.sh: could not start PostgreSQL; its storage tests will say they were skipped" >&2
  fi
fi

FEATURES=(--workspace --all-features)

# The house style first: formatting, every lint (warnings as errors), modules without a cycle.
step "rustfmt" cargo fmt --all --check
step "clippy" cargo clippy "${FEATURES[@]}" --all-targets -- -D warnings
step "module cycles" scripts/module-cycles.py crates/*/src python/src

# The one build: test binaries, the `mabula` binary and the Python extension.
step "build" scripts/build.sh
step "Rust tests" cargo nextest run "${FEATURES[@]}" --no-fail-fast
step "doc tests" cargo test "${FEATURES[@]}" --doc --quiet

# Every shipped puzzle proven again by the solver (the unit tests prove every 97th).
step "every shipped puzzle" target/debug/mabula puzzles check crates/mabula-engine/data/puzzles.tsv

export MABULA_BIN="$PWD/target/debug/mabula"
# The Python package, from the extension just built, and its pytest tests.
step "Python tests" scripts/python-tests.sh
# Generated requests against a real server: no 5xx, and no status the document does not list.
step "Schemathesis" scripts/schemathesis.sh
# The proxies' configurations of docs/deploy.md, as the page shows them, in front of three
# instances: the site through each, no client's word on the scheme or its address, slow heads
# cut off, WebSocket origins.
step "nginx and HAProxy of deploy.md" scripts/proxy-test.sh
if [ -f web-tests/package.json ]; then
  step "browser tests" bash -c 'cd web-tests && bash run.sh'
  step "TypeScript check of the pages" bash -c 'cd web-tests && node_modules/.bin/tsc -p tsconfig.json'
fi
