#!/usr/bin/env bash
# Runs every test that starts three instances on one PostgreSQL, many times in a row, to find the
# races that one run hides. Each iteration runs the whole set; a failure is a bug to find (the
# suite retries nothing). The load average is printed at the start and the end: run it while the
# machine is busy (a build, or `--busy`, which keeps both cores spinning beside the tests).
#
#   scripts/cluster-stress.sh            # 20 runs
#   scripts/cluster-stress.sh 5 --busy   # 5 runs beside two spinning processes
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
busy=false
[ "${2:-}" = "--busy" ] && busy=true

if [ -z "${MABULA_TEST_POSTGRES_URL:-}" ]; then
  MABULA_TEST_POSTGRES_URL=$(scripts/start-postgres.sh)
  export MABULA_TEST_POSTGRES_URL
fi
scripts/build.sh --quiet

hogs=()
cleanup() { [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null || true; }
trap cleanup EXIT
if $busy; then
  for _ in 1 2; do
    (while :; do :; done) &
    hogs+=($!)
  done
fi

# The test binaries whose tests run three instances when MABULA_TEST_POSTGRES_URL is set.
set=(cluster accounts abuse_accounts bot_bridge bots chat fair_play hardening players playing puzzles ratings sockets tournaments)
filter=$(printf "binary_id(mabula-cli::%s) | " "${set[@]}")
filter=${filter% | }
echo "cluster-stress: $runs runs of: ${set[*]}; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
cargo nextest run --workspace --all-features --no-fail-fast --stress-count "$runs" \
  -E "kind(test) & ($filter)" || status=$?
echo "cluster-stress: load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
