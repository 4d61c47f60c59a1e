#!/usr/bin/env bash
# Installs the Debian packages the test suite drives when they are missing and we can:
# chromium (browser journeys), gdal-bin (ogrinfo/ogr2ogr read what we serve and export) and
# poppler-utils (pdftotext/pdftoppm read the printed briefing) and postgresql-15-postgis-3 (the
# PostgreSQL half of the API suite and the two-server test run on a throw-away cluster) and
# cgi-mapserver (a real WMS/WMTS server the external-layer tests read through our source proxy).
set -euo pipefail
chrome="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$chrome" ] || missing+=(chromium)
command -v ogrinfo >/dev/null || missing+=(gdal-bin)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
[ -x /usr/lib/postgresql/15/bin/postgres ] && [ -e /usr/share/postgresql/15/extension/postgis.control ] ||
  missing+=(postgresql-15-postgis-3)
[ -x /usr/lib/cgi-bin/mapserv ] || missing+=(cgi-mapserver)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing ${missing[*]} with apt-get..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "missing ${missing[*]}: install them with sudo apt-get install ${missing[*]} (or set CHROMIUM_PATH)" >&2
  exit 1
fi
