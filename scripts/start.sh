#!/usr/bin/env bash
# Builds the web app when needed, then starts the one server (app, API, tiles, identity).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s config
if [ ! -f dist/index.html ] || [ -n "$(find src config -newer dist/index.html -type f -print -quit)" ]; then
  npx vite build --logLevel warn
fi
exec npx tsx src/server/main.ts
