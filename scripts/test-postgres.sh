#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: Debian's postgresql (installed with apt-get when
# missing), run as the postgres user on a temporary directory and a free port.
#   eval "$(bash scripts/test-postgres.sh start)"   # exports TEST_DATABASE_URL and TEST_POSTGRES_DIR
#   bash scripts/test-postgres.sh stop "$TEST_POSTGRES_DIR"
#   bash scripts/test-postgres.sh pause|resume "$TEST_POSTGRES_DIR"   # a restart, for fault specs
set -euo pipefail

as_root() { if [ "$(id -u)" = "0" ]; then "$@"; else sudo "$@"; fi; }
as_postgres_plain() { if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }
# The server and initdb write to /dev/null; where the postgres user may not (a sandbox with
# /dev/null 0644), they run in a mount namespace of their own with a writable null device.
as_postgres() {
  if as_postgres_plain sh -c ': >/dev/null' 2>/dev/null; then
    as_postgres_plain "$@"
  else
    as_root unshare -m sh -c 'node="$1"; shift; [ -e "$node" ] || mknod -m 666 "$node" c 1 3
      mount --bind "$node" /dev/null && exec runuser -u postgres -- "$@"' sh "$NULL_DEVICE" "$@"
  fi
}
server_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

start_server() {
  # Test data is thrown away: no fsync, so the suites do not wait on the disk.
  as_postgres "$1/pg_ctl" -D "$2/data" -l "$2/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $(cat "$2/port") -k $2 -c fsync=off -c synchronous_commit=off -c max_connections=300" \
    start >/dev/null
}

case "${1:-}" in
  start)
    if [ -z "$(server_bin)" ]; then
      echo "== installing Debian's postgresql" >&2
      as_root apt-get update -qq >&2
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    bin="$(server_bin)"
    dir="$(mktemp -d /tmp/genstudio-postgres-XXXXXX)"
    chmod 755 "$dir"
    NULL_DEVICE="$dir/null"
    as_root chown postgres "$dir"
    port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
    as_postgres "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
    echo "$port" > "$dir/port"
    start_server "$bin" "$dir"
    as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres genstudio_test
    echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/genstudio_test"
    echo "export TEST_POSTGRES_DIR=$dir"
    echo "export TEST_POSTGRES_BIN=$bin"
    ;;
  stop)
    dir="${2:?the directory start printed}"
    NULL_DEVICE="$dir/null"
    bin="$(server_bin)"
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    as_root rm -rf "$dir"
    ;;
  pause)
    dir="${2:?the directory start printed}"
    NULL_DEVICE="$dir/null"
    as_postgres "$(server_bin)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  resume)
    dir="${2:?the directory start printed}"
    NULL_DEVICE="$dir/null"
    start_server "$(server_bin)" "$dir"
    ;;
  *)
    echo "usage: $0 start | stop DIR | pause DIR | resume DIR" >&2
    exit 2
    ;;
esac
