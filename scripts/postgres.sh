#!/usr/bin/env bash
# A throw-away PostgreSQL 15 + PostGIS 3 cluster for development and CI.
#
#   scripts/postgres.sh start DIR   installs PostgreSQL 15 + PostGIS 3 from Debian when missing,
#                                   creates (or reuses) a cluster under DIR listening on
#                                   127.0.0.1 only, creates the database "emberline" with PostGIS,
#                                   and prints DATABASE_URL=postgres://… as its last line
#   scripts/postgres.sh stop DIR    stops that cluster (its files stay under DIR)
#   scripts/postgres.sh status DIR  exits 0 when that cluster is running, 3 otherwise
#
# The cluster trusts local connections and listens on loopback only: it is for tests and
# development, never for production (see README "Production deployment").
set -euo pipefail

usage() {
  echo "usage: scripts/postgres.sh start|stop|status DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
cmd=$1
dir=$2
pgbin=/usr/lib/postgresql/15/bin
pgdata="$dir/pgdata"
db=emberline

as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

install_when_missing() {
  if [ -x "$pgbin/postgres" ] && [ -e /usr/share/postgresql/15/extension/postgis.control ]; then
    return
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "PostgreSQL 15 + PostGIS 3 are missing: sudo apt-get install postgresql-15-postgis-3" >&2
    exit 1
  fi
  echo "Installing postgresql-15-postgis-3 with apt-get..." >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15-postgis-3 >/dev/null
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start() {
  install_when_missing
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  pgdata="$dir/pgdata"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
  if [ ! -s "$pgdata/PG_VERSION" ]; then
    local port
    port=$(free_port)
    as_pg "$pgbin/initdb" -D "$pgdata" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    cat >>"$pgdata/postgresql.conf" <<CONF
# --- emberline throw-away cluster (scripts/postgres.sh) ---
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
shared_buffers = 512MB
work_mem = 32MB
maintenance_work_mem = 512MB
max_connections = 200
jit = off
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
  fi
  local port
  port=$(sed -n 's/^port = \([0-9]*\)$/\1/p' "$pgdata/postgresql.conf" | tail -1)
  if ! as_pg "$pgbin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; then
    as_pg "$pgbin/pg_ctl" -D "$pgdata" -l "$dir/postgres.log" -w start >/dev/null
  fi
  export PGOPTIONS="-c client_min_messages=warning"
  local psql=("$pgbin/psql" -h 127.0.0.1 -p "$port" -U postgres -v ON_ERROR_STOP=1 -qtA)
  "${psql[@]}" -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1 ||
    "${psql[@]}" -d postgres -c "CREATE DATABASE $db" >/dev/null
  "${psql[@]}" -d "$db" -c "CREATE EXTENSION IF NOT EXISTS postgis" >/dev/null
  echo "DATABASE_URL=postgres://postgres@127.0.0.1:$port/$db"
}

stop() {
  if [ ! -s "$pgdata/PG_VERSION" ]; then
    echo "no cluster under $dir" >&2
    exit 1
  fi
  if as_pg "$pgbin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; then
    as_pg "$pgbin/pg_ctl" -D "$pgdata" -m fast -w stop >/dev/null
  fi
  echo "stopped the cluster under $dir"
}

status() {
  [ -s "$pgdata/PG_VERSION" ] && as_pg "$pgbin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1 || exit 3
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
