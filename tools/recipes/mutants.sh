#!/bin/sh
# mutants.sh DIR OUTDIR: the CUDA mutations of tools/mutate.py (cuda-mutants.recipe). DIR, made by
# `tools/mutate.py --cuda-mutants`, holds vkbench, clean/ and one folder per mutation, each with its
# libvkbench_cuda.so, and commands.txt. Each mutation's command runs with the clean module (must exit 0, or a
# failure would prove nothing) and with the mutant (must exit as commands.txt says: 1). Writes the table to
# OUTDIR/gpu-mutants.txt (recorded by `tools/mutate.py --gpu-table FILE`), vkbench's output to gpu-mutants.log.
# Knob: VKB_MUTANT_S, seconds per command (default 30; a clean one takes a few).
D=${1:-build-mutants}
secs=${VKB_MUTANT_S:-30}
table=${2:-.}/gpu-mutants.txt log=${2:-.}/gpu-mutants.log
if [ ! -f "$D/commands.txt" ] || [ ! -x "$D/vkbench" ]; then
    echo "mutants.sh: no $D/commands.txt or $D/vkbench (made by tools/mutate.py --cuda-mutants)" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# exit_of ID ARGS...: vkbench's exit with module D/ID (D/clean: the clean one); it runs from a folder of its
# own, a copy of vkbench beside the module (readlink /proc/self/exe sees through links); output to the log
exit_of() {
    id=$1; shift
    if [ ! -d "$work/$id" ]; then
        mkdir "$work/$id" && cp "$D/vkbench" "$D/$id/libvkbench_cuda.so" "$work/$id/"
    fi
    echo "## $id: vkbench $*" >>"$log"
    timeout "$secs" "$work/$id/vkbench" "$@" >>"$log" 2>&1
    echo $?
}
row() { echo "| $1 | $2 | $3 | $4 | $5 |" | tee -a "$table"; }
: >"$table"
: >"$log"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
echo "# $(head -n 1 "$D/commands.txt" | sed 's/^# //'), $gpu" | tee -a "$table"
row mutant command expected got verdict
row --- --- --- --- ---
t0=$(date +%s)
grep -v '^#' "$D/commands.txt" | while IFS="$(printf '\t')" read -r id expect args; do
    # shellcheck disable=SC2086 # ARGS is a vkbench command line, split on purpose
    clean=$(exit_of clean $args)
    [ "$clean" -eq 0 ] && v=pass || v=FAIL
    row clean "\`$args\`" 0 "$clean" "$v"
    # shellcheck disable=SC2086
    got=$(exit_of "$id" $args)
    if [ "$clean" -ne 0 ]; then v=invalid          # the command fails without the mutation: no kill
    elif [ "$got" -eq "$expect" ]; then v=killed
    elif [ "$got" -eq 0 ]; then v=survived
    else v="other exit"; fi
    row "$id" "\`$args\`" "$expect" "$got" "$v"
done
echo "# $(( $(date +%s) - t0 )) s; recorded by: tools/mutate.py --gpu-table gpu-mutants.txt --report FILE" |
    tee -a "$table"
