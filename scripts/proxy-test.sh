#!/usr/bin/env bash
# Runs the nginx and the HAProxy configurations of docs/deploy.md, exactly as the page shows
# them, in front of three `mabula serve` instances on one throwaway PostgreSQL, and checks
# through each proxy what a client sees (scripts/proxy-checks.py says what each check does):
#
#   scripts/proxy-test.sh            # the binary in $MABULA_BIN, else target/debug/mabula
#
# The configurations come from scripts/proxy-config.py, which replaces only the listen lines
# (loopback ports, plain HTTP beside HTTPS), the commented TLS lines (a self-signed certificate
# made here) and the placeholder instances (10.0.0.11:8080, ...). The instances trust 127.0.0.1,
# where the proxies connect from, and take 2 sign-ups an hour per address; the client connects
# to each proxy from an address of its own (127.0.0.2, 127.0.0.3).
#
# nginx, HAProxy and openssl come from Debian and are installed when missing (as root). As root,
# nginx's workers run as `nobody` and PostgreSQL as `postgres` (scripts/start-postgres.sh).
# Everything lives in one temporary directory, removed at the end with every process started
# here. It takes about 15 s, 10 of them waiting for the proxies to cut off a slow request head.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "proxy-test: $*" >&2; }

missing=()
command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
command -v haproxy >/dev/null 2>&1 || [[ -x /usr/sbin/haproxy ]] || missing+=(haproxy)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [[ ${#missing[@]} -gt 0 ]]; then
    if [[ "$(id -u)" != 0 ]]; then
        log "missing: ${missing[*]} (apt-get install ${missing[*]})"
        exit 1
    fi
    log "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
HAPROXY="$(command -v haproxy || echo /usr/sbin/haproxy)"

if [[ -z "${MABULA_BIN:-}" ]]; then
    scripts/build.sh --quiet
    MABULA_BIN=target/debug/mabula
fi

DIR="$(mktemp -d "${TMPDIR:-/tmp}/mabula-proxy.XXXXXX")"
# nginx's workers drop root for `nobody`: they need to reach the temporary directories.
chmod 755 "$DIR"
PIDS=()
PG_STOP=""

cleanup() {
    local status=$? pid
    if [[ ${#PIDS[@]} -gt 0 ]]; then
        kill -TERM "${PIDS[@]}" 2>/dev/null || true
        for _ in $(seq 1 50); do
            local alive=0
            for pid in "${PIDS[@]}"; do
                # A child that has exited stays a zombie until `wait` below.
                if [[ -e "/proc/$pid" ]] && ! grep -q ') Z ' "/proc/$pid/stat" 2>/dev/null; then
                    alive=1
                fi
            done
            [[ $alive == 0 ]] && break
            sleep 0.1
        done
        kill -KILL "${PIDS[@]}" 2>/dev/null || true
        wait 2>/dev/null || true
    fi
    if [[ -n "$PG_STOP" ]]; then
        "$PG_STOP" >/dev/null 2>&1 || true
        rm -rf "$(dirname "$PG_STOP")"
    fi
    if [[ $status != 0 && -d "$DIR" ]]; then
        for f in "$DIR"/*.log "$DIR"/nginx/error.log; do
            [[ -s "$f" ]] || continue
            log "the end of $f:"
            tail -n 15 "$f" >&2
        done
    fi
    rm -rf "$DIR"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Prints $1 free ports of 127.0.0.1, all different (one Python start: they are slow here).
free_ports() {
    python3 - "$1" <<'PY'
import socket, sys
sockets = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in sockets))
PY
}

# Waits until $1 answers 200 (from the address $2).
wait_ready() {
    python3 - "$1" "${2:-127.0.0.1}" <<'PY'
import http.client, sys, time
host, port = sys.argv[1].rsplit(":", 1)
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    try:
        c = http.client.HTTPConnection(host, int(port), timeout=2, source_address=(sys.argv[2], 0))
        c.request("GET", "/readyz")
        if c.getresponse().status == 200:
            sys.exit(0)
    except OSError:
        pass
    time.sleep(0.1)
sys.exit(1)
PY
}

# The database.
if ! DB_URL="$(scripts/start-postgres.sh 2>"$DIR/postgres.log")"; then
    log "PostgreSQL did not start"
    exit 1
fi
PG_STOP="$(sed -n 's|.*(stop: \(.*/stop.sh\)).*|\1|p' "$DIR/postgres.log")"

# The ports: three instances, and the plain and TLS listeners of nginx and of HAProxy.
read -r -a PORTS <<<"$(free_ports 7)"

# Three instances, started together (they take turns to migrate the database).
cp "$MABULA_BIN" "$DIR/mabula"
INSTANCES=()
for i in 1 2 3; do
    address="127.0.0.1:${PORTS[$((i - 1))]}"
    setsid "$DIR/mabula" serve --bind "$address" --database "$DB_URL" --threads 1 \
        --engine-threads 1 --trusted-proxy 127.0.0.1 --signups-per-address-hour 2 \
        >"$DIR/instance-$i.log" 2>&1 </dev/null &
    PIDS+=($!)
    INSTANCES+=("$address")
done
for i in 0 1 2; do
    if ! wait_ready "${INSTANCES[$i]}"; then
        log "instance $((i + 1)) did not answer at ${INSTANCES[$i]}"
        exit 1
    fi
done
SERVERS=()
for address in "${INSTANCES[@]}"; do SERVERS+=(--server "$address"); done

# A self-signed certificate for the proxies' HTTPS listeners (HAProxy reads key and
# certificate from one file).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj /CN=127.0.0.1 -keyout "$DIR/key.pem" -out "$DIR/cert.pem" 2>/dev/null
cat "$DIR/cert.pem" "$DIR/key.pem" >"$DIR/tls.pem"

# nginx: the page's block inside an `http` section with this directory's paths.
NGINX_PLAIN="127.0.0.1:${PORTS[3]}"
NGINX_TLS="127.0.0.1:${PORTS[4]}"
mkdir -p "$DIR/nginx"
for t in body proxy fastcgi uwsgi scgi; do
    mkdir -p "$DIR/nginx/$t"
    chmod 1777 "$DIR/nginx/$t"
done
scripts/proxy-config.py nginx --listen "$NGINX_PLAIN" --tls "$NGINX_TLS" \
    --cert "$DIR/cert.pem" --key "$DIR/key.pem" "${SERVERS[@]}" >"$DIR/nginx/mabula.conf"
cat >"$DIR/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $DIR/nginx/nginx.pid;
error_log $DIR/nginx/error.log warn;
daemon off;
events { worker_connections 1024; }
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
"$NGINX" -t -q -p "$DIR/nginx" -c "$DIR/nginx/nginx.conf" -e "$DIR/nginx/error.log"
setsid "$NGINX" -p "$DIR/nginx" -c "$DIR/nginx/nginx.conf" -e "$DIR/nginx/error.log" \
    </dev/null >"$DIR/nginx.log" 2>&1 &
PIDS+=($!)

# HAProxy: the page's block after a `global` section of this run.
HAPROXY_PLAIN="127.0.0.1:${PORTS[5]}"
HAPROXY_TLS="127.0.0.1:${PORTS[6]}"
mkdir -p "$DIR/haproxy"
cat >"$DIR/haproxy/global.cfg" <<CONF
global
    pidfile $DIR/haproxy/haproxy.pid
    log stderr format short local0 notice
CONF
scripts/proxy-config.py haproxy --listen "$HAPROXY_PLAIN" --tls "$HAPROXY_TLS" \
    --cert "$DIR/tls.pem" "${SERVERS[@]}" >"$DIR/haproxy/mabula.cfg"
"$HAPROXY" -c -q -f "$DIR/haproxy/global.cfg" -f "$DIR/haproxy/mabula.cfg"
setsid "$HAPROXY" -db -f "$DIR/haproxy/global.cfg" -f "$DIR/haproxy/mabula.cfg" \
    </dev/null >"$DIR/haproxy.log" 2>&1 &
PIDS+=($!)

for address in "$NGINX_PLAIN" "$HAPROXY_PLAIN"; do
    if ! wait_ready "$address"; then
        log "the proxy at $address did not answer"
        exit 1
    fi
done
log "instances at ${INSTANCES[*]}"
log "nginx at $NGINX_PLAIN (HTTPS $NGINX_TLS), HAProxy at $HAPROXY_PLAIN (HTTPS $HAPROXY_TLS)"

scripts/proxy-checks.py "nginx=$NGINX_PLAIN,$NGINX_TLS,127.0.0.2" \
    "haproxy=$HAPROXY_PLAIN,$HAPROXY_TLS,127.0.0.3"
