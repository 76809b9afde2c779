#!/usr/bin/env bash
# gpu.sh RECIPE [--out DIR] [--build DIR] [--dry-run]: run one measurement recipe (tools/recipes/RECIPE.recipe)
# on this machine's GPU and keep every step's output.
#   tools/gpu.sh --list              the recipes, each with its first comment line
#   tools/gpu.sh suite               the default suite, validated and timed: what a user measuring a GPU runs
#   tools/gpu.sh -- ARGS...          the loader step, then BUILD/vkbench ARGS (one command, no recipe)
#   tools/gpu.sh RECIPE --dry-run    every step's command, expanded, one a line; nothing runs
# Before the first step, the loader step: where the carried Vulkan loader (.gl/*.deb, from fetch-loader.sh) is
# present and no libvulkan.so.1 is installed, the .deb files are unpacked into / (the NVIDIA test machine has the
# driver but no loader); where vkbench then finds no device, VK_DRIVER_FILES names the NVIDIA driver's manifest.
# Output folder: $OUT when set (the GPU machine's convention), else --out DIR, else ./RECIPE-out. In it, each step
# NAME leaves NAME.txt (its stdout and stderr) and whatever its command writes ($JSON is NAME.json there);
# steps.tsv records every step's exit, expected exit, seconds and verdict; summary.txt what the print steps said.
# Exit: 0 every step exited as expected, 1 one did not, 2 usage or a bad recipe (one line, before anything runs).
#
# Recipe format: one step a line; blank lines and lines starting with # are comments (the first comment line is
# the recipe's description); a line ending in \ continues on the next one. Words are shell words, expanded when
# the step runs: $VKBENCH (BUILD/vkbench), $BUILD, $OUT, $TOOLS (this folder), $STEP (the step's name), $JSON
# ($OUT/$STEP.json), $I (the repetition), any variable set before, $(command).
#   set VAR=VALUE...                 export shell assignments for the steps after it (${VAR:-default} keeps the
#                                    caller's value)
#   run NAME [OPTS]: [VAR=V...] ARGS $VKBENCH ARGS with those variables in its environment
#   shell NAME [OPTS]: COMMAND       a bash command line, from the repository root
#   background NAME: COMMAND         a command left running (a clock or power sampler) until the recipe ends
#   print: COMMAND                   a command whose stdout is shown (and kept in summary.txt): the tables
#   pack ARCHIVE: PATTERN...         move the output folder's files matching PATTERN into ARCHIVE (.tar.gz), for
#                                    a machine that sends back few files (steps.tsv and summary.txt stay)
#   repeat N ... end                 the steps between, N times, with $I = 1..N (not nested)
# OPTS: expect=N (the exit the step must have, default 0; expect=any for none), timeout=S (seconds).
set -u
tools=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$tools")
prog=gpu.sh

die() { echo "$prog: $*" >&2; exit 2; }

usage() {
    echo "usage: $prog RECIPE [--out DIR] [--build DIR] [--dry-run] | $prog --list | $prog -- VKBENCH-ARGS..." >&2
    exit 2
}

# describe FILE: the recipe's first comment line
describe() { sed -n 's/^# *//p' "$1" | head -n 1; }

list_recipes() {
    for f in "$tools"/recipes/*.recipe; do
        printf '%-16s %s\n' "$(basename "$f" .recipe)" "$(describe "$f")"
    done
}

# loader: the loader step, once, before any vkbench command
loader() {
    if [ -d "$root/.gl" ] && ! ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1'; then
        for f in "$root"/.gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
        ldconfig
    fi
    local nv=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$nv" ] && ! "$VKBENCH" devices >/dev/null 2>&1; then
        export VK_DRIVER_FILES=$nv
    fi
}

# ---- arguments
recipe="" out_arg="" dry=0 build=${BUILD:-build}
while [ $# -gt 0 ]; do
    case $1 in
    --list) list_recipes; exit 0 ;;
    --out) [ $# -ge 2 ] || usage; out_arg=$2; shift 2 ;;
    --build) [ $# -ge 2 ] || usage; build=$2; shift 2 ;;
    --dry-run) dry=1; shift ;;
    --) shift; cd "$root" || exit 2; export VKBENCH=$build/vkbench; loader; exec "$VKBENCH" "$@" ;;
    -h|--help) sed -n '2,/^set -u$/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option '$1' (see $prog --help)" ;;
    *) [ -z "$recipe" ] || usage; recipe=$1; shift ;;
    esac
done
[ -n "$recipe" ] || usage
file=$recipe
case $recipe in */*|*.recipe) ;; *) file=$tools/recipes/$recipe.recipe ;; esac
[ -f "$file" ] || die "no recipe '$recipe'; recipes: $(list_recipes | awk '{print $1}' | paste -sd, - | sed 's/,/, /g')"
file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")
name=$(basename "$file" .recipe)

# ---- parse the whole recipe first: a bad line costs nothing
kinds=() heads=() bodies=() lines=()
name_re='^[A-Za-z0-9_.${}-]+$'   # a step's name: a file name, $I allowed
n=0 lineno=0 start=0 acc="" depth=0
while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    [ -n "$acc" ] || start=$lineno
    case $line in *\\) acc="$acc${line%\\}"; continue ;; esac
    line="$acc$line" acc=""
    trimmed="${line#"${line%%[![:space:]]*}"}"
    case $trimmed in ''|'#'*) continue ;; esac
    where="$(basename "$file"):$start"
    kind=${trimmed%%[[:space:]:]*}
    rest=${trimmed#"$kind"}
    head="" body=""
    case $kind in
    set)
        body=${rest#"${rest%%[![:space:]]*}"}
        [[ $body =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || die "$where: set needs VAR=VALUE"
        ;;
    repeat)
        read -r count extra <<<"$rest"
        [[ ${count:-} =~ ^[1-9][0-9]*$ && -z ${extra:-} ]] || die "$where: repeat needs a count"
        [ $depth -eq 0 ] || die "$where: repeat inside repeat"
        depth=1 body=$count
        ;;
    end)
        [ $depth -eq 1 ] || die "$where: end without repeat"
        depth=0
        ;;
    run|shell|background|print|pack)
        case $rest in *:*) ;; *) die "$where: $kind needs ':' before its command" ;; esac
        head=${rest%%:*} body=${rest#*:}
        body=${body#"${body%%[![:space:]]*}"}
        [ -n "$body" ] || die "$where: $kind has no command"
        read -r -a words <<<"$head"
        if [ "$kind" = print ]; then
            [ ${#words[@]} -eq 0 ] || die "$where: print takes no name"
        else
            [ ${#words[@]} -ge 1 ] || die "$where: $kind needs a name"
            [[ ${words[0]} =~ $name_re ]] || die "$where: bad step name '${words[0]}'"
            for o in "${words[@]:1}"; do
                case $kind:$o in
                run:expect=any|shell:expect=any) ;;
                run:expect=*|shell:expect=*) [[ ${o#expect=} =~ ^[0-9]+$ ]] || die "$where: bad option '$o'" ;;
                run:timeout=?*|shell:timeout=?*) ;;   # seconds, or a variable expanded when the step runs
                *) die "$where: unknown option '$o' for $kind" ;;
                esac
            done
        fi
        ;;
    *) die "$where: unknown step kind '$kind' (set, run, shell, background, print, pack, repeat, end)" ;;
    esac
    kinds[n]=$kind heads[n]=$head bodies[n]=$body lines[n]=$where
    n=$((n + 1))
done <"$file"
[ -z "$acc" ] || die "$(basename "$file"): the last line continues past the end"
[ $depth -eq 0 ] || die "$(basename "$file"): repeat without end"

# ---- the variables every step sees
cd "$root" || exit 2
out=${OUT:-${out_arg:-$root/$name-out}}
case $out in /*) ;; *) out=$root/$out ;; esac
export OUT=$out BUILD=$build TOOLS=$tools VKBENCH=$build/vkbench I=1 STEP="" JSON=""
if [ $dry -eq 0 ]; then
    mkdir -p "$OUT" || die "cannot make $OUT"
    printf 'step\texit\texpected\tseconds\tverdict\n' >"$OUT/steps.tsv"
    : >"$OUT/summary.txt"
    loader
else
    echo "loader: .gl/*.deb into / where libvulkan.so.1 is missing; VK_DRIVER_FILES where no device is found"
fi
bad=0 bg=()
trap 'for p in "${bg[@]}"; do kill "$p" 2>/dev/null; done' EXIT

now() { date +%s.%N; }

# record NAME EXIT EXPECT T0: one line in steps.tsv and on stdout
record() {
    local secs verdict=ok
    secs=$(awk -v a="$4" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
    [ "$3" = any ] || [ "$2" -eq "$3" ] || { verdict=UNEXPECTED; bad=1; }
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$secs" "$verdict" >>"$OUT/steps.tsv"
    printf '%-24s exit %-3s (expected %s) %7s s  %s\n' "$1" "$2" "$3" "$secs" "$verdict"
}

# step K: run parsed step K
step() {
    local kind=${kinds[$1]} head=${heads[$1]} body=${bodies[$1]} words step_name expect=0 limit="" o t0 rc
    read -r -a words <<<"$head"
    if [ ${#words[@]} -gt 0 ]; then
        step_name=$(eval "printf %s \"${words[0]}\"")
        export STEP=$step_name JSON=$OUT/$step_name.json
        for o in "${words[@]:1}"; do
            case $o in expect=*) expect=${o#expect=} ;; timeout=*) limit=$(eval "printf %s \"${o#timeout=}\"") ;; esac
        done
    fi
    case $kind in
    set)
        if [ $dry -eq 1 ]; then eval "export $body" && echo "set $body"; else eval "export $body"; fi
        ;;
    run)
        local args envs=()
        eval "args=($body)" || die "${lines[$1]}: cannot expand the command"
        while [ ${#args[@]} -gt 0 ] && [[ ${args[0]} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
            envs+=("${args[0]}") args=("${args[@]:1}")
        done
        if [ $dry -eq 1 ]; then
            echo "run $STEP: ${envs[*]:+${envs[*]} }$(printf '%q ' "$VKBENCH" "${args[@]}" | sed 's/ $//')"
            return
        fi
        t0=$(now)
        env "${envs[@]}" ${limit:+timeout "$limit"} "$VKBENCH" "${args[@]}" >"$OUT/$STEP.txt" 2>&1
        rc=$?
        record "$STEP" $rc "$expect" "$t0"
        ;;
    shell)
        if [ $dry -eq 1 ]; then echo "shell $STEP: $body"; return; fi
        t0=$(now)
        ${limit:+timeout "$limit"} bash -c "$body" >"$OUT/$STEP.txt" 2>&1
        rc=$?
        record "$STEP" $rc "$expect" "$t0"
        ;;
    background)
        if [ $dry -eq 1 ]; then echo "background $STEP: $body"; return; fi
        bash -c "$body" >"$OUT/$STEP.txt" 2>&1 &
        bg+=($!)
        ;;
    print)
        if [ $dry -eq 1 ]; then echo "print: $body"; return; fi
        bash -c "$body" 2>&1 | tee -a "$OUT/summary.txt"
        ;;
    pack)
        local archive
        archive=$(eval "printf %s \"${words[0]}\"")
        if [ $dry -eq 1 ]; then echo "pack $archive: $body"; return; fi
        (cd "$OUT" && shopt -s nullglob && eval "set -- $body" &&
            files=() && for f in "$@"; do
                case $f in "$archive"|steps.tsv|summary.txt) ;; *) [ -e "$f" ] && files+=("$f") ;; esac
            done &&
            if [ ${#files[@]} -gt 0 ]; then tar czf "$archive" "${files[@]}" && rm -rf "${files[@]}"; fi)
        ;;
    esac
}

k=0
while [ $k -lt $n ]; do
    if [ "${kinds[$k]}" = repeat ]; then
        first=$((k + 1)) last=$first
        while [ "${kinds[$last]}" != end ]; do last=$((last + 1)); done
        for ((i = 1; i <= ${bodies[$k]}; i++)); do
            export I=$i
            for ((j = first; j < last; j++)); do step $j; done
        done
        export I=1
        k=$((last + 1))
        continue
    fi
    step $k
    k=$((k + 1))
done
exit $bad
