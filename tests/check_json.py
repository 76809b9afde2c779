#!/usr/bin/env python3
"""check_json.py [--schema-only] FILE [FAMILY...]: the JSON a run wrote is valid UTF-8 JSON, follows the
schema in README.md (2.x; files of schema 1 are still accepted), and every result of the named families
validated and was timed with its ceiling beside it. --schema-only checks the structure alone (results
that failed or were cut short are allowed: the sinks' tests feed fabricated ones)."""
import json
import math
import sys

args = sys.argv[1:]
schema_only = "--schema-only" in args
args = [a for a in args if a != "--schema-only"]
with open(args[0], "rb") as f:
    doc = json.loads(f.read().decode("utf-8"))  # strict: invalid UTF-8 raises
families = set(args[1:])

version = doc.get("schema_version")
if version == 1:
    major = 1
else:
    assert isinstance(version, str) and len(version.split(".")) == 3 and all(
        p.isdigit() for p in version.split(".")), f"schema_version {version!r} is not semantic (MAJOR.MINOR.PATCH)"
    major = int(version.split(".")[0])
assert major in (1, 2), f"schema_version {version!r}: this checker knows 1 and 2.x"
assert doc["tool"] == "vkbench", "header"
assert doc["devices"] and all("name" in d and "backend" in d and "driver" in d for d in doc["devices"]), "devices"
if major >= 2:
    s = doc["settings"]
    for key in ("command", "subcommand", "seed", "timed", "mode", "warmup_ms", "first_warmup_ms", "budget_ms",
                "reps", "spec", "tool_version"):
        assert key in s, f"settings: no {key}"
    assert isinstance(s["seed"], int) and s["seed"] >= 0, "settings: seed"
    if s["timed"]:
        assert s["mode"] in ("hot", "cold"), f"settings: mode {s['mode']!r}"
        assert s["budget_ms"] is not None and s["warmup_ms"] is not None, "settings: warm-up and budget"
    assert s["reps"] is None or (isinstance(s["reps"], int) and s["reps"] > 0), "settings: reps"
    assert isinstance(doc["interrupted"], bool), "interrupted"
    assert doc["plan"]["cases"] >= 0, "plan"
    devices = {d["name"] for d in doc["devices"]}
    # 2.1 (issue 26): where each device is; each result names its device's index
    minor = int(version.split(".")[1])
    if minor >= 1:
        for d in doc["devices"]:
            assert isinstance(d["index"], int) and d["index"] >= 0 and d["host"], f"device identity: {d}"
            assert isinstance(d["uuid"], str) and len(d["uuid"]) == 36 and "pci_bus" in d, f"device identity: {d}"
    indices = {(d["backend"], d.get("index", 0)) for d in doc["devices"]}

# a group name (memory) stands for its families (memory.width, ...)
results = [r for r in doc["results"] if not families or r["family"] in families
           or r["family"].split(".")[0] in families]
assert results, "no results"
seen = set()


def finite(x):
    return isinstance(x, (int, float)) and math.isfinite(x)


for r in results:
    name = f'{r["family"]}/{r["variant"]} {r["backend"]} {r["shape_text"]}'
    for key in ("family", "variant", "backend", "shape", "reps", "time_ms", "metric", "validated",
                "max_error", "tolerance", "status"):
        assert key in r, f"{name}: no {key}"
    if major >= 2:
        for key in ("device", "settled", "suspect", "suspect_reason", "predicted", "constants", "skip_reason"):
            assert key in r, f"{name}: no {key}"
        assert r["device"] in devices, f"{name}: device {r['device']!r} is not among the devices"
        if minor >= 1:
            assert (r["backend"], r["device_index"]) in indices, f"{name}: device_index {r['device_index']} unlisted"
        assert isinstance(r["suspect"], bool), f"{name}: suspect"
        assert r["predicted"] is None or finite(r["predicted"]), f"{name}: predicted"
        if r["suspect"]:
            assert r["suspect_reason"], f"{name}: suspect without a reason"
    assert r["status"] in ("ok", "fail", "skip"), f"{name}: status {r['status']!r}"
    # schema 1 files from before pipeline statistics were recorded have none
    pipelines = r["pipelines"] if major >= 2 else r.get("pipelines", [])
    assert isinstance(pipelines, list), f"{name}: pipelines is not a list"
    for p in pipelines:
        assert p["kernel"] and p["executable"] and all(
            isinstance(v, (int, float)) for v in p["statistics"].values()), f"{name}: pipeline statistics {p}"
    if r["status"] == "skip":
        assert r["skip_reason"], f"{name}: a skip without a reason"
        continue
    t = r["time_ms"]
    if t is not None:
        assert r["reps"] >= 1, f"{name}: no repetitions"
        order = ["min", "q1", "median", "q3", "max"] if major >= 2 else ["min", "median", "max"]
        values = [t[k] for k in order]
        assert all(finite(v) for v in values) and 0 < values[0], f"{name}: times {t}"
        assert all(a <= b for a, b in zip(values, values[1:])), f"{name}: times out of order {t}"
        if major >= 2:
            iqr = (t["q3"] - t["q1"]) / t["median"]
            assert abs(t["iqr_over_median"] - iqr) <= 1e-6 * max(1, iqr), f"{name}: iqr_over_median"
            assert isinstance(r["settled"], bool), f"{name}: settled"
        assert r["metric"]["value"] > 0, f"{name}: no metric"
    if schema_only:
        seen.add(r["variant"])
        continue
    assert r["status"] == "ok" and r["validated"], f"{name}: not validated"
    assert t is not None, f"{name}: not timed"
    # a ceiling beside every kernel, unless none of the family's ceilings could run here (cuBLAS without CUDA)
    if not r["ceiling_row"] and any(c["ceiling_row"] and c["family"] == r["family"] and c["status"] == "ok"
                                    for c in doc["results"]):
        assert r["metric"]["ceiling"] and r["metric"]["fraction"] > 0, f"{name}: no ceiling"
    seen.add(r["variant"])
print(f"ok: schema {version}, {len(results)} results, variants {sorted(seen)}")
