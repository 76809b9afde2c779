#!/usr/bin/python3
"""blind_test.py CASE: the tools where their tests were blind: an old-schema file read back value by value (each
legacy unit's direction, the spread from the quartiles, a single repetition), and a schema check that sees a
defect past the first item of every array. Fixed documents made here from tests/tools/fixtures; exit 1 on the
first wrong value."""
import copy
import json
import os
import sys
import tempfile
from test_verdicts import check, run_cases

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools"))
import vkbjson  # noqa: E402
import vkbschema  # noqa: E402


def fixture(name):
    with open(os.path.join(HERE, "fixtures", name)) as f:
        return json.load(f)


def loaded(doc):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "old.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        return vkbjson.load(path)


def case_vkbjson_legacy_values():
    doc = fixture("v1-lavapipe.json")
    check(doc.get("schema_version") == 1, "the fixture is a schema-1 file", doc.get("schema_version"))
    template = doc["results"][0]
    rows = []
    # one row per legacy unit, none with a recorded direction; quartiles set, no spread recorded
    for n, (unit, better) in enumerate(sorted({"GB/s": "higher", "GFLOP/s": "higher", "GOP/s": "higher",
                                                "us": "lower", "ns/load": "lower"}.items())):
        r = copy.deepcopy(template)
        r["variant"] = f"v{n}"
        r["metric"] = {"name": unit, "value": 10.0 + n}
        r["time_ms"] = {"min": 0.5, "q1": 0.8, "median": 1.0 + n, "q3": 1.4 + 2 * n, "max": 3.0 + 2 * n, "mean": 1.0}
        rows.append((r, better))
    one = copy.deepcopy(template)   # a single repetition: min = median = max, no quartiles in a schema-1 file
    one.update(variant="single", reps=1)
    one["time_ms"] = {"min": 2.0, "median": 2.0, "max": 2.0, "mean": 2.0, "stddev": 0.0}
    doc["results"] = [r for r, _ in rows] + [one]
    got = {r["variant"]: r for r in loaded(doc)["results"]}
    for r, better in rows:
        g = got[r["variant"]]
        check(g["metric"]["better"] == better, f'{r["metric"]["name"]}: {better} is better', g["metric"])
        want = (r["time_ms"]["q3"] - r["time_ms"]["q1"]) / r["time_ms"]["median"]
        check(abs(g["time_ms"]["iqr_over_median"] - want) < 1e-12, f'{r["metric"]["name"]}: spread (q3 - q1) / median',
              g["time_ms"], want)
    s = got["single"]
    check(s["reps"] == 1 and s["time_ms"]["median"] == 2.0 and s["time_ms"]["q1"] is None and
          s["time_ms"]["iqr_over_median"] is None and s["metric"]["better"] == "higher",
          "one repetition: its time kept, no quartiles and no spread made up", s)


def case_vkbschema_defect_past_first():
    doc = fixture("v2-h100.json")
    base = set(vkbschema.errors(doc))
    last_r, last_d = len(doc["results"]) - 1, len(doc["devices"]) - 1
    check(last_r >= 2 and last_d >= 1, "the fixture has several results and devices", last_r, last_d)
    plants = [
        (lambda d: d["results"][last_r]["time_ms"].update(median="fast"), f"results[{last_r}]"),
        (lambda d: d["results"][last_r].pop("variant"), f"results[{last_r}]"),
        (lambda d: d["results"][1]["metric"].update(value=-3.0), "results[1]"),
        (lambda d: d["devices"][last_d].update(name=5), f"devices[{last_d}]"),
        (lambda d: d["results"][last_r].update(reps=1.5), f"results[{last_r}]"),
    ]
    for plant, where in plants:
        d = copy.deepcopy(doc)
        plant(d)
        new = [e for e in vkbschema.errors(d) if e not in base]
        check(new and all(e.startswith(f"document.{where}") for e in new),
              f"a defect in {where} is found there, past the first item", new)


def recipe_table(table, files):
    """tools/recipes/tables.py TABLE on a folder of FILES ({name: document}): exit code, stdout, stderr."""
    import subprocess
    with tempfile.TemporaryDirectory() as d:
        for name, doc in files.items():
            with open(os.path.join(d, name), "w") as f:
                json.dump(doc, f)
        p = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "recipes",
                                                         "tables.py"), table, d], capture_output=True, text=True,
                           timeout=60)
        return p.returncode, p.stdout, p.stderr


def row(family, variant, value, better="higher", index=None, status="ok", backend="vulkan"):
    r = {"family": family, "variant": variant, "shape_text": "n=1024", "backend": backend, "status": status,
         "metric": {"value": value, "better": better}}
    if index is not None:
        r["device_index"] = index
    return r


def case_tables_node():
    """node: each device's validate counts by status; GPU 0 beside the others over GPU 0 alone, as a ratio of
    rates whichever way the metric goes (a time per operation twice as long is 0.5, as a bandwidth halved)."""
    validate = {"results": [row("copy", "vec4", 1, index=0), row("copy", "api_copy", 1, index=0),
                            row("copy", "vec4", 1, index=1, status="fail")]}
    together = {"results": [row("copy", "vec4", 50.0, index=0), row("latency", "dispatch", 4.0, "lower", index=0),
                            row("copy", "vec4", 70.0, index=1)]}
    alone = {"results": [row("copy", "vec4", 100.0, index=0), row("latency", "dispatch", 2.0, "lower", index=0)]}
    code, out, err = recipe_table("node", {"validate-all.json": validate, "suite-all.json": together,
                                           "suite-0.json": alone})
    check(code == 0 and not err, "node: exit 0, nothing on stderr", code, out, err)
    counts = [ln.split() for ln in out.splitlines() if ln.strip().startswith("validate device")]
    check(counts == [["validate", "device", "0", "vulkan", "ok", "2"], ["validate", "device", "1", "vulkan", "fail",
                                                                        "1"]], "node: the counts by device and status", out)
    ratio = {ln.split()[0]: ln.split()[1] for ln in out.splitlines() if ln.startswith("    ")}
    check(ratio == {"copy": "0.500", "latency": "0.500"}, "node: the ratio of rates, lower-is-better turned", out)


def case_tables_two_drivers():
    """two-drivers: a file from before device_index (schema 2.0) is device 0's, matched with the run of every
    device by that index."""
    devices = [{"backend": "vulkan", "name": "GPU A", "index": 0}, {"backend": "vulkan", "name": "GPU B", "index": 1}]
    files = {f"all-{w}.json": {"devices": devices, "results": [row("copy", "vec4", 80.0, index=0)]} for w in (1, 2)}
    for w in (1, 2):
        files[f"alone-{w}-0.json"] = {"devices": [{"backend": "vulkan", "name": "GPU A"}],
                                      "results": [row("copy", "vec4", 100.0)]}   # no device_index: device 0
        files[f"alone-{w}-1.json"] = {"devices": devices, "results": []}
    code, out, err = recipe_table("two-drivers", files)
    check(code == 0 and not err, "two-drivers: exit 0, nothing on stderr", code, out, err)
    lines = [ln for ln in out.splitlines() if ln.startswith("0: GPU A")]
    check(len(lines) == 1 and lines[0].split()[-1] == "0.800", "two-drivers: the old file's row as device 0's", out)


if __name__ == "__main__":
    run_cases(globals(), "blind_test.py", tool_of={"tables_node": "recipes", "tables_two_drivers": "recipes"})
