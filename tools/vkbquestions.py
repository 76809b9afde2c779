"""vkbquestions.py - the questions the results store answers (docs/store.md), each a list of table rows:

  history   this device's run against its model's history, per row
  drivers   driver A against driver B on one model, per row
  row       one row across every device model, driver and backend in the store
  health    a node's health verdicts over time
  verdicts  the runs that changed a row's verdict (validation, or speed against the history before it)

Every difference is judged by compare.py's rule (compare.judge): the ratio of median speeds with its noise band
(the spread within each run from its quartiles, and the spread between a side's runs), a rank test where both
sides have several runs, and a verdict: faster, slower, same or unclear, never a bare ratio. A sample is one
stored result: validated, timed and of a known direction; one run of a side is one sample."""
import argparse
import csv
import io
import json

import compare
import vkbjson
import vkbstore

ROW_KEY = ("family", "variant", "shape", "constants", "backend")
TIMED = ("r.status = 'ok' AND r.validated = 1 AND r.value > 0 AND r.better IS NOT NULL AND r.time_median_ms > 0")
COLUMNS = ("r.id AS result_id, r.run_id, r.family, r.variant, r.shape, r.constants, r.backend, r.status, "
           "r.validated, r.reps, r.settled, r.suspect, r.time_min_ms, r.time_q1_ms, r.time_median_ms, r.time_q3_ms, "
           "r.iqr_over_median, r.metric, r.better, r.value, r.fraction, r.check_reason, r.error, "
           "d.model, d.driver, d.uuid, d.backend AS device_backend, u.started, u.source, m.hostname")
FROM = ("FROM result r JOIN run u ON u.id = r.run_id LEFT JOIN device d ON d.id = r.device_id "
        "JOIN machine m ON m.id = u.machine_id")
ORDER = " ORDER BY u.started, u.id, r.ordinal"


def options(args):
    """compare.judge's options from the command line (percentages as fractions)."""
    return argparse.Namespace(floor=args.noise_floor / 100, threshold=args.threshold / 100, alpha=args.alpha,
                              absurd=args.absurd / 100)


def sample(row):
    """A stored result in the form compare.judge reads (vkbjson's schema-2 result)."""
    return {"time_ms": {"median": row["time_median_ms"], "q1": row["time_q1_ms"], "q3": row["time_q3_ms"],
                        "min": row["time_min_ms"]},
            "metric": {"value": row["value"], "better": row["better"], "name": row["metric"]},
            "reps": row["reps"] or 0, "settled": None if row["settled"] is None else bool(row["settled"]),
            "suspect": bool(row["suspect"])}


def key(row):
    return tuple(row[c] for c in ROW_KEY)


def row_text(k):
    family, variant, shape, constants, backend = k
    return f"{family}/{variant} {shape}" + (f" {constants}" if constants else "") + f" {backend}"


def verdict(base, cand, opts):
    """compare.judge of two lists of stored results, as the questions print it: SLOWER is slower."""
    j = compare.judge([sample(r) for r in base], [sample(r) for r in cand], opts)
    return {"ratio": j["ratio"], "noise": j["band"], "p": j["p"],
            "verdict": "slower" if j["verdict"] == "SLOWER" else j["verdict"]}


def median_value(rows):
    return vkbjson.median([r["value"] for r in rows])


def group(rows, by):
    out = {}
    for r in rows:
        out.setdefault(by(r), []).append(r)
    return out


# --- the questions ---

def find_device(db, device):
    """The device rows that DEVICE (a UUID, a model, or a device id) names."""
    rows = vkbstore.select(db, "SELECT * FROM device WHERE uuid = ? OR model = ? OR CAST(id AS TEXT) = ?",
                           (device, device, device))
    if not rows:
        raise vkbstore.StoreError(f"no device {vkbjson.clean(device)!r} in the store", vkbstore.USAGE)
    return rows


# Each row's last N samples, in SQL: for every row key of KEYS (a CTE of family, variant, shape, constants and
# backend), the ids of its LAST timed results on the devices named, walking the runs newest first through the index
# run_started (migration 2) and stopping at the Nth, so that a question reads N rows per row, not the whole history
# of a model. A window over each row's runs would read and sort every stored row of the model first.
LAST_OF_EACH = (f"SELECT {COLUMNS} FROM keys k JOIN result r ON r.id IN ("
                "SELECT r2.id FROM run u2 CROSS JOIN result r2 WHERE r2.run_id = u2.id AND r2.family = k.family AND "
                "r2.variant = k.variant AND r2.shape = k.shape AND r2.backend = k.backend AND r2.constants IS "
                "k.constants AND r2.device_id IN ({devices}) AND {before} AND " + TIMED.replace("r.", "r2.") +
                " ORDER BY u2.started DESC, u2.id DESC, r2.ordinal DESC LIMIT ?) "
                "JOIN run u ON u.id = r.run_id LEFT JOIN device d ON d.id = r.device_id "
                "JOIN machine m ON m.id = u.machine_id" + ORDER)


def last_of_each(db, keys, key_params, devices, last, before="1 = 1", before_params=()):
    """The LAST timed results of each row of the KEYS query on the DEVICES (ids) whose run meets BEFORE (on u2),
    oldest first: {row key: [result]}."""
    marks = ", ".join("?" * len(devices))
    sql = f"WITH keys AS ({keys}) " + LAST_OF_EACH.format(devices=marks, before=before)
    return group(vkbstore.select(db, sql, (*key_params, *devices, *before_params, last)), key)


def model_devices(db, model, drivers=None):
    """The ids of the devices of MODEL (with one of DRIVERS, as reported or its version, where given)."""
    sql, params = "SELECT id FROM device WHERE model = ?", [model]
    if drivers is not None:
        sql += " AND (driver = ? OR driver_version = ?)"
        params += drivers
    return [r[0] for r in vkbstore.select(db, sql, params)]


def history(db, device, run=None, last=10, opts=None):
    """Each timed row of DEVICE's run RUN (default its latest) against the same row on every device of its model
    in the LAST runs before it."""
    ids = [d["id"] for d in find_device(db, device)]
    marks = ", ".join("?" * len(ids))
    if run is None:
        found = vkbstore.select(db, f"SELECT u.id FROM run u JOIN result r ON r.run_id = u.id WHERE r.device_id IN "
                                f"({marks}) AND {TIMED} ORDER BY u.started DESC, u.id DESC LIMIT 1", ids)
        if not found:
            raise vkbstore.StoreError(f"device {vkbjson.clean(device)!r} has no timed run", vkbstore.USAGE)
        run = found[0][0]
    cand = vkbstore.select(db, f"SELECT {COLUMNS} {FROM} WHERE r.run_id = ? AND r.device_id IN ({marks}) AND {TIMED}"
                           + ORDER, [run] + ids)
    if not cand:
        raise vkbstore.StoreError(f"run {run} has no timed row of device {vkbjson.clean(device)!r}", vkbstore.USAGE)
    model, started = cand[0]["model"], cand[0]["started"]
    keys = (f"SELECT DISTINCT r.family, r.variant, r.shape, r.constants, r.backend FROM result r WHERE r.run_id = ? "
            f"AND r.device_id IN ({marks}) AND {TIMED}")
    past = last_of_each(db, keys, [run] + ids, model_devices(db, model), last,
                        "u2.id <> ? AND (u2.started IS NULL OR ? IS NULL OR u2.started <= ?)", (run, started, started))
    out = []
    for k, rows in group(cand, key).items():
        base = past.get(k, [])
        line = {"row": row_text(k), "unit": rows[0]["metric"], "value": median_value(rows), "run": run,
                "history_runs": len(base), "history_median": median_value(base) if base else None}
        line.update(verdict(base, rows, opts) if base else {"ratio": None, "noise": None, "p": None,
                                                              "verdict": "unclear"})
        out.append(line)
    return out


def drivers(db, model, a, b, last=10, opts=None):
    """Per row of MODEL: its LAST runs with driver B against its LAST runs with driver A (a driver as reported, or
    its version; a device that is both is A's)."""
    side = {"a": model_devices(db, model, [a, a])}
    side["b"] = [d for d in model_devices(db, model, [b, b]) if d not in side["a"]]
    got = {}
    for name, devices in side.items():
        marks = ", ".join("?" * len(devices))
        keys = (f"SELECT DISTINCT r.family, r.variant, r.shape, r.constants, r.backend FROM result r "  # index only
                f"WHERE r.device_id IN ({marks})")
        got[name] = last_of_each(db, keys, devices, devices, last) if devices else {}
    if not got["a"] or not got["b"]:
        missing = a if not got["a"] else b
        raise vkbstore.StoreError(f"no timed row of {vkbjson.clean(model)!r} with driver {vkbjson.clean(missing)!r}",
                                  vkbstore.USAGE)
    ga, gb = got["a"], got["b"]
    out = []
    for k in [k for k in ga if k in gb]:
        line = {"row": row_text(k), "unit": ga[k][0]["metric"], "a": median_value(ga[k]), "b": median_value(gb[k]),
                "runs_a": len(ga[k]), "runs_b": len(gb[k])}
        line.update(verdict(ga[k], gb[k], opts))
        out.append(line)
    return out


def split_row(text):
    family, slash, variant = text.partition("/")
    if not slash or not family or not variant:
        raise vkbstore.StoreError(f"row {vkbjson.clean(text)!r}: FAMILY/VARIANT", vkbstore.USAGE)
    return family, variant


def row_filter(text, shape, backend):
    family, variant = split_row(text)
    where, params = "r.family = ? AND r.variant = ?", [family, variant]
    for column, value in (("r.shape", shape), ("r.backend", backend)):
        if value is not None:
            where += f" AND {column} = ?"
            params.append(value)
    return where, params


def row(db, text, shape=None, backend=None, last=10, opts=None):
    """One row (FAMILY/VARIANT, a shape and backend to narrow it) per device model, driver, shape and backend:
    its runs and failures, and over its LAST runs its median, noise, and ratio to the fastest model with a
    verdict."""
    where, params = row_filter(text, shape, backend)
    rows = vkbstore.select(db, f"SELECT {COLUMNS} {FROM} WHERE {where}" + ORDER, params)
    groups = group(rows, lambda r: (r["model"] or "unknown device", r["driver"] or "", r["shape"], r["backend"]))
    timed = {g: [r for r in rs if r["validated"] == 1 and r["status"] == "ok" and r["value"]][-last:]
             for g, rs in groups.items()}
    best = {}
    for g, rs in timed.items():
        if rs:
            s = vkbjson.median([vkbjson.speed(sample(r)) for r in rs])
            if g[2:] not in best or s > best[g[2:]][0]:
                best[g[2:]] = (s, g)
    out = []
    for g, rs in sorted(groups.items()):
        t = timed[g]
        line = {"model": g[0], "driver": g[1], "shape": g[2], "backend": g[3], "runs": len(rs),
                "failed": sum(1 for r in rs if r["status"] == "fail" or r["error"]),
                "suspect": sum(1 for r in t if r["suspect"]), "unit": t[0]["metric"] if t else None,
                "median": median_value(t) if t else None,
                "fraction": vkbjson.median([r["fraction"] for r in t if r["fraction"] is not None] or [0]) if t else None,
                "spread": compare.run_noise([sample(r) for r in t]) if t else None}
        top = best.get(g[2:])
        line.update(verdict(timed[top[1]], t, opts) if t and top else {"ratio": None, "noise": None, "p": None,
                                                                       "verdict": "unclear"})
        line["against"] = top[1][0] if top else None
        out.append(line)
    return out


def health(db, host, gpu=None):
    """HOST's health verdicts, oldest first, per GPU."""
    where, params = "m.hostname = ?", [host]
    if gpu is not None:
        where += " AND h.gpu = ?"
        params.append(gpu)
    rows = vkbstore.select(db, "SELECT u.started, m.hostname, h.gpu, d.model, d.uuid, d.driver, h.verdict, h.action, "
                           "h.node_verdict, h.speed_ratio, h.reasons, u.id AS run FROM health h JOIN run u ON "
                           "u.id = h.run_id JOIN device d ON d.id = h.device_id JOIN machine m ON m.id = u.machine_id "
                           f"WHERE {where} ORDER BY u.started, u.id, h.gpu", params)
    return [{"time": r["started"], "host": r["hostname"], "gpu": r["gpu"], "model": r["model"], "uuid": r["uuid"],
             "driver": r["driver"], "verdict": r["verdict"], "action": r["action"], "node": r["node_verdict"],
             "speed_ratio": r["speed_ratio"], "reasons": "; ".join(json.loads(r["reasons"])), "run": r["run"]}
            for r in rows]


def verdicts(db, text, shape=None, backend=None, model=None, last=10, opts=None):
    """The runs in which a row's verdict changed, per device model and row: its validation (passed or failed), or
    its speed against the LAST runs before it (faster, slower, same, unclear)."""
    where, params = row_filter(text, shape, backend)
    if model is not None:
        where += " AND d.model = ?"
        params.append(model)
    rows = vkbstore.select(db, f"SELECT {COLUMNS} {FROM} WHERE {where} AND r.status <> 'skip'" + ORDER, params)
    out = []
    for (mdl, k), rs in group(rows, lambda r: (r["model"], key(r))).items():
        before, seen, last_word = [], [], None
        for r in rs:
            if r["status"] == "fail" or r["error"] or r["validated"] != 1:
                word, judged = "failed", {"ratio": None, "noise": None, "p": None}
            elif not r["value"] or not r["better"]:
                word, judged = "passed", {"ratio": None, "noise": None, "p": None}
            elif not before:
                word, judged = "first", {"ratio": None, "noise": None, "p": None}
            else:
                judged = verdict(before[-last:], [r], opts)
                word = judged.pop("verdict")
            if word != last_word and last_word is not None and not (word == "same" and last_word == "first"):
                out.append({"time": r["started"], "run": r["run_id"], "source": r["source"], "model": mdl,
                            "driver": r["driver"], "row": row_text(k), "from": last_word, "to": word,
                            "value": r["value"], **judged})
            last_word = word
            if word not in ("failed", "passed"):
                before.append(r)
            seen.append(r)
    return out


def history_documents(db, model, driver, last=10, exclude=()):
    """The LAST runs of MODEL with DRIVER (a driver as reported) in the store, each as a vkbjson document of its
    timed rows, without the runs whose submission keys are in EXCLUDE (the candidates themselves, where stored):
    the baseline of a history-aware gate (compare.py --db)."""
    runs = vkbstore.select(db, "SELECT DISTINCT u.id, u.started, u.source FROM run u JOIN result r ON r.run_id = u.id "
                           f"JOIN device d ON d.id = r.device_id WHERE d.model = ? AND d.driver = ? AND {TIMED} "
                           + (f"AND u.submission NOT IN ({', '.join('?' * len(exclude))}) " if exclude else "") +
                           "ORDER BY u.started DESC, u.id DESC LIMIT ?", (model, driver, *exclude, last))
    docs = []
    for run in reversed(runs):
        rows = vkbstore.select(db, f"SELECT {COLUMNS}, r.repeat, r.device_rank, r.ceiling_row {FROM} WHERE "
                               f"r.run_id = ? AND d.model = ? AND d.driver = ? AND {TIMED}" + ORDER,
                               (run["id"], model, driver))
        results = [{**sample(r), "family": r["family"], "variant": r["variant"], "backend": r["backend"],
                    "shape_text": r["shape"], "shape": {}, "constants": r["constants"], "status": "ok",
                    "repeat": r["repeat"], "device_rank": r["device_rank"], "ceiling_row": bool(r["ceiling_row"]),
                    "error": None} for r in rows]
        docs.append({"path": f"store run {run['id']}", "results": results, "settings": {},
                     "devices": [{"backend": b, "name": model, "driver": driver} for b in
                                 sorted({r["backend"] for r in results})]})
    return docs


# --- output ---

def cell(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return vkbjson.sig(v, 4)
    return vkbjson.clean(str(v))


def render(rows, fmt, columns):
    """ROWS (dicts) as a terminal table, JSON or CSV, in COLUMNS' order: (key, heading) pairs."""
    if fmt == "json":
        return vkbjson.dumps(rows) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow([k for k, _ in columns])
        for r in rows:
            w.writerow(["" if r.get(k) is None else r.get(k) for k, _ in columns])
        return buf.getvalue()
    texts = [[h for _, h in columns]] + [[noise_cell(r, k) for k, _ in columns] for r in rows]
    widths = [min(60, max(len(t[i]) for t in texts)) for i in range(len(columns))]
    lines = ["  ".join(f"{t[i][:widths[i]]:{widths[i]}}" for i in range(len(columns))).rstrip() for t in texts]
    return "\n".join(lines + ([] if rows else ["(no rows)"])) + "\n"


def noise_cell(r, k):
    if k in ("noise", "spread") and r.get(k) is not None:
        return f"±{vkbjson.pct(r[k])}"
    if k == "ratio" and r.get(k) is not None:
        return vkbjson.ratio_text(r[k])
    return cell(r.get(k))


DIFF = [("ratio", "ratio"), ("noise", "noise"), ("p", "p"), ("verdict", "verdict")]
QUESTIONS = {
    "history": [("row", "row"), ("value", "value"), ("unit", "unit"), ("history_median", "history"),
                ("history_runs", "runs")] + DIFF,
    "drivers": [("row", "row"), ("a", "driver A"), ("b", "driver B"), ("unit", "unit"), ("runs_a", "runs A"),
                ("runs_b", "runs B")] + DIFF,
    "row": [("model", "model"), ("driver", "driver"), ("shape", "shape"), ("backend", "backend"), ("runs", "runs"),
            ("failed", "failed"), ("suspect", "suspect"), ("median", "median"), ("unit", "unit"),
            ("fraction", "of ceiling"), ("spread", "spread"), ("against", "against")] + DIFF,
    "health": [("time", "time"), ("host", "host"), ("gpu", "gpu"), ("model", "model"), ("driver", "driver"),
               ("verdict", "verdict"), ("action", "action"), ("speed_ratio", "speed"), ("reasons", "reasons")],
    "verdicts": [("time", "time"), ("run", "run"), ("model", "model"), ("driver", "driver"), ("row", "row"),
                 ("from", "from"), ("to", "to"), ("value", "value"), ("ratio", "ratio"), ("noise", "noise")],
}


def answer(args):
    opts = options(args)
    db = vkbstore.connect(args.db, create=False)
    if args.command == "history":
        rows = history(db, args.device, args.run, args.last, opts)
    elif args.command == "drivers":
        rows = drivers(db, args.model, args.a, args.b, args.last, opts)
    elif args.command == "row":
        rows = row(db, args.row, args.shape, args.backend, args.last, opts)
    elif args.command == "health":
        rows = health(db, args.host, args.gpu)
    else:
        rows = verdicts(db, args.row, args.shape, args.backend, args.model, args.last, opts)
    fmt = "json" if args.json else "csv" if args.csv else "text"
    sys_out = vkbjson.Output("-", "the answer")
    sys_out.finish(render(rows, fmt, QUESTIONS[args.command]))
    return 0


def add_commands(sub, common):
    """The questions' subcommands on the argparse subparsers SUB (COMMON: the shared --db)."""
    ask = argparse.ArgumentParser(add_help=False)
    out = ask.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="the rows as JSON")
    out.add_argument("--csv", action="store_true", help="the rows as CSV")
    ask.add_argument("--threshold", type=float, default=compare.THRESHOLD, help="percent of noise band past which "
                     f"a row is unclear (default {compare.THRESHOLD:g})")
    ask.add_argument("--noise-floor", type=float, default=compare.NOISE_FLOOR)
    ask.add_argument("--alpha", type=float, default=compare.ALPHA)
    ask.add_argument("--absurd", type=float, default=compare.ABSURD)
    parents = [common, ask]
    p = sub.add_parser("history", parents=parents, help="a device's run against its model's history")
    p.add_argument("--device", required=True, help="UUID, model or device id")
    p.add_argument("--run", type=int, help="the run (default: the device's latest)")
    p.add_argument("--last", type=int, default=10, help="runs of history per row (default 10)")
    p = sub.add_parser("drivers", parents=parents, help="driver A against driver B on one model")
    p.add_argument("--model", required=True)
    p.add_argument("--a", required=True, metavar="DRIVER")
    p.add_argument("--b", required=True, metavar="DRIVER")
    p.add_argument("--last", type=int, default=10, help="runs per driver and row (default 10)")
    for name in ("row", "verdicts"):
        p = sub.add_parser(name, parents=parents, help="one row across every device" if name == "row" else
                           "the runs that changed a row's verdict")
        p.add_argument("row", metavar="FAMILY/VARIANT")
        p.add_argument("--shape")
        p.add_argument("--backend")
        p.add_argument("--last", type=int, default=10, help="runs per group (default 10)")
        if name == "verdicts":
            p.add_argument("--model")
    p = sub.add_parser("health", parents=parents, help="a node's health over time")
    p.add_argument("--host", required=True)
    p.add_argument("--gpu", type=int)
    for name in QUESTIONS:
        sub.choices[name].set_defaults(handler=answer)
