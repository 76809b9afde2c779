#!/bin/sh
# slurm_cleanup_test.sh VKBENCH SRC: a Slurm test killed mid-run leaves nothing behind. Cluster A
# (tests/tools/slurm_test.sh hold: daemons up, a job running) is started; then cluster B the same way under ctest with
# a 60 s time-out, while A runs (its own free ports: both come up). ctest kills B at its time-out: within 60 s no
# process of B is left (none with B's marker in its environment or a file of B's folder open: munged, slurmctld,
# slurmd, slurmstepd, the job) and its ports are free, while A runs on untouched. Then A's shell is killed with
# SIGKILL: the same for A. Exit 77: skipped (not root, or slurm_test.sh skipped).
set -u
vkbench=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "skip: the Slurm test starts daemons as root"; exit 77; }
t=$(mktemp -d /tmp/vkb-slurm-cleanup.XXXXXX)
a_pid=""
finish() {
    [ -n "$a_pid" ] && kill -9 "$a_pid" 2>/dev/null
    rm -rf "$t"
}
trap finish EXIT
fail() { echo "FAIL: $*"; exit 1; }
# left FOLDER: the pids of processes still marked with FOLDER (its environment, or a file of it open)
left() {
    /usr/bin/python3 - "$1" <<'PY'
import os, sys
folder = sys.argv[1]
mark = ("VKB_SLURM_TEST=" + folder).encode()
for p in os.listdir("/proc"):
    if not p.isdigit() or int(p) == os.getpid():
        continue
    try:
        env = open(f"/proc/{p}/environ", "rb").read().split(b"\0")
        fds = [os.readlink(f"/proc/{p}/fd/{f}") for f in os.listdir(f"/proc/{p}/fd")]
    except OSError:
        continue
    if mark in env or any(f.startswith(folder + "/") for f in fds):
        print(p, open(f"/proc/{p}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")[:80])
PY
}
# up STATUS PID: wait (at most 180 s) for the cluster of STATUS to run its job; 77 when its test skipped
up() {
    n=0
    until grep -q "running" "$1" 2>/dev/null; do
        if [ -n "$2" ] && ! kill -0 "$2" 2>/dev/null; then
            wait "$2"; rc=$?
            [ $rc -eq 77 ] && { echo "skip: slurm_test.sh skipped"; exit 77; }
            fail "slurm_test.sh hold ended (exit $rc) before its cluster was up"
        fi
        n=$((n + 1)); [ $n -le 360 ] || fail "no cluster up within 180 s ($1)"; sleep 0.5
    done
}
# gone STATUS: nothing of that cluster is left within 60 s, and its ports are free
gone() {
    read -r folder ctld slurmd < "$1"
    n=0
    while [ -n "$(left "$folder")" ]; do
        n=$((n + 1)); [ $n -le 120 ] || fail "left running after the kill: $(left "$folder")"; sleep 0.5
    done
    for p in $ctld $slurmd; do
        [ -z "$(ss -Hltn "sport = :$p")" ] || fail "port $p still listened on: $(ss -Hltnp "sport = :$p")"
    done
    echo "$folder: nothing left, ports $ctld and $slurmd free after ${n}x0.5 s"
}
VKB_SLURM_STATUS="$t/a" sh "$here/slurm_test.sh" "$vkbench" "$src" hold > "$t/a.log" 2>&1 &
a_pid=$!
up "$t/a" "$a_pid"
read -r a_folder a_ctld a_slurmd < "$t/a"
# B under ctest, killed at its time-out
mkdir "$t/ctest"
cat > "$t/ctest/CTestTestfile.cmake" <<CT
add_test(held sh "$here/slurm_test.sh" "$vkbench" "$src" hold)
set_tests_properties(held PROPERTIES TIMEOUT 60 ENVIRONMENT "VKB_SLURM_STATUS=$t/b")
CT
ctest --test-dir "$t/ctest" > "$t/ctest.log" 2>&1 &
ctest_pid=$!
up "$t/b" ""
read -r b_folder b_ctld b_slurmd < "$t/b"
[ "$b_ctld $b_slurmd" != "$a_ctld $a_slurmd" ] || fail "A and B on the same ports"
echo "two clusters at once: A on $a_ctld/$a_slurmd, B on $b_ctld/$b_slurmd"
wait "$ctest_pid"
grep -q "Timeout" "$t/ctest.log" || fail "ctest did not time the test out: $(cat "$t/ctest.log")"
gone "$t/b"
[ -n "$(left "$a_folder")" ] && kill -0 "$(cat "$a_folder/slurmctld.pid")" 2>/dev/null ||
    fail "cluster A was hit by B's clean-up"
kill -9 "$a_pid"
wait "$a_pid" 2>/dev/null
a_pid=""
gone "$t/a"
rm -rf "$a_folder" "$b_folder"
echo "slurm cleanup: a Slurm test killed by ctest's time-out and one killed with SIGKILL left no process and no" \
     "port behind, and neither touched the other"
