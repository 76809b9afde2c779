#!/bin/sh
# slurm_scripts_test.sh SRC: tools/slurm/'s scripts without a Slurm: submit.sh against a fake sbatch that records
# its arguments (a % in the results path escaped for --output, the SBATCH options and --time on both jobs, nothing
# glob-expanded, NODES read as decimal, the report job after the array with afterany), vkbench-fleet.sbatch run as a
# task with a fake vkbench (two tasks on one node get two names; a wrong result exits 1, a SUSPECT timing alone 9),
# and vkbench-healthcheck.sh and vkbench-prolog.sh against a fake sinfo and scontrol: a GPU's and a node's drain
# reason, a broken setting is "could not judge" (7) naming it and never a drain, also through the prolog, and a
# check stopped by SIGTERM or SIGKILL leaves no temporary file. vkbench's options are not the script's: VKBENCH_CONFIG
# reaches vkbench as --config, VKB_HEALTH_ARGS and VKB_DEVICE_TIMEOUT_S are refused (7); VKBENCH (the real binary)
# with a health.conf of an unknown key is could not judge through the check and the prolog, the key named.
set -u
src=$1
vkbench=$2
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
# the report job waits for the array (the fake's first id, 100), whatever the tasks' verdicts
grep -qx -- "--dependency=afterany:100" "$dir/log/1" || fail "the report job's dependency: $(cat "$dir/log/1")"
grep -q -- "--dependency" "$dir/log/0" && fail "the array depends on something: $(cat "$dir/log/0")"
# NODES is decimal: 010 is ten tasks, not octal 8; 0, 000 and 0x10 are refused
rm -f "$dir/log/"*
(PATH="$dir/bin:$PATH" FAKE_LOG="$dir/log" VKBENCH=/bin/true "$src/tools/slurm/submit.sh" "$dir/r10" 010) \
    > "$dir/out" 2>&1 || fail "submit.sh NODES=010: $(cat "$dir/out")"
grep -qx -- "--array=0-9" "$dir/log/0" || fail "NODES=010: $(grep -- --array "$dir/log/0")"
for bad in 0 000 0x10 -1 ""; do
    (PATH="$dir/bin:$PATH" FAKE_LOG="$dir/log" "$src/tools/slurm/submit.sh" "$dir/r10" "$bad") > "$dir/out" 2>&1
    rc=$?
    [ $rc -eq 2 ] && grep -q "^submit.sh: NODES" "$dir/out" || fail "NODES='$bad': exit $rc, $(cat "$dir/out")"
done
# a task as Slurm would run it, twice on one node; the fake vkbench's exit and failed row come from FAKE_RC/FAKE_FAIL
cat > "$dir/bin/vkbench" <<'FAKE'
#!/bin/sh
for a; do case $prev in --json) out=$a ;; esac; prev=$a; done
for a; do case $a in x|--comment=x) exit 42 ;; esac; done   # a * expanded in the current folder
case $1 in validate) echo '{}' > "$out"; exit 0 ;; esac
case $1 in health)
    printf '%s\n' "$@" > "$FAKE_LOG/health.args"
    [ -n "${FAKE_SLEEP:-}" ] && { echo $$ > "$FAKE_LOG/vkbench.pid"; exec sleep "$FAKE_SLEEP"; }
    echo "${FAKE_MSG:-vkbench: GPU 0 u -: validate: copy/vec4: wrong result}" >&2; exit "${FAKE_RC:-0}" ;;
esac
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
# the settings file, as slurmd runs the check: no environment but SLURMD_NODENAME and PWD (and VKB_HEALTH_SETTINGS,
# naming this test's file in place of /etc/default/vkbench-health); SCRIPT: the script run
printf 'VKBENCH=%s\nPATH="%s"\n' "$dir/bin/vkbench" "$dir/bin:/usr/bin:/bin" > "$dir/settings"
CONF="$dir/settings" SCRIPT="$src/tools/slurm/vkbench-healthcheck.sh"
run_check() {   # run_check RC REASON: the check with the fake vkbench's exit RC, sinfo's REASON; its stderr in err
    env -i SLURMD_NODENAME=n1 PWD=/ VKB_HEALTH_SETTINGS="$CONF" FAKE_LOG="$dir/log" FAKE_RC="$1" FAKE_REASON="$2" \
        FAKE_MSG="${FAKE_MSG:-}" FAKE_SLEEP="${FAKE_SLEEP:-}" TMPDIR="$dir/tmp" \
        /bin/sh "$SCRIPT" 2>"$dir/err"
}
mkdir "$dir/tmp"
check() {   # check RC REASON EXPECTED_EXIT EXPECTED_SCONTROL (a grep -x pattern, or "" for no call)
    rm -f "$dir/log/scontrol"
    run_check "$1" "$2"
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
# no option of vkbench's set here: vkbench reads /etc/vkbench/health.conf itself
[ "$(cat "$dir/log/health.args")" = health ] || fail "vkbench was run with: $(cat "$dir/log/health.args")"
check 0 "vkbench: GPU 0 u -: validate: copy/vec4: wrong result" 0 "update NodeName=n1 State=RESUME"
check 0 none 0 ""
check 1 "maintenance: new cables" 1 ""
check 0 "maintenance: new cables" 0 ""
# a node-level failure: its own line is the reason
FAKE_MSG="vkbench: node: count: expected 8 GPUs, found 7"
check 1 none 1 "update NodeName=n1 State=DRAIN Reason=vkbench: node: count: expected 8 GPUs, found 7"
FAKE_MSG=
# the check's own failures: exit 7, a line naming the cause, the node left as it is (no scontrol call)
could_not_judge() {   # could_not_judge SETTINGS_TEXT PATTERN [VKBENCH_EXIT]: the settings file, then the check
    printf '%b' "$1" > "$dir/broken.conf"
    CONF="$dir/broken.conf"
    check "${3:-1}" none 7 ""
    grep -q "^vkbench-healthcheck: could not judge n1: .*$2" "$dir/err" || fail "settings '$1': $(cat "$dir/err")"
    CONF="$dir/settings"
}
fake="VKBENCH=$dir/bin/vkbench\nPATH=$dir/bin:/usr/bin:/bin\n"
could_not_judge "VKBENCH=$dir/no-such-vkbench\n" "VKBENCH=$dir/no-such-vkbench ($dir/broken.conf:1): no such file"
chmod -x "$dir/bin/sinfo"; cp "$dir/bin/sinfo" "$dir/plain"
could_not_judge "VKBENCH=$dir/plain\n" "VKBENCH=$dir/plain .*: not executable"
chmod +x "$dir/bin/sinfo"
# no VKBENCH: the build beside the checkout, else vkbench on PATH (a copy of the script in a tree of its own)
mkdir -p "$dir/tree/tools/slurm"
cp "$src/tools/slurm/vkbench-healthcheck.sh" "$dir/tree/tools/slurm/"
printf 'PATH=%s\n' "$dir/bin:/usr/bin:/bin" > "$dir/path.conf"
SCRIPT="$dir/tree/tools/slurm/vkbench-healthcheck.sh"
printf 'PATH=/usr/bin:/bin\n' > "$dir/broken.conf"
CONF="$dir/broken.conf"; check 1 none 7 ""
grep -q "VKBENCH=vkbench (the default): not found on PATH=/usr/bin:/bin" "$dir/err" || fail "no vkbench: $(cat "$dir/err")"
mkdir "$dir/tree/build" && cp "$dir/bin/vkbench" "$dir/tree/build/vkbench"
CONF="$dir/path.conf"; check 1 none 1 "update NodeName=n1 State=DRAIN Reason=vkbench: GPU 0 u -: validate: copy/vec4: wrong result"
CONF="$dir/settings" SCRIPT="$src/tools/slurm/vkbench-healthcheck.sh"
could_not_judge "${fake}VKB_HEALTH_TIMEOUT_S=50s\n" "VKB_HEALTH_TIMEOUT_S='50s' ($dir/broken.conf:3): not a whole"
could_not_judge "${fake}VKB_HEALTH_TIMEOUT_S=0\n" "VKB_HEALTH_TIMEOUT_S=0 .*: not between 1 and 3600"
could_not_judge "${fake}VKBENCH_CONFIG=\"/etc/vkbench/a.conf\n" "$dir/broken.conf:3: VKBENCH_CONFIG: quotes"
could_not_judge "${fake}if [ -x /bin/sh ]; then\n" "$dir/broken.conf:3: not NAME=VALUE"
could_not_judge "${fake}VKBENCH_CONFG=/etc/vkbench/a.conf\n" "$dir/broken.conf:3: unknown setting 'VKBENCH_CONFG'"
# vkbench's options have one home, its health.conf: the wrapper's settings never carry them
for opt in "VKB_HEALTH_ARGS=--expect 8" VKB_DEVICE_TIMEOUT_S=10; do
    could_not_judge "${fake}$opt\n" \
        "$dir/broken.conf:3: ${opt%%=*}: vkbench health's options are set in its configuration file, /etc/vkbench/"
done
rm -f "$dir/log/scontrol"
env -i SLURMD_NODENAME=n1 PWD=/ VKB_HEALTH_SETTINGS="$dir/settings" VKB_HEALTH_ARGS="--expect 8" FAKE_LOG="$dir/log" \
    FAKE_RC=1 FAKE_REASON=none TMPDIR="$dir/tmp" /bin/sh "$SCRIPT" 2>"$dir/err"
rc=$?
[ $rc -eq 7 ] && [ ! -e "$dir/log/scontrol" ] && grep -q "could not judge n1: VKB_HEALTH_ARGS (the environment)" \
    "$dir/err" || fail "VKB_HEALTH_ARGS in the environment: exit $rc, $(cat "$dir/err")"
could_not_judge "${fake}VKBENCH_CONFIG=health.conf\n" "VKBENCH_CONFIG=health.conf ($dir/broken.conf:3): not an absolute"
# VKBENCH_CONFIG: vkbench's own configuration file, passed as --config (a blank in its path kept)
printf '%bVKBENCH_CONFIG="%s"\n' "$fake" "$dir/my health.conf" > "$dir/config.conf"
CONF="$dir/config.conf"; check 1 none 1 "update NodeName=n1 State=DRAIN Reason=vkbench: GPU 0 u -: validate: copy/vec4: wrong result"
[ "$(cat "$dir/log/health.args")" = "$(printf 'health\n--config\n%s' "$dir/my health.conf")" ] ||
    fail "VKBENCH_CONFIG: vkbench was run with: $(cat "$dir/log/health.args")"
CONF="$dir/settings"
could_not_judge "$fake" "vkbench health refused its configuration" 2
could_not_judge "$fake" "vkbench health could not write an output" 6
could_not_judge "$fake" "copy/vec4: wrong result" 7
# a settings file that cannot be read: a folder, a dangling link; none named is the defaults' (vkbench on PATH)
CONF="$dir/tmp"; check 1 none 7 ""; grep -q "settings file $dir/tmp: not a readable file" "$dir/err" || fail "$(cat "$dir/err")"
ln -s "$dir/gone" "$dir/link.conf"
CONF="$dir/link.conf"; check 1 none 7 ""; grep -q "settings file $dir/link.conf" "$dir/err" || fail "$(cat "$dir/err")"
CONF="$dir/settings"
# read as decimal, and bounding vkbench: 01 is one second; a hung vkbench then drains the node
printf '%bVKB_HEALTH_TIMEOUT_S=01\n' "$fake" > "$dir/slow.conf"
CONF="$dir/slow.conf" FAKE_SLEEP=30
check 0 none 1 "update NodeName=n1 State=DRAIN Reason=vkbench: node: health: no verdict within 1 s (a hung GPU or driver)"
CONF="$dir/settings" FAKE_SLEEP=
# the prolog: fails only when the check drained; could not judge (a broken setting, or vkbench's 7) lets the job run
SCRIPT="$src/tools/slurm/vkbench-prolog.sh"
check 1 none 1 "update NodeName=n1 State=DRAIN Reason=vkbench: GPU 0 u -: validate: copy/vec4: wrong result"
check 7 none 0 ""
printf 'VKBENCH=%s\n' "$dir/no-such-vkbench" > "$dir/broken.conf"
CONF="$dir/broken.conf"; check 1 none 0 ""; grep -q "VKBENCH=$dir/no-such-vkbench" "$dir/err" || fail "prolog: $(cat "$dir/err")"
CONF="$dir/settings" SCRIPT="$src/tools/slurm/vkbench-healthcheck.sh"
# the real vkbench with a health.conf of an unknown key: could not judge (7), the key named, the node left as it is
# (neither drained nor, out for our reason, resumed); the prolog lets the job run. A missing one: the same
printf 'allow_cpu = yes\nexpekt = 8\n' > "$dir/vkb-health.conf"
printf 'VKBENCH=%s\nVKBENCH_CONFIG=%s\nPATH=%s\n' "$vkbench" "$dir/vkb-health.conf" "$dir/bin:/usr/bin:/bin" \
    > "$dir/real.conf"
printf 'VKBENCH=%s\nVKBENCH_CONFIG=%s\nPATH=%s\n' "$vkbench" "$dir/no-such.conf" "$dir/bin:/usr/bin:/bin" \
    > "$dir/missing.conf"
CONF="$dir/real.conf"
for SCRIPT in "$src/tools/slurm/vkbench-healthcheck.sh" "$src/tools/slurm/vkbench-prolog.sh"; do
    want=7; [ "${SCRIPT##*/}" = vkbench-prolog.sh ] && want=0
    for reason in none "vkbench: GPU 0 u -: validate: copy/vec4: wrong result"; do
        check 0 "$reason" $want ""
        grep -q "^vkbench-healthcheck: could not judge n1: vkbench health: --config $dir/vkb-health.conf line 2:" \
            "$dir/err" && grep -q "unknown key 'expekt'" "$dir/err" ||
            fail "${SCRIPT##*/}: an unknown key in health.conf: $(cat "$dir/err")"
    done
done
SCRIPT="$src/tools/slurm/vkbench-healthcheck.sh"
CONF="$dir/missing.conf"; check 0 none 7 ""
grep -q "could not judge n1: vkbench health: --config $dir/no-such.conf: No such file" "$dir/err" ||
    fail "a missing health.conf: $(cat "$dir/err")"
CONF="$dir/settings"
# stopped by Slurm's timeout: SIGTERM (passed on to vkbench, which ends) and SIGKILL leave no temporary file
for sig in TERM KILL; do
    rm -f "$dir/log/vkbench.pid" "$dir/log/scontrol"
    env -i SLURMD_NODENAME=n1 PWD=/ VKB_HEALTH_SETTINGS="$CONF" FAKE_LOG="$dir/log" FAKE_SLEEP=60 FAKE_REASON=none \
        TMPDIR="$dir/tmp" /bin/sh "$src/tools/slurm/vkbench-healthcheck.sh" 2>"$dir/err" &
    pid=$!   # the check itself (env execs it)
    n=0
    until [ -s "$dir/log/vkbench.pid" ]; do n=$((n + 1)); [ $n -le 100 ] || fail "no vkbench"; sleep 0.1; done
    [ -n "$(ls -A "$dir/tmp")" ] && fail "SIG$sig: a temporary file while the check runs: $(ls -A "$dir/tmp")"
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    [ "$sig" = TERM ] && [ $rc -ne 143 ] && fail "SIGTERM: exit $rc, expected 143"
    [ -z "$(ls -A "$dir/tmp")" ] || fail "SIG$sig: left $(ls -A "$dir/tmp")"
    [ ! -e "$dir/log/scontrol" ] || fail "SIG$sig: the node changed: $(cat "$dir/log/scontrol")"
    if [ "$sig" = TERM ]; then
        n=0
        while kill -0 "$(cat "$dir/log/vkbench.pid")" 2>/dev/null; do
            n=$((n + 1)); [ $n -le 100 ] || fail "SIGTERM: vkbench still runs"; sleep 0.1
        done
    else
        kill "$(cat "$dir/log/vkbench.pid")" 2>/dev/null   # SIGKILL reaches no one: timeout's own bound ends it
    fi
done
echo "slurm scripts: % escaped, options and --time on both jobs, the report after the array, NODES decimal, no glob," \
     "unique names, exit 1 vs 9; the health check drains (a GPU's and a node's reason) and resumes with its own" \
     "reason, leaves an operator's alone, could not judge (7) for each broken setting, in the prolog too, for an" \
     "option of vkbench's in its settings and for an unknown key of vkbench's health.conf, passes VKBENCH_CONFIG" \
     "as --config, and leaves no temporary file on SIGTERM or SIGKILL"
