# Sourced by scripts/test.sh: the throw-away PostgreSQL cluster of the test run
# (tests/support/pgGlobalSetup.ts starts it under EMBERLINE_TEST_PG_DIR, default
# $TMPDIR/emberline-test-pg) is stopped when the run ends, pass or fail: it trusts every local
# connection. Kept when EMBERLINE_KEEP_TEST_PG=1 (the next run starts faster), and when it was
# already running before this run began (the developer kept it, or another run is using it).

test_pg_dir() {
  echo "${EMBERLINE_TEST_PG_DIR:-${TMPDIR:-/tmp}/emberline-test-pg}"
}

# Call before the tests: notes whether the cluster is running already.
test_pg_watch() {
  test_pg_was_running=0
  if bash scripts/postgres.sh status "$(test_pg_dir)"; then test_pg_was_running=1; fi
}

# The EXIT trap: stops the cluster this run started, unless asked to keep it.
test_pg_stop() {
  local dir
  dir=$(test_pg_dir)
  if [[ "${EMBERLINE_KEEP_TEST_PG:-0}" =~ ^(1|true|on|yes)$ ]]; then
    echo "EMBERLINE_KEEP_TEST_PG: the test PostgreSQL cluster under $dir keeps running (scripts/postgres.sh stop $dir)" >&2
  elif [ "${test_pg_was_running:-0}" = 1 ]; then
    echo "the test PostgreSQL cluster under $dir was running before this run: left running" >&2
  elif bash scripts/postgres.sh status "$dir"; then
    bash scripts/postgres.sh stop "$dir" >&2
  fi
}
