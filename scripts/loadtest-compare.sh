#!/usr/bin/env bash
# Compares the speed of two builds of the server side by side: for each of ROUNDS rounds, each
# build serves a fresh SQLite file and `mabula loadtest URL --games 64 --seconds 10` plays
# against it; the builds take turns, so both meet the same noise of a shared machine. Prints
# every run, then for each build the medians of moves a second and of the server's CPU time per
# move (user and system, read from /proc; less troubled by other work on the machine than the
# rate). The load test of the second build drives both, so only the servers differ.
#
#   scripts/loadtest-compare.sh OLD_BINARY NEW_BINARY [ROUNDS]   (default 6 rounds, ~3 minutes)
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_BINARY NEW_BINARY [ROUNDS]" >&2
  exit 2
fi
old=$1 new=$2 rounds=${3:-6}
driver=$new
ticks=$(getconf CLK_TCK)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run of build $1 (named $2): "name moves_per_second cpu_microseconds_per_move".
run() {
  local bin=$1 name=$2 dir url pid before after moves rate
  dir=$(mktemp -d -p "$work")
  "$bin" serve --bind 127.0.0.1:0 --database "$dir/db.sqlite3" --rate-limit 0 \
    >"$dir/out" 2>"$dir/err" &
  pid=$!
  url=
  for _ in $(seq 100); do
    url=$(grep -o 'http://[0-9.]*:[0-9]*/' "$dir/out" | head -1 || true)
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { echo "$name did not start: $(cat "$dir/err")" >&2; exit 1; }
  before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  "$driver" loadtest "$url" --games 64 --seconds 10 >"$dir/report" 2>&1
  after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  moves=$(awk '/moves accepted/ {print $3}' "$dir/report")
  rate=$(grep -o '([0-9]* moves/s)' "$dir/report" | tr -dc '0-9')
  echo "$name $rate $(( (after - before) * 1000000 / ticks / moves ))"
}

for i in $(seq "$rounds"); do
  run "$old" old
  run "$new" new
done | tee "$work/runs"

for name in old new; do
  awk -v n="$name" '$1 == n { print $2, $3 }' "$work/runs" | sort -n >"$work/rates"
  awk -v n="$name" '$1 == n { print $3 }' "$work/runs" | sort -n >"$work/cpu"
  count=$(wc -l <"$work/rates")
  mid=$(( (count + 1) / 2 ))
  echo "$name: median $(sed -n "${mid}p" "$work/rates" | cut -d' ' -f1) moves/s," \
    "median $(sed -n "${mid}p" "$work/cpu") µs of server CPU per move ($count runs)"
done
