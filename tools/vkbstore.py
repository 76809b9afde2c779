"""vkbstore.py - the results store: one SQLite file of every validated run (tools/store/schema.sql, docs/store.md).

    db = vkbstore.connect(path)          # opened, its schema checked and an older one migrated (StoreError)
    run_id = vkbstore.insert(db, sub)    # one vkbrecord.Submission in one transaction; None if already stored
    rows = vkbstore.select(db, sql, params)   # parameterised queries only: [sqlite3.Row]

Several processes may write one file at once: it is kept in WAL mode, every write transaction starts with
BEGIN IMMEDIATE (the write lock taken before anything is read, so two importers never both decide a submission is
new) and waits up to BUSY_S for the lock. A submission is stored whole or not at all.

Every failure is a StoreError: its text is one line, its code the exit code (docs/store.md): REFUSED for a file that
is no vkbench store (corrupt, truncated, another program's) or of a newer schema; WRITE for a database that
cannot be written (read-only, full disk, I/O error); USAGE for a path that cannot be used at all.

The SQL is portable (tools/store/schema.sql says how): parameters are "?", which a PostgreSQL adapter writes "%s";
"INSERT ... ON CONFLICT (...) DO NOTHING" is SQL both accept."""
import json
import os
import re
import socket
import sqlite3
import time

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "store", "schema.sql")
USAGE, REFUSED, WRITE = 2, 4, 6
BUSY_S = 60.0


class Store(sqlite3.Connection):
    """A connection to one store; .shown is its path as messages print it."""
    shown = ""


class StoreError(Exception):
    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def default_path():
    """$VKB_DB, else ${XDG_DATA_HOME:-~/.local/share}/vkbench/results.db."""
    if os.environ.get("VKB_DB"):
        return os.environ["VKB_DB"]
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "vkbench", "results.db")


def migrations(path=SCHEMA):
    """[(number, title, [statement])] of the "-- migration N: TITLE" sections of the schema file, in order."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"-- migration ([0-9]+): (.*)", line)
            if m:
                out.append((int(m.group(1)), m.group(2).strip(), [""]))
            elif out:
                stmts = out[-1][2]
                stmts[-1] += line
                if sqlite3.complete_statement(stmts[-1]):
                    stmts.append("")
    for n, (number, _, stmts) in enumerate(out):
        if number != n + 1:
            raise StoreError(f"{path}: migration {number} where {n + 1} belongs", USAGE)
        if stmts[-1].strip() and not stmts[-1].strip().startswith("--"):
            raise StoreError(f"{path}: migration {number} ends in an unfinished statement", USAGE)
        del stmts[-1]
    return out


def failure(e, path, doing):
    """The StoreError of sqlite3's exception E met while DOING on the database at PATH."""
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    code = WRITE if re.search(r"readonly|read-only|full|disk I/O|unable to open|locked|busy", text) else REFUSED
    if code == REFUSED:
        text += ": not a vkbench store, or a damaged one"
    return StoreError(f"{path}: {doing}: {text}", code)


def connect(path=None, schema=SCHEMA, create=True):
    """The store at PATH (default_path()), its schema at the last migration of SCHEMA: created (with its folder)
    where CREATE and absent, migrated in one transaction where older; StoreError where newer or no store."""
    path = path or default_path()
    shown = path.encode("unicode_escape").decode("ascii")
    if not create and not os.path.exists(path):
        raise StoreError(f"{shown}: no such store (store.py import FILE... makes one)", USAGE)
    if os.path.isdir(path):
        raise StoreError(f"{shown}: a folder, not a database file", USAGE)
    steps = migrations(schema)
    try:
        folder = os.path.dirname(path)
        if folder and not os.path.isdir(folder) and create:
            os.makedirs(folder, exist_ok=True)
        db = sqlite3.connect(path, timeout=BUSY_S, isolation_level=None, factory=Store)
    except (OSError, sqlite3.Error) as e:
        raise StoreError(f"{shown}: cannot open: {getattr(e, 'strerror', None) or e}", WRITE)
    db.row_factory = sqlite3.Row
    db.shown = shown
    try:
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_S * 1000)}")
        version = schema_version(db, shown)
        if version > len(steps):
            raise StoreError(f"{shown}: schema version {version}, newer than this vkbench's {len(steps)}: "
                             "update vkbench to read it", REFUSED)
        if version < len(steps):
            migrate(db, shown, steps)
        wal(db)
        db.execute("PRAGMA foreign_keys = ON")
        mark_dead_runs(db)
    except sqlite3.Error as e:
        db.close()
        raise failure(e, shown, "cannot open")
    except StoreError:
        db.close()
        raise
    return db


def wal(db):
    """WAL mode where the file can take it (a read-only file stays as it is: reading needs no change)."""
    try:
        db.execute("PRAGMA journal_mode = WAL")
    except sqlite3.OperationalError:
        pass


def host_name():
    """This host's name as vkbench records it: $VKB_HOST (control characters as '?'), else the host's name."""
    env = os.environ.get("VKB_HOST")
    if env:
        return re.sub(r"[\x00-\x1f\x7f]", "?", env)
    return socket.gethostname() or "unknown"


def process_start(pid):
    """Process PID's start in clock ticks after boot (/proc/PID/stat's 22nd field), 0 where unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return int(fields[19])
    except (OSError, IndexError, ValueError):
        return 0


def writer_alive(submission):
    """Whether the vkbench that wrote the run of SUBMISSION ("vkbench:PID:START:NS") still runs on this host; True
    for another kind of key (an import is never left running)."""
    m = re.fullmatch(r"vkbench:([0-9]+):([0-9]+):.*", submission or "")
    if not m:
        return True
    pid, start = int(m.group(1)), int(m.group(2))
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        pass            # another user's: alive
    return not start or process_start(pid) == start


def mark_dead_runs(db):
    """Mark each `running` run of this host whose vkbench is gone (SIGKILL, a crash, a power cut) as interrupted,
    as vkbench does on opening a store: a reader then sees the same statuses a writer would. A store this process
    cannot write (read-only, or locked past a second) is left as it is: a `running` run reads as unfinished."""
    rows = db.execute("SELECT u.id, u.submission FROM run u JOIN machine m ON m.id = u.machine_id "
                      "WHERE u.status = 'running' AND m.hostname = ?", (host_name(),)).fetchall()
    dead = [r[0] for r in rows if not writer_alive(r[1])]
    if not dead:
        return
    db.execute("PRAGMA busy_timeout = 1000")
    try:
        db.execute("BEGIN IMMEDIATE")
        db.executemany("UPDATE run SET status = 'interrupted' WHERE id = ? AND status = 'running'",
                       [(i,) for i in dead])
        db.execute("COMMIT")
    except sqlite3.OperationalError:
        if db.in_transaction:
            db.execute("ROLLBACK")
    finally:
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_S * 1000)}")


def schema_version(db, shown):
    """The store's schema version: 0 for an empty file; StoreError for another program's database."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "meta" not in tables:
        if tables:
            raise StoreError(f"{shown}: a database, but not a vkbench store (no meta table)", REFUSED)
        return 0
    row = db.execute("SELECT value FROM meta WHERE key = ?", ("schema_version",)).fetchone()
    if row is None or not re.fullmatch(r"[0-9]{1,9}", row[0]):
        raise StoreError(f"{shown}: a meta table without a schema version: not a vkbench store", REFUSED)
    return int(row[0])


def migrate(db, shown, steps):
    """Apply the migrations past the store's version in one transaction (none if another process did first)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        version = schema_version(db, shown)
        for number, _, stmts in steps[version:]:
            for s in stmts:
                db.execute(s)
        db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                   ("schema_version", str(len(steps))))
        db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", ("created", now()))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def select(db, sql, params=()):
    """The rows of one parameterised query; StoreError on a damaged file."""
    try:
        return db.execute(sql, params).fetchall()
    except sqlite3.Error as e:
        raise failure(e, db.shown, "cannot read")


# --- writing ---

def identity(values):
    return json.dumps(values, ensure_ascii=False)


def upsert_id(db, table, columns, values):
    """The id of the row of TABLE whose identity is VALUES (a dict of COLUMNS), made where absent."""
    values = {c: values.get(c) for c in columns}
    values["identity"] = identity([values[c] for c in columns])
    names = list(values)
    db.execute(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))}) "
               "ON CONFLICT (identity) DO NOTHING", [values[n] for n in names])
    return db.execute(f"SELECT id FROM {table} WHERE identity = ?", (values["identity"],)).fetchone()[0]


def machine_id(db, hostname):
    db.execute("INSERT INTO machine (hostname) VALUES (?) ON CONFLICT (hostname) DO NOTHING", (hostname,))
    return db.execute("SELECT id FROM machine WHERE hostname = ?", (hostname,)).fetchone()[0]


DEVICE = ("machine_id", "backend", "vendor", "vendor_id", "device_id", "model", "uuid", "pci_bus", "type",
          "cpu_implementation", "driver", "driver_name", "driver_version", "api_version", "conformance_version")
BUILD = ("version", "git_commit", "options", "shader_compiler")
RESULT = ("family", "variant", "backend", "shape", "shape_json", "constants", "repeat", "device_rank", "status",
          "skip_reason", "error", "validated", "max_error", "tolerance", "check_reason", "reps", "settled", "suspect",
          "suspect_reason", "time_min_ms", "time_q1_ms", "time_median_ms", "time_q3_ms", "time_max_ms",
          "iqr_over_median", "metric", "better", "value", "ceiling_row", "ceiling_variant", "ceiling_backend",
          "ceiling", "fraction", "predicted", "twin_value", "twin_ratio")
HEALTH = ("gpu", "node_verdict", "verdict", "action", "reasons", "speed_judged", "speed_ratio")


def insert(db, sub):
    """Store the vkbrecord.Submission SUB in one transaction: its run id, or None where its submission key is
    already stored (a file imported twice adds nothing)."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as e:
        raise failure(e, db.shown, "cannot write")
    try:
        if db.execute("SELECT 1 FROM run WHERE submission = ?", (sub.key,)).fetchone():
            db.execute("ROLLBACK")
            return None
        run = write_run(db, sub)
        db.execute("COMMIT")
        return run
    except sqlite3.Error as e:
        db.execute("ROLLBACK") if db.in_transaction else None
        raise failure(e, db.shown, "cannot write")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def write_run(db, sub):
    host = machine_id(db, sub.hostname or "")
    build = upsert_id(db, "build", BUILD, {k: (json.dumps(v) if isinstance(v, dict) else v)
                                            for k, v in sub.build.items()})
    devices = [upsert_id(db, "device", DEVICE, {**d, "machine_id": machine_id(db, d["hostname"] or "")})
               for d in sub.devices]
    cur = db.execute(
        "INSERT INTO run (submission, machine_id, build_id, subcommand, started, ended, status, command, settings, "
        "source, source_schema, imported) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (sub.key, host, build, sub.subcommand, sub.started, sub.ended, sub.status, sub.command,
         json.dumps(sub.settings, ensure_ascii=False), sub.source, sub.source_schema, now()))
    run = cur.lastrowid
    device = (lambda i: None if i is None else devices[i])
    db.executemany(f"INSERT INTO result (run_id, device_id, ordinal, {', '.join(RESULT)}) "
                   f"VALUES ({', '.join('?' * (len(RESULT) + 3))})",
                   [(run, device(r["device"]), r["ordinal"]) + tuple(r[c] for c in RESULT) for r in sub.rows])
    db.executemany(f"INSERT INTO health (run_id, device_id, {', '.join(HEALTH)}) "
                   f"VALUES ({', '.join('?' * (len(HEALTH) + 2))})",
                   [(run, device(h["device"])) + tuple(h[c] for c in HEALTH) for h in sub.health])
    return run
