"""vkbserver.py - the fleet's shared store: the schema of tools/store/schema.sql on PostgreSQL (docs/store.md).

    srv = vkbserver.connect(dsn, timeout)      # a libpq DSN or URI; ServerError where down, slow or refused
    vkbserver.init(srv)                        # the schema, migrated, and the access rules (an admin's role)
    vkbserver.add_node(srv, role, host, pw)    # a node's role, allowed to add rows for HOST only
    added, known, refused = vkbserver.push(srv, subs, refused_line)   # vkbrecord.Submission each, one transaction

The rows are written by vkbstore.write_run, through a connection that speaks its SQL ("?" parameters, lastrowid),
so the server stores exactly what the SQLite store does. Each node logs in as its own role; the rules in
tools/store/server.sql let it add rows only for its own host and change none. A submission already stored
(run.submission) adds nothing, also when two nodes push it at once.

Every wait on the server is bounded by TIMEOUT: a server that does not answer in time is DOWN, like one that
cannot be reached or drops the connection; the run being sent is rolled back by the server, the runs before it
stay stored, and a push again sends the rest."""
import argparse
import json
import os
import re
import select

import vkbjson
import vkbrecord
import vkbstore

try:
    import psycopg2
    import psycopg2.errors
    import psycopg2.extensions
    import psycopg2.extras
    from psycopg2 import sql as pgsql
except ImportError:          # connect() says what to install
    psycopg2 = None

SERVER_SQL = os.path.join(os.path.dirname(vkbstore.SCHEMA), "server.sql")
DOWN, DENIED = 7, 8          # exit codes (docs/store.md); vkbstore's USAGE, REFUSED, WRITE besides
_timeout = [30.0]


class ServerError(Exception):
    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def _wait(conn):
    """psycopg2's wait callback: every wait on the socket at most _timeout[0] seconds."""
    while True:
        state = conn.poll()
        if state == psycopg2.extensions.POLL_OK:
            return
        want = ([conn.fileno()], [], []) if state == psycopg2.extensions.POLL_READ else ([], [conn.fileno()], [])
        if not any(select.select(*want, _timeout[0])):
            raise psycopg2.OperationalError(f"no answer in {_timeout[0]:g} s")


def shown(dsn):
    """The DSN as messages print it: its user, host, port and database, never its password."""
    try:
        p = psycopg2.extensions.parse_dsn(dsn)
    except Exception:
        return "the server"
    where = p.get("host") or "localhost"
    if p.get("port"):
        where += f":{p['port']}"
    return f"{p.get('user', '')}@{where}/{p.get('dbname', '')}".lstrip("@")


def first_line(e):
    text = (getattr(e, "pgerror", None) or str(e) or type(e).__name__).strip()
    return text.splitlines()[0].removeprefix("ERROR:").strip() if text else type(e).__name__


class Inserted:
    def __init__(self, rowid):
        self.lastrowid = rowid


class Server:
    """A connection to the server that vkbstore.write_run can write through: execute() and executemany() take
    "?" parameters; an INSERT INTO run returns its id as lastrowid."""

    def __init__(self, conn, where):
        self.conn, self.shown = conn, where
        self.cur = conn.cursor()

    def execute(self, text, params=()):
        text = text.replace("?", "%s")
        returning = text.startswith("INSERT INTO run ")
        self.cur.execute(text + (" RETURNING id" if returning else ""), tuple(params))
        return Inserted(self.cur.fetchone()[0]) if returning else self.cur

    def executemany(self, text, seq):
        psycopg2.extras.execute_batch(self.cur, text.replace("?", "%s"), list(seq), page_size=1000)

    def close(self):
        try:
            self.conn.close()
        except Exception:
            pass


def connect(dsn, timeout=30.0):
    if psycopg2 is None:
        raise ServerError("no psycopg2: install python3-psycopg2 (tools/setup.sh --postgres)", vkbstore.USAGE)
    _timeout[0] = timeout
    psycopg2.extensions.set_wait_callback(_wait)
    where = shown(dsn)
    try:
        # a push cut off mid-transaction holds its locks until the server gives up on it: after TIMEOUT too
        conn = psycopg2.connect(dsn, connect_timeout=max(1, int(timeout)), application_name="vkbench store",
                                options=f"-c idle_in_transaction_session_timeout={int(timeout * 1000)}")
    except psycopg2.ProgrammingError as e:        # a DSN libpq cannot parse
        raise ServerError(f"{where}: not a server address: {first_line(e)}", vkbstore.USAGE)
    except psycopg2.Error as e:
        text = first_line(e)
        if re.search(r"invalid .*(value|option)|missing \"=\"|invalid URI|unterminated quoted", text):
            raise ServerError(f"{where}: not a server address: {text}", vkbstore.USAGE)
        code = DENIED if re.search(r"authentication|password|role .* does not exist|permission", text) else DOWN
        raise ServerError(f"{where}: cannot connect: {text}", code)
    return Server(conn, where)


def portable(statement):
    """SCHEMA's STATEMENT as PostgreSQL writes it (schema.sql's header says which forms differ)."""
    statement = re.sub(r"\bINTEGER PRIMARY KEY\b", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", statement)
    statement = re.sub(r"\bINTEGER\b", "BIGINT", statement)
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", statement)


def version(srv):
    """The server's schema version (0: no store there yet)."""
    srv.cur.execute("SELECT to_regclass('public.meta') IS NOT NULL")
    if not srv.cur.fetchone()[0]:
        return 0
    srv.cur.execute("SELECT value FROM meta WHERE key = 'schema_version'")
    row = srv.cur.fetchone()
    if row is None or not re.fullmatch(r"[0-9]{1,9}", row[0]):
        raise ServerError(f"{srv.shown}: a meta table without a schema version: not a vkbench store",
                          vkbstore.REFUSED)
    return int(row[0])


def guarded(srv, doing, work):
    """WORK(), its failures as ServerErrors: DOWN for a lost, slow or unreachable server, DENIED for a refusal."""
    try:
        return work()
    except ServerError:
        srv.conn.rollback() if not srv.conn.closed else None
        raise
    except psycopg2.errors.TransactionRollbackError:
        raise
    except (psycopg2.OperationalError, psycopg2.InterfaceError) as e:
        srv.close()
        raise ServerError(f"{srv.shown}: {doing}: {first_line(e)}", DOWN)
    except psycopg2.Error as e:
        if not srv.conn.closed:
            srv.conn.rollback()
        raise ServerError(f"{srv.shown}: {doing}: {first_line(e)}", DENIED)


def init(srv):
    """Create or migrate the schema and (again) apply the access rules, in one transaction."""
    def work():
        steps = vkbstore.migrations()
        srv.cur.execute("SELECT pg_advisory_xact_lock(4646)")     # two inits at once: one after the other
        have = version(srv)
        if have > len(steps):
            raise ServerError(f"{srv.shown}: schema version {have}, newer than this vkbench's {len(steps)}",
                              vkbstore.REFUSED)
        for _, _, stmts in steps[have:]:
            for s in stmts:
                srv.cur.execute(portable(s))
        srv.cur.execute("INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE "
                        "SET value = excluded.value", ("schema_version", str(len(steps))))
        srv.cur.execute("INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING",
                        ("created", vkbstore.now()))
        with open(SERVER_SQL, encoding="utf-8") as f:
            srv.cur.execute(f.read())
        srv.conn.commit()
        return len(steps) - have
    return guarded(srv, "cannot make the store", work)


def add_node(srv, role, hostname, password=None):
    """Let ROLE (made where absent, LOGIN, PASSWORD where given) add the rows of HOSTNAME: one role, one host."""
    def work():
        srv.cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,))
        verb = "ALTER" if srv.cur.fetchone() else "CREATE"
        srv.cur.execute(pgsql.SQL(verb + " ROLE {} LOGIN" + (" PASSWORD %s" if password else "")).format(
            pgsql.Identifier(role)), (password,) if password else ())
        srv.cur.execute(pgsql.SQL("GRANT vkb_node TO {}").format(pgsql.Identifier(role)))
        srv.cur.execute("INSERT INTO node (role, hostname) VALUES (%s, %s) ON CONFLICT (role) DO UPDATE "
                        "SET hostname = excluded.hostname", (role, hostname))
        srv.conn.commit()
    guarded(srv, "cannot add the node", work)


def push(srv, subs, refused_line):
    """Store each Submission of SUBS in a transaction of its own: (added, already stored, refused). A run the
    server refuses (another host's, a role that is no node) is REFUSED_LINE(text) and rolled back; a lost
    connection raises ServerError(DOWN) after the runs before it were committed."""
    steps = len(vkbstore.migrations())
    have = guarded(srv, "cannot read the store", lambda: (version(srv), srv.conn.rollback())[0])
    if have != steps:
        raise ServerError(f"{srv.shown}: " + ("no vkbench store there" if have == 0 else f"schema version {have}, "
                          f"this vkbench's {steps}") + ": store.py server-init --server DSN makes or migrates it",
                          vkbstore.REFUSED)
    added = known = refused = 0
    for sub in subs:
        try:
            outcome = again(srv, f"cannot store {sub.source or sub.key}", lambda: one(srv, sub))
        except ServerError as e:
            if e.code != DENIED:
                raise ServerError(f"{e} ({added} run(s) added before; push again to send the rest)", e.code)
            refused_line(str(e))
            refused += 1
            continue
        added += outcome
        known += 1 - outcome
    return added, known, refused


def again(srv, doing, work, tries=5):
    """guarded(WORK), tried again where the server rolled it back for a deadlock with another push."""
    for n in range(tries):
        try:
            return guarded(srv, doing, work)
        except psycopg2.errors.TransactionRollbackError:
            srv.conn.rollback()
            if n == tries - 1:
                raise ServerError(f"{srv.shown}: {doing}: rolled back {tries} times by concurrent pushes", DOWN)


def one(srv, sub):
    """1 where SUB was stored now, 0 where the server held it already (also: another push stored it meanwhile)."""
    srv.cur.execute("SELECT 1 FROM run WHERE submission = %s", (sub.key,))
    if srv.cur.fetchone():
        srv.conn.rollback()
        return 0
    try:
        vkbstore.write_run(srv, sub)
    except psycopg2.errors.UniqueViolation as e:
        srv.conn.rollback()
        if e.diag.constraint_name == "run_submission_key":
            return 0
        raise
    srv.conn.commit()
    return 1


# --- the runs of a local SQLite store, as Submissions ---

def submissions(db, skipped_line):
    """Each finished run of the SQLite store DB as a vkbrecord.Submission, oldest first; a run still running is
    SKIPPED_LINE(text) (a later push sends it once it has ended)."""
    machines = {r["id"]: r["hostname"] for r in vkbstore.select(db, "SELECT id, hostname FROM machine")}
    builds = {r["id"]: r for r in vkbstore.select(db, "SELECT * FROM build")}
    devices = {r["id"]: r for r in vkbstore.select(db, "SELECT * FROM device")}
    for run in vkbstore.select(db, "SELECT * FROM run ORDER BY id"):
        if run["status"] == "running":
            skipped_line(f"run {run['id']} ({run['source'] or run['submission']}) is still running: not pushed")
            continue
        sub = vkbrecord.Submission(run["submission"], run["source"], run["source_schema"])
        sub.hostname = machines[run["machine_id"]]
        b = builds[run["build_id"]]
        sub.build = {k: b[k] for k in vkbstore.BUILD}
        for k in ("subcommand", "started", "ended", "status", "command"):
            setattr(sub, k, run[k])
        sub.settings = json.loads(run["settings"]) if run["settings"] else {}
        rows = vkbstore.select(db, "SELECT * FROM result WHERE run_id = ? ORDER BY ordinal", (run["id"],))
        health = vkbstore.select(db, "SELECT * FROM health WHERE run_id = ? ORDER BY id", (run["id"],))
        index = {}
        for r in list(rows) + list(health):
            if r["device_id"] is not None and r["device_id"] not in index:
                index[r["device_id"]] = len(index)
                d = devices[r["device_id"]]
                sub.devices.append({**{k: d[k] for k in vkbstore.DEVICE}, "hostname": machines[d["machine_id"]]})
        sub.rows = [{**{k: r[k] for k in vkbstore.RESULT}, "ordinal": r["ordinal"],
                     "device": index.get(r["device_id"])} for r in rows]
        sub.health = [{**{k: h[k] for k in vkbstore.HEALTH}, "device": index.get(h["device_id"])} for h in health]
        yield sub


# --- the commands (store.py push, server-init, server-node) ---

def say(text):
    vkbjson.say(f"store: {text}")


def cmd_push(args):
    if not args.server:
        raise ServerError("no server: --server DSN or $VKB_SERVER", vkbstore.USAGE)
    if args.files:
        subs, code = [], 0
        for path in args.files:
            try:
                subs += vkbrecord.read(path)
            except vkbrecord.Refused as e:
                for line in e.args[0]:
                    say(line)
                code = 1
        if code:
            return code     # nothing sent before every named file is taken
    else:
        subs = submissions(vkbstore.connect(args.db, create=False), say)
    srv = connect(args.server, args.timeout)
    added, known, refused = push(srv, subs, say)
    srv.close()
    if not args.quiet:
        print(f"{added} run(s) added to {srv.shown}, {known} already there, {refused} refused")
    return DENIED if refused else 0


def cmd_init(args):
    if not args.server:
        raise ServerError("no server: --server DSN or $VKB_SERVER", vkbstore.USAGE)
    srv = connect(args.server, args.timeout)
    steps = init(srv)
    for node in args.node:
        role, eq, host = node.partition("=")
        if not eq or not role or not host:
            raise ServerError(f"--node {node}: not ROLE=HOSTNAME", vkbstore.USAGE)
        password = None
        if args.password_file:
            try:
                with open(args.password_file, encoding="utf-8") as f:
                    password = f.readline().rstrip("\n") or None
            except OSError as e:
                raise ServerError(f"cannot read {args.password_file}: {e.strerror}", vkbstore.USAGE)
        add_node(srv, role, host, password)
    srv.close()
    if not args.quiet:
        print(f"{srv.shown}: schema version {len(vkbstore.migrations())} ({steps} migration(s) applied), "
              f"{len(args.node)} node(s) added")
    return 0


def add_commands(sub, common):
    """push and server-init on the argparse subparsers SUB (COMMON: the shared --db)."""
    server = argparse.ArgumentParser(add_help=False)
    server.add_argument("--server", metavar="DSN", default=os.environ.get("VKB_SERVER"),
                        help="the PostgreSQL server, a libpq DSN or URI (default: $VKB_SERVER)")
    server.add_argument("--timeout", type=float, default=30.0, metavar="S",
                        help="seconds any wait on the server may take (default 30)")
    server.add_argument("--quiet", action="store_true")
    p = sub.add_parser("push", parents=[common, server], help="send the store's runs (or result files) to a server")
    p.add_argument("files", nargs="*", metavar="FILE", help="result files to send instead of the store's runs")
    p.set_defaults(handler=cmd_push)
    p = sub.add_parser("server-init", parents=[server], help="make or migrate the server's store, add nodes")
    p.add_argument("--node", action="append", default=[], metavar="ROLE=HOSTNAME",
                   help="a role that may add the rows of HOSTNAME only (made where absent)")
    p.add_argument("--password-file", metavar="FILE", help="the nodes' password: the file's first line")
    p.set_defaults(handler=cmd_init)
