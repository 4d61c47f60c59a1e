#!/usr/bin/env bash
# The whole test suite: config validation, typecheck, lint, format, unit/API tests,
# the API suite again on PostgreSQL/PostGIS (a throw-away cluster, scripts/postgres.sh), a
# production build, and end-to-end journeys in headless Debian Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

# The PostgreSQL cluster the run starts is stopped when it ends (EMBERLINE_KEEP_TEST_PG=1 keeps it).
source scripts/testPgCluster.sh
test_pg_watch
trap test_pg_stop EXIT

bash scripts/ensure-tools.sh
[ -d node_modules ] || npm ci --no-audit --no-fund

npm run -s validate-config
npm run -s typecheck
npm run -s lint
npm run -s format:check
npx vitest run --project unit --project api-pg
npm run -s build
npx vitest run --project e2e
