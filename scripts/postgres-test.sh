#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and measurements (issue 26): initialised in a temporary
# folder, listening on 127.0.0.1 on a free port, stopped and removed afterwards. Uses Debian's
# packages (`apt-get install postgresql`): initdb and pg_ctl on the PATH, or under
# /usr/lib/postgresql/<version>/bin. PostgreSQL refuses to run as root: as root, the cluster is
# run by the `postgres` user the package creates.
#
#   scripts/postgres-test.sh run -- <command...>   start, run the command with DATABASE_URL set, stop
#   scripts/postgres-test.sh start                 start; prints DATABASE_URL=... and PGTEST_DIR=...
#   scripts/postgres-test.sh stop <PGTEST_DIR>     stop a cluster `start` made, and remove it
set -euo pipefail

bin_of() {
  local name=$1
  if command -v "$name" > /dev/null 2>&1; then
    command -v "$name"
    return
  fi
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin/"$name" 2> /dev/null | sort -V | tail -1 || true)
  if [ -z "$found" ]; then
    echo "postgres-test: $name not found: install PostgreSQL (apt-get install postgresql)" >&2
    exit 1
  fi
  echo "$found"
}

INITDB=$(bin_of initdb)
PG_CTL=$(bin_of pg_ctl)

# As root, the commands run as `postgres`; otherwise as the caller.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start() {
  local dir port
  dir=$(mktemp -d "${TMPDIR:-/tmp}/pgtest.XXXXXX")
  chmod 755 "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
  as_owner "$INITDB" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync > "$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
  }
  port=$(free_port)
  as_owner "$PG_CTL" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=${PGTEST_MAX_CONNECTIONS:-200}" start > /dev/null || {
    cat "$dir/server.log" >&2
    exit 1
  }
  echo "DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
  echo "PGTEST_DIR=$dir"
}

stop() {
  local dir=$1
  if [ ! -d "$dir/data" ]; then
    echo "postgres-test: $dir holds no cluster" >&2
    exit 1
  fi
  as_owner "$PG_CTL" -D "$dir/data" -m fast -w stop > /dev/null 2>&1 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop)
    [ $# -ge 2 ] || { echo "usage: $0 stop <PGTEST_DIR>" >&2; exit 2; }
    stop "$2"
    ;;
  run)
    shift
    [ "${1:-}" = "--" ] && shift
    [ $# -ge 1 ] || { echo "usage: $0 run -- <command...>" >&2; exit 2; }
    vars=$(start)
    DATABASE_URL=$(echo "$vars" | sed -n 's/^DATABASE_URL=//p')
    PGTEST_DIR=$(echo "$vars" | sed -n 's/^PGTEST_DIR=//p')
    trap 'stop "$PGTEST_DIR"' EXIT
    export DATABASE_URL
    "$@"
    ;;
  *)
    echo "usage: $0 run -- <command...> | start | stop <PGTEST_DIR>" >&2
    exit 2
    ;;
esac
