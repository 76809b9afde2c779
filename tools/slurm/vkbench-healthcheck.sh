#!/bin/sh
# vkbench-healthcheck.sh [--prolog] - Slurm's HealthCheckProgram (and, with --prolog, the prolog's check):
# `vkbench health` on this node; a failing node is drained with vkbench's own line as the reason ("vkbench: GPU 3
# <UUID> <PCI>: validate: ..."), and a node is returned to service only when its drain reason carries that prefix,
# as NHC does with "NHC:" (a drain an operator set stays, and is not drained over with vkbench's reason).
# What vkbench health checks (expect, baseline, json, prom, allow_cpu, pci_check, device_timeout_s) is set in
# vkbench's own configuration file, /etc/vkbench/health.conf, read by vkbench itself (docs/tooling.md); this script
# sets none of it. Its own settings: one fixed file, /etc/default/vkbench-health (VKB_HEALTH_SETTINGS names
# another), read, never sourced: NAME=VALUE lines, `#` comments, a value in one pair of quotes or none. Slurm runs a
# health check with no environment beyond SLURMD_NODENAME and PWD, so nothing here needs one; a variable of the
# environment is a default the file overrides. Names: VKBENCH (the binary; default: build/vkbench of this checkout,
# else vkbench on PATH), VKBENCH_CONFIG (an absolute path passed as `vkbench health --config`; default: none, vkbench
# reads /etc/vkbench/health.conf), VKB_HEALTH_TIMEOUT_S (default 50: Slurm kills a health check at 60),
# VKB_PROLOG_TIMEOUT_S (default 30, with --prolog), SLURM_CONF and PATH (for sinfo and scontrol).
# Exit: 0 keep; 1 drained (or left out for someone else's reason); 7 could not judge, the node left as it is: the
# check's own set-up is broken (a setting, the settings file, vkbench's configuration, baseline or outputs), with
# a line naming the cause on stderr; 143, 130, 129 stopped by a signal (the node left as it is). No temporary file
# outlives the check, however it ends: the one vkbench's messages go to is unlinked as soon as it is open.
set -u
PREFIX="vkbench:"
node=${SLURMD_NODENAME:-$(hostname -s)}
# could_not_judge WHY: the check cannot say anything about the node; it is left as it is
could_not_judge() {
    echo "vkbench-healthcheck: could not judge $node: $*" >&2
    exit 7
}
limit_name=VKB_HEALTH_TIMEOUT_S
[ "${1:-}" = --prolog ] && limit_name=VKB_PROLOG_TIMEOUT_S
[ $# -eq 0 ] || [ "$*" = --prolog ] || could_not_judge "usage: vkbench-healthcheck.sh [--prolog]"

# each setting: its value and where it came from (the environment, or FILE:LINE)
for n in VKBENCH VKBENCH_CONFIG VKB_HEALTH_TIMEOUT_S VKB_PROLOG_TIMEOUT_S SLURM_CONF PATH; do
    eval "from_$n=\"\${$n+the environment}\""
done
# vkbench's options have one home, its configuration file: never a second one here (a setting of the environment
# as well, since the file's would override it: an option silently dropped weakens the check)
[ -z "${VKB_HEALTH_ARGS+set}" ] || could_not_judge "VKB_HEALTH_ARGS (the environment): vkbench health's options" \
    "are set in its configuration file, /etc/vkbench/health.conf (or VKBENCH_CONFIG), not here"
conf=${VKB_HEALTH_SETTINGS:-/etc/default/vkbench-health}
# a missing default file leaves the defaults; a named one must exist; anything there must be a readable file
if [ -n "${VKB_HEALTH_SETTINGS:-}" ] || [ -e "$conf" ] || [ -L "$conf" ]; then
    [ -f "$conf" ] || could_not_judge "settings file $conf: not a readable file"
    (: < "$conf") 2>/dev/null || could_not_judge "settings file $conf: cannot be read"
    cr=$(printf '\r')
    line_no=0
    while IFS= read -r line || [ -n "$line" ]; do
        line_no=$((line_no + 1))
        line=${line%"$cr"}
        while :; do case $line in [[:blank:]]*) line=${line#?} ;; *) break ;; esac; done
        case $line in '' | '#'*) continue ;; 'export '*) line=${line#export } ;; esac
        name=${line%%=*}
        value=${line#*=}
        [ "$name" != "$line" ] || could_not_judge "settings file $conf:$line_no: not NAME=VALUE: $line"
        case $value in
            \"*\") value=${value#\"}; value=${value%\"} ;;
            \'*\') value=${value#\'}; value=${value%\'} ;;
        esac
        case $value in *[\"\'\$\`\\]*)
            could_not_judge "settings file $conf:$line_no: $name: quotes, \$, \` and \\ are not read (one pair of" \
                "quotes around the whole value, or none)" ;;
        esac
        case $name in
            VKBENCH | VKBENCH_CONFIG | VKB_HEALTH_TIMEOUT_S | VKB_PROLOG_TIMEOUT_S | SLURM_CONF | PATH)
                eval "$name=\$value from_$name=\"\$conf:\$line_no\"" ;;
            VKB_HEALTH_ARGS | VKB_DEVICE_TIMEOUT_S)
                could_not_judge "settings file $conf:$line_no: $name: vkbench health's options are set in its" \
                    "configuration file, /etc/vkbench/health.conf (or VKBENCH_CONFIG), not here" \
                    "(docs/tooling.md: expect, baseline, json, prom, allow_cpu, pci_check, device_timeout_s)" ;;
            *) could_not_judge "settings file $conf:$line_no: unknown setting '$name' (known: VKBENCH," \
                "VKBENCH_CONFIG, VKB_HEALTH_TIMEOUT_S, VKB_PROLOG_TIMEOUT_S, SLURM_CONF, PATH)" ;;
        esac
    done < "$conf"
fi
# the timeout: whole seconds, read as decimal (08 is 8), 1 to 3600
eval "limit=\${$limit_name:-}"
eval "from=\${from_$limit_name:-}"
if [ -z "$from" ]; then
    limit=50
    [ "$limit_name" = VKB_PROLOG_TIMEOUT_S ] && limit=30
fi
case $limit in
    '' | *[!0-9]*) could_not_judge "$limit_name='$limit' ($from): not a whole number of seconds" ;;
esac
while :; do case $limit in 0?*) limit=${limit#0} ;; *) break ;; esac; done
if [ ${#limit} -gt 4 ] || [ "$limit" -lt 1 ] || [ "$limit" -gt 3600 ]; then
    could_not_judge "$limit_name=$limit ($from): not between 1 and 3600 seconds"
fi
[ -n "${SLURM_CONF:-}" ] && export SLURM_CONF
export PATH
# the binary: a path that is an executable file, or a name found on PATH; by default the build beside this checkout
# (tools/slurm/ -> build/vkbench, as submit.sh), else vkbench on PATH
here=$(cd "$(dirname "$0")" && pwd)
vkbench=${VKBENCH:-}
from=${from_VKBENCH:-the default}
if [ -z "$vkbench" ]; then
    vkbench=vkbench
    [ -x "$here/../../build/vkbench" ] && vkbench=$(cd "$here/../../build" && pwd)/vkbench
fi
# vkbench's configuration: the file vkbench reads, named here only where it is not /etc/vkbench/health.conf
set --
# shellcheck disable=SC2154  # from_VKBENCH_CONFIG: set by eval above
case ${VKBENCH_CONFIG:-} in
    '') ;;
    /*) set -- --config "$VKBENCH_CONFIG" ;;
    *) could_not_judge "VKBENCH_CONFIG=$VKBENCH_CONFIG ($from_VKBENCH_CONFIG): not an absolute path (slurmd's" \
        "working folder is not yours)" ;;
esac
case $vkbench in
    */*) [ -f "$vkbench" ] || could_not_judge "VKBENCH=$vkbench ($from): no such file"
         [ -x "$vkbench" ] || could_not_judge "VKBENCH=$vkbench ($from): not executable" ;;
    *) command -v "$vkbench" >/dev/null 2>&1 ||
           could_not_judge "VKBENCH=$vkbench ($from): not found on PATH=$PATH" ;;
esac

# vkbench's messages go to a file unlinked once open (descriptor 3 writes it, 4 reads it back): a check killed at
# any point, SIGKILL too, leaves nothing behind
tmp=$(mktemp "${TMPDIR:-/tmp}/vkbench-health.XXXXXX" 2>/dev/null) || could_not_judge "mktemp: no temporary file"
# shellcheck disable=SC2094  # one file, written by vkbench and read back here once it has ended
exec 3>"$tmp" 4<"$tmp"
rm -f "$tmp"
timeout -k 5 "$limit" "$vkbench" health "$@" >/dev/null 2>&3 3>&- 4<&- &
child=$!
# timeout leads a process group of its own: Slurm's signal reaches vkbench through it, passed on here
# shellcheck disable=SC2064  # the child's pid and the code are fixed now
for sig in TERM:143 INT:130 HUP:129; do
    trap "kill -${sig%:*} $child 2>/dev/null; exit ${sig#*:}" "${sig%:*}"
done
wait "$child"
rc=$?
trap - TERM INT HUP
exec 3>&-
err=$(cat <&4)
exec 4<&-
first() { printf '%s\n' "$err" | grep -m1 "$1"; }
reason=""
case $rc in
    0) ;;
    1) reason=$(first "^$PREFIX \(GPU\|node\)")
       [ -n "$reason" ] || reason="$PREFIX node: health: exit 1" ;;
    124 | 137) reason="$PREFIX node: health: no verdict within $limit s (a hung GPU or driver)" ;;
    7) # vkbench's own could-not-judge line: its configuration (an unknown key, a bad value), its baseline
       last=$(printf '%s\n' "$err" | grep . | tail -1)
       [ -n "$last" ] || last="exit 7 with no message"
       could_not_judge "vkbench health: ${last#vkbench: error: could not judge: }" ;;
    2) could_not_judge "vkbench health refused its configuration: $(first "^vkbench: ")" ;;
    6) could_not_judge "vkbench health could not write an output: $(first "^vkbench: ")" ;;
    126 | 127) could_not_judge "VKBENCH=$vkbench ($from) could not be run: exit $rc" ;;
    *) reason="$PREFIX node: health: exit $rc: $(first "^vkbench: error:" | cut -c17-)" ;;
esac
# the drain reason as Slurm shows it (%E), one line ("none" without one)
current=$(sinfo -h -N -n "$node" -o %E 2>/dev/null | head -1)
case $current in
    "" | none | "$PREFIX"*) ;;
    *) # someone else's reason (an operator's, Slurm's own): neither replaced nor undone, as NHC leaves a node
       # it did not take out; a check still under way when the operator drained must not take the reason over
       [ -z "$reason" ] && exit 0
       echo "vkbench-healthcheck: $node is out for '$current'; not drained again for: $reason" >&2
       exit 1 ;;
esac
if [ -n "$reason" ]; then
    reason=$(printf '%s' "$reason" | tr -d '\r' | cut -c1-250)
    scontrol update NodeName="$node" State=DRAIN Reason="$reason" || could_not_judge "scontrol could not drain"
    echo "vkbench-healthcheck: drained $node: $reason" >&2
    exit 1
fi
case $current in
    "$PREFIX"*) # ours: healthy again
        scontrol update NodeName="$node" State=RESUME || could_not_judge "scontrol could not resume"
        echo "vkbench-healthcheck: returned $node to service (was: $current)" >&2 ;;
esac
exit 0
