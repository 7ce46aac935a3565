#!/usr/bin/env bash
# Runs every test of the project: the Rust workspace (unit, integration, property, differential,
# perft and doc tests), the storage tests against a throwaway PostgreSQL server, and the browser
# tests. Starts what the tests need; .ci/run installs the system packages first.
set -euo pipefail
cd "$(dirname "$0")/.."

cleanup() { :; }
trap 'cleanup' EXIT

if [ -z "${MABULA_TEST_POSTGRES_URL:-}" ] && [ -x scripts/start-postgres.sh ]; then
  if url=$(scripts/start-postgres.sh); then
    export MABULA_TEST_POSTGRES_URL="$url"
    echo "test.sh: PostgreSQL at $MABULA_TEST_POSTGRES_URL"
  else
    echo "test.sh: could not start PostgreSQL; its storage tests will say they were skipped" >&2
  fi
fi

cargo nextest run --workspace --no-fail-fast
cargo test --workspace --doc --quiet

if [ -f web-tests/package.json ]; then
  (cd web-tests && bash run.sh)
fi
