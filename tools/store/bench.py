#!/usr/bin/python3
"""bench.py - time the results store (docs/store.md, "Measured"): the import of folders of result files, and each
question and the results page on a synthetic store of ROWS result rows (default 1 000 000: 4 models x 2 drivers x 25 rows per run).
Prints one line per measurement; asserts nothing. Usage: bench.py [--rows N] [--import DIR...]"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOOLS)
import vkbstore  # noqa: E402

ROWS_PER_RUN = 25


def synthetic(path, rows):
    """A store of ROWS results: runs of 25 rows each over 4 models, 2 drivers each, 8 hosts, one day apart."""
    db = vkbstore.connect(path)
    rng = random.Random(1)
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT INTO build (version, identity) VALUES ('0.1.0', '[\"0.1.0\"]')")
    for h in range(8):
        db.execute("INSERT INTO machine (hostname) VALUES (?)", (f"node{h}",))
    devices = []
    for m in range(4):
        for d in range(2):
            ident = json.dumps([f"Model {m}", f"Driver 1.{d}"])
            cur = db.execute("INSERT INTO device (machine_id, backend, model, uuid, driver, driver_version, identity) "
                             "VALUES (?, 'vulkan', ?, ?, ?, ?, ?)",
                             (1 + m * 2 + d, f"Model {m}", f"uuid-{m}-{d}", f"Driver 1.{d}", f"1.{d}", ident))
            devices.append(cur.lastrowid)
    for run in range(rows // ROWS_PER_RUN):
        dev = devices[run % len(devices)]
        day = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1.7e9 + 600 * run))
        cur = db.execute("INSERT INTO run (submission, machine_id, build_id, started, status, imported) VALUES "
                         "(?, ?, 1, ?, 'complete', ?)", (f"bench:{run}", 1 + (dev - 1), day, day))
        rid = cur.lastrowid
        batch = []
        for i in range(ROWS_PER_RUN):
            value = 100.0 * (i + 1) * rng.uniform(0.98, 1.02)
            med = 1000.0 / value
            batch.append((rid, dev, i, "family", f"variant{i}", "vulkan", "n=1024", "ok", 1, 20, 1, 0, med * 0.99,
                          med, med * 1.01, 0.02, "GB/s", "higher", value))
        db.executemany("INSERT INTO result (run_id, device_id, ordinal, family, variant, backend, shape, status, "
                       "validated, reps, settled, suspect, time_q1_ms, time_median_ms, time_q3_ms, iqr_over_median, "
                       "metric, better, value) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", batch)
    db.execute("COMMIT")
    db.close()


def timed(what, argv):
    t = time.perf_counter()
    p = subprocess.run([sys.executable, *argv], capture_output=True, text=True)
    print(f"{what}: {time.perf_counter() - t:.2f} s (exit {p.returncode})")
    return p


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--import", dest="folders", nargs="*", default=[])
    args = ap.parse_args()
    store = os.path.join(TOOLS, "store.py")
    with tempfile.TemporaryDirectory() as tmp:
        for n, folder in enumerate(args.folders):
            timed(f"import {folder}", [store, "--db", os.path.join(tmp, f"import{n}.db"), "import", "--quiet", folder])
        path = os.path.join(tmp, "big.db")
        t = time.perf_counter()
        synthetic(path, args.rows)
        print(f"synthetic store of {args.rows} rows built: {time.perf_counter() - t:.1f} s")
        for what, q in (("history", ["history", "--device", "uuid-0-0"]),
                        ("drivers", ["drivers", "--model", "Model 0", "--a", "1.0", "--b", "1.1"]),
                        ("row", ["row", "family/variant3"]),
                        ("verdicts", ["verdicts", "family/variant3", "--model", "Model 1"]),
                        ("health", ["health", "--host", "node1"])):
            timed(f"{what} on {args.rows} rows", [store, "--db", path, *q, "--json"])
        timed(f"page on {args.rows} rows", [store, "--db", path, "page", "--quiet", "--out", os.path.join(tmp, "site")])


if __name__ == "__main__":
    main()
