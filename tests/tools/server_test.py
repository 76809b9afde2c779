#!/usr/bin/python3
"""The fleet server (store.py push, server-init; tools/vkbserver.py) on a real PostgreSQL server that each case
starts in a temporary folder (initdb; as root, as the user nobody) on a free port, and stops however the case ends.
Usage: server_test.py CASE. Exit 77 (skip) where PostgreSQL or psycopg2 is missing, except under CI=true."""
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools")
SKIP = 77
TMP = tempfile.mkdtemp(prefix="vkb-server-test-")
SERVERS = []
os.chmod(TMP, 0o755)


def fail(msg):
    sys.exit(f"FAIL {msg}")


def pg_bin(name):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def have_postgres():
    try:
        import psycopg2  # noqa: F401
    except ImportError:
        return False
    return bool(pg_bin("initdb") and pg_bin("pg_ctl"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Postgres:
    """A PostgreSQL server of its own: data and socket in a temporary folder, password logins only, stopped by a
    watchdog process when this one ends in any way (its stdin closes when we die, even by SIGKILL)."""

    def __init__(self):
        self.dir = os.path.join(TMP, "pg")
        os.mkdir(self.dir, 0o700)
        self.port = free_port()
        self.admin_pw = "admin-secret"
        pwfile = os.path.join(self.dir, "pw")
        with open(pwfile, "w") as f:
            f.write(self.admin_pw + "\n")
        as_user = []
        if os.geteuid() == 0:       # initdb refuses root
            nobody = pwd.getpwnam("nobody")
            for p in (self.dir, pwfile):
                os.chown(p, nobody.pw_uid, nobody.pw_gid)
            as_user = ["runuser", "-u", "nobody", "--"]
        data = os.path.join(self.dir, "data")
        run = (lambda *a: subprocess.run([*as_user, *a], capture_output=True, text=True, timeout=300))
        p = run(pg_bin("initdb"), "-D", data, "-U", "vkbadmin", "--auth=scram-sha-256", f"--pwfile={pwfile}",
                "-E", "UTF8", "--no-sync")
        if p.returncode:
            fail(f"initdb: {p.stderr}")
        stop = [*as_user, pg_bin("pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]
        self.watchdog = subprocess.Popen([sys.executable, "-c", "import subprocess, sys; sys.stdin.read(); "
                                          f"subprocess.run({stop!r}, capture_output=True)"],
                                         stdin=subprocess.PIPE, start_new_session=True)
        SERVERS.append(self)
        p = run(pg_bin("pg_ctl"), "-D", data, "-l", os.path.join(self.dir, "log"), "-w", "-t", "120", "-o",
                f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60",
                "start")
        if p.returncode:
            fail(f"pg_ctl start: {p.stderr}{open(os.path.join(self.dir, 'log')).read()[-2000:]}")

    def dsn(self, user="vkbadmin", password=None, port=None):
        return (f"host=127.0.0.1 port={port or self.port} dbname=postgres user={user} "
                f"password={password or (self.admin_pw if user == 'vkbadmin' else 'pw-' + user)}")

    def query(self, text, params=(), user="vkbadmin"):
        import psycopg2
        with psycopg2.connect(self.dsn(user)) as conn, conn.cursor() as cur:
            cur.execute(text, params)
            out = cur.fetchall() if cur.description else None
        conn.close()
        return out

    def node(self, role, host):
        pw = os.path.join(TMP, f"pw-{role}")
        with open(pw, "w") as f:
            f.write(f"pw-{role}\n")
        expect(store("server-init", "--server", self.dsn(), "--node", f"{role}={host}", "--password-file", pw,
                     "--quiet"), 0, 0, f"server-init --node {role}")


def store(*args, timeout=300):
    return subprocess.run([sys.executable, os.path.join(TOOLS, "store.py"), *args], capture_output=True, text=True,
                          timeout=timeout)


def expect(p, code, lines=None, what="", has=None):
    err = p.stderr.splitlines()
    if (p.returncode != code or "Traceback" in p.stderr or (lines is not None and len(err) != lines)
            or any(not ln.startswith("store: ") for ln in err) or (has and has not in p.stderr + p.stdout)):
        fail(f"{what}: exit {p.returncode} (wanted {code}), {len(err)} stderr lines (wanted {lines}, "
             f"{has!r}):\n{p.stderr}{p.stdout[-2000:]}")
    return p


def result_doc(host, n, rows=4, name="run"):
    """A results file of HOST's run N: ROWS validated rows of known values."""
    results = []
    for i in range(rows):
        value = 100.0 + i + n / 10
        med = 1000.0 / value
        results.append({"family": "copy", "variant": f"v{i}", "backend": "vulkan", "device_index": 0,
                        "shape": {"n": 1024}, "shape_text": "n=1024", "status": "ok", "reps": 20, "settled": True,
                        "suspect": False, "validated": True, "max_error": 0.0,
                        "time_ms": {"min": med * 0.99, "q1": med * 0.995, "median": med, "q3": med * 1.005,
                                    "max": med * 1.01},
                        "metric": {"name": "GB/s", "better": "higher", "value": value}})
    d = {"schema_version": "2.1.0", "tool": "vkbench", "version": "0.1.0",
         "date": f"2026-11-{1 + n % 28:02d}T{n // 28 % 24:02d}:00:00Z", "command": f"vkbench run copy # {n}",
         "settings": {"subcommand": "run", "seed": n},
         "devices": [{"backend": "vulkan", "name": "Test GPU", "index": 0, "uuid": f"uuid-{host}", "host": host,
                      "driver": "TestDriver 1.0", "api_version": "1.4.312"}], "results": results}
    path = os.path.join(TMP, f"{name}-{host}-{n}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f)
    return path


def local_store(host, runs, rows=4, name="run", first=0):
    """A SQLite store of HOST's RUNS runs (numbered from FIRST), imported by store.py."""
    db = os.path.join(TMP, f"{name}-{host}.db")
    files = [result_doc(host, first + n, rows, name) for n in range(runs)]
    expect(store("--db", db, "import", "--quiet", *files), 0, 0, f"import {host}")
    return db


def local_rows(db):
    import sqlite3
    with sqlite3.connect(db) as c:
        return sorted(c.execute("SELECT u.submission, r.ordinal, r.family, r.variant, r.value, r.time_median_ms, "
                                "m.hostname FROM result r JOIN run u ON u.id = r.run_id JOIN machine m "
                                "ON m.id = u.machine_id").fetchall())


def server_rows(pg):
    return sorted(tuple(r) for r in pg.query(
        "SELECT u.submission, r.ordinal, r.family, r.variant, r.value, r.time_median_ms, m.hostname FROM result r "
        "JOIN run u ON u.id = r.run_id JOIN machine m ON m.id = u.machine_id"))


def started():
    pg = Postgres()
    expect(store("server-init", "--server", pg.dsn(), "--quiet"), 0, 0, "server-init")
    return pg


# --- the cases ---

def case_push_twice():
    """A store's runs pushed, then pushed again: every row on the server with its values, nothing twice."""
    pg = started()
    pg.node("node_a", "hostA")
    db = local_store("hostA", 5)
    p = expect(store("--db", db, "push", "--server", pg.dsn("node_a")), 0, 0, "push")
    if "5 run(s) added" not in p.stdout or server_rows(pg) != local_rows(db):
        fail(f"first push: {p.stdout}; server {len(server_rows(pg))} rows, local {len(local_rows(db))}")
    p = expect(store("--db", db, "push", "--server", pg.dsn("node_a")), 0, 0, "push again")
    if "0 run(s) added" not in p.stdout or "5 already there" not in p.stdout or server_rows(pg) != local_rows(db):
        fail(f"second push: {p.stdout}")
    if pg.query("SELECT count(*), count(DISTINCT submission) FROM run") != [(5, 5)]:
        fail("runs doubled")


def case_direct():
    """Result files sent directly (through the store module, no local store): stored as an import would."""
    pg = started()
    pg.node("node_a", "hostA")
    files = [result_doc("hostA", n, 6, "direct") for n in range(3)]
    expect(store("push", "--server", pg.dsn("node_a"), *files), 0, 0, "push files")
    expect(store("push", "--server", pg.dsn("node_a"), *files), 0, 0, "push files again", has="0 run(s) added")
    db = os.path.join(TMP, "same.db")
    expect(store("--db", db, "import", "--quiet", *files), 0, 0)
    if server_rows(pg) != local_rows(db):
        fail("the server's rows differ from an import of the same files")
    bad = os.path.join(TMP, "bad.json")
    with open(bad, "w") as f:
        f.write('{"schema_version": "2.1.0", "results": [{"family": NaN}]}')
    expect(store("push", "--server", pg.dsn("node_a"), files[0], bad), 1, None, "a refused file")
    if len(server_rows(pg)) != 18:
        fail("a refused file changed the server")


def case_concurrent():
    """16 pushes at once: 8 nodes, each pushing its store from two processes. Every row once, none lost."""
    pg = started()
    dbs = []
    for h in range(8):
        pg.node(f"node{h}", f"host{h}")
        dbs.append(local_store(f"host{h}", 6, rows=40))
    procs = [subprocess.Popen([sys.executable, os.path.join(TOOLS, "store.py"), "--db", dbs[i // 2], "push",
                               "--quiet", "--server", pg.dsn(f"node{i // 2}")], stderr=subprocess.PIPE, text=True)
             for i in range(16)]
    for p in procs:
        if p.wait(timeout=300) != 0:
            fail(f"a push exited {p.returncode}: {p.stderr.read()}")
    want = sorted(sum((local_rows(db) for db in dbs), []))
    got = server_rows(pg)
    if got != want or pg.query("SELECT count(*), count(DISTINCT submission) FROM run") != [(48, 48)]:
        fail(f"{len(got)} rows on the server, {len(want)} pushed; runs {pg.query('SELECT count(*) FROM run')}")
    if pg.query("SELECT count(*) FROM machine") != [(8,)] or pg.query("SELECT count(*) FROM build") != [(1,)]:
        fail("machines or builds doubled")


def case_own_host_only():
    """Node B can neither add rows as host A (by push or by SQL) nor change or remove any of A's rows."""
    import psycopg2
    pg = started()
    pg.node("node_a", "hostA")
    pg.node("node_b", "hostB")
    expect(store("--db", local_store("hostA", 3), "push", "--server", pg.dsn("node_a")), 0, 0, "A's push")
    before = server_rows(pg)
    more = local_store("hostA", 2, name="more", first=10)
    expect(store("--db", more, "push", "--server", pg.dsn("node_b")), 8, 2, "B pushes A's runs",
           has="row-level security")
    expect(store("--db", more, "push", "--server", pg.dsn("node_b", password="pw-node_a")), 8, 1,
           "B's role with A's password", has="authentication failed")
    expect(store("--db", more, "push", "--server", pg.dsn("node_a", password="pw-node_b")), 8, 1,
           "A's role with B's password", has="authentication failed")
    run_a, machine_a = pg.query("SELECT id, machine_id FROM run ORDER BY id LIMIT 1")[0]
    for text, params in (("UPDATE result SET value = 0", ()), ("DELETE FROM result", ()),
                         ("UPDATE run SET status = 'interrupted'", ()), ("DELETE FROM run", ()),
                         ("UPDATE machine SET hostname = 'hostB'", ()), ("INSERT INTO machine (hostname) "
                                                                         "VALUES ('hostC')", ()),
                         ("INSERT INTO run (submission, machine_id, build_id, status, imported) "
                          "VALUES ('forged', %s, 1, 'complete', 'now')", (machine_a,)),
                         ("INSERT INTO result (run_id, ordinal, family, variant, backend, shape, status) "
                          "VALUES (%s, 99, 'copy', 'forged', 'vulkan', '', 'ok')", (run_a,)),
                         ("TRUNCATE result", ())):
        try:
            pg.query(text, params, user="node_b")
            fail(f"node B was let: {text}")
        except psycopg2.Error as e:
            if e.pgcode not in ("42501",):      # insufficient_privilege, which row-level security raises too
                fail(f"{text}: {e.pgcode} {e}")
    if server_rows(pg) != before:
        fail("A's rows changed")
    b = local_store("hostB", 2)
    expect(store("--db", b, "push", "--server", pg.dsn("node_b")), 0, 0, "B's own runs", has="2 run(s) added")
    if len(server_rows(pg)) != len(before) + 8:
        fail("B's own runs not stored")


class Proxy(threading.Thread):
    """A TCP relay to the server that, after LIMIT bytes from the client, drops both connections ("cut") or
    stops relaying without closing ("stall"); .sent counts the client's bytes."""

    def __init__(self, target, limit=None, mode="cut"):
        super().__init__(daemon=True)
        self.target, self.limit, self.mode, self.sent = target, limit, mode, 0
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.start()

    def run(self):
        while True:
            client, _ = self.sock.accept()
            server = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self.pipe, args=(server, client, False), daemon=True).start()
            threading.Thread(target=self.pipe, args=(client, server, True), daemon=True).start()

    def pipe(self, src, dst, counted):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if counted:
                    self.sent += len(data)
                    if self.limit is not None and self.sent > self.limit:
                        if self.mode == "stall":
                            threading.Event().wait()
                        break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def case_faults():
    """A server that is down, one that never answers, and one that drops or stalls the connection mid-push: one
    line and exit 7 each; only whole runs on the server; the push again sends the rest, nothing twice."""
    pg = started()
    pg.node("node_a", "hostA")
    db = local_store("hostA", 2)
    nobody_port = free_port()
    expect(store("--db", db, "push", "--server", pg.dsn("node_a", port=nobody_port), "--timeout", "5"), 7, 1,
           "server down", has="cannot connect")
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    expect(store("--db", db, "push", "--server", pg.dsn("node_a", port=silent.getsockname()[1]), "--timeout", "2",
                 timeout=120), 7, 1, "a server that never answers", has="no answer in 2 s")
    whole = Proxy(pg.port)
    probe = local_store("hostA", 20, rows=300, name="probe", first=100)
    expect(store("--db", probe, "push", "--server", pg.dsn("node_a", port=whole.port)), 0, 0, "through the relay")
    for mode, first in (("cut", 200), ("stall", 300)):
        db = local_store("hostA", 20, rows=300, name=mode, first=first)
        mine = tuple({s for s, *_ in local_rows(db)})
        relay = Proxy(pg.port, limit=whole.sent // 2, mode=mode)
        p = expect(store("--db", db, "push", "--server", pg.dsn("node_a", port=relay.port), "--timeout", "3",
                         timeout=120), 7, 1, f"connection {mode} mid-push", has="push again")
        per_run = pg.query("SELECT u.submission, count(r.id) FROM run u LEFT JOIN result r ON r.run_id = u.id "
                           "WHERE u.submission IN %s GROUP BY u.submission", (mine,))
        if any(n != 300 for _, n in per_run) or not 0 < len(per_run) < 20:
            fail(f"{mode}: {len(per_run)} runs on the server, rows per run {sorted({n for _, n in per_run})}: "
                 f"{p.stderr}")
        expect(store("--db", db, "push", "--server", pg.dsn("node_a")), 0, 0, "the push again",
               has=f"{20 - len(per_run)} run(s) added")
        if sorted(r for r in server_rows(pg) if r[0] in mine) != local_rows(db):
            fail(f"{mode}: after the push again the server's rows differ from the store's")
    if pg.query("SELECT count(*), count(DISTINCT submission) FROM run") != [(60, 60)]:
        fail("runs lost or doubled")


def case_schema():
    """A server without a store, or of a newer schema: one line, exit 4; a bad address or no server named: 2."""
    pg = Postgres()
    expect(store("push", "--server", pg.dsn(), result_doc("hostA", 0)), 4, 1, "no store", has="server-init")
    expect(store("server-init", "--server", pg.dsn(), "--quiet"), 0, 0)
    expect(store("server-init", "--server", pg.dsn(), "--quiet"), 0, 0, "server-init twice")
    pg.query("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    expect(store("push", "--server", pg.dsn(), result_doc("hostA", 0)), 4, 1, "newer schema", has="version 99")
    expect(store("server-init", "--server", pg.dsn()), 4, 1, "init on a newer schema", has="newer")
    expect(store("push", "--server", "host=127.0.0.1 port=notaport", result_doc("hostA", 0)), 2, 1, "bad DSN")
    env_less = {k: v for k, v in os.environ.items() if k != "VKB_SERVER"}
    p = subprocess.run([sys.executable, os.path.join(TOOLS, "store.py"), "push", result_doc("hostA", 0)],
                       capture_output=True, text=True, env=env_less)
    expect(p, 2, 1, "no server named", has="--server")


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        sys.exit(f"usage: server_test.py {'|'.join(CASES)}")
    if not have_postgres() and os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run([os.path.join(TOOLS, "setup.sh"), "--postgres"], stdout=sys.stderr, timeout=900)
    if not have_postgres():
        if os.environ.get("CI") == "true":
            fail("no PostgreSQL server or psycopg2 under CI (tools/setup.sh --postgres installs them)")
        print("no PostgreSQL server or psycopg2: run tools/setup.sh --postgres (as root)")
        sys.exit(SKIP)
    try:
        CASES[sys.argv[1]]()
    finally:
        for pg in SERVERS:
            pg.watchdog.stdin.close()
            pg.watchdog.wait(timeout=120)
        shutil.rmtree(TMP, ignore_errors=True)
    print("ok")
