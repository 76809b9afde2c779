#!/bin/sh
# slurm_test.sh VKBENCH SRC CASE: tools/slurm/ on a real Slurm of this one machine. As root: Debian's Slurm and munge
# (tools/setup.sh --slurm), a slurm.conf for this host in a scratch folder, on ports chosen free at the start, our own
# munged (its own socket and key), slurmctld and slurmd; then CASE:
#   fleet   the fleet array of 4 tasks on lavapipe (one task standing for a node each: FLEET_TASK_NAMES=1), task 2's
#           GPU made 16x slow (VKB_FAULT_INJECT=slow-device:0:16, through a wrapper), the report job after it; then
#           every file and the verdict: task 2 flagged, no other.
#   health  the README's recipe as it is: HealthCheckProgram=tools/slurm/vkbench-healthcheck.sh itself, every 2 s,
#           the script's settings in /etc/default/vkbench-health (the binary, its timeouts, VKBENCH_CONFIG), the
#           check's own in a health.conf of the scratch folder that vkbench reads (allow_cpu, device_timeout_s,
#           expect), and nothing in its environment (slurmd started with an empty one, and Slurm gives the check
#           only SLURMD_NODENAME and PWD): a wrong result, a missing GPU (expect = 2) and a hung GPU each drain the
#           node with vkbench's reason within the interval plus the check's own bound, the node returns to service
#           once healthy, an unknown key in health.conf leaves it in service (exit 7, slurmd logs the key), and an
#           operator's drain stays.
#   prolog  Prolog=tools/slurm/vkbench-prolog.sh itself, the same two files: with an unknown key in health.conf a
#           job runs and the node stays in service; on a sick node the job's launch fails, Slurm requeues the job
#           (held, as a failed prolog does) and the node is drained with vkbench's reason; healed, the health check
#           returns it and the released job runs.
#   hold    the cluster up and a job running, then wait: for tests/tools/slurm_cleanup_test.sh, which kills this
#           test and looks for what it left.
# Every process it starts carries VKB_SLURM_TEST=<its scratch folder> in its environment; they end with the test
# however it ends: an EXIT/INT/TERM trap, and a reaper (setsid) that outlives the test shell (a
# kill -9, ctest's time-out) and ends every process so marked once the test's pid is gone. VKB_SLURM_STATUS=FILE:
# "FOLDER CTLD_PORT SLURMD_PORT" written there once the cluster is up. Exit 77: skipped (not root, the packages
# cannot be installed, a port taken between its choice and the daemon's start, or another test's settings file in
# /etc/default/vkbench-health). /etc/vkbench/health.conf is never read or written: VKBENCH_CONFIG names the test's.
set -u
vkbench=$1
src=$2
case=${3:-}
tasks=4
case $case in
    fleet|health|prolog|hold) ;;
    *) echo "usage: slurm_test.sh VKBENCH SRC fleet|health|prolog|hold"; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "skip: the Slurm test starts daemons as root"; exit 77; }
if ! "$src/tools/setup.sh" --slurm >&2; then
    echo "skip: Debian's slurmd, slurmctld, slurm-client or munge could not be installed"
    exit 77
fi
dir=$(mktemp -d /tmp/vkb-slurm.XXXXXX)
host=$(hostname -s)
settings=/etc/default/vkbench-health   # the recipe's fixed path (tools/slurm/vkbench-healthcheck.sh)
# the marker of this test's processes; the reaper's own environment lacks it. VKB_SLURM_SHELL marks this shell's
# environment alone: a check that has it was not run with Slurm's
VKB_SLURM_TEST=$dir VKB_SLURM_SHELL=1
export VKB_SLURM_TEST VKB_SLURM_SHELL
# reap: end every process whose environment carries this test's marker (or its SLURM_CONF), or that has a file of
# its folder open, and their descendants (TERM, then KILL after 5 s: slurmstepd may outlive a TERM), and remove the
# settings file when it is this test's. Run by the EXIT trap, and by the reaper once the test's pid is gone.
reap='
mine() { /usr/bin/python3 -c "
import os, sys
folder, keep = sys.argv[1], int(sys.argv[2] or 0)
mark, reaper = (\"VKB_SLURM_TEST=\" + folder).encode(), (\"VKB_REAP_DIR=\" + folder).encode()
conf = (\"SLURM_CONF=\" + folder + \"/slurm.conf\").encode()
def ours(p):
    env = open(\"/proc/%s/environ\" % p, \"rb\").read().split(b\"\\0\")
    if reaper in env:
        return False                  # the reaper, and this search
    if mark in env or conf in env:
        return True
    fds = \"/proc/%s/fd\" % p          # slurmstepd clears its environment; it keeps slurmd.log open
    return any(os.readlink(os.path.join(fds, f)).startswith(folder + \"/\") for f in os.listdir(fds))
found, parent = set(), {}
for p in os.listdir(\"/proc\"):
    try:
        if p.isdigit() and int(p) != keep:
            parent[p] = open(\"/proc/%s/stat\" % p).read().rsplit(\")\", 1)[1].split()[1]
            if ours(p):
                found.add(p)
    except (OSError, IndexError):
        pass
grown = True                          # and their descendants: the health checks of slurmd have none of its environment
while grown:
    more = {p for p, pp in parent.items() if pp in found} - found
    found |= more
    grown = bool(more)
print(\" \".join(sorted(found)))
" "$VKB_REAP_DIR" "${VKB_REAP_KEEP:-}"; }
pids=$(mine)
[ -n "$pids" ] && kill $pids 2>/dev/null
end=$(($(date +%s) + 5))
while [ -n "$(mine)" ] && [ "$(date +%s)" -lt $end ]; do sleep 0.2; done
pids=$(mine)
[ -n "$pids" ] && { kill -9 $pids 2>/dev/null; echo "killed what would not stop: $pids"; }
head -1 "$VKB_REAP_SETTINGS" 2>/dev/null | grep -qx "# slurm_test.sh $VKB_REAP_DIR" && rm -f "$VKB_REAP_SETTINGS"
'
# the reaper: setsid, so a terminal's signals to the test's group do not reach it, and gone from
# the test's process tree (the subshell that starts it exits): ctest's time-out kills that tree
# shellcheck disable=SC2016
(env -u VKB_SLURM_TEST VKB_REAP_DIR="$dir" VKB_REAP_PID=$$ VKB_REAP_SETTINGS="$settings" setsid sh -c \
    'while kill -0 "$VKB_REAP_PID" 2>/dev/null &&
           [ "$(sed "s/.*) //" "/proc/$VKB_REAP_PID/stat" 2>/dev/null | cut -c1)" != Z ]; do sleep 1; done; '"$reap" \
    </dev/null >>"$dir/reaper.log" 2>&1 &)
fail() {
    echo "FAIL: $*"
    for f in "$dir"/*.log "$dir"/results/*.out "$dir"/results/fleet.txt "$dir"/results/fleet.err; do
        [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }
    done
    exit 1
}
skip() { echo "skip: $*"; exit 77; }
stop() {
    status=$?
    # the jobs first (their steps are not slurmd's children), while slurmctld still answers
    scancel --quiet --user=root 2>/dev/null
    env -u VKB_SLURM_TEST VKB_REAP_DIR="$dir" VKB_REAP_KEEP=$$ VKB_REAP_SETTINGS="$settings" sh -c "$reap" \
        >>"$dir/reaper.log" 2>&1
    # a failure's logs stay for a look
    [ "$status" -eq 0 ] && rm -rf "$dir"
    exit "$status"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ports: two the kernel calls free now (bound to port 0, then released), checked again just before the daemons
# start; Slurm's defaults (6817, 6818) are never used, so another cluster on this machine is never ours
ports=$(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))') || fail "no free port"
ctld_port=${ports% *}
slurmd_port=${ports#* }
taken() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }
for p in $ctld_port $slurmd_port; do taken "$p" && skip "port $p taken between its choice and the start"; done
mkdir -p "$dir/state" "$dir/spool" "$dir/results"
# munge of our own: its socket, key, pid, seed and log in the scratch folder
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 2>/dev/null && chmod 600 "$dir/munge.key"
munged --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
       --log-file="$dir/munged.log" --seed-file="$dir/munge.seed" 2>>"$dir/munged.log" || fail "munged did not start"
cat > "$dir/slurm.conf" <<CONF
ClusterName=vkbtest
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=10 State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
# the daemons as an init system starts them: an empty environment but PATH and the marker
daemon_env="env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin VKB_SLURM_TEST=$dir"
in_use() { grep -qi "address already in use" "$dir/$1.log" 2>/dev/null && skip "$1's port was taken at its start"; }
$daemon_env slurmctld -f "$SLURM_CONF" || { in_use slurmctld; fail "slurmctld did not start"; }
$daemon_env slurmd -f "$SLURM_CONF" || { in_use slurmd; fail "slurmd did not start"; }
n=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
    n=$((n + 1))
    [ $n -le 60 ] || { in_use slurmctld; in_use slurmd; fail "the node did not come up idle"; }
    sleep 0.5
done
# the daemons that answer are ours: listening on our ports, by the pids they wrote
for d in slurmctld:$ctld_port slurmd:$slurmd_port; do
    ss -Hltnp "sport = :${d#*:}" | grep -q "pid=$(cat "$dir/${d%:*}.pid")," || fail "${d%:*} is not on port ${d#*:}"
done
[ -n "${VKB_SLURM_STATUS:-}" ] && echo "$dir $ctld_port $slurmd_port" > "$VKB_SLURM_STATUS"

# vkbench behind a wrapper. fleet: task 2's GPU made 16x slow (4 times was lost in the spread between tasks when
# other tests loaded the machine). health, prolog: the fault of the moment read from $dir/fault (a VKB_FAULT_INJECT
# value); each check counted in health.runs, its environment and arguments kept
: > "$dir/fault"
cat > "$dir/vkbench" <<WRAP
#!/bin/sh
export VKB_SLURM_TEST="$dir"
[ "\${SLURM_ARRAY_TASK_ID:-}" = 2 ] && export VKB_FAULT_INJECT=slow-device:0:16
if [ "\$1" = health ]; then
    echo run >> "$dir/health.runs"
    env > "$dir/health.seen"
    printf '%s\n' "\$@" > "$dir/health.args"
    f=\$(cat "$dir/fault")
    [ -n "\$f" ] && export VKB_FAULT_INJECT="\$f"
fi
exec "$vkbench" "\$@"
WRAP
chmod +x "$dir/vkbench"
# health, prolog: the recipe's two files. The script's settings (the binary, the check's bound of 40 s, vkbench's
# configuration file), claimed with O_EXCL (noclobber): a file already there (the machine's own, or another test's)
# is not overwritten, and the case skips. vkbench's own configuration, $dir/health.conf: lavapipe counted as the
# GPU, a hung GPU given up after 10 s (health's own default is 20); config LINES... writes it whole (a check never
# reads half of one) with LINES after those
check_s=40
config() {
    printf '# slurm_test.sh %s\nallow_cpu = yes\ndevice_timeout_s = 10\n' "$dir" > "$dir/health.conf.new"
    [ $# -eq 0 ] || printf '%s\n' "$@" >> "$dir/health.conf.new"
    mv -f "$dir/health.conf.new" "$dir/health.conf"
}
claim_settings() {
    config
    cat > "$dir/settings" <<ENV
# slurm_test.sh $dir
VKBENCH=$dir/vkbench
VKBENCH_CONFIG=$dir/health.conf
VKB_HEALTH_TIMEOUT_S=$check_s
VKB_PROLOG_TIMEOUT_S=$check_s
SLURM_CONF=$SLURM_CONF
ENV
    if ! (set -C; cat "$dir/settings" > "$settings") 2>/dev/null; then
        skip "$settings exists ($(head -1 "$settings" 2>/dev/null)): not this test's to overwrite"
    fi
}
reason() { sinfo -h -N -n "$host" -o %E | head -1; }
state() { sinfo -h -N -n "$host" -o %T | head -1; }
# wait_for WHAT TEST [SECONDS]: until TEST holds, at most SECONDS (default 90: a few health checks of a few seconds
# on lavapipe); the seconds waited in $waited
wait_for() {
    n=0
    until eval "$2"; do
        n=$((n + 1)); [ $n -le $((2 * ${3:-90})) ] || fail "$1: state $(state), reason '$(reason)'"; sleep 0.5
    done
    waited=$((n / 2))
}
# the health check as slurmd's HealthCheckProgram every 2 s, on nodes in any state: the script itself, as the README
# says, configured by the settings file alone
interval=2
enable_health() {
    printf 'HealthCheckProgram=%s\nHealthCheckInterval=%d\nHealthCheckNodeState=ANY\n' \
        "$src/tools/slurm/vkbench-healthcheck.sh" "$interval" >> "$SLURM_CONF"
    scontrol reconfigure || fail "scontrol reconfigure"
}
# what the check ran with: Slurm's environment, not the test's (no VKB_SLURM_SHELL, no VKB_DEVICE_TIMEOUT_S: the
# 10 s came from health.conf), and vkbench's configuration named by the settings file alone
check_environment() {
    [ -s "$dir/health.seen" ] || fail "no health check ran"
    ! grep -q "^\(VKB_SLURM_SHELL\|VKB_DEVICE_TIMEOUT_S\|VKB_HEALTH_SETTINGS\)=" "$dir/health.seen" ||
        fail "the check had the test's environment: $(grep "^VKB_" "$dir/health.seen" | tr '\n' ' ')"
    [ "$(cat "$dir/health.args")" = "$(printf 'health\n--config\n%s' "$dir/health.conf")" ] ||
        fail "vkbench ran as: $(tr '\n' ' ' < "$dir/health.args")"
}
# the checks slurmd logged as failed with exit 7 and OUTPUT (a grep pattern)
unjudged() { grep -c "health_check failed: rc:7 output:.*$1" "$dir/slurmd.log" 2>/dev/null; }
# our drain reason: vkbench's line for GPU 0 and CHECK
ours() { reason | grep -q "^vkbench: GPU 0 [0-9a-f-]* -: $1: "; }

case_fleet() {
    # tasks one at a time (each takes the node's CPUs): their timings do not disturb each other
    ids=$(VKBENCH="$dir/vkbench" FLEET_TASK_NAMES=1 FLEET_TIME=5 FLEET_VALIDATE="copy --n 1000,4097" \
          FLEET_RUN="run copy transpose --n 262144 --size 128 --variant api_copy,vec4,naive,padded --reps 15 \
                     --warmup-ms 20" \
          FLEET_ARGS="--threshold 0.25 --sigmas 3" \
          "$src/tools/slurm/submit.sh" "$dir/results" $tasks --cpus-per-task="$(nproc)") || fail "submit.sh: $ids"
    echo "submitted: $ids"
    n=0
    while [ -n "$(squeue -h 2>/dev/null)" ]; do
        n=$((n + 1)); [ $n -le 240 ] || fail "the jobs did not finish in 120 s: $(squeue -h)"; sleep 0.5
    done
    r="$dir/results"
    for t in $(seq 0 $((tasks - 1))); do
        [ -s "$r/$host-task$t.json" ] || fail "no timed results of task $t"
        [ -s "$r/validate/$host-task$t.json" ] || fail "no validate results of task $t"
        grep -q "\"host\": \"$host-task$t\"" "$r/$host-task$t.json" || fail "task $t's results do not name its host"
        grep -q "validate exit 0, timed run exit 0" "$r/task-$t.out" || fail "task $t: $(cat "$r/task-$t.out")"
    done
    [ "$(cat "$r/fleet.exit" 2>/dev/null)" = 1 ] || fail "fleet.py exit $(cat "$r/fleet.exit" 2>/dev/null), expected 1"
    flagged=$(grep -E '^[^ ]+  device [0-9]+:' "$r/fleet.txt" | cut -d' ' -f1 | tr '\n' ' ')
    [ "$flagged" = "$host-task2 " ] || fail "flagged: '$flagged', expected only $host-task2"
    grep -q "verdict: 1 of $tasks devices flagged" "$r/fleet.txt" || fail "verdict line"
    [ -s "$r/fleet.html" ] || fail "no heat map"
    echo "slurm: $tasks tasks, report flagged $flagged(the planted slow GPU) and no other"
}

case_health() {
    claim_settings
    enable_health
    # a fault planted just after a check began is seen by the next: drained within the check running then, the
    # interval and the next check (each bounded by the wrapper's timeout)
    bound=$((2 * check_s + interval))
    echo wrong-device:0 > "$dir/fault"
    wait_for "a wrong result drains the node" 'ours validate' $bound
    case $(state) in drain*) ;; *) fail "drained: state $(state)" ;; esac
    echo "slurm: a wrong result drained the node after ${waited} s: $(reason)"
    : > "$dir/fault"
    wait_for "healthy again: back in service" '[ "$(state)" = idle ]' $bound
    config "expect = 2"
    wait_for "a missing GPU drains the node" '[ "$(reason)" = "vkbench: node: count: expected 2 GPUs, found 1" ]' \
        $bound
    echo "slurm: a missing GPU (expect = 2 in health.conf) drained the node after ${waited} s"
    config
    wait_for "back in service" '[ "$(state)" = idle ]' $bound
    # health.conf with an unknown key: could not judge (7) naming it, and the node stays in service; slurmd logs
    # the check's line. Two such checks, then the node's state
    config "expekt = 2"
    key="could not judge $host: vkbench health: --config $dir/health.conf line 4: unknown key 'expekt'"
    seen=$(unjudged "$key")
    wait_for "an unknown key in health.conf: two checks of exit 7 naming it" \
        '[ "$(unjudged "$key")" -ge $((seen + 2)) ]' $bound
    [ "$(state)" = idle ] && [ "$(reason)" = none ] || fail "an unknown key in health.conf: state $(state), reason '$(reason)'"
    echo "slurm: an unknown key in health.conf left the node $(state):" \
         "$(grep -m1 "rc:7 output:" "$dir/slurmd.log" | sed 's/.*output://')"
    config
    echo hang:0 > "$dir/fault"
    wait_for "a hung GPU drains the node" 'ours device' $bound
    case $(state) in drain*) ;; *) fail "drained: state $(state)" ;; esac
    echo "slurm: a hung GPU drained the node after ${waited} s: $(reason)"
    : > "$dir/fault"
    wait_for "back in service after the hang" '[ "$(state)" = idle ]' $bound
    echo "slurm: back in service ${waited} s after the hang was healed"
    # an operator's drain is not ours to undo
    scontrol update NodeName="$host" State=DRAIN Reason="maintenance: new cables"
    check_environment
    runs=$(wc -l < "$dir/health.runs")
    wait_for "two more health checks" '[ "$(wc -l < "$dir/health.runs")" -ge $((runs + 2)) ]'
    [ "$(reason)" = "maintenance: new cables" ] || fail "an operator's drain undone: '$(reason)'"
    scontrol update NodeName="$host" State=RESUME
    echo "slurm: the health check drained the node for a wrong result, a missing GPU and a hung GPU with" \
         "vkbench's reason, returned it when healthy, and left an operator's drain alone"
}

case_prolog() {
    claim_settings
    printf 'Prolog=%s\n' "$src/tools/slurm/vkbench-prolog.sh" >> "$SLURM_CONF"
    scontrol reconfigure || fail "scontrol reconfigure"
    # an unknown key in health.conf: the prolog could not judge, the job runs and the node stays in service
    config "expekt = 2"
    job=$(sbatch --parsable --time=2 -o "$dir/job.out" --wrap "echo ran > $dir/job.ran") || fail "sbatch: $job"
    wait_for "with an unknown key in health.conf the job runs" '[ -e "$dir/job.ran" ]' 120
    wait_for "the node idle again" '[ "$(state)" = idle ]' 60
    [ "$(reason)" = none ] || fail "an unknown key in health.conf: reason '$(reason)'"
    echo "slurm: with an unknown key in health.conf the prolog let job $job run; node $(state)"
    rm -f "$dir/job.ran"
    config
    echo wrong-device:0 > "$dir/fault"
    job=$(sbatch --parsable --time=2 -o "$dir/job.out" --wrap "echo ran > $dir/job.ran") || fail "sbatch: $job"
    wait_for "the prolog fails on the sick node and drains it" 'ours validate' 120
    wait_for "the job requeued" '[ "$(squeue -h -j "$job" -o %T)" = PENDING ]' 60
    wait_for "the node drained" 'case $(state) in drain*) true ;; *) false ;; esac' 60
    [ ! -e "$dir/job.ran" ] || fail "the job ran on the sick node"
    echo "slurm: the prolog failed on the sick node; node $(state) ($(reason)), job $job" \
         "$(squeue -h -j "$job" -o '%T (%r)')"
    # healed: the health check returns the node (its reason is vkbench's), the released job runs
    : > "$dir/fault"
    enable_health
    wait_for "healed: back in service" 'case $(state) in idle|alloc*|mix*|completing) true ;; *) false ;; esac' \
        $((2 * check_s + interval))
    # released, and its start not put off: Slurm holds a requeued job back for the credential's lifetime (120 s)
    scontrol release "$job" || fail "scontrol release $job"
    scontrol update JobId="$job" StartTime=now || fail "scontrol update JobId=$job StartTime=now"
    wait_for "the job runs once the node is healthy" '[ -e "$dir/job.ran" ]' 120
    check_environment
    echo "slurm: healed, the node returned to service and job $job ran"
}

case_hold() {
    job=$(sbatch --parsable --time=5 -o "$dir/hold.out" --wrap "sleep 300") || fail "sbatch: $job"
    wait_for "the held job runs" '[ "$(squeue -h -j "$job" -o %T)" = RUNNING ]' 60
    echo "job $job running" >> "${VKB_SLURM_STATUS:-/dev/null}"
    echo "slurm: cluster up on ports $ctld_port and $slurmd_port, job $job running; waiting to be killed"
    sleep 600
}

case_$case
