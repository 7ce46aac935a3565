#!/usr/bin/env bash
# Runs every test of the project: rustfmt and clippy, the Rust workspace (unit, integration,
# property, differential, perft and doc tests), every shipped puzzle proven again, the storage
# tests against a throwaway PostgreSQL server, the Python package's tests, Schemathesis against
# the OpenAPI document of a running server, and the browser tests. Starts and installs what the
# tests need: system packages (scripts/setup-tests.sh), the Python package and its test tools
# into target/pyvenv (scripts/python-tests.sh), Schemathesis into target/venv.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-tests.sh
# A Node.js that setup-tests.sh installed because the system's is older than 20.
if [ -x target/node/node_modules/.bin/node ]; then
  export PATH="$PWD/target/node/node_modules/.bin:$PATH"
fi

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

# The house style first: formatting and every lint, warnings as errors.
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
# The engine's labelling and fitting, `mabula train` and the research examples (feature `learn`).
cargo clippy -p mabula-engine -p mabula-cli --all-targets --features mabula-cli/learn -- -D warnings
# The engine's modules use each other without a cycle.
scripts/module-cycles.py crates/mabula-engine/src

cargo nextest run --workspace --no-fail-fast
# The rules crate's optional serde feature (nothing in the workspace turns it on).
cargo nextest run -p mabula --features serde --no-fail-fast serde_impls
# The learn feature's tests: the engine's (all of them, with the tree's fitted-prior tests) and
# the `mabula train` ones of the CLI.
cargo nextest run -p mabula-engine --features learn --no-fail-fast
cargo nextest run -p mabula-cli --features learn --no-fail-fast -E 'test(/backward_stage|train/)'
cargo test -p mabula-engine --features learn --doc --quiet
cargo test --workspace --doc --quiet

# Every shipped puzzle proven again by the solver (the unit tests prove every 97th).
cargo run --quiet -p mabula-cli -- puzzles check crates/mabula-engine/data/puzzles.tsv

# The Python package, installed with pip into target/pyvenv, and its pytest tests.
scripts/python-tests.sh

# Generated requests against a real server: no 5xx, and no status the document does not list.
scripts/schemathesis.sh

if [ -f web-tests/package.json ]; then
  (cd web-tests && bash run.sh)
  (cd web-tests && node_modules/.bin/tsc -p tsconfig.json)
fi
