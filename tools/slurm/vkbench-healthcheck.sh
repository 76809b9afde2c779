#!/bin/sh
# vkbench-healthcheck.sh - Slurm's HealthCheckProgram (and the prolog's check): `vkbench health` on this node; a
# failing node is drained with vkbench's own line as the reason ("vkbench: GPU 3 <UUID> <PCI>: validate: ..."),
# and a node is returned to service only when its drain reason carries that prefix, as NHC does with "NHC:" (a
# drain an operator set stays, and is not drained over with vkbench's reason). Slurm kills a health check after
# 60 s: the check is bounded below that.
# Environment: VKBENCH (the binary; default: vkbench on PATH), VKB_HEALTH_ARGS (more `vkbench health` options,
# e.g. "--expect 8 --baseline /shared/vkbench/h100.tsv --prom /var/lib/node_exporter/vkbench.prom"),
# VKB_HEALTH_TIMEOUT_S (default 50), VKB_HEALTH_ENV (a file sourced first: slurmd gives health checks almost no
# environment). Exit: vkbench's (0 keep, 1 drained, 7 could not judge: left as it is).
set -u
set -f   # VKB_HEALTH_ARGS is an argument list: split on blanks, never glob-expanded
# shellcheck disable=SC1090
[ -n "${VKB_HEALTH_ENV:-}" ] && . "$VKB_HEALTH_ENV"
PREFIX="vkbench:"
node=${SLURMD_NODENAME:-$(hostname -s)}
vkbench=${VKBENCH:-vkbench}
limit=${VKB_HEALTH_TIMEOUT_S:-50}
err=$(mktemp) || exit 7
trap 'rm -f "$err"' EXIT
# shellcheck disable=SC2086
timeout -k 5 "$limit" "$vkbench" health ${VKB_HEALTH_ARGS:-} >/dev/null 2>"$err"
rc=$?
reason=""
case $rc in
    0) ;;
    1) reason=$(grep -m1 "^$PREFIX \(GPU\|node\)" "$err")
       [ -n "$reason" ] || reason="$PREFIX node: health: exit 1" ;;
    124|137) reason="$PREFIX node: health: no verdict within $limit s (a hung GPU or driver)" ;;
    7) echo "vkbench-healthcheck: could not judge $node: $(tail -1 "$err")" >&2; exit 7 ;;
    *) reason="$PREFIX node: health: exit $rc: $(grep -m1 "^vkbench: error:" "$err" | cut -c17-)" ;;
esac
# the drain reason as Slurm shows it (%E), one line ("none" without one)
current=$(sinfo -h -N -n "$node" -o %E 2>/dev/null | head -1)
case $current in
    ""|none|"$PREFIX"*) ;;
    *) # someone else's reason (an operator's, Slurm's own): neither replaced nor undone, as NHC leaves a node
       # it did not take out; a check still under way when the operator drained must not take the reason over
       [ -z "$reason" ] && exit 0
       echo "vkbench-healthcheck: $node is out for '$current'; not drained again for: $reason" >&2
       exit 1 ;;
esac
if [ -n "$reason" ]; then
    reason=$(printf '%s' "$reason" | tr -d '\r' | cut -c1-250)
    scontrol update NodeName="$node" State=DRAIN Reason="$reason" || exit 7
    echo "vkbench-healthcheck: drained $node: $reason" >&2
    exit 1
fi
case $current in
    "$PREFIX"*)   # ours: healthy again
        scontrol update NodeName="$node" State=RESUME || exit 7
        echo "vkbench-healthcheck: returned $node to service (was: $current)" >&2 ;;
esac
exit 0
