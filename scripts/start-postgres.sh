#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the tests and prints its URL on stdout:
#
#   export MABULA_TEST_POSTGRES_URL="$(scripts/start-postgres.sh)"
#
# The server runs from Debian's binaries (the newest /usr/lib/postgresql/N/bin, any version, or
# $PG_BIN, or the directory `pg_config --bindir` names) in a new
# temporary directory, listening on 127.0.0.1 only, on a free port, with trust authentication
# for the user `mabula`. PostgreSQL refuses to run as root, so as root it runs as the `postgres`
# user (or `nobody`). The directory is printed on stderr; stop the server with
# `<dir>/stop.sh` (or just let the machine end it), and start it again on the same port with
# `<dir>/start.sh`.
set -euo pipefail

if [[ -n "${PG_BIN:-}" ]]; then
    BIN="$PG_BIN"
else
    BIN=""
    # The newest version installed (numerically: 9.6 < 15 < 17).
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5n); do
        [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]] && BIN="$dir"
    done
    if [[ -z "$BIN" ]] && command -v pg_config >/dev/null 2>&1; then
        BIN="$(pg_config --bindir)"
    fi
fi
if [[ -z "$BIN" || ! -x "$BIN/initdb" || ! -x "$BIN/pg_ctl" ]]; then
    echo "start-postgres: no PostgreSQL binaries in ${BIN:-/usr/lib/postgresql/*/bin} (apt-get install postgresql)" >&2
    exit 1
fi
VERSION="$("$BIN/postgres" --version 2>/dev/null | awk '{print $3}')"

DIR="$(mktemp -d "${TMPDIR:-/tmp}/mabula-pg.XXXXXX")"
RUN=()
if [[ "$(id -u)" == 0 ]]; then
    USER_NAME=postgres
    id "$USER_NAME" >/dev/null 2>&1 || USER_NAME=nobody
    chown "$USER_NAME" "$DIR"
    chmod 700 "$DIR"
    RUN=(runuser -u "$USER_NAME" --)
fi

free_port() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
    else
        echo $((20000 + RANDOM % 20000))
    fi
}

"${RUN[@]}" "$BIN/initdb" -D "$DIR/data" -U mabula --auth=trust -E UTF8 --no-locale >"$DIR/initdb.log" 2>&1 || {
    echo "start-postgres: initdb failed, see $DIR/initdb.log" >&2
    cat "$DIR/initdb.log" >&2
    exit 1
}

for attempt in 1 2 3 4 5; do
    PORT="$(free_port)"
    if "${RUN[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 30 \
        -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null 2>&1; then
        cat >"$DIR/stop.sh" <<STOP
#!/usr/bin/env bash
${RUN[*]} "$BIN/pg_ctl" -D "$DIR/data" -m fast stop
STOP
        cat >"$DIR/start.sh" <<START
#!/usr/bin/env bash
${RUN[*]} "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 30 -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=200" start
START
        chmod +x "$DIR/stop.sh" "$DIR/start.sh"
        echo "start-postgres: PostgreSQL ${VERSION:-?} on 127.0.0.1:$PORT in $DIR (stop: $DIR/stop.sh)" >&2
        echo "postgres://mabula@127.0.0.1:$PORT/postgres"
        exit 0
    fi
    echo "start-postgres: port $PORT failed (attempt $attempt)" >&2
done
echo "start-postgres: the server did not start, see $DIR/server.log" >&2
cat "$DIR/server.log" >&2 || true
exit 1
