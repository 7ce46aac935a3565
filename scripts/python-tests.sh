#!/usr/bin/env bash
# Builds the Python package `mabula` (python/, pyo3 + maturin) into a virtual environment under
# the build area and runs its tests: the differential tests against a plain Python reading of the
# rules, the engine, and OpenSpiel's MCTS on the registered game.
#
#   scripts/python-tests.sh            # create target/pyvenv on the first run, install, test
#   MABULA_PY_VENV=/tmp/venv scripts/python-tests.sh
#
# The test tools come from PyPI, pinned, so that a new release cannot change what is checked.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${MABULA_PY_VENV:-target/pyvenv}"
case "$VENV" in /*) ;; *) VENV="$PWD/$VENV" ;; esac
TOOLS=("maturin==1.16.0" "pytest==9.2.0" "open_spiel==2.0.2")

log() { echo "python-tests.sh: $*" >&2; }

if [[ ! -x "$VENV/bin/python" ]]; then
    log "creating $VENV"
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -m pip freeze 2>/dev/null | grep -qi "^open.spiel==2.0.2"; then
    log "installing ${TOOLS[*]}"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${TOOLS[@]}"
fi
# The one command a user runs: pip install PATH (a release build of the workspace's crates).
log "installing the package from python/"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
# The analysis client's tests run this workspace's `mabula`, never an older build lying around:
# built as the Rust tests build it (so a no-op after them), unless MABULA_BIN names one.
if [[ -z "${MABULA_BIN:-}" ]]; then
    cargo build --workspace --tests --quiet
    target="${CARGO_TARGET_DIR:-target}"
    case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
    export MABULA_BIN="$target/debug/mabula"
fi
"$VENV/bin/python" -m pytest -q python/tests "$@"
