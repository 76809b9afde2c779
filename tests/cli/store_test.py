#!/usr/bin/python3
"""store_test.py VKBENCH CASE: `vkbench --db` (host/output/sqlite_sink.c) on lavapipe, read back with Python's sqlite3
and tools/vkbstore.py, the store's own reader. `--list` names the cases. Exit 77: no Vulkan device.

A run stopped mid-way is stopped once the store holds some of its results (polled), so what is checked (the rows
kept, the run's status) does not depend on when the signal lands; nothing measured is judged."""
import json
import math
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, "..", "..", "tools")
sys.path.insert(0, TOOLS)
import vkbrecord  # noqa: E402
import vkbstore  # noqa: E402

LVP = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
QUICK = ["run", "copy", "reduce", "--n", "1000,4096", "--reps", "3", "--warmup-ms", "0", "-q"]
# many short cases, so that a stop lands with some done and some not
LONG = ["validate", "copy", "transpose", "reduce", "--n", "1:250:+1", "--size", "33", "-q"]
TMP = tempfile.mkdtemp(prefix="vkb-store-")
VKBENCH = ""


def fail(what, *context):
    print(f"FAIL: {what}")
    for c in context:
        print(str(c)[-3000:])
    sys.exit(1)


def vkbench(*args, env=None, **kw):
    p = subprocess.run([VKBENCH, *args], capture_output=True, text=True, env=dict(os.environ, **(env or {})),
                       timeout=600, **kw)
    if p.returncode == 3 and "no Vulkan" in p.stderr:
        print("no Vulkan device")
        sys.exit(77)
    return p


def query(db, sql, params=()):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def close(a, b):
    """A stored double against the JSON's (written with 10 significant digits)."""
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-300)
    return a == b


def expected_rows(json_path):
    """The result rows tools/vkbrecord.py makes of the JSON file: what an import of the file would store."""
    with open(json_path, "rb") as f:
        data = f.read()
    sub = vkbrecord.read_bytes(json_path, data)
    return sub


def stored_rows(db, run_id):
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    rows = con.execute("SELECT * FROM result WHERE run_id = ? ORDER BY ordinal", (run_id,)).fetchall()
    devs = {r["id"]: dict(r) for r in con.execute("SELECT * FROM device")}
    con.close()
    return rows, devs


def same_as_json(db, run_id, json_path):
    """Every stored row of RUN_ID equals, column by column, the row an import of the same run's JSON gives."""
    sub = expected_rows(json_path)
    rows, devs = stored_rows(db, run_id)
    if len(rows) != len(sub.rows) or not rows:
        fail(f"{len(rows)} rows stored, {len(sub.rows)} in the JSON")
    for got, want in zip(rows, sub.rows):
        for col in vkbstore.RESULT + ("ordinal",):
            w = want[col]
            if col == "shape_json":
                ok = json.loads(got[col]) == json.loads(w)
            else:
                ok = close(got[col], w)
            if not ok:
                fail(f"row {want['ordinal']} ({want['family']}/{want['variant']} {want['shape']}): {col} "
                     f"stored {got[col]!r}, the JSON says {w!r}")
        dev = devs[got["device_id"]]
        wd = sub.devices[want["device"]]
        for col in vkbstore.DEVICE[1:]:
            if dev[col] != wd[col]:
                fail(f"device {col}: stored {dev[col]!r}, the JSON says {wd[col]!r}")
    return len(rows)


def run_of(db, status=None):
    rows = query(db, "SELECT id, status, subcommand, command, settings, ended FROM run ORDER BY id")
    return rows


def integrity(db):
    if query(db, "PRAGMA integrity_check") != [("ok",)]:
        fail("the database is not consistent", query(db, "PRAGMA integrity_check"))


# --- cases ---

def case_values():
    """A run with --db and --json: every row stored equals the JSON's, column by column; the run complete, with its
    command line and settings; the build and device identified."""
    db, js = os.path.join(TMP, "r.db"), os.path.join(TMP, "r.json")
    p = vkbench(*QUICK, "--db", db, "--json", js)
    if p.returncode != 0:
        fail(f"exit {p.returncode}", p.stderr)
    runs = run_of(db)
    if len(runs) != 1 or runs[0][1] != "complete" or runs[0][2] != "run" or "--db" not in runs[0][3]:
        fail(f"the run row: {runs}")
    settings = json.loads(runs[0][4])
    doc = json.load(open(js))
    if settings != doc["settings"]:
        fail(f"settings {settings} against the JSON's {doc['settings']}")
    n = same_as_json(db, runs[0][0], js)
    build = query(db, "SELECT version, shader_compiler FROM build")
    if build != [(doc["version"], build[0][1])] or not (build[0][1] or "").startswith("glslang"):
        fail(f"the build: {build}")
    # the store's own reader opens it as it is, and an import of the same JSON adds its own run
    con = vkbstore.connect(db)
    sub = expected_rows(js)
    vkbstore.insert(con, sub)
    if query(db, "SELECT count(*) FROM run") != [(2,)] or query(db, "SELECT count(*) FROM result") != [(2 * n,)]:
        fail("an import beside the sink's run")
    print(f"ok: {n} rows equal the JSON's")


def long_run(db, js, sig):
    """LONG with --db and --json, stopped by SIG once the store holds 3 of its results: (exit code, stderr)."""
    proc = subprocess.Popen([VKBENCH, *LONG, "--db", db, "--json", js], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while time.time() < deadline:
        try:
            if query(db, "SELECT count(*) FROM result")[0][0] >= 3:
                break
        except sqlite3.Error:
            pass  # not made yet
        if proc.poll() is not None:
            fail(f"the run ended (exit {proc.returncode}) before it could be stopped", proc.stderr.read())
        time.sleep(0.05)
    proc.send_signal(sig)
    err = proc.communicate(timeout=300)[1]
    return proc.returncode, err


def case_sigterm():
    """SIGTERM mid-way: exit 143, the run interrupted, every result of the (interrupted) JSON stored, equal."""
    db, js = os.path.join(TMP, "t.db"), os.path.join(TMP, "t.json")
    rc, err = long_run(db, js, signal.SIGTERM)
    if rc != 143:
        fail(f"exit {rc}, not 143", err)
    integrity(db)
    runs = run_of(db)
    if len(runs) != 1 or runs[0][1] != "interrupted" or runs[0][5] is None:
        fail(f"the run row: {runs}")
    doc = json.load(open(js))
    if not doc["interrupted"]:
        fail("the JSON does not say interrupted")
    n = same_as_json(db, runs[0][0], js)
    total = query(db, "SELECT count(*) FROM result")[0][0]
    print(f"ok: stopped with {n} results stored ({total} in all)")


def case_stopped_early():
    """A run that ends before any case, once the store holds its row: a stop signal (the planted signal-early,
    SIGTERM after the files are opened) exits 143, an unknown device exits 3; either way the run is interrupted,
    with its end time, and holds no result, not `running` until the next vkbench opens the file."""
    for name, env, args, want in (("early", {"VKB_FAULT_INJECT": "signal-early:15"}, [], 143),
                                  ("device", {}, ["--device", "no-such-gpu"], 3)):
        db = os.path.join(TMP, f"early-{name}.db")
        p = subprocess.run([VKBENCH, *QUICK, *args, "--db", db], capture_output=True, text=True, timeout=600,
                           env=dict(os.environ, **env))
        if p.returncode != want:
            fail(f"{name}: exit {p.returncode}, not {want}", p.stderr)
        integrity(db)
        runs = run_of(db)
        if len(runs) != 1 or runs[0][1] != "interrupted" or runs[0][5] is None:
            fail(f"{name}: the run row: {runs}")
        if query(db, "SELECT count(*) FROM result") != [(0,)]:
            fail(f"{name}: results stored by a run that ran none")
    print("ok: a run stopped before any case is interrupted, not running")


def case_sigkill():
    """SIGKILL mid-way: a consistent file with the run still `running` and its results so far; the next vkbench
    that opens the file marks it interrupted (its writer is gone), and adds its own run; a reader (vkbstore.connect)
    marks it too, and leaves a live one alone."""
    db, js = os.path.join(TMP, "k.db"), os.path.join(TMP, "k.json")
    rc, err = long_run(db, js, signal.SIGKILL)
    if rc != -signal.SIGKILL:
        fail(f"exit {rc}", err)
    integrity(db)
    runs = run_of(db)
    kept = query(db, "SELECT count(*) FROM result")[0][0]
    if len(runs) != 1 or runs[0][1] != "running" or kept < 3:
        fail(f"after SIGKILL: {runs}, {kept} results")
    # a reader (tools/vkbstore.py) marks it as vkbench would, on a copy (the next vkbench is checked on the file)
    copy = os.path.join(TMP, "k-copy.db")
    for ext in ("", "-wal"):
        if os.path.exists(db + ext):
            shutil.copy(db + ext, copy + ext)
    vkbstore.connect(copy, create=False).close()
    if query(copy, "SELECT status FROM run") != [("interrupted",)]:
        fail(f"a reader left the killed run {query(copy, 'SELECT status FROM run')}")
    # a run still going (its process alive) is left alone: a second writer opened beside it
    holder = subprocess.Popen([VKBENCH, *LONG, "--db", db], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while query(db, "SELECT count(*) FROM run")[0][0] < 2:
        time.sleep(0.05)
    p = vkbench("run", "copy", "--n", "1000", "--reps", "3", "--warmup-ms", "0", "-q", "--db", db)
    marked = dict(query(db, "SELECT id, status FROM run"))
    vkbstore.connect(db, create=False).close()      # a reader beside the live run leaves it alone
    live = dict(query(db, "SELECT id, status FROM run")).get(2)
    holder.send_signal(signal.SIGTERM)
    holder.wait(timeout=300)
    if p.returncode != 0:
        fail(f"the next run: exit {p.returncode}", p.stderr)
    status = dict(query(db, "SELECT id, status FROM run"))
    if marked.get(runs[0][0]) != "interrupted":
        fail(f"the killed run is {marked.get(runs[0][0])!r} after the next vkbench, not interrupted")
    if marked.get(2) != "running":
        fail(f"the next vkbench marked the live run {marked.get(2)!r}")
    if live != "running":
        fail(f"a reader marked the live run {live!r}")
    if status.get(2) != "interrupted" or status.get(3) != "complete":
        fail(f"the live run was marked, or the new one not complete: {status}")
    if query(db, "SELECT count(*) FROM result WHERE run_id = ?", (runs[0][0],))[0][0] != kept:
        fail("the killed run's results changed")
    print(f"ok: killed with {kept} results kept; marked interrupted by the next open")


def case_concurrent():
    """4 processes on one file at once (and, with two lavapipe devices, one of them --device all): every result of
    each lands once, in its own run, equal to its JSON."""
    db = os.path.join(TMP, "c.db")
    env = dict(os.environ)
    two = []
    if os.path.exists(LVP):
        for name in ("a.json", "b.json"):
            path = os.path.join(TMP, name)
            shutil.copy(LVP, path)
            two.append(path)
    procs = []
    for i in range(4):
        js = os.path.join(TMP, f"c{i}.json")
        args = [VKBENCH, "validate", "copy", "transpose", "--n", "1:60:+1", "--size", "17", "-q", "--db", db,
                "--json", js, "--seed", str(i + 1)]
        e = dict(env)
        if i == 0 and two:
            args += ["--device", "all"]
            e["VK_DRIVER_FILES"] = ":".join(two)
            e.pop("VK_ICD_FILENAMES", None)
        procs.append((subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=e),
                      js))
    for p, js in procs:
        err = p.communicate(timeout=600)[1]
        if p.returncode == 3 and "no Vulkan" in err:
            sys.exit(77)
        if p.returncode != 0:
            fail(f"a writer: exit {p.returncode}", err)
    integrity(db)
    runs = query(db, "SELECT id, status, command FROM run ORDER BY id")
    if len(runs) != 4 or any(r[1] != "complete" for r in runs):
        fail(f"runs: {runs}")
    total = 0
    for run_id, _, command in runs:
        js = command.split("--json ")[1].split()[0]
        total += same_as_json(db, run_id, js)
    if query(db, "SELECT count(*) FROM result")[0][0] != total:
        fail("rows beyond the runs' own")
    devices = query(db, "SELECT count(DISTINCT device_id) FROM result WHERE run_id = ?", (runs[0][0],))[0][0]
    if two and devices < 1:
        fail("no device")
    print(f"ok: 4 writers, {total} rows, each once")


def bad(args, code, text, env=None, what=""):
    p = vkbench(*args, env=env)
    lines = p.stderr.strip().splitlines()
    if p.returncode != code or len(lines) != 1 or text not in lines[0] or "Traceback" in p.stderr:
        fail(f"{what}: exit {p.returncode} (want {code}), stderr {p.stderr!r} (want one line with {text!r})")
    return p


def stored_state(db):
    return (query(db, "SELECT id, status FROM run ORDER BY id"),
            query(db, "SELECT run_id, ordinal, family, variant, value FROM result ORDER BY id"))


def seeded(name):
    """A store holding one complete run."""
    db = os.path.join(TMP, name)
    p = vkbench("run", "copy", "--n", "1000", "--reps", "3", "--warmup-ms", "0", "-q", "--db", db)
    if p.returncode != 0:
        fail(f"seeding {name}: exit {p.returncode}", p.stderr)
    return db


RUN = ["run", "copy", "--n", "1000", "--reps", "3", "--warmup-ms", "0", "-q"]


def case_bad_paths():
    """A missing folder, a read-only one, a folder as the path, /dev/full, --db with `list`, --db and --json one
    file: one line each, exit 6 (2 for usage), nothing made."""
    bad([*RUN, "--db", os.path.join(TMP, "none", "r.db")], 6, "does not exist", what="missing folder")
    ro = os.path.join(TMP, "ro")
    os.mkdir(ro)
    os.chmod(ro, 0o555)
    if os.geteuid() != 0:
        bad([*RUN, "--db", os.path.join(ro, "r.db")], 6, "cannot write", what="read-only folder")
        if os.listdir(ro):
            fail("a file made in the read-only folder")
    bad([*RUN, "--db", TMP], 6, "a folder, not a database file", what="a folder")
    bad([*RUN, "--db", "/dev/full"], 6, "not a regular file", what="/dev/full")
    bad(["list", "--db", os.path.join(TMP, "l.db")], 2, "stores no results", what="list")
    same = os.path.join(TMP, "same")
    bad([*RUN, "--db", same, "--json", same], 2, "are one file", what="one file")
    bad([*RUN, "--db", ""], 2, "wants a path", what="empty")
    bad([*RUN, "--db", "a.db", "--db", "b.db"], 2, "twice", what="twice")
    bad([*RUN, "--db", os.path.join(TMP, "x.db")], 2, "VKB_DB_TIMEOUT_S", env={"VKB_DB_TIMEOUT_S": "soon"},
        what="timeout")
    print("ok")


def case_bad_files():
    """A corrupt file, a truncated one, another program's database, a store of a newer schema: one line, exit 6,
    before any work, and the file's bytes as they were."""
    junk = os.path.join(TMP, "junk.db")
    with open(junk, "wb") as f:
        f.write(b"this is not a database, " * 400)
    before = open(junk, "rb").read()
    bad([*RUN, "--db", junk], 6, "not a vkbench store", what="corrupt")
    if open(junk, "rb").read() != before:
        fail("the corrupt file was changed")
    db = seeded("trunc.db")
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode = DELETE")
    con.close()
    size = os.path.getsize(db)
    with open(db, "r+b") as f:
        f.truncate(size // 2)
    bad([*RUN, "--db", db], 6, "not a vkbench store", what="truncated")
    other = os.path.join(TMP, "other.db")
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    bad([*RUN, "--db", other], 6, "not a vkbench store", what="another program's")
    newer = seeded("newer.db")
    query_write(newer, "UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    state = stored_state(newer)
    bad([*RUN, "--db", newer], 6, "newer than this vkbench", what="newer schema")
    if stored_state(newer) != state:
        fail("the newer store was changed")
    print("ok")


def query_write(db, sql):
    con = sqlite3.connect(db)
    con.execute(sql)
    con.commit()
    con.close()


def case_bad_locked():
    """Another writer holding the lock past VKB_DB_TIMEOUT_S: at the start, one line and exit 6 before any work;
    mid-run, the results stored before the lock are kept, one line and exit 6."""
    db = seeded("locked.db")
    state = stored_state(db)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    p = bad([*RUN, "--db", db], 6, "past the timeout", env={"VKB_DB_TIMEOUT_S": "0.5"}, what="locked at start")
    holder.execute("ROLLBACK")
    if stored_state(db) != state:
        fail("the locked store changed")
    # mid-run: the lock taken once the run has stored 3 results
    js = os.path.join(TMP, "locked.json")
    proc = subprocess.Popen([VKBENCH, *LONG, "--db", db, "--json", js], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, VKB_DB_TIMEOUT_S="0.5"))
    while query(db, "SELECT count(*) FROM result WHERE run_id = 2")[0][0] < 3:
        if proc.poll() is not None:
            fail("the run ended before the lock", proc.stderr.read())
        time.sleep(0.02)
    holder.execute("BEGIN IMMEDIATE")
    err = proc.communicate(timeout=600)[1]
    holder.execute("ROLLBACK")
    holder.close()
    lines = err.strip().splitlines()
    if proc.returncode != 6 or len(lines) != 1 or "past the timeout" not in lines[0]:
        fail(f"mid-run lock: exit {proc.returncode}", err)
    kept = query(db, "SELECT count(*) FROM result WHERE run_id = 2")[0][0]
    if kept < 3 or stored_state(db)[1][:len(state[1])] != state[1]:
        fail(f"results lost: {kept}")
    integrity(db)
    print(f"ok: {kept} results kept")


def case_bad_full():
    """A full disk (ulimit -f: the file may not grow): one line, exit 6; the runs stored before it kept whole."""
    db = seeded("full.db")
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    state = stored_state(db)
    limit = (os.path.getsize(db) // 512) + 8  # 4 KiB more than the file: a run's rows do not fit
    p = subprocess.run(["sh", "-c", f'ulimit -f {limit} && exec "$@"', "sh", VKBENCH, *LONG, "--db", db],
                       capture_output=True, text=True, timeout=600)
    lines = p.stderr.strip().splitlines()
    if p.returncode != 6 or len(lines) != 1 or "--db" not in lines[0]:
        fail(f"full: exit {p.returncode}", p.stderr)
    integrity(db)
    now = stored_state(db)
    if now[0][:1] != state[0] or now[1][:len(state[1])] != state[1]:
        fail("a stored run changed")
    print(f"ok: {lines[0]}")


def case_default_path():
    """--db default: $VKB_DB, else $XDG_DATA_HOME/vkbench/results.db (its folder made)."""
    data = os.path.join(TMP, "data")
    p = vkbench(*RUN, "--db", "default", env={"XDG_DATA_HOME": data, "VKB_DB": ""})
    if p.returncode != 0 or query(os.path.join(data, "vkbench", "results.db"), "SELECT count(*) FROM run") != [(1,)]:
        fail(f"XDG_DATA_HOME: exit {p.returncode}", p.stderr)
    mine = os.path.join(TMP, "mine.db")
    p = vkbench(*RUN, "--db", "default", env={"VKB_DB": mine})
    if p.returncode != 0 or query(mine, "SELECT count(*) FROM run") != [(1,)]:
        fail(f"VKB_DB: exit {p.returncode}", p.stderr)
    print("ok")


def case_health():
    """vkbench health --db on two lavapipe devices standing for GPUs: the health table holds each GPU's verdict as
    an import of the same run's --json verdict gives it (every column, the device by its identity), beside the
    battery's rows on the same devices; once kept, once failed by a baseline the whole GPU is far below (every
    row's own noise 1e12: no verdict depends on timing), so that the reasons and the speed ratio are filled."""
    if not os.path.exists(LVP):
        print("no lavapipe manifest")
        sys.exit(77)
    two = []
    for name in ("a.json", "b.json"):
        two.append(os.path.join(TMP, name))
        shutil.copy(LVP, two[-1])
    env = {"VK_DRIVER_FILES": ":".join(two), "VK_ICD_FILENAMES": ""}
    db = os.path.join(TMP, "health.db")
    verdicts = [os.path.join(TMP, f"verdict{i}.json") for i in (1, 2)]
    p = vkbench("health", "--allow-cpu", "--db", db, "--json", verdicts[0], env=env)
    if p.returncode != 0:
        fail(f"a healthy node: exit {p.returncode}", p.stderr)
    doc = json.load(open(verdicts[0], encoding="utf-8"))
    g = doc["gpus"][0]
    timed = [r["row"] for r in g["rows"] if "metric" in r]
    base = os.path.join(TMP, "base.tsv")
    with open(base, "w", encoding="utf-8") as f:
        f.write("# vkbench baseline 1\n")
        for row, median, noise in [(r, "1e12", "1e12") for r in timed] + [("*", "1", "0.03")]:
            f.write(f"{g['model']}\t{g['driver']}\t{row}\t{median}\t{noise}\n")
    p = vkbench("health", "--allow-cpu", "--db", db, "--json", verdicts[1], "--baseline", base, env=env)
    if p.returncode != 1:
        fail(f"a node far below its baseline: exit {p.returncode}", p.stderr)
    runs = query(db, "SELECT id FROM run WHERE subcommand = 'health' ORDER BY id")
    if len(runs) != 2:
        fail(f"{len(runs)} health runs stored, 2 made")
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    for (run_id,), path in zip(runs, verdicts):
        with open(path, "rb") as f:
            sub = vkbrecord.read_bytes(path, f.read())
        stored = con.execute("SELECT * FROM health WHERE run_id = ? ORDER BY gpu", (run_id,)).fetchall()
        if len(stored) != len(sub.health) or len(stored) != 2:
            fail(f"run {run_id}: {len(stored)} verdicts stored, {len(sub.health)} in {path}")
        for got, want in zip(stored, sub.health):
            for col in vkbstore.HEALTH:
                a, b = got[col], want[col]
                if col == "reasons":
                    a, b = json.loads(a), json.loads(b)
                if a != b and not (isinstance(a, float) and isinstance(b, float) and math.isclose(a, b)):
                    fail(f"run {run_id} GPU {want['gpu']}: {col} stored {a!r}, the --json verdict says {b!r}")
            dev = con.execute("SELECT * FROM device WHERE id = ?", (got["device_id"],)).fetchone()
            wd = sub.devices[want["device"]]
            for col in ("model", "uuid", "pci_bus", "driver"):
                if dev[col] != wd[col]:
                    fail(f"run {run_id} GPU {want['gpu']}: device {col} {dev[col]!r}, the --json verdict says "
                         f"{wd[col]!r}")
            battery = con.execute("SELECT count(*) FROM result WHERE run_id = ? AND device_id = ?",
                                  (run_id, got["device_id"])).fetchone()[0]
            if not battery:
                fail(f"run {run_id} GPU {want['gpu']}: no battery row on the verdict's device")
    failed = con.execute("SELECT verdict, node_verdict, speed_ratio, reasons FROM health WHERE run_id = ?",
                         (runs[1][0],)).fetchall()
    con.close()
    # a baseline 1e12 times the lavapipe rows: the whole GPU's speed ratio stored far under the bound (about 1e-11)
    if any(r[0] != "fail" or r[1] != "take out of service" or not 0 < r[2] < 1e-6 or "all rows" not in r[3]
           for r in failed):
        fail("the failed run's verdicts", [tuple(r) for r in failed])
    print("ok: 2 health runs, each GPU's verdict as its --json says")


# the test names (vkb.NAME): vk.store.* run vkbench on a device, bad.store.* its bad input and faults
CASES = {"vk.store.values": case_values, "vk.store.sigterm": case_sigterm, "vk.store.sigkill": case_sigkill,
         "vk.store.stopped_early": case_stopped_early,
         "vk.store.concurrent": case_concurrent, "vk.store.default_path": case_default_path,
         "vk.store.health": case_health,
         "bad.store.paths": case_bad_paths, "bad.store.files": case_bad_files, "bad.store.locked": case_bad_locked,
         "bad.store.full": case_bad_full}

if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print(" ".join(CASES))
        sys.exit(0)
    VKBENCH, case = sys.argv[1], sys.argv[2]
    try:
        CASES[case]()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
