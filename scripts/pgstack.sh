#!/bin/bash
# pgstack.sh: a throwaway PostgreSQL cluster on loopback for integration tests.
# Usage: pgstack.sh start|stop DIR
#   start  initdb into DIR/data (once; a later start reuses it), start the server on
#          127.0.0.1:$PG_PORT with its unix socket in DIR/run, create role pbem (password pbem,
#          CREATEDB) and database pbem, wait until pg_isready answers.
#          URL: postgresql+psycopg://pbem:pbem@127.0.0.1:$PG_PORT/pbem
#   stop   pg_ctl stop -m fast
# Env (optional): PG_PORT (31432), PG_BIN (default: the newest /usr/lib/postgresql/<ver>/bin)
# Needs root (the server runs as the user postgres) and the Debian package postgresql
# (scripts/install_servers.sh). DIR must be traversable by the user postgres: use a dir right
# under /tmp (tempfile.mkdtemp(dir="/tmp")); the script chmods DIR to 755.
# Durability is off (fsync, synchronous_commit, full_page_writes): test data only.
set -euo pipefail
cmd=${1:?usage: pgstack.sh start|stop DIR}
D=$(realpath -m "${2:?usage: pgstack.sh $cmd DIR}")
PG_PORT=${PG_PORT:-31432}

if [ -z "${PG_BIN:-}" ]; then
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
fi
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
  echo "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin:" \
       "run 'sudo bash scripts/install_servers.sh'" >&2; exit 1
fi
as_pg() { runuser -u postgres -- "$@"; }

case $cmd in
start)
  if [ "$(id -u)" -ne 0 ]; then echo "pgstack.sh start needs root (the server runs as user postgres)" >&2; exit 1; fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null; then echo "port $PG_PORT already in use" >&2; exit 1; fi
  mkdir -p "$D"
  chmod 755 "$D"   # mkdtemp dirs are 0700
  if ! as_pg test -x "$D"; then
    echo "$D is not reachable for the user postgres: every parent dir needs o+x" \
         "(use tempfile.mkdtemp(dir='/tmp'))" >&2; exit 1
  fi
  install -d -o postgres -g postgres -m 0700 "$D/data"
  install -d -o postgres -g postgres -m 0755 "$D/run"
  cd "$D"   # runuser keeps the cwd; initdb and pg_ctl complain if they cannot read it
  fresh=
  if [ ! -f "$D/data/PG_VERSION" ]; then
    # local (socket) connections: trust, for the setup below; TCP: passwords (scram-sha-256)
    as_pg "$PG_BIN/initdb" -D "$D/data" -U postgres -E UTF8 --locale=C --no-sync \
      --auth-local=trust --auth-host=scram-sha-256 > "$D/initdb.log" 2>&1 \
      || { cat "$D/initdb.log" >&2; exit 1; }
    fresh=1
  fi
  # The socket path is limited to 107 bytes: keep DIR short (mkdtemp under /tmp is).
  opts="-c listen_addresses=127.0.0.1 -p $PG_PORT -k $D/run -c fsync=off -c synchronous_commit=off"
  opts+=" -c full_page_writes=off -c max_connections=100"
  if ! as_pg "$PG_BIN/pg_ctl" -D "$D/data" -l "$D/data/server.log" -o "$opts" -w -t 30 start >/dev/null; then
    tail -n 20 "$D/data/server.log" >&2 || true; exit 1
  fi
  for _ in $(seq 300); do
    "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" && break; sleep 0.05
  done
  "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" || { echo "PostgreSQL not ready on :$PG_PORT" >&2; exit 1; }
  if [ -n "$fresh" ]; then
    as_pg "$PG_BIN/psql" -X -q -h "$D/run" -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 \
      -c "CREATE ROLE pbem LOGIN PASSWORD 'pbem' CREATEDB" \
      -c "CREATE DATABASE pbem OWNER pbem" >/dev/null
  fi
  echo "ready: postgresql+psycopg://pbem:pbem@127.0.0.1:$PG_PORT/pbem (log $D/data/server.log)"
  ;;
stop)
  if [ -f "$D/data/postmaster.pid" ]; then
    cd "$D"
    as_pg "$PG_BIN/pg_ctl" -D "$D/data" -m fast -w -t 30 stop >/dev/null
  fi
  ;;
*)
  echo "unknown command $cmd: use start|stop" >&2; exit 2
  ;;
esac
