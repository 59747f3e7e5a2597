#!/usr/bin/env bash
# test-postgres.sh — a throwaway PostgreSQL for the tests of the agent's
# PostgreSQL store. Source it (scripts/test.sh does):
#
#   source scripts/test-postgres.sh   # installs (apt) if needed, starts it
#   go test ./agent/...               # sees PYBOX_TEST_POSTGRES
#
# It installs Debian's postgresql package when no server binaries are
# there, creates a cluster in a new temporary folder, starts it on a Unix
# socket in that folder (no TCP port to collide with), exports
# PYBOX_TEST_POSTGRES and PYBOX_REQUIRE_POSTGRES=1, and stops and removes it
# when the sourcing shell exits. PostgreSQL refuses to run as root, so as
# root the server runs as the postgres user the package creates.

pybox_pg_bindir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

pybox_pg_start() {
  local bindir
  bindir=$(pybox_pg_bindir)
  if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "test-postgres: installing postgresql (apt-get)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends postgresql >&2
    bindir=$(pybox_pg_bindir)
  fi
  if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "test-postgres: no PostgreSQL server binaries after install" >&2
    return 1
  fi
  PYBOX_PG_DIR=$(mktemp -d /tmp/pybox-pg.XXXXXX)
  PYBOX_PG_AS=()
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown postgres "$PYBOX_PG_DIR"
    PYBOX_PG_AS=(runuser -u postgres --)
  fi
  PYBOX_PG_BIN=$bindir
  "${PYBOX_PG_AS[@]}" "$bindir/initdb" -D "$PYBOX_PG_DIR/data" -U postgres --auth=trust -E UTF8 --no-sync >"$PYBOX_PG_DIR/initdb.log" 2>&1 || {
    cat "$PYBOX_PG_DIR/initdb.log" >&2; return 1; }
  "${PYBOX_PG_AS[@]}" "$bindir/pg_ctl" -D "$PYBOX_PG_DIR/data" -l "$PYBOX_PG_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses='' -k $PYBOX_PG_DIR -c fsync=off -c max_connections=100" start >/dev/null || {
    cat "$PYBOX_PG_DIR/server.log" >&2; return 1; }
  export PYBOX_TEST_POSTGRES="postgres://postgres@/postgres?host=$PYBOX_PG_DIR&sslmode=disable"
  export PYBOX_REQUIRE_POSTGRES=1
  echo "test-postgres: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on $PYBOX_PG_DIR" >&2
}

pybox_pg_stop() {
  if [ -n "${PYBOX_PG_DIR:-}" ] && [ -d "$PYBOX_PG_DIR" ]; then
    "${PYBOX_PG_AS[@]}" "$PYBOX_PG_BIN/pg_ctl" -D "$PYBOX_PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$PYBOX_PG_DIR"
  fi
}

pybox_pg_start || { echo "test-postgres: could not start PostgreSQL" >&2; exit 1; }
trap pybox_pg_stop EXIT
