#!/bin/sh
# Install what vkbench needs to build and test on Debian 12: idempotent, quiet when all is present.
# --browser: Debian's chromium as well, for the HTML report's test in a headless browser (tools/test.sh asks).
# --slurm: Debian's Slurm and munge as well, for the Slurm test (tests/tools/slurm_test.sh).
# --prom: Prometheus (for promtool) and its Python client, for the metrics test of `vkbench health --prom`.
# --plot: python3-matplotlib as well, for the tools that draw (plot.py, report.py --html; tools/test.sh asks).
# --postgres: Debian's PostgreSQL server and psycopg2, for the store's fleet server (tools/store.py push).
# --coverage: gcovr (C branch coverage) and python3-coverage (the tools' branches), for tools/coverage.sh.
set -eu
pkgs="cmake make gcc clang-format libvulkan-dev libvulkan-volk-dev glslang-tools spirv-tools \
mesa-vulkan-drivers vulkan-validationlayers python3 libsqlite3-dev"
[ "${1:-}" = "--browser" ] && pkgs="$pkgs chromium"
# --slurm: Slurm and munge (Debian 12: Slurm 22.05), for tools/slurm/ and its test
[ "${1:-}" = "--slurm" ] && pkgs="$pkgs slurmd slurmctld slurm-client munge"
# --prom: promtool lints the metrics file, python3-prometheus-client parses it (tests/cli/health_test.py prom),
# node_exporter scrapes it through its textfile collector (health_test.py textfile)
[ "${1:-}" = "--prom" ] && pkgs="$pkgs prometheus python3-prometheus-client prometheus-node-exporter"
# --plot: matplotlib and its dependencies (hundreds of packages): only for the charts, not for a run
[ "${1:-}" = "--plot" ] && pkgs="$pkgs python3-matplotlib"
# --postgres: the server (initdb, pg_ctl) and python3-psycopg2, for tests/tools/server_test.py
[ "${1:-}" = "--postgres" ] && pkgs="$pkgs postgresql python3-psycopg2"
[ "${1:-}" = "--coverage" ] && pkgs="$pkgs gcovr python3-coverage"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages:$missing; run as root (or: sudo $0 $*)" >&2
    # without the browser only the HTML report's test is skipped: not a reason to stop
    [ "$missing" = " chromium" ] && exit 0
    exit 1
fi
echo "setup: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
