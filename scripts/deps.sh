#!/bin/sh
# Installs dbscale's build, test and runtime dependencies from Debian's packages.
# Idempotent: checks with dpkg first, so it is quick when everything is present.
set -eu
PKGS="build-essential pkg-config libpq-dev default-libmysqlclient-dev libcmocka-dev libinih-dev libjansson-dev libluajit-5.1-dev zlib1g-dev libssl-dev liblzma-dev libzstd-dev clang-format
postgresql postgresql-contrib mariadb-server mariadb-client postgresql-client gnuplot-nox sysbench clang valgrind time bc chromium openmpi-bin libopenmpi-dev iproute2 socat util-linux
openssl strace groff-base python3
qemu-system-x86 linux-image-amd64 busybox-static postgresql-15-pg-wait-sampling linux-perf"
missing=""
for p in $PKGS; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$st" in *"install ok installed"*) ;; *) missing="$missing $p" ;; esac
done
[ -z "$missing" ] && exit 0
cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
    echo "dbscale: missing packages; run as root:" >&2
    echo "  apt-get update && $cmd" >&2
    exit 1
fi
echo "dbscale: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || apt-get update
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
