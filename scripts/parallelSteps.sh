# Sourced by scripts/test.sh: run_steps runs independent steps at the same time and fails when any
# of them fails. Each step is one quoted command line; its output is kept apart and printed whole,
# under the step's name, once every step has ended (so logs do not interleave). Typecheck, lint
# and the format check are each one single-threaded process: side by side on two cores they take
# about as long as the slowest of them instead of their sum.

run_steps() {
  local dir failed=0 i=0 status
  dir=$(mktemp -d "${TMPDIR:-/tmp}/emberline-steps-XXXXXX")
  local pids=() names=()
  for step in "$@"; do
    bash -c "set -euo pipefail; $step" >"$dir/$i.log" 2>&1 &
    pids+=("$!")
    names+=("$step")
    i=$((i + 1))
  done
  for i in "${!pids[@]}"; do
    status=0
    wait "${pids[$i]}" || status=$?
    echo "── ${names[$i]} (exit $status)"
    cat "$dir/$i.log"
    if [ "$status" != 0 ]; then failed=1; fi
  done
  rm -rf "$dir"
  return "$failed"
}
