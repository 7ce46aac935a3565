#!/usr/bin/env bash
# Runs Schemathesis against the OpenAPI document of a real `mabula serve`: every documented
# operation gets generated requests, valid and invalid, and the run fails on any 5xx answer or on
# a status code that the document does not list for that operation.
#
#   scripts/schemathesis.sh              # build, serve on SQLite in a temporary directory, test
#   MABULA_ST_EXAMPLES=200 scripts/schemathesis.sh
#
# Schemathesis comes from PyPI into a virtual environment under the build area (target/venv, or
# $MABULA_VENV), created on the first run. The server listens on a free loopback port, without a
# rate limit, and is stopped at the end whatever happens.
#
# Settings (environment):
#   MABULA_ST_EXAMPLES  generated cases per operation and phase (default 100)
#   MABULA_ST_SEED      the generator's seed (default 1, so that a run can be repeated; set it to
#                       `random` to explore new inputs)
#   MABULA_BIN          a `mabula` binary to test instead of building one
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION="4.32.5"
VENV="${MABULA_VENV:-target/venv}"
EXAMPLES="${MABULA_ST_EXAMPLES:-100}"
SEED="${MABULA_ST_SEED:-1}"
case "$VENV" in /*) ;; *) VENV="$PWD/$VENV" ;; esac

log() { echo "schemathesis.sh: $*" >&2; }

# The tool, pinned, so that a new release cannot change what the suite checks.
if ! "$VENV/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
    log "installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mabula-st.XXXXXX")"
SERVER_PID=""
cleanup() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# The binary under test: the test profile's build (the test suite has built it already), copied
# so that a concurrent build in a shared target directory cannot replace it mid-run.
if [[ -n "${MABULA_BIN:-}" ]]; then
    BIN="$MABULA_BIN"
else
    scripts/build.sh --quiet
    cp "${CARGO_TARGET_DIR:-target}/debug/mabula" "$WORK/mabula"
    BIN="$WORK/mabula"
fi

# Port 0: the server picks a free port and prints its address. Short engine and analysis times
# keep generated engine games and analyses from tying up the two cores.
"$BIN" serve --bind 127.0.0.1:0 --database "$WORK/mabula.sqlite3" --rate-limit 0 \
    --engine-threads 1 --engine-movetime-ms 20 --analysis-ms 50 \
    >"$WORK/stdout" 2>"$WORK/server.log" &
SERVER_PID=$!

URL=""
for _ in $(seq 1 100); do
    URL="$(sed -n 's|^Mabula is served at \(http://[^/ ]*\)/.*|\1|p' "$WORK/stdout")"
    [[ -n "$URL" ]] && break
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        log "the server did not start:"
        cat "$WORK/server.log" >&2
        exit 1
    fi
    sleep 0.1
done
if [[ -z "$URL" ]]; then
    log "the server printed no address within 10 s"
    exit 1
fi
log "server at $URL"

SEED_ARGS=()
if [[ "$SEED" != "random" ]]; then
    SEED_ARGS=(--seed "$SEED")
fi

# From the temporary directory, where Schemathesis leaves its cache.
started=$SECONDS
status=0
cd "$WORK"
"$VENV/bin/st" --no-color run "$URL/api/openapi.json" \
    --checks not_a_server_error,status_code_conformance \
    --max-examples "$EXAMPLES" \
    "${SEED_ARGS[@]}" \
    --workers 1 \
    --request-timeout 30 \
    --generation-database none \
    || status=$?
log "finished in $((SECONDS - started)) s (exit status $status)"

if [[ $status -ne 0 ]]; then
    log "the end of the server's log:"
    tail -n 50 "$WORK/server.log" >&2
fi
exit "$status"
