#!/usr/bin/env bash
# Installs the Debian packages SheetPort builds and tests with, only when missing.
# Used by Scripts/main.sh and Scripts/test.sh; safe to run repeatedly.
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists libzip 2>/dev/null || missing+=(libzip-dev)
pkg-config --exists libxml-2.0 2>/dev/null || missing+=(libxml2-dev)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi
