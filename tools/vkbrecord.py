"""vkbrecord.py - a results file read into the store's records, and the checker that refuses a bad one.

read(path) turns one file into Submission records (a tar.gz gives one per member): a vkbench results document of
any schema version (through tools/vkbjson.py), a `vkbench health --json` verdict (docs/vkbench-health.schema.json)
or vkbench's CSV (docs/output.md). Each Submission carries what the store's tables hold (tools/store/schema.sql):
its machine, build, run, devices, result rows and health verdicts, and its key: the SHA-256 of the bytes read, so
that a file read twice is one submission.

The checker (reasons()) is the store's gate on what it keeps, after MLPerf's submission checker: a record is
refused, with one line per reason, when it is not JSON, holds a NaN or an infinity, a key twice in one object, a
string longer than MAX_TEXT, a field of the wrong type (vkbjson's shape check), a timed row that was not validated
(a row without a validation verdict is not a result), or a measured metric whose direction is unknown."""
import csv
import hashlib
import io
import json
import math
import os
import tarfile

import vkbjson
import vkbschema

MAX_TEXT = 65536            # characters: longer than any name, command line or reason vkbench writes
HEALTH = "vkbench-health/1"
HEALTH_SCHEMA = vkbschema.load("vkbench-health.schema.json")
CSV_HEAD = "family,variant,backend,device,shape,"


class Refused(Exception):
    """A file or record the store does not take: args[0] is the list of reasons, one line each."""


class Submission:
    """One run as the store keeps it; the attributes are the columns of machine, build, run, device, result and
    health (tools/store/schema.sql), devices and rows as dicts of those columns."""
    def __init__(self, key, source, source_schema):
        self.key, self.source, self.source_schema = key, source, source_schema
        self.hostname, self.build = "", {"version": None, "git_commit": None, "options": None, "shader_compiler": None}
        self.subcommand = self.started = self.ended = self.command = None
        self.status, self.settings = "complete", {}
        self.devices, self.rows, self.health = [], [], []   # rows and health name a device by its index in devices


# --- reading a file ---

def read(path):
    """[Submission] of the file at PATH; raise Refused with the reasons it is not taken."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Refused([f"cannot read {vkbjson.clean(path)}: {e.strerror}"])
    if path.endswith((".tar.gz", ".tgz")):
        return read_tar(path, data)
    return [read_bytes(vkbjson.clean(path), data)]


def read_tar(path, data):
    out = []
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            for m in tar.getmembers():
                if m.isfile() and m.name.endswith((".json", ".csv")):
                    out.append(read_bytes(f"{vkbjson.clean(path)}:{vkbjson.clean(m.name)}",
                                          tar.extractfile(m).read()))
    except (tarfile.TarError, OSError, EOFError) as e:
        raise Refused([f"{vkbjson.clean(path)}: not a readable tar.gz ({e})"])
    return out


def read_bytes(shown, data):
    """The Submission of one file's bytes DATA, named SHOWN in messages and in run.source."""
    key = "sha256:" + hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused([f"{shown}: not UTF-8 text"])
    if text.startswith(CSV_HEAD):
        return from_csv(shown, key, text)
    doc = strict_json(shown, text)
    if isinstance(doc, dict) and doc.get("schema") == HEALTH:
        return from_health(shown, key, doc)
    if shown.endswith(".csv"):
        raise Refused([f"{shown}: not a vkbench CSV (its first line is not vkbench's header)"])
    try:
        parsed = vkbjson.convert(doc, shown, vkbjson.may_control(text))
    except vkbjson.Refused as e:
        raise Refused([str(e)])
    rows = row_reasons(shown, parsed)
    if rows:
        raise Refused(rows)
    return from_document(shown, key, parsed)


def strict_json(shown, text):
    """TEXT parsed, or Refused with every reason it is no record: not JSON, NaN or infinity, duplicate keys, huge
    strings (one line each)."""
    reasons = []

    def pairs(items):
        seen = set()
        for k, _ in items:
            if k in seen:
                reasons.append(f"{shown}: the key {vkbjson.clean(k)[:60]!r} twice in one object")
            seen.add(k)
        return dict(items)

    def constant(name):
        reasons.append(f"{shown}: {name} is not a JSON number")
        return None
    try:
        doc = json.loads(text, parse_constant=constant, object_pairs_hook=pairs)
    except RecursionError:
        raise Refused([f"{shown}: nested too deeply to be a vkbench record"])
    except ValueError as e:
        raise Refused([f"{shown}: not JSON ({vkbjson.clean(str(e).splitlines()[0])[:200]})"])
    reasons += [f"{shown}: {where}: a string of {n} characters (at most {MAX_TEXT})" for where, n in long_texts(doc)]
    if reasons:
        raise Refused(reasons)
    return doc


def long_texts(x, where="document"):
    """(place, length) of every string (or key) in X longer than MAX_TEXT."""
    if isinstance(x, str):
        return [(where, len(x))] if len(x) > MAX_TEXT else []
    if isinstance(x, list):
        return [t for i, v in enumerate(x) for t in long_texts(v, f"{where}[{i}]")]
    if isinstance(x, dict):
        out = [(f"{where} key", len(k)) for k in x if len(k) > MAX_TEXT]
        return out + [t for k, v in x.items() for t in long_texts(v, f"{where}.{vkbjson.clean(k)[:40]}")]
    return []


def row_reasons(shown, doc):
    """One line per row of DOC (checked by vkbjson) that is timed but not validated."""
    out = []
    for i, r in enumerate(doc["results"]):
        if r["status"] == "ok" and (r.get("metric") or {}).get("value") is not None and r.get("validated") is not True:
            out.append(f"{shown}: results[{i}] ({r['family']}/{r['variant']} {r['backend']}): timed but not "
                       "validated (no validation verdict: not a result)")
    return out


# --- the three formats ---

def split_driver(text):
    """('NVIDIA', '580.159.04') of 'NVIDIA 580.159.04': the words before the first that starts with a digit, and
    that word; (TEXT, None) where no word does."""
    if not text:
        return None, None
    words = text.split()
    for i, w in enumerate(words):
        if w[:1].isdigit():
            return " ".join(words[:i]) or None, w.rstrip(",")
    return text, None


def device_record(d, hostname):
    name, version = split_driver(d.get("driver"))
    return {"hostname": d.get("host") or hostname, "backend": d.get("backend") or "vulkan", "vendor": d.get("vendor"),
            "vendor_id": d.get("vendor_id"), "device_id": d.get("device_id"), "model": d.get("name") or "unknown device",
            "uuid": d.get("uuid"), "pci_bus": d.get("pci_bus"), "type": d.get("type"),
            "cpu_implementation": flag(d.get("cpu_implementation")), "driver": d.get("driver"), "driver_name": name,
            "driver_version": version, "api_version": d.get("api_version"),
            "conformance_version": d.get("conformance_version")}


def flag(x):
    return None if x is None else int(bool(x))


def from_document(shown, key, doc):
    s = Submission(key, shown, str(doc.get("schema_version")))
    hosts = [d.get("host") for d in doc["devices"] if d.get("host")]
    s.hostname = hosts[0] if hosts else ""
    s.build["version"] = doc.get("version") or doc["settings"].get("tool_version")
    s.subcommand = doc["settings"].get("subcommand") or ("tune" if doc.get("bare_list") else None)
    s.started, s.command = doc.get("date"), doc.get("command")
    s.status = "interrupted" if doc.get("interrupted") or doc.get("error") else "complete"
    s.settings = doc["settings"]
    s.devices = [device_record(d, s.hostname) for d in doc["devices"]]
    index = {}
    for i, d in enumerate(doc["devices"]):
        index.setdefault((d.get("backend"), d.get("index")), i)
        index.setdefault((d.get("backend"), None), i)
    for n, r in enumerate(doc["results"]):
        dev = index.get((r["backend"], r.get("device_index")), index.get((r["backend"], None)))
        s.rows.append(row_record(n, r, dev))
    twins(s.rows)
    return s


def row_record(n, r, dev):
    t, m, c = r.get("time_ms") or {}, r.get("metric") or {}, r.get("check") or {}
    validated = r.get("validated")
    if validated is None and r["status"] == "fail":
        validated = False
    if r["status"] == "skip":
        validated = None    # a skipped row was not validated: NULL, as the schema and vkbench --db keep it
    return {"device": dev, "ordinal": n, "family": r["family"], "variant": r["variant"], "backend": r["backend"],
            "shape": r.get("shape_text") or "", "shape_json": json.dumps(r.get("shape") or {}),
            "constants": r.get("constants"), "repeat": r.get("repeat"), "device_rank": r.get("device_rank") or 0,
            "status": r["status"], "skip_reason": r.get("skip_reason"), "error": r.get("error"),
            "validated": flag(validated), "max_error": r.get("max_error"), "tolerance": r.get("tolerance"),
            "check_reason": c.get("reason"), "reps": r.get("reps"), "settled": flag(r.get("settled")),
            "suspect": int(bool(r.get("suspect"))), "suspect_reason": r.get("suspect_reason"),
            "time_min_ms": t.get("min"), "time_q1_ms": t.get("q1"), "time_median_ms": t.get("median"),
            "time_q3_ms": t.get("q3"), "time_max_ms": t.get("max"), "iqr_over_median": t.get("iqr_over_median"),
            "metric": m.get("name"), "better": m.get("better"), "value": m.get("value"),
            "ceiling_row": int(bool(r.get("ceiling_row"))), "ceiling_variant": m.get("ceiling_variant"),
            "ceiling_backend": m.get("ceiling_backend"), "ceiling": m.get("ceiling"), "fraction": m.get("fraction"),
            "predicted": vkbjson.predicted_fraction(r), "twin_value": None, "twin_ratio": None}


def speed(row):
    """A row's value turned so that more is better (the inverse where lower is better), or None."""
    v = row.get("value")
    if not v or row.get("validated") != 1:
        return None
    return vkbjson.bounded(1 / v) if row["better"] == "lower" else v


def twins(rows):
    """Give each non-CUDA row of one run its CUDA twin: the cuda row of the same family, variant, shape,
    constants and repetition."""
    cuda = {(r["family"], r["variant"], r["shape"], r["constants"], r["repeat"]): r for r in rows
            if r["backend"] == "cuda" and speed(r)}
    for r in rows:
        t = cuda.get((r["family"], r["variant"], r["shape"], r["constants"], r["repeat"]))
        if r["backend"] != "cuda" and t and speed(r):
            r["twin_value"], r["twin_ratio"] = t["value"], vkbjson.ratio(speed(r), speed(t))


def from_health(shown, key, doc):
    errors = vkbschema.errors(doc, HEALTH_SCHEMA, root=HEALTH_SCHEMA)
    if errors:
        raise Refused([f"{shown}: {vkbjson.clean(str(e))[:300]}" for e in errors[:20]])
    s = Submission(key, shown, HEALTH)
    s.hostname, s.subcommand = doc["hostname"], "health"
    s.started = s.ended = iso_time(doc["time"])
    for g in doc["gpus"]:
        dev = len(s.devices)
        s.devices.append(device_record({"backend": "vulkan", "name": g["model"], "uuid": g["uuid"],
                                        "pci_bus": g["pci_bus_id"], "driver": g["driver"], "index": g["gpu"]},
                                       doc["hostname"]))
        s.health.append({"device": dev, "gpu": g["gpu"], "node_verdict": doc["verdict"], "verdict": g["verdict"],
                         "action": g["action"], "reasons": json.dumps(g["failing"]),
                         "speed_judged": int(g["speed_judged"]),
                         "speed_ratio": g.get("speed_ratio", whole_gpu_ratio(g["failing"]))})
        for r in g["rows"]:
            family, _, variant = r["row"].partition("/")
            variant = variant.split("@")[0]
            ok = r["status"] == "ok"
            s.rows.append({**row_record(len(s.rows), {"family": family, "variant": variant, "backend": r["backend"],
                                                      "status": r["status"], "validated": ok if r["status"] != "skip"
                                                      else None}, dev),
                           "time_median_ms": 1000 * r["median_s"] if "median_s" in r else None,
                           "metric": r.get("unit"), "better": "higher" if "metric" in r else None,
                           "value": r.get("metric")})
    return s


def whole_gpu_ratio(failing):
    """The whole GPU's speed over its baseline where a speed line states it ('speed: all rows: 0.82x of ...'): for
    verdicts written before they carried speed_ratio."""
    for line in failing:
        head, _, rest = line.partition("all rows: ")
        if head.startswith("speed") and rest:
            try:
                return float(rest.split("x", 1)[0])
            except ValueError:
                return None
    return None


def iso_time(seconds):
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def from_csv(shown, key, text):
    """vkbench's CSV (docs/output.md): one row per result; ok rows are validated ones (vkbench marks a row that
    failed validation fail); the metric's direction is its unit's (vkbjson.LEGACY_BETTER)."""
    s = Submission(key, shown, "csv")
    lines = [ln for ln in text.splitlines() if not ln.startswith("#")]
    if any(ln.startswith("# interrupted") or ln.startswith("# error") for ln in text.splitlines()):
        s.status = "interrupted"
    reasons, devices = [], {}
    for n, c in enumerate(csv.DictReader(lines)):
        try:
            row = csv_row(n, c)
        except (ValueError, TypeError, KeyError) as e:
            reasons.append(f"{shown}: line {n + 2}: {vkbjson.clean(str(e))[:200]}")
            continue
        ident = (c.get("backend"), c.get("device"), c.get("uuid"), c.get("driver"))
        if ident not in devices:
            devices[ident] = len(s.devices)
            s.devices.append(device_record({"backend": c.get("backend"), "name": c.get("device"),
                                            "uuid": c.get("uuid") or None, "pci_bus": c.get("pci_bus") or None,
                                            "driver": c.get("driver") or None, "host": c.get("host") or None}, ""))
            s.hostname = s.hostname or c.get("host") or ""
        row["device"] = devices[ident]
        s.rows.append(row)
    if reasons:
        raise Refused(reasons)
    twins(s.rows)
    return s


def csv_number(text, what):
    if text in ("", None):
        return None
    x = float(text)
    if not math.isfinite(x):
        raise ValueError(f"{what}: {text!r} is not a finite number")
    return x


def csv_row(n, c):
    if c.get("status") not in vkbjson.STATUSES:
        raise ValueError(f"status {c.get('status')!r} is not ok, fail or skip")
    num = {k: csv_number(c.get(k), k) for k in ("reps", "min_ms", "q1_ms", "median_ms", "q3_ms", "max_ms",
                                                "iqr_over_median", "metric", "ceiling", "fraction", "predicted",
                                                "max_error", "tolerance", "repeat", "device_index")}
    better = vkbjson.LEGACY_BETTER.get(c.get("metric_name"))
    if num["metric"] is not None and better is None:
        raise ValueError(f"the unit {c.get('metric_name')!r} does not say which way is better")
    r = {"family": c["family"], "variant": c["variant"], "backend": c["backend"], "shape_text": c.get("shape"),
         "status": c["status"], "skip_reason": c.get("skip_reason") or None, "constants": c.get("constants") or None,
         "repeat": num["repeat"], "reps": num["reps"], "settled": {"true": True, "false": False}.get(c.get("settled")),
         "suspect": c.get("suspect") == "true", "suspect_reason": c.get("suspect_reason") or None,
         "validated": {"ok": True, "fail": False}.get(c["status"]), "max_error": num["max_error"],
         "tolerance": num["tolerance"],
         "time_ms": {"min": num["min_ms"], "q1": num["q1_ms"], "median": num["median_ms"], "q3": num["q3_ms"],
                     "max": num["max_ms"], "iqr_over_median": num["iqr_over_median"]},
         "metric": {"name": c.get("metric_name") or None, "better": better, "value": num["metric"],
                    "ceiling": num["ceiling"], "fraction": num["fraction"],
                    "ceiling_variant": c.get("ceiling_variant") or None,
                    "ceiling_backend": c.get("ceiling_backend") or None},
         "predicted": num["predicted"]}
    return row_record(n, r, None)
