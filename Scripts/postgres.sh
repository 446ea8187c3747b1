#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: a temporary folder owned by the `postgres` user
# (initdb refuses root), listening only on a Unix socket in that folder, trust authentication
# for that socket alone. Debian's PostgreSQL server is installed by Scripts/setup.sh --postgres.
#   eval "$(Scripts/postgres.sh start)"   starts it; prints the exports to use it:
#                                          SHEETPORT_TEST_POSTGRES (a libpq URL), SHEETPORT_PG_DIR
#   Scripts/postgres.sh stop [DIR]         stops it and removes the folder (DIR: $SHEETPORT_PG_DIR)
set -euo pipefail
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -x "$bin/initdb" ] || { echo "postgres.sh: no PostgreSQL server (run Scripts/setup.sh --postgres)" >&2; exit 2; }

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
    dir="$(mktemp -d /tmp/sheetport-pg.XXXXXX)"
    [ "$(id -u)" -ne 0 ] || chown postgres:postgres "$dir"
    chmod 700 "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 2; }
    # Local scratch for a test cluster: no fsync (speed), a socket in the folder, no TCP.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k $dir -c listen_addresses= -c fsync=off -c max_connections=300" start >&2 \
        || { cat "$dir/server.log" >&2; exit 2; }
    # The socket folder must be reachable by the tests (run as another user when we are root).
    chmod 755 "$dir"
    echo "export SHEETPORT_PG_DIR='$dir'"
    echo "export SHEETPORT_TEST_POSTGRES='postgresql://postgres@/postgres?host=$dir'"
    ;;
stop)
    dir="${2:-${SHEETPORT_PG_DIR:-}}"
    [ -n "$dir" ] && [ -d "$dir/data" ] || { echo "postgres.sh: no cluster to stop" >&2; exit 2; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
    rm -rf "$dir"
    ;;
*)
    echo "usage: Scripts/postgres.sh start|stop [DIR]" >&2
    exit 2
    ;;
esac
