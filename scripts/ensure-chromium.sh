#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests when it is missing and we can.
set -euo pipefail
chrome="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chrome" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing chromium with apt-get..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "chromium not found at $chrome; install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM_PATH" >&2
  exit 1
fi
