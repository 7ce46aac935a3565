#!/usr/bin/env bash
# Runs several `mabula serve` instances on one throwaway PostgreSQL behind nginx, all on loopback,
# to try the server behind a load balancer (docs/deploy.md):
#
#   scripts/cluster.sh                     # 3 instances; prints the URLs, stops on Ctrl-C
#   scripts/cluster.sh --instances 2 --detach   # starts, prints the URLs and returns
#   scripts/cluster.sh stop                # stops a detached cluster
#
# Options of `start` (the default command):
#   --instances N   instances to run (default 3)
#   --port P        the balancer's port (default: a free one)
#   --detach        return once everything answers; stop it later with `scripts/cluster.sh stop`
#   --balance B     game (default): the requests about one game go to one instance, chosen by
#                   its id; round-robin: any request to any instance in turn
#
# The instances listen on free ports of 127.0.0.1 without a rate limit, each with its share of
# the cores (--threads); nginx runs the configuration of docs/deploy.md (scripts/proxy-config.py:
# the port and the instances replaced, and the hash line dropped for round robin): it spreads
# requests over them (by game, or in turn; no sticky sessions), passes WebSocket upgrades and
# sets X-Forwarded-For.
# Everything lives in one temporary directory (configuration, logs, the database), whose path
# is kept in target/cluster.dir while the cluster runs. The `mabula` binary is the release build
# (built when missing or stale), or $MABULA_BIN. nginx comes from Debian and is installed when
# missing (as root).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
STATE="$ROOT/target/cluster.dir"

log() { echo "cluster.sh: $*" >&2; }

# Stops what the cluster in directory $1 started: the balancer, the instances (each is sent
# SIGTERM and given time to commit what is in flight), then PostgreSQL. Only processes whose
# command line names that directory are signalled, in case a recorded id was reused.
stop_cluster() {
    local dir="$1" pid pids=()
    [[ -d "$dir" ]] || return 0
    if [[ -f "$dir/pids" ]]; then
        while read -r pid; do
            if [[ -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$dir"; then
                pids+=("$pid")
            fi
        done <"$dir/pids"
    fi
    if [[ ${#pids[@]} -gt 0 ]]; then
        kill -TERM "${pids[@]}" 2>/dev/null || true
        for _ in $(seq 1 100); do
            local alive=0
            for pid in "${pids[@]}"; do
                # A child of this shell that has exited stays a zombie until the shell ends.
                if [[ -e "/proc/$pid" ]] && ! grep -q ') Z ' "/proc/$pid/stat" 2>/dev/null; then
                    alive=1
                fi
            done
            [[ $alive == 0 ]] && break
            sleep 0.1
        done
        for pid in "${pids[@]}"; do
            kill -KILL "$pid" 2>/dev/null || true
        done
    fi
    if [[ -s "$dir/pg-stop" ]]; then
        "$(cat "$dir/pg-stop")" >/dev/null 2>&1 || true
        rm -rf "$(dirname "$(cat "$dir/pg-stop")")"
    fi
    rm -rf "$dir"
    if [[ -f "$STATE" && "$(cat "$STATE")" == "$dir" ]]; then
        rm -f "$STATE"
    fi
    log "stopped"
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits until $1/healthz answers 200.
wait_healthy() {
    for _ in $(seq 1 150); do
        if python3 - "$1/healthz" <<'PY' 2>/dev/null; then return 0; fi
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=2) as r:
    sys.exit(0 if r.status == 200 else 1)
PY
        sleep 0.2
    done
    return 1
}

command="start"
if [[ $# -gt 0 && "$1" != -* ]]; then
    command="$1"
    shift
fi

case "$command" in
stop)
    if [[ ! -f "$STATE" ]]; then
        log "no cluster is running (no $STATE)"
        exit 1
    fi
    stop_cluster "$(cat "$STATE")"
    exit 0
    ;;
start) ;;
*)
    log "unknown command '$command': use start or stop"
    exit 2
    ;;
esac

INSTANCES=3
LB_PORT=""
DETACH=0
BALANCE=game
while [[ $# -gt 0 ]]; do
    case "$1" in
    --instances) INSTANCES="$2"; shift 2 ;;
    --port) LB_PORT="$2"; shift 2 ;;
    --detach) DETACH=1; shift ;;
    --balance) BALANCE="$2"; shift 2 ;;
    *) log "unknown option '$1'"; exit 2 ;;
    esac
done
if ! [[ "$INSTANCES" =~ ^[1-9][0-9]*$ ]]; then
    log "--instances takes a positive number"
    exit 2
fi
if [[ "$BALANCE" != game && "$BALANCE" != round-robin ]]; then
    log "--balance takes game or round-robin"
    exit 2
fi
if [[ -f "$STATE" && -d "$(cat "$STATE")" ]]; then
    log "a cluster is already running in $(cat "$STATE"): scripts/cluster.sh stop"
    exit 1
fi

# nginx from Debian.
if ! command -v nginx >/dev/null 2>&1 && [[ ! -x /usr/sbin/nginx ]]; then
    if [[ "$(id -u)" != 0 ]]; then
        log "nginx is missing: apt-get install nginx"
        exit 1
    fi
    log "installing nginx"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

if [[ -n "${MABULA_BIN:-}" ]]; then
    BIN="$MABULA_BIN"
else
    cargo build --quiet --release -p mabula-cli --bin mabula
    BIN="${CARGO_TARGET_DIR:-target}/release/mabula"
fi

DIR="$(mktemp -d "${TMPDIR:-/tmp}/mabula-cluster.XXXXXX")"
# nginx's workers drop root for `nobody`: they need to reach the temporary directories.
chmod 755 "$DIR"
mkdir -p "$ROOT/target"
echo "$DIR" >"$STATE"
: >"$DIR/pids"
# A copy, so that a rebuild while the cluster runs does not change the instances' binary.
cp "$BIN" "$DIR/mabula"

if [[ $DETACH == 0 ]]; then
    trap 'stop_cluster "$DIR"' EXIT
    trap 'exit 130' INT TERM
else
    trap 'if [[ -f "$DIR/failed" ]]; then stop_cluster "$DIR"; fi' EXIT
fi
touch "$DIR/failed"

# The database.
if ! DB_URL="$(scripts/start-postgres.sh 2>"$DIR/postgres.log")"; then
    log "PostgreSQL did not start:"
    cat "$DIR/postgres.log" >&2
    exit 1
fi
sed -n 's|.*(stop: \(.*/stop.sh\)).*|\1|p' "$DIR/postgres.log" >"$DIR/pg-stop"
log "PostgreSQL at $DB_URL"

# The instances, one after the other, so that only the first one migrates the database. Each
# trusts the balancer's X-Forwarded-For when the binary knows --trusted-proxy.
PROXY_ARGS=()
if "$DIR/mabula" serve --help 2>/dev/null | grep -q -- '--trusted-proxy'; then
    PROXY_ARGS=(--trusted-proxy 127.0.0.1)
fi
# The instances share this machine's cores rather than each taking all of them.
# The load test's --rated makes two accounts a pair, all from this address.
LIMIT_ARGS=()
if "$DIR/mabula" serve --help 2>/dev/null | grep -q -- '--signups-per-address-hour'; then
    LIMIT_ARGS=(--signups-per-address-hour 0)
fi
THREAD_ARGS=()
if "$DIR/mabula" serve --help 2>/dev/null | grep -q -- '--threads'; then
    share=$(($(nproc) / INSTANCES))
    THREAD_ARGS=(--threads $((share > 0 ? share : 1)))
fi
INSTANCE_URLS=()
for i in $(seq 1 "$INSTANCES"); do
    port="$(free_port)"
    setsid "$DIR/mabula" serve --bind "127.0.0.1:$port" --database "$DB_URL" --rate-limit 0 \
        "${PROXY_ARGS[@]}" "${LIMIT_ARGS[@]}" "${THREAD_ARGS[@]}" >"$DIR/instance-$i.log" 2>&1 </dev/null &
    echo $! >>"$DIR/pids"
    url="http://127.0.0.1:$port"
    if ! wait_healthy "$url"; then
        log "instance $i did not answer at $url:"
        tail -n 20 "$DIR/instance-$i.log" >&2
        exit 1
    fi
    INSTANCE_URLS+=("$url")
done

# The balancer.
[[ -n "$LB_PORT" ]] || LB_PORT="$(free_port)"
mkdir -p "$DIR/nginx"
for t in body proxy fastcgi uwsgi scgi; do
    mkdir -p "$DIR/nginx/$t"
    chmod 1777 "$DIR/nginx/$t"
done
# The configuration of docs/deploy.md, with this machine's port and instances.
CONFIG_ARGS=(--listen "127.0.0.1:$LB_PORT")
for url in "${INSTANCE_URLS[@]}"; do
    CONFIG_ARGS+=(--server "${url#http://}")
done
if [[ $BALANCE == round-robin ]]; then
    CONFIG_ARGS+=(--round-robin)
fi
scripts/proxy-config.py nginx "${CONFIG_ARGS[@]}" >"$DIR/nginx/mabula.conf"
cat >"$DIR/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $DIR/nginx/nginx.pid;
error_log $DIR/nginx/error.log warn;
daemon off;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $DIR/nginx/body;
    proxy_temp_path $DIR/nginx/proxy;
    fastcgi_temp_path $DIR/nginx/fastcgi;
    uwsgi_temp_path $DIR/nginx/uwsgi;
    scgi_temp_path $DIR/nginx/scgi;
    include $DIR/nginx/mabula.conf;
}
CONF
if ! "$NGINX" -t -q -p "$DIR/nginx" -c "$DIR/nginx/nginx.conf" -e "$DIR/nginx/error.log"; then
    log "nginx rejected its configuration:"
    cat "$DIR/nginx/error.log" >&2
    exit 1
fi
setsid "$NGINX" -p "$DIR/nginx" -c "$DIR/nginx/nginx.conf" -e "$DIR/nginx/error.log" \
    </dev/null >"$DIR/nginx/stdout.log" 2>&1 &
echo $! >>"$DIR/pids"
LB_URL="http://127.0.0.1:$LB_PORT"
if ! wait_healthy "$LB_URL"; then
    log "nginx did not answer at $LB_URL:"
    cat "$DIR/nginx/error.log" >&2
    exit 1
fi
rm -f "$DIR/failed"

echo "balancer   $LB_URL"
for i in "${!INSTANCE_URLS[@]}"; do
    echo "instance   ${INSTANCE_URLS[$i]}   (log: $DIR/instance-$((i + 1)).log)"
done
echo "database   $DB_URL"
echo "loadtest   mabula loadtest ${INSTANCE_URLS[*]}"
echo "           mabula loadtest $LB_URL"

if [[ $DETACH == 1 ]]; then
    log "running in the background; stop it with: scripts/cluster.sh stop"
    exit 0
fi
log "running; Ctrl-C stops everything"
# Returns when Ctrl-C (or SIGTERM) arrives, or when a process of the cluster ends.
while true; do
    while read -r pid; do
        if ! kill -0 "$pid" 2>/dev/null; then
            log "process $pid ended on its own; stopping the rest"
            exit 1
        fi
    done <"$DIR/pids"
    sleep 1
done
