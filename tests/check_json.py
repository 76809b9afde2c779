#!/usr/bin/env python3
"""check_json.py FILE [FAMILY...]: the JSON a run wrote is valid, follows the schema in README.md,
and every result of the named families validated and was timed with its ceiling beside it."""
import json
import sys

doc = json.load(open(sys.argv[1]))
families = set(sys.argv[2:])
assert doc["schema_version"] == 1 and doc["tool"] == "vkbench", "header"
assert doc["devices"] and all("name" in d and "backend" in d for d in doc["devices"]), "devices"
# a group name (memory) stands for its families (memory.width, ...)
results = [r for r in doc["results"] if not families or r["family"] in families
           or r["family"].split(".")[0] in families]
assert results, "no results"
seen = set()
for r in results:
    name = f'{r["family"]}/{r["variant"]} {r["backend"]} {r["shape_text"]}'
    for key in ("family", "variant", "backend", "shape", "reps", "time_ms", "metric", "validated",
                "max_error", "tolerance", "status"):
        assert key in r, f"{name}: no {key}"
    assert isinstance(r["pipelines"], list), f"{name}: pipelines is not a list"
    for p in r["pipelines"]:
        assert p["kernel"] and p["executable"] and all(
            isinstance(v, (int, float)) for v in p["statistics"].values()), f"{name}: pipeline statistics {p}"
    if r["status"] == "skip":
        assert r["skip_reason"], f"{name}: a skip without a reason"
        continue
    assert r["status"] == "ok" and r["validated"], f"{name}: not validated"
    assert r["reps"] >= 1, f"{name}: no repetitions"
    t = r["time_ms"]
    assert 0 < t["min"] <= t["median"] <= t["max"], f"{name}: times out of order {t}"
    assert r["metric"]["value"] > 0, f"{name}: no metric"
    # a ceiling beside every kernel, unless none of the family's ceilings could run here (cuBLAS without CUDA)
    if not r["ceiling_row"] and any(c["ceiling_row"] and c["family"] == r["family"] and c["status"] == "ok"
                                    for c in doc["results"]):
        assert r["metric"]["ceiling"] and r["metric"]["fraction"] > 0, f"{name}: no ceiling"
    seen.add(r["variant"])
print(f"ok: {len(results)} results, variants {sorted(seen)}")
