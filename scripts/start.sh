#!/usr/bin/env bash
# Builds the web app when needed, then starts the one server (app, API, tiles, identity).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s config
if [ ! -f dist/index.html ] || [ -n "$(find src config -newer dist/index.html -type f -print -quit)" ]; then
  npx vite build --logLevel warn
fi
# glibc gives every thread that allocates its own malloc arena (up to 8 per core) and keeps what
# the worker threads freed (an ingestion's rows, a fire run's batches) in them: two arenas keep
# the server's resident set near what it uses (docs/deployment.md, tests/api/ingest-scale.test.ts).
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec npx tsx src/server/main.ts
