#!/bin/sh
# slurm_test.sh VKBENCH SRC CASE: tools/slurm/ on a real Slurm of this one machine. As root: Debian's Slurm and munge
# (tools/setup.sh --slurm), a slurm.conf for this host in a scratch folder, our own munged (own socket), slurmctld
# and slurmd; then CASE:
#   fleet   the fleet array of 4 tasks on lavapipe (one task standing for a node each: FLEET_TASK_NAMES=1), task 2's
#           GPU made 16x slow (VKB_FAULT_INJECT=slow-device:0:16, through a wrapper), the report job after it; then
#           every file and the verdict: task 2 flagged, no other.
#   health  vkbench-healthcheck.sh as slurmd's HealthCheckProgram every 2 s: a wrong result, a missing GPU and a
#           hung GPU each drain the node with vkbench's reason within the interval plus the check's own bound, the
#           node returns to service once healthy, and an operator's drain stays.
#   prolog  vkbench-prolog.sh as slurmd's Prolog on a sick node: the job's launch fails, Slurm requeues the job
#           (held, as a failed prolog does) and the node is drained with vkbench's reason; healed, the health check
#           returns it and the released job runs.
# Stops exactly the daemons it started. Exit 77: skipped (not root, or the packages cannot be installed, or
# another Slurm test's daemons hold the ports).
set -u
vkbench=$1
src=$2
case=${3:-}
tasks=4
case $case in
    fleet|health|prolog) ;;
    *) echo "usage: slurm_test.sh VKBENCH SRC fleet|health|prolog"; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "skip: the Slurm test starts daemons as root"; exit 77; }
if ! "$src/tools/setup.sh" --slurm >&2; then
    echo "skip: Debian's slurmd, slurmctld, slurm-client or munge could not be installed"
# the ports below are fixed (RUN_SERIAL keeps this build's Slurm tests apart; another checkout's may hold them)
if command -v ss >/dev/null && ss -ltn | grep -Eq ':1681[78] '; then
    echo "skip: ports 16817/16818 are taken (another Slurm test's daemons?)"
    exit 77
fi
    exit 77
fi
dir=$(mktemp -d /tmp/vkb-slurm.XXXXXX)
host=$(hostname -s)
fail() {
    echo "FAIL: $*"
    for f in "$dir"/*.log "$dir"/results/*.out "$dir"/results/fleet.txt "$dir"/results/fleet.err; do
        [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }
    done
    exit 1
}
stop() {
    status=$?
    gone=1
    # exactly the daemons this test started, by the pids they wrote, one at a time in this order: slurmd ends only
    # when the health checks it started have, and those need slurmctld and munge to end (sinfo, scontrol)
    for p in slurmd slurmctld munged; do
        [ -s "$dir/$p.pid" ] || continue
        pid=$(cat "$dir/$p.pid")
        kill "$pid" 2>/dev/null
        n=0
        while kill -0 "$pid" 2>/dev/null && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
        kill -0 "$pid" 2>/dev/null && { echo "warning: $p ($pid) still runs after 60 s"; gone=0; }
    done
    # a failure's logs stay for a look, and so does the folder of a daemon that would not go
    if [ "$status" -eq 0 ] && [ $gone = 1 ]; then rm -rf "$dir"; fi
}
trap stop EXIT
trap 'exit 130' INT TERM

mkdir -p "$dir/state" "$dir/spool" "$dir/results"
munged --force --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
       --seed-file="$dir/munge.seed" 2>>"$dir/munged.log" || fail "munged did not start"
cat > "$dir/slurm.conf" <<CONF
ClusterName=vkbtest
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
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
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
n=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
    n=$((n + 1)); [ $n -le 60 ] || fail "the node did not come up idle"; sleep 0.5
done

# fleet: the sick GPU, task 2's vkbench runs with every timed repetition doing its work 16 times (4 times was lost
# in the spread between tasks when other tests loaded the machine: 53% between healthy tasks, none flagged)
cat > "$dir/vkbench" <<WRAP
#!/bin/sh
[ "\${SLURM_ARRAY_TASK_ID:-}" = 2 ] && export VKB_FAULT_INJECT=slow-device:0:16
exec "$vkbench" "\$@"
WRAP
chmod +x "$dir/vkbench"
# health, prolog: the fault of the moment is read from $dir/fault (a VKB_FAULT_INJECT value, or "expect:N": a node
# that should have N GPUs); a hung GPU is given up after 10 s (health's own default is 20), the check after 40
: > "$dir/fault"
check_s=40
cat > "$dir/health.env" <<ENV
export SLURM_CONF="$SLURM_CONF" PATH="$PATH" VKBENCH="$vkbench" VKB_HEALTH_TIMEOUT_S=$check_s VKB_DEVICE_TIMEOUT_S=10
VKB_HEALTH_ARGS="--allow-cpu"
f=\$(cat "$dir/fault")
case \$f in
    expect:*) VKB_HEALTH_ARGS="--allow-cpu --expect \${f#expect:}" ;;
    ?*) export VKB_FAULT_INJECT="\$f" ;;
esac
export VKB_HEALTH_ARGS
ENV
# slurmd gives health checks and prologs almost no environment: each wrapper names the file above
cat > "$dir/health.sh" <<WRAP
#!/bin/sh
echo run >> "$dir/health.runs"
VKB_HEALTH_ENV="$dir/health.env" exec "$src/tools/slurm/vkbench-healthcheck.sh" >>"$dir/health.log" 2>&1
WRAP
cat > "$dir/prolog.sh" <<WRAP
#!/bin/sh
echo "job \$SLURM_JOB_ID" >> "$dir/prolog.runs"
VKB_HEALTH_ENV="$dir/health.env" exec "$src/tools/slurm/vkbench-prolog.sh" >>"$dir/prolog.log" 2>&1
WRAP
chmod +x "$dir/health.sh" "$dir/prolog.sh"

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
# the health check as slurmd's HealthCheckProgram every 2 s, on nodes in any state
interval=2
enable_health() {
    printf 'HealthCheckProgram=%s\nHealthCheckInterval=%d\nHealthCheckNodeState=ANY\n' "$dir/health.sh" \
        "$interval" >> "$SLURM_CONF"
    scontrol reconfigure || fail "scontrol reconfigure"
}
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
    echo expect:2 > "$dir/fault"
    wait_for "a missing GPU drains the node" '[ "$(reason)" = "vkbench: node: count: expected 2 GPUs, found 1" ]' \
        $bound
    echo "slurm: a missing GPU drained the node after ${waited} s"
    : > "$dir/fault"
    wait_for "back in service" '[ "$(state)" = idle ]' $bound
    echo hang:0 > "$dir/fault"
    wait_for "a hung GPU drains the node" 'ours device' $bound
    case $(state) in drain*) ;; *) fail "drained: state $(state)" ;; esac
    echo "slurm: a hung GPU drained the node after ${waited} s: $(reason)"
    : > "$dir/fault"
    wait_for "back in service after the hang" '[ "$(state)" = idle ]' $bound
    echo "slurm: back in service ${waited} s after the hang was healed"
    # an operator's drain is not ours to undo
    scontrol update NodeName="$host" State=DRAIN Reason="maintenance: new cables"
    runs=$(wc -l < "$dir/health.runs")
    wait_for "two more health checks" '[ "$(wc -l < "$dir/health.runs")" -ge $((runs + 2)) ]'
    [ "$(reason)" = "maintenance: new cables" ] || fail "an operator's drain undone: '$(reason)'"
    scontrol update NodeName="$host" State=RESUME
    echo "slurm: the health check drained the node for a wrong result, a missing GPU and a hung GPU with" \
         "vkbench's reason, returned it when healthy, and left an operator's drain alone"
}

case_prolog() {
    printf 'Prolog=%s\n' "$dir/prolog.sh" >> "$SLURM_CONF"
    scontrol reconfigure || fail "scontrol reconfigure"
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
    echo "slurm: healed, the node returned to service and job $job ran"
}

case_$case
