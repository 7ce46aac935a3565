#!/usr/bin/env bash
# The suite's one build: the dev profile, every crate with every feature, and every library,
# binary, test and example. scripts/test.sh runs it once; the scripts that need a `mabula` or the
# Python extension run it too, which is then a no-op.
#
# Always the same selection of targets: cargo unifies the features of the dev-dependencies only
# when a test or example is built, so `cargo build --lib` alone would build libc, tokio and most
# of the workspace a second time with other features (minutes on a fresh clone), and leave a
# `mabula` and a `lib_mabula.so` that are not the code the Rust tests ran.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo build --workspace --all-features --lib --bins --tests --examples "$@"
