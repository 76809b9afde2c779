#!/bin/sh
# slurm_scripts_test.sh SRC: tools/slurm/'s scripts without a Slurm: submit.sh against a fake sbatch that records
# its arguments (a % in the results path escaped for --output, the SBATCH options and --time on both jobs, nothing
# glob-expanded), and vkbench-fleet.sbatch run as a task with a fake vkbench (two tasks on one node get two names;
# a wrong result exits 1, a SUSPECT timing alone 9).
set -u
src=$1
dir=$(mktemp -d /tmp/vkb-slurm-scripts.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$dir/bin" "$dir/cwd"
cat > "$dir/bin/sbatch" <<'FAKE'
#!/bin/sh
n=$(ls "$FAKE_LOG"/ 2>/dev/null | wc -l)
printf '%s\n' "$@" > "$FAKE_LOG/$n"
echo "10$n"
FAKE
chmod +x "$dir/bin/sbatch"
mkdir "$dir/log" "$dir/cwd/x"
: > "$dir/cwd/--comment=x"   # an unquoted * would expand to this and to x
results="$dir/res 100%a"
(cd "$dir/cwd" && PATH="$dir/bin:$PATH" FAKE_LOG="$dir/log" VKBENCH=/bin/true \
    "$src/tools/slurm/submit.sh" "$results" 2 --account=lab '--comment=*') > "$dir/out" 2>&1 || fail "submit.sh: $(cat "$dir/out")"
for job in 0 1; do
    a=$(cat "$dir/log/$job")
    echo "$a" | grep -qx -- "--account=lab" || fail "job $job lacks the sbatch options: $a"
    echo "$a" | grep -qx -- "--comment=\*" || fail "job $job: * was expanded: $a"
    echo "$a" | grep -qx -- "--time=00:15:00" || fail "job $job has no --time: $a"
    echo "$a" | grep -q -- "--output=$dir/res 100%%a/" || fail "job $job: % not escaped: $a"
done
# a task as Slurm would run it, twice on one node; the fake vkbench's exit and failed row come from FAKE_RC/FAKE_FAIL
cat > "$dir/bin/vkbench" <<'FAKE'
#!/bin/sh
for a; do case $prev in --json) out=$a ;; esac; prev=$a; done
for a; do case $a in x|--comment=x) exit 42 ;; esac; done   # a * expanded in the current folder
case $1 in validate) echo '{}' > "$out"; exit 0 ;; esac
case $1 in health) echo "vkbench: GPU 0 u -: validate: copy/vec4: wrong result" >&2; exit "${FAKE_RC:-0}" ;; esac
if [ -n "${FAKE_FAIL:-}" ]; then echo '{"results": [{"status": "fail"}]}' > "$out"; else echo '{"status": "ok"}' > "$out"; fi
exit "${FAKE_RC:-0}"
FAKE
chmod +x "$dir/bin/vkbench"
task() {
    (cd "$dir/cwd" && VKBENCH="$dir/bin/vkbench" RESULTS="$dir/r" SLURM_ARRAY_JOB_ID=7 SLURM_ARRAY_TASK_ID=$1 \
        FLEET_RUN="run copy --variant *" sh "$src/tools/slurm/vkbench-fleet.sbatch" >/dev/null 2>&1)
}
host=$(hostname -s)
task 0 || fail "task 0 exit $?"
task 1 || fail "task 1 exit $?"
[ -s "$dir/r/$host.json" ] && [ -s "$dir/r/$host-task1.json" ] || fail "two tasks on one node: $(ls "$dir/r")"
FAKE_RC=1 FAKE_FAIL=1; export FAKE_RC FAKE_FAIL
task 2; rc=$?
[ $rc -eq 1 ] || fail "a wrong result: exit $rc, expected 1"
FAKE_FAIL=; export FAKE_FAIL
task 3; rc=$?
[ $rc -eq 9 ] || fail "a SUSPECT timing alone: exit $rc, expected 9"
# the health check against a fake Slurm: sinfo shows FAKE_REASON as the node's reason, scontrol's calls are kept.
# A sick node is drained with vkbench's line, a healed one resumed when the reason is ours; someone else's reason
# (an operator's drain) is neither replaced by a sick verdict nor undone by a healthy one
printf '#!/bin/sh\necho "$FAKE_REASON"\n' > "$dir/bin/sinfo"
printf '#!/bin/sh\necho "$*" >> "$FAKE_LOG/scontrol"\n' > "$dir/bin/scontrol"
chmod +x "$dir/bin/sinfo" "$dir/bin/scontrol"
check() {   # check RC REASON EXPECTED_EXIT EXPECTED_SCONTROL (a grep -x pattern, or "" for no call)
    rm -f "$dir/log/scontrol"
    PATH="$dir/bin:$PATH" FAKE_LOG="$dir/log" FAKE_RC=$1 FAKE_REASON=$2 VKBENCH="$dir/bin/vkbench" \
        SLURMD_NODENAME=n1 sh "$src/tools/slurm/vkbench-healthcheck.sh" 2>/dev/null
    rc=$?
    [ $rc -eq "$3" ] || fail "health check (vkbench $1, reason '$2'): exit $rc, expected $3"
    if [ -z "$4" ]; then
        [ ! -e "$dir/log/scontrol" ] || fail "health check (vkbench $1, reason '$2'): $(cat "$dir/log/scontrol")"
    else
        grep -qx -- "$4" "$dir/log/scontrol" 2>/dev/null || fail "health check (vkbench $1, reason '$2'):" \
            "expected '$4', got '$(cat "$dir/log/scontrol" 2>/dev/null)'"
    fi
}
check 1 none 1 "update NodeName=n1 State=DRAIN Reason=vkbench: GPU 0 u -: validate: copy/vec4: wrong result"
check 0 "vkbench: GPU 0 u -: validate: copy/vec4: wrong result" 0 "update NodeName=n1 State=RESUME"
check 0 none 0 ""
check 1 "maintenance: new cables" 1 ""
check 0 "maintenance: new cables" 0 ""
echo "slurm scripts: % escaped, options and --time on both jobs, no glob, unique names, exit 1 vs 9; the health" \
     "check drains and resumes with its own reason and leaves an operator's alone"
