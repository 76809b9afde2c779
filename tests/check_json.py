#!/usr/bin/env python3
"""check_json.py [--schema-only] FILE [FAMILY...]: the JSON a run wrote is valid UTF-8 JSON, follows the
schema docs/vkbench.schema.json (2.x; files of schema 1 are still accepted), and every result of the named families
validated and was timed with its ceiling beside it. --schema-only checks the structure alone (results
that failed or were cut short are allowed: the sinks' tests feed fabricated ones). A file whose every
result is a skip fails (nothing was checked), and so does a number that is not finite (NaN and Infinity
are no JSON). Exit 0 with "ok: ..."; 1 with one line "check_json: FAIL: what" on any defect, whatever the
file holds (no traceback); 2 for a usage error or a file that cannot be read.

Two options for committed files that the project keeps as measured (tests/check_committed.py names them):
--pre-release-2.1: a "2.1.0" file written by a development build before the 2.1 additions of the other
branches were joined: every 2.0 field in full, each 2.1 addition checked where the file has it.
--failed N: exactly N results failed validation (a recorded failure); every other result checked in full."""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import vkbschema  # noqa: E402  the format's one description: docs/vkbench.schema.json


def refuse_constant(name):
    raise ValueError(f"{name} is not a JSON number")


args = sys.argv[1:]
if args and args[0] in ("-h", "--help"):
    print(__doc__)
    sys.exit(0)
schema_only = "--schema-only" in args
pre_release = "--pre-release-2.1" in args
args = [a for a in args if a not in ("--schema-only", "--pre-release-2.1")]
expect_failed = 0
if "--failed" in args:
    i = args.index("--failed")
    if i + 1 >= len(args) or not args[i + 1].isdigit():
        sys.exit("usage: check_json.py [--schema-only] [--pre-release-2.1] [--failed N] FILE [FAMILY...]")
    expect_failed = int(args[i + 1])
    del args[i:i + 2]
if not args:
    sys.exit("usage: check_json.py [--schema-only] [--pre-release-2.1] [--failed N] FILE [FAMILY...]")
try:
    with open(args[0], "rb") as f:
        raw = f.read()
except OSError as e:
    print(f"check_json: error: cannot read {args[0]!r}: {e.strerror}", file=sys.stderr)
    sys.exit(2)
families = set(args[1:])


def check():
    """Every check of the file: an AssertionError names the first defect."""
    try:
        doc = json.loads(raw.decode("utf-8"), parse_constant=refuse_constant)  # strict: invalid UTF-8 raises
    except (ValueError, RecursionError) as e:
        raise AssertionError(f"not JSON: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
    assert isinstance(doc, dict), "not a JSON object"

    version = doc.get("schema_version")
    if version == 1:
        major = 1
    else:
        assert isinstance(version, str) and len(version.split(".")) == 3 and all(
            p.isdigit() for p in version.split(".")), f"schema_version {version!r} is not semantic (MAJOR.MINOR.PATCH)"
        major = int(version.split(".")[0])
    minor = int(version.split(".")[1]) if major >= 2 else 0
    assert major in (1, 2), f"schema_version {version!r}: this checker knows 1 and 2.x"
    assert not pre_release or version == "2.1.0", f"--pre-release-2.1 on a {version} file"

    def has(obj, key):
        """Whether a 2.1 addition KEY is to be checked in OBJ: always, but in a pre-release 2.1 file only where
        it is there."""
        return not pre_release or key in obj
    assert doc["tool"] == "vkbench", "header"
    assert doc["devices"] and all("name" in d and "backend" in d and "driver" in d for d in doc["devices"]), "devices"
    if major >= 2:
        # the structure: every field, type and range the schema file names (2.1's additions where they apply)
        # the required additions of later minor versions (x-since) are not asked of an older file
        later = tuple(f"2.{m}" for m in range(minor + 1, 10)) + (("2.1",) if pre_release else ())
        defects = vkbschema.errors(doc, skip_since=later)
        assert not defects, f"schema: {defects[0]}" + (f" (and {len(defects) - 1} more)" if len(defects) > 1 else "")
        s = doc["settings"]
        if s["timed"]:
            assert s["mode"] in ("hot", "cold"), f"settings: mode {s['mode']!r}"
            assert s["budget_ms"] is not None and s["warmup_ms"] is not None, "settings: warm-up and budget"
        assert s["reps"] is None or (isinstance(s["reps"], int) and s["reps"] > 0), "settings: reps"
        assert isinstance(doc["interrupted"], bool), "interrupted"
        repeat = s.get("repeat")  # 2.1: --repeat N, each result with its run number; absent without
        assert repeat is None or (isinstance(repeat, int) and repeat >= 1), "settings: repeat"
        assert all((r.get("repeat") is None) == (repeat is None) for r in doc["results"]), "repeat on some results only"
        assert repeat is None or all(0 <= r["repeat"] < repeat for r in doc["results"]), "repeat out of range"
        assert doc["plan"]["cases"] >= 0, "plan"
        devices = {d["name"] for d in doc["devices"]}
        if minor >= 1:  # 2.1: the device's identity
            for d in doc["devices"]:
                if not has(d, "vendor"):
                    continue
                assert d["vendor"] is None or isinstance(d["vendor"], str), f"devices: vendor {d}"
                assert isinstance(d["vendor_id"], int) and (d["device_id"] is None or isinstance(d["device_id"], int)), \
                    f"devices: vendor_id, device_id {d}"
                assert isinstance(d["cpu_implementation"], bool), f"devices: cpu_implementation {d}"
                # where each device is; each result names its device's index
                if not has(d, "index"):
                    continue
                assert isinstance(d["index"], int) and d["index"] >= 0 and d["host"], f"device identity: {d}"
                assert isinstance(d["uuid"], str) and len(d["uuid"]) == 36 and "pci_bus" in d, f"device identity: {d}"
        indices = {(d["backend"], d.get("index", 0)) for d in doc["devices"]}

    # a group name (memory) stands for its families (memory.width, ...)
    results = [r for r in doc["results"] if not families or r["family"] in families
               or r["family"].split(".")[0] in families]
    assert results, "no results"
    seen = set()
    failed = 0


    assert any(r["status"] != "skip" for r in results), \
        f"every one of the {len(results)} results is a skip: nothing was checked"

    def finite(x):
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

    for r in results:
        name = f'{r["family"]}/{r["variant"]} {r["backend"]} {r["shape_text"]}'
        if major == 1:   # schema 1 is not in the schema file: its results' fields here
            for key in ("family", "variant", "backend", "shape", "reps", "time_ms", "metric", "validated",
                        "max_error", "tolerance", "status"):
                assert key in r, f"{name}: no {key}"
        if major >= 2:
            assert r["device"] in devices, f"{name}: device {r['device']!r} is not among the devices"
            assert isinstance(r["suspect"], bool), f"{name}: suspect"
            assert r["predicted"] is None or finite(r["predicted"]), f"{name}: predicted"
            if r["suspect"]:
                assert r["suspect_reason"], f"{name}: suspect without a reason"
        if (major, minor) >= (2, 1) and has(r, "device_index"):
            assert (r["backend"], r["device_index"]) in indices, f"{name}: device_index {r['device_index']} unlisted"
        if (major, minor) >= (2, 1) and has(r, "subgroup_size"):   # the size its kernels ran with, or null
            sg = r["subgroup_size"]
            assert sg is None or (isinstance(sg, int) and sg > 0 and sg & (sg - 1) == 0), \
                f"{name}: subgroup_size {sg!r}"
            asked = doc["settings"]["subgroup_size"] if has(doc["settings"], "subgroup_size") else None
            assert asked is None or sg in (None, asked), f"{name}: subgroup_size {sg} but --subgroup-size {asked}"
        if "robustness" in r:   # 2.1, optional (files before --robustness lack it: the driver's default)
            want = {"vulkan": doc["settings"].get("robustness", "default")}.get(r["backend"])
            assert want in ("default", "disabled") or r["backend"] != "vulkan", \
                f"settings: robustness {doc['settings'].get('robustness')!r}"
            assert r["robustness"] == want, f"{name}: robustness {r['robustness']!r}, settings say {want!r}"
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
            # 2.1: statistics fewer repetitions cannot give are null (quartiles and IQR below 3, stddev below 2)
            nulls = set()
            if (major, minor) >= (2, 1):
                nulls = ({"q1", "q3", "iqr_over_median"} if r["reps"] < 3 else set()) | (
                    {"stddev"} if r["reps"] < 2 else set())
                if pre_release:   # a pre-release file may hold 2.0's numbers there: checked as numbers
                    nulls = {k for k in nulls if t[k] is None}
            for key in nulls:
                assert t[key] is None, f"{name}: {key} of {r['reps']} repetition(s) is {t[key]!r}, not null"
            values = [t[k] for k in order if k not in nulls]
            assert all(finite(v) for v in values) and 0 < values[0], f"{name}: times {t}"
            assert all(a <= b for a, b in zip(values, values[1:])), f"{name}: times out of order {t}"
            if major >= 2 and "iqr_over_median" not in nulls:
                iqr = (t["q3"] - t["q1"]) / t["median"]
                # one repetition gives no spread: null (older files wrote 0)
                assert (t["iqr_over_median"] is None and r["reps"] == 1) or abs(t["iqr_over_median"] - iqr) <= \
                    1e-6 * max(1, iqr), f"{name}: iqr_over_median"
            if major >= 2:
                assert isinstance(r["settled"], bool), f"{name}: settled"
            assert finite(r["metric"]["value"]) and r["metric"]["value"] > 0, f"{name}: no finite metric"
        if schema_only:
            seen.add(r["variant"])
            continue
        if r["status"] == "fail" and failed < expect_failed:
            failed += 1   # a recorded failure the caller names (--failed N)
            continue
        assert r["status"] == "ok" and r["validated"], f"{name}: not validated"
        assert t is not None, f"{name}: not timed"
        # a ceiling beside every kernel, unless none of the family's ceilings could run here (cuBLAS without CUDA)
        if not r["ceiling_row"] and any(c["ceiling_row"] and c["family"] == r["family"] and c["status"] == "ok"
                                        for c in doc["results"]):
            assert r["metric"]["ceiling"] and r["metric"]["fraction"] > 0, f"{name}: no ceiling"
        seen.add(r["variant"])
    assert failed == expect_failed, f"{failed} results failed validation, not the {expect_failed} of --failed"
    print(f"ok: schema {version}, {len(results)} results, variants {sorted(seen)}")


try:
    check()
except (AssertionError, KeyError, TypeError, AttributeError, IndexError, ValueError) as e:
    what = str(e) if isinstance(e, AssertionError) else f"{type(e).__name__}: {e} (a field missing or of the wrong type)"
    print(f"check_json: FAIL: {args[0]}: {what.encode('unicode_escape').decode()[:400]}")
    sys.exit(1)
