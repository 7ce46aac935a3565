#!/usr/bin/env bash
# Builds the Python package `mabula` (python/, pyo3 + maturin) into a virtual environment under
# the build area and runs its tests: the differential tests against a plain Python reading of the
# rules, the engine, and OpenSpiel's MCTS on the registered game.
#
#   scripts/python-tests.sh            # create target/pyvenv on the first run, install, test
#   scripts/python-tests.sh --pip      # install it as a user does: pip install ./python (release)
#   MABULA_PY_VENV=/tmp/venv scripts/python-tests.sh
#
# The test tools come from PyPI, pinned, so that a new release cannot change what is checked.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${MABULA_PY_VENV:-target/pyvenv}"
case "$VENV" in /*) ;; *) VENV="$PWD/$VENV" ;; esac
TOOLS=("pytest==9.2.0" "open_spiel==2.0.2")

log() { echo "python-tests.sh: $*" >&2; }

if [[ ! -x "$VENV/bin/python" ]]; then
    log "creating $VENV"
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -m pip freeze 2>/dev/null | grep -qi "^open.spiel==2.0.2"; then
    log "installing ${TOOLS[*]}"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${TOOLS[@]}"
fi
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
if [[ "${1:-}" == "--pip" ]]; then
    shift
    # The one command a user runs: pip install PATH (a release build of the workspace's crates).
    log "installing the package from python/ with pip"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
else
    # The package as the Rust tests build it (scripts/build.sh, a no-op after scripts/test.sh's
    # build), so that both test one compiled engine: python/python/mabula with the extension.
    scripts/build.sh --quiet
    site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    log "installing the package from python/python and $target/debug/lib_mabula.so"
    "$VENV/bin/python" -m pip uninstall --quiet --yes mabula >/dev/null 2>&1 || true
    rm -rf "$site/mabula"
    cp -r python/python/mabula "$site/mabula"
    cp "$target/debug/lib_mabula.so" "$site/mabula/_mabula.abi3.so"
fi
# The analysis client's tests run this workspace's `mabula`, never an older build lying around:
# the one build of scripts/build.sh (a no-op when made above), unless MABULA_BIN names one.
if [[ -z "${MABULA_BIN:-}" ]]; then
    scripts/build.sh --quiet
    export MABULA_BIN="$target/debug/mabula"
fi
"$VENV/bin/python" -m pytest -q python/tests "$@"
