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

# The checks and the production build side by side (scripts/parallelSteps.sh), after the one step
# that writes src/generated (typecheck and build would each rewrite it otherwise).
source scripts/parallelSteps.sh
npm run -s validate-config
npm run -s config
run_steps 'npx tsc -p tsconfig.json --noEmit' 'npm run -s lint' 'npm run -s format:check' 'npx vite build'
npx vitest run --project unit --project api-pg
npx vitest run --project e2e
