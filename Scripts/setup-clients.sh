#!/usr/bin/env bash
# Installs, only when missing, the Debian packages for the real-client checks
# (Tests/RealClients: LibreOffice `soffice`, Gnumeric `ssconvert`) and the write benchmark
# (Benchmarks/write: libxlsxwriter, gcc, /usr/bin/time, pkg-config). Safe to run repeatedly;
# quiet when everything is present. Uses sudo only when not root.
set -euo pipefail

# A package counts as present when dpkg says it is installed or its command already exists
# (e.g. a full libreoffice-calc instead of the -nogui flavour).
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

missing=()
if ! command -v soffice >/dev/null 2>&1 && ! installed libreoffice-calc-nogui && ! installed libreoffice-calc; then
    missing+=(libreoffice-calc-nogui)
fi
command -v ssconvert >/dev/null 2>&1 || installed gnumeric || missing+=(gnumeric)
installed libxlsxwriter-dev || missing+=(libxlsxwriter-dev)
[ -x /usr/bin/time ] || missing+=(time)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup-clients: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi
