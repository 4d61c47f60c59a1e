#!/usr/bin/env bash
# Vite with hot reload in front of the API server (which it proxies).
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsx watch src/server/main.ts &
server=$!
trap 'kill $server' EXIT
npx vite --port "${VITE_PORT:-5173}"
