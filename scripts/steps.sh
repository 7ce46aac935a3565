# Sourced by scripts/test.sh and .ci/run: `step NAME COMMAND...` runs a step and notes how long
# it took in $STEP_TIMES (a file shared by the scripts of one run); `steps_report` prints them
# all, with the one that failed, if any, named as such.

: "${STEP_TIMES:=$(mktemp "${TMPDIR:-/tmp}/mabula-steps.XXXXXX")}"
export STEP_TIMES

step() {
  local name=$1
  shift
  local start=$SECONDS status=0
  echo "==> $name" >&2
  "$@" || status=$?
  if [ "$status" -ne 0 ]; then
    printf '%6d s  %s  (FAILED, status %d)\n' $((SECONDS - start)) "$name" "$status" >>"$STEP_TIMES"
    return "$status"
  fi
  printf '%6d s  %s\n' $((SECONDS - start)) "$name" >>"$STEP_TIMES"
}

steps_report() {
  echo "==> the time of each step" >&2
  awk '{ total += $1; print } END { printf "%6d s  in all\n", total }' "$STEP_TIMES" >&2
}
