#!/usr/bin/python3
"""The results store (tools/store.py, tools/vkbstore.py, compare.py --db) on real SQLite files in temporary
folders: one case per test (tests/tools/store.cmake). Usage: store_test.py CASE."""
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(ROOT, "tools")
RESULTS = os.path.join(ROOT, "docs", "results")
FIXTURES = os.path.join(HERE, "fixtures", "store")
sys.path.insert(0, TOOLS)
import vkbrecord  # noqa: E402
import vkbstore  # noqa: E402

TMP = tempfile.mkdtemp(prefix="vkb-store-test-")
DB = os.path.join(TMP, "results.db")


def tool(name, *args, env=None, **kw):
    return subprocess.run([sys.executable, os.path.join(TOOLS, name), *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, **kw)


def store(*args, **kw):
    return tool("store.py", *args, **kw)


def expect(p, code, lines=None, what=""):
    """P exited CODE, and (where LINES) wrote that many lines on stderr, each 'store: ...', no traceback."""
    err = p.stderr.splitlines()
    ok = p.returncode == code and "Traceback" not in p.stderr and (lines is None or len(err) == lines)
    if not ok:
        sys.exit(f"FAIL {what}: exit {p.returncode} (wanted {code}), stderr {len(err)} lines (wanted {lines}):\n"
                 f"{p.stderr}{p.stdout[-2000:]}")
    return p


def query(sql, params=()):
    with sqlite3.connect(DB) as db:
        return db.execute(sql, params).fetchall()


def doc(model="Test GPU", driver="TestDriver 1.0", date="2026-11-01T00:00:00Z", rows=(), host="node1", name=None):
    """A schema 2.1 results document of ROWS: (family/variant, value in GB/s, spread), median time 1 ms / value."""
    results = []
    for row, value, spread in rows:
        family, variant = row.split("/")
        med = 1000.0 / value
        results.append({"family": family, "variant": variant, "backend": "vulkan", "device_index": 0,
                        "shape": {"n": 1024}, "shape_text": "n=1024", "status": "ok", "reps": 20, "settled": True,
                        "suspect": False, "validated": True, "max_error": 0.0,
                        "time_ms": {"min": med * (1 - spread), "q1": med * (1 - spread / 2), "median": med,
                                    "q3": med * (1 + spread / 2), "max": med * (1 + spread)},
                        "metric": {"name": "GB/s", "better": "higher", "value": value, "ceiling": 200.0,
                                   "fraction": value / 200.0}})
    d = {"schema_version": "2.1.0", "tool": "vkbench", "version": "0.1.0", "date": date,
         "command": "vkbench run copy", "settings": {"subcommand": "run", "seed": 1},
         "devices": [{"backend": "vulkan", "name": model, "index": 0, "uuid": f"uuid-{name or model}",
                      "host": host, "driver": driver, "api_version": "1.4.312"}],
         "results": results}
    path = os.path.join(TMP, f"{name or 'run'}-{date[:10]}-{abs(hash((model, driver, date, rows))) % 10**8}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f)
    return path


def history_files(n=6, model="Test GPU", driver="TestDriver 1.0", day0=1, value=100.0):
    """N runs of two rows a day apart, ±1% of VALUE (a fixed pattern), each with a 1% spread within."""
    wobble = [1.0, 1.008, 0.994, 1.004, 0.997, 1.006, 0.999, 1.002]
    return [doc(model, driver, f"2026-11-{day0 + i:02d}T00:00:00Z",
                (("copy/vec4", value * wobble[i % 8], 0.01), ("copy/scalar", value / 2 * wobble[(i + 3) % 8], 0.01)),
                name=f"h{i}") for i in range(n)]


# --- the cases ---

def case_import_results():
    """Every file in docs/results imported; a few rows read back value by value equal to their JSON."""
    expect(store("--db", DB, "import", RESULTS), 0, 0, "import docs/results")
    files = [f for f in sorted(os.listdir(RESULTS)) if f.endswith(".json")]
    for name in files[:: max(1, len(files) // 4)]:
        with open(os.path.join(RESULTS, name), encoding="utf-8") as f:
            d = json.load(f)
        if isinstance(d, list):
            continue
        stored = query("SELECT r.family, r.variant, r.backend, r.status, r.value, r.time_median_ms FROM result r "
                       "JOIN run u ON u.id = r.run_id WHERE u.source = ? ORDER BY r.ordinal",
                       (os.path.join(RESULTS, name),))
        want = [(r["family"], r["variant"], r["backend"], r["status"], (r.get("metric") or {}).get("value"),
                 (r.get("time_ms") or {}).get("median")) for r in d["results"]]
        if stored != want:
            sys.exit(f"FAIL {name}: {len(stored)} rows stored, {len(want)} in the file, or values differ")


def case_skipped():
    """A skipped row (validated false in its JSON, as vkbench writes one) is stored not validated, NULL, as the schema
    and vkbench --db keep it; a failed row is 0, a passed one 1; vkbench's CSV gives the same."""
    path = doc(rows=(("copy/vec4", 100.0, 0.01), ("copy/scalar", 50.0, 0.01), ("copy/wide", 10.0, 0.01)))
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
    d["results"][1].update(status="fail", validated=False, metric={"name": "GB/s", "better": "higher"})
    d["results"][2].update(status="skip", validated=False, skip_reason="needs subgroup arithmetic", time_ms=None,
                           metric=None, reps=0, settled=None)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f)
    csv_path = os.path.join(TMP, "skipped.csv")
    with open(csv_path, "w", encoding="utf-8") as f:
        f.write(vkbrecord.CSV_HEAD + "status,skip_reason\ncopy,vec4,vulkan,Test GPU,n=1024,skip,needs fp64\n")
    expect(store("--db", DB, "import", path, csv_path), 0, 0)
    got = query("SELECT u.source_schema, r.variant, r.status, r.validated FROM result r JOIN run u ON u.id = r.run_id "
                "ORDER BY r.id")
    want = [("2.1.0", "vec4", "ok", 1), ("2.1.0", "scalar", "fail", 0), ("2.1.0", "wide", "skip", None),
            ("csv", "vec4", "skip", None)]
    if got != want:
        sys.exit(f"FAIL: stored {got}, want {want}")


def case_import_twice():
    """The same files imported twice (and once more inside a tar.gz of them) add nothing the second time."""
    files = history_files(3)
    expect(store("--db", DB, "import", *files), 0, 0)
    before = query("SELECT count(*) FROM run")[0][0], query("SELECT count(*) FROM result")[0][0]
    p = expect(store("--db", DB, "import", *files), 0, 0)
    after = query("SELECT count(*) FROM run")[0][0], query("SELECT count(*) FROM result")[0][0]
    if before != (3, 6) or after != before or "0 run(s) added, 3 already stored" not in p.stdout:
        sys.exit(f"FAIL: {before} then {after} (runs, results); {p.stdout}")


def case_check_hostile():
    """Each hostile fixture refused with one line and exit 1; the store untouched by an import of them."""
    names = sorted(os.listdir(FIXTURES))
    for name in names:
        p = expect(store("check", os.path.join(FIXTURES, name)), 1, 1, name)
        if not p.stderr.startswith("store: "):
            sys.exit(f"FAIL {name}: {p.stderr}")
    expect(store("--db", DB, "import", *[os.path.join(FIXTURES, n) for n in names]), 1, len(names))
    if query("SELECT count(*) FROM run")[0][0]:
        sys.exit("FAIL: a refused record was stored")
    expect(store("check", *history_files(1)), 0, 0, "a good file")


def case_newer_schema():
    expect(store("--db", DB, "import", *history_files(1)), 0, 0)
    query("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    p = expect(store("--db", DB, "import", *history_files(2)), 4, 1, "newer schema")
    if "newer" not in p.stderr or query("SELECT count(*) FROM run")[0][0] != 1:
        sys.exit(f"FAIL: {p.stderr}")


def case_older_migrated():
    """A store at the schema's last version with a run, opened against a schema with one more migration: migrated,
    the run kept; a migration that fails leaves the version and the run as they were; an empty file is version 0
    and made whole."""
    schema = os.path.join(TMP, "schema.sql")
    with open(vkbstore.SCHEMA, encoding="utf-8") as f:
        old = f.read()
    version = len(vkbstore.migrations())
    with open(schema, "w", encoding="utf-8") as f:
        f.write(old)
    expect(store("--db", DB, "import", *history_files(1)), 0, 0)
    with open(schema, "a", encoding="utf-8") as f:
        f.write(f"\n-- migration {version + 1}: a broken step\nCREATE TABLE extra (x INTEGER);\n"
                "CREATE TABLE extra (x INTEGER);\n")
    try:
        vkbstore.connect(DB, schema)
        sys.exit("FAIL: a failing migration was not reported")
    except vkbstore.StoreError:
        pass
    if query("SELECT value FROM meta WHERE key = 'schema_version'") != [(str(version),)] or query(
            "SELECT count(*) FROM sqlite_master WHERE name = 'extra'") != [(0,)]:
        sys.exit("FAIL: a failed migration left a change behind")
    with open(schema, "w", encoding="utf-8") as f:
        f.write(old + f"\n-- migration {version + 1}: a note per run\nALTER TABLE run ADD COLUMN note TEXT;\n")
    db = vkbstore.connect(DB, schema)
    if db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] != str(version + 1) or tuple(
            db.execute("SELECT count(*), count(note) FROM run").fetchone()) != (1, 0):
        sys.exit(f"FAIL: not migrated to version {version + 1} with the run kept")
    empty = os.path.join(TMP, "empty.db")
    open(empty, "w").close()
    expect(store("--db", empty, "import", *history_files(1)), 0, 0, "an empty file (version 0)")
    first = os.path.join(TMP, "schema1.sql")       # a store as the first release made it, opened by this one
    with open(first, "w", encoding="utf-8") as f:
        f.write(old[:old.index("-- migration 2:")])
    one = os.path.join(TMP, "one.db")
    vkbstore.connect(one, first).close()
    expect(store("--db", one, "import", *history_files(2)), 0, 0, "a version-1 store")
    db = vkbstore.connect(one, create=False)
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    if db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] != str(version) or \
            "run_started" not in names or db.execute("SELECT count(*) FROM run").fetchone()[0] != 2:
        sys.exit(f"FAIL: a version-1 store not migrated to {version} with its runs: indexes {sorted(names)}")


def case_hostile_names():
    """Names with quotes, semicolons and SQL keywords stored and read back as they were, and asked for."""
    name = "GPU'); DROP TABLE result; -- \"x\" OR 1=1"
    files = [doc(name, "Drv'; DELETE FROM run; --", f"2026-11-0{i}T00:00:00Z", (("copy/vec4", 100.0, 0.01),),
                 host="h'; --") for i in (1, 2)]
    expect(store("--db", DB, "import", *files), 0, 0)
    if query("SELECT DISTINCT model FROM device") != [(name,)] or query("SELECT count(*) FROM result") != [(2,)]:
        sys.exit("FAIL: names not stored as they were")
    p = expect(store("--db", DB, "history", "--device", name, "--json"), 0, 0)
    rows = json.loads(p.stdout)
    if len(rows) != 1 or rows[0]["history_runs"] != 1:
        sys.exit(f"FAIL: {rows}")


def case_corrupt_db():
    """A file that is no database, and a store cut short: one line, exit 4, for import and for a question."""
    junk = os.path.join(TMP, "junk.db")
    with open(junk, "wb") as f:
        f.write(b"not a database at all " * 500)
    expect(store("--db", junk, "import", *history_files(1)), 4, 1, "junk")
    expect(store("--db", DB, "import", RESULTS), 0, 0)
    db = sqlite3.connect(DB)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode = DELETE")
    db.close()
    size = os.path.getsize(DB)
    with open(DB, "r+b") as f:
        f.truncate(size // 3)
    for args in (["import", *history_files(1)], ["row", "copy/vec4"]):
        expect(store("--db", DB, *args), 4, 1, f"truncated: {args[0]}")


def case_write_failures():
    """A read-only store and a full disk (a file-size limit): one line, exit 6, what was stored kept."""
    expect(store("--db", DB, "import", *history_files(2)), 0, 0)
    os.chmod(DB, 0o444)
    if os.geteuid() != 0:
        expect(store("--db", DB, "import", *history_files(4)[2:]), 6, 1, "read-only")
    os.chmod(DB, 0o644)
    limit = os.path.getsize(DB) + 4096

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    p = subprocess.run([sys.executable, os.path.join(TOOLS, "store.py"), "--db", DB, "import", RESULTS],
                       capture_output=True, text=True, preexec_fn=small_files)
    expect(p, 6, 1, "full disk")
    if query("SELECT count(*) FROM run")[0][0] < 2:
        sys.exit("FAIL: a failed write lost what was stored")
    p = expect(store("--db", DB, "row", "copy/vec4", "--json"), 0, 0)
    if sum(r["runs"] for r in json.loads(p.stdout)) < 2:
        sys.exit("FAIL: the stored runs do not read back")


def case_concurrent():
    """8 importers at once into one new file, each of an overlapping set: every run once, none lost."""
    files = history_files(8)
    procs = [subprocess.Popen([sys.executable, os.path.join(TOOLS, "store.py"), "--db", DB, "import", "--quiet",
                               *(files[i:] + files[:i])], stderr=subprocess.PIPE, text=True) for i in range(8)]
    for p in procs:
        if p.wait() != 0:
            sys.exit(f"FAIL: an importer exited {p.returncode}: {p.stderr.read()}")
    if query("SELECT count(*) FROM run") != [(8,)] or query("SELECT count(*) FROM result") != [(16,)]:
        sys.exit(f"FAIL: {query('SELECT count(*) FROM run')} runs, {query('SELECT count(*) FROM result')} results")


def ask(*args):
    return json.loads(expect(store("--db", DB, *args, "--json"), 0, 0, " ".join(args)).stdout)


def case_questions():
    """Planted: a 20% slowdown of copy/vec4 in the newest run and driver 2.0; copy/scalar unchanged; a failed
    run of copy/scalar; a health history of a GPU that failed once. Each question's verdicts and values."""
    files = history_files(6)
    newest = doc(date="2026-11-20T00:00:00Z", rows=(("copy/vec4", 80.0, 0.01), ("copy/scalar", 50.1, 0.01)),
                 name="new")
    drv2 = [doc(driver="TestDriver 2.0", date=f"2026-11-1{i}T00:00:00Z",
                rows=(("copy/vec4", 80.0 * w, 0.01), ("copy/scalar", 50.0 * w, 0.01)), name=f"d{i}")
            for i, w in enumerate((1.0, 1.005, 0.996))]
    other = doc(model="Other GPU", date="2026-11-05T00:00:00Z", rows=(("copy/vec4", 300.0, 0.01),), name="o")
    with open(files[3], encoding="utf-8") as f:
        d = json.load(f)
    d["results"][1].update(status="fail", validated=False, metric={"name": "GB/s", "better": "higher"})
    with open(files[3], "w", encoding="utf-8") as f:
        json.dump(d, f)
    expect(store("--db", DB, "import", *files, newest, *drv2, other, *health_files()), 0, 0)
    h = {r["row"].split()[0]: r for r in ask("history", "--device", "uuid-new")}
    if h["copy/vec4"]["verdict"] != "slower" or abs(h["copy/vec4"]["ratio"] - 0.8) > 0.01 or \
            h["copy/scalar"]["verdict"] != "same" or h["copy/vec4"]["history_runs"] != 9:
        sys.exit(f"FAIL history: {h}")
    dv = {r["row"].split()[0]: r for r in ask("drivers", "--model", "Test GPU", "--a", "1.0", "--b", "2.0")}
    if dv["copy/vec4"]["verdict"] != "slower" or dv["copy/scalar"]["verdict"] != "same" or dv["copy/vec4"]["runs_b"] != 3:
        sys.exit(f"FAIL drivers: {dv}")
    # --last N takes each row's N latest runs before the candidate (the three of driver 2.0, near 80), not the
    # oldest (near 100); a side of drivers its own N latest (of 1.0: the 6th run, 100.6, and the newest, 80)
    h = {r["row"].split()[0]: r for r in ask("history", "--device", "uuid-new", "--last", "3")}
    if h["copy/vec4"]["history_runs"] != 3 or abs(h["copy/vec4"]["history_median"] - 80.0) > 1e-9 or \
            h["copy/vec4"]["verdict"] != "same":
        sys.exit(f"FAIL history --last 3: {h}")
    dv = {r["row"].split()[0]: r for r in ask("drivers", "--model", "Test GPU", "--a", "1.0", "--b", "2.0",
                                              "--last", "2")}
    if dv["copy/vec4"]["runs_a"] != 2 or abs(dv["copy/vec4"]["a"] - 90.3) > 1e-9 or dv["copy/vec4"]["runs_b"] != 2:
        sys.exit(f"FAIL drivers --last 2: {dv}")
    rw = {(r["model"], r["driver"]): r for r in ask("row", "copy/vec4")}
    if rw[("Other GPU", "TestDriver 1.0")]["verdict"] != "same" or \
            rw[("Test GPU", "TestDriver 1.0")]["verdict"] != "slower" or rw[("Test GPU", "TestDriver 1.0")]["runs"] != 7:
        sys.exit(f"FAIL row: {rw}")
    changes = [(r["from"], r["to"]) for r in ask("verdicts", "copy/scalar", "--model", "Test GPU")]
    if ("same", "failed") not in changes or ("failed", "same") not in changes:
        sys.exit(f"FAIL verdicts copy/scalar: {changes}")
    changes = [(r["from"], r["to"], r["driver"]) for r in ask("verdicts", "copy/vec4", "--model", "Test GPU")]
    if ("same", "slower", "TestDriver 2.0") not in changes:
        sys.exit(f"FAIL verdicts copy/vec4: {changes}")
    hl = ask("health", "--host", "node9")
    if [r["verdict"] for r in hl] != ["pass", "fail", "pass"] or hl[1]["speed_ratio"] != 0.7:
        sys.exit(f"FAIL health: {hl}")
    text = expect(store("--db", DB, "history", "--device", "uuid-new"), 0, 0).stdout
    csv_text = expect(store("--db", DB, "history", "--device", "uuid-new", "--csv"), 0, 0).stdout
    if "slower" not in text or not csv_text.startswith("row,value,unit"):
        sys.exit(f"FAIL formats:\n{text}\n{csv_text}")


def health_files():
    out = []
    for i, (verdict, failing) in enumerate((("pass", []), ("fail", ["speed: all rows: 0.70x of the baseline"]),
                                            ("pass", []))):
        d = {"schema": "vkbench-health/1", "hostname": "node9", "time": 1795000000 + 3600 * i, "verdict":
             "keep" if verdict == "pass" else "take out of service", "exit": 0 if verdict == "pass" else 1,
             "node_problem": None, "gpus_found": 1, "baseline": True,
             "gpus": [{"gpu": 0, "uuid": "0e9e0530-282a-bad9-f675-cb0b6719b2b5", "pci_bus_id": "0000:00:06.0",
                       "model": "Test GPU", "driver": "TestDriver 1.0", "verdict": verdict,
                       "action": "none" if verdict == "pass" else "drain", "speed_judged": True,
                       "failing": failing,
                       "rows": [{"row": "copy/vec4", "backend": "vulkan", "status": "ok",
                                 "metric": 100.0 * (0.7 if verdict == "fail" else 1 + i / 100), "unit": "GB/s",
                                 "median_s": 0.01}]}]}
        path = os.path.join(TMP, f"health-{i}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(d, f)
        out.append(path)
    return out


def case_baseline():
    """The baseline from the store's health history: the failed run left out, the format vkbench health reads."""
    expect(store("--db", DB, "import", *health_files()), 0, 0)
    out = os.path.join(TMP, "baseline.tsv")
    expect(store("--db", DB, "baseline", out), 0, 0)
    with open(out, encoding="utf-8") as f:
        lines = f.read().splitlines()
    row = [ln.split("\t") for ln in lines if ln.startswith("Test GPU\tTestDriver 1.0\tcopy/vec4\t")]
    if lines[0] != "# vkbench baseline 1" or len(row) != 1 or float(row[0][3]) != 101.0:
        sys.exit(f"FAIL: {lines}")


def case_gate():
    """compare.py --db: exit 1 on a 20% slowdown beyond the history's noise, 0 on a change within it."""
    expect(store("--db", DB, "import", *history_files(6)), 0, 0)
    slow = doc(date="2026-11-20T00:00:00Z", rows=(("copy/vec4", 80.0, 0.01), ("copy/scalar", 50.0, 0.01)),
               name="slow")
    near = doc(date="2026-11-21T00:00:00Z", rows=(("copy/vec4", 99.5, 0.01), ("copy/scalar", 50.2, 0.01)),
               name="near")
    p = tool("compare.py", "--db", DB, slow)
    if p.returncode != 1 or "SLOWER" not in p.stdout:
        sys.exit(f"FAIL slowdown: exit {p.returncode}\n{p.stdout}{p.stderr}")
    p = tool("compare.py", "--db", DB, near)
    if p.returncode != 0 or "SLOWER" in p.stdout:
        sys.exit(f"FAIL noise: exit {p.returncode}\n{p.stdout}{p.stderr}")
    p = tool("compare.py", "--db", DB, "--model", "No GPU", near)
    if p.returncode != 2 or len(p.stderr.splitlines()) != 1:
        sys.exit(f"FAIL no history: exit {p.returncode}\n{p.stderr}")


if __name__ == "__main__":
    if len(sys.argv) != 2 or f"case_{sys.argv[1]}" not in globals():
        sys.exit(f"usage: store_test.py {' | '.join(n[5:] for n in globals() if n.startswith('case_'))}")
    globals()[f"case_{sys.argv[1]}"]()
    print(f"ok {sys.argv[1]}")
