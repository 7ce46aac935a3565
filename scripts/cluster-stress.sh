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

# The modules of the `mabula` command's tests that run three instances when
# MABULA_TEST_POSTGRES_URL is set.
set=(cluster accounts abuse_accounts bot_bridge bots chat fair_play hardening players playing puzzles ratings sockets tournaments)
modules=$(IFS='|'; echo "${set[*]}")
filter="binary_id(mabula-cli::cli) & test(/^($modules)::/)"
echo "cluster-stress: $runs runs of: ${set[*]}; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
# Every test makes a database of its own and keeps it (to be read after a failure): between two
# runs, when no test is connected, the databases a passing run made are dropped, so that twenty
# runs fit on the disk; those of a failed run stay.
psql=$(command -v psql || ls /usr/lib/postgresql/*/bin/psql | tail -1)
test_databases() {
  "$psql" -q -At "$MABULA_TEST_POSTGRES_URL" -c "SELECT datname FROM pg_database WHERE datname LIKE 'mabula\_%'" | LC_ALL=C sort
}
failed=0
for run in $(seq 1 "$runs"); do
  before=$(test_databases)
  if cargo nextest run --workspace --all-features --no-fail-fast -E "$filter"; then
    LC_ALL=C comm -13 <(echo "$before") <(test_databases) |
      while read -r db; do "$psql" -q "$MABULA_TEST_POSTGRES_URL" -c "DROP DATABASE $db WITH (FORCE)"; done
    echo "cluster-stress: run $run of $runs passed; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  else
    failed=$((failed + 1))
    echo "cluster-stress: run $run of $runs FAILED (its databases are kept)"
  fi
done
echo "cluster-stress: $((runs - failed)) of $runs runs passed; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$failed" -eq 0 ]
