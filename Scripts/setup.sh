#!/usr/bin/env bash
# Installs the Debian packages SheetPort builds and tests with, only when missing.
# Used by Scripts/demo.sh and Scripts/test.sh; safe to run repeatedly; quiet when all is there.
#   Scripts/setup.sh             to build: pkg-config, libzip, zlib, ISA-L, libarchive, libxml2, libcurl, libmicrohttpd,
#                                SQLite, libsodium, libpq, ncurses, tmux, python3-venv
#   Scripts/setup.sh --clients   also the real clients the writer is tested with (LibreOffice
#                                `soffice`, Gnumeric `ssconvert`) and what the write benchmark
#                                and Benchmarks/run.sh need (libxlsxwriter, gcc, /usr/bin/time, unzip),
#                                and Debian's PostgreSQL server for the shared-database tests, and
#                                Chromium with its chromedriver for the browser tests (Tests/Web)
#   Scripts/setup.sh --postgres  to build, and the PostgreSQL server only
set -euo pipefail

# A package counts as present when dpkg says it is installed or its command already exists.
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists ncursesw 2>/dev/null || missing+=(libncurses-dev)   # the terminal grid (`sheetport open`)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)   # drives the terminal grid in SheetPortCLITests
pkg-config --exists libzip 2>/dev/null || missing+=(libzip-dev)
pkg-config --exists libisal 2>/dev/null || missing+=(libisal-dev)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)   # the writer's parallel deflate
pkg-config --exists libarchive 2>/dev/null || missing+=(libarchive-dev)
pkg-config --exists libxml-2.0 2>/dev/null || missing+=(libxml2-dev)
pkg-config --exists libcurl 2>/dev/null || missing+=(libcurl4-openssl-dev)
pkg-config --exists libmicrohttpd 2>/dev/null || missing+=(libmicrohttpd-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists libsodium 2>/dev/null || missing+=(libsodium-dev)
pkg-config --exists libpq 2>/dev/null || missing+=(libpq-dev)
pkg-config --exists libzstd 2>/dev/null || missing+=(libzstd-dev)
if [ "${1:-}" = "--clients" ] || [ "${1:-}" = "--postgres" ]; then
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
fi
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
if [ "${1:-}" = "--clients" ]; then
    if ! command -v soffice >/dev/null 2>&1 && ! installed libreoffice-calc-nogui && ! installed libreoffice-calc; then
        missing+=(libreoffice-calc-nogui)
    fi
    command -v ssconvert >/dev/null 2>&1 || installed gnumeric || missing+=(gnumeric)
    installed libxlsxwriter-dev || missing+=(libxlsxwriter-dev)
    [ -x /usr/bin/time ] || missing+=(time)
    command -v gcc >/dev/null 2>&1 || missing+=(gcc)
    command -v unzip >/dev/null 2>&1 || missing+=(unzip)   # also `unzip -t` in ParallelDeflateTests
    # The page's end-to-end tests (Tests/Web) drive Debian's headless Chromium through its chromedriver.
    [ -x /usr/bin/chromium ] || installed chromium || missing+=(chromium)
    [ -x /usr/bin/chromedriver ] || installed chromium-driver || missing+=(chromium-driver)
fi

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi
