#!/usr/bin/python3
"""health_test.py VKBENCH CASE: `vkbench health` on lavapipe (--allow-cpu counts it as a GPU; two devices come
from two driver manifests naming the same lavapipe, as devices_test.py does). Each case plants a fault and checks
the verdict JSON, the exit code and the stable failure lines; no verdict depends on timing (a baseline's medians
are set far beyond or below any machine's). Exit 77: no lavapipe."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools"))
import vkbschema  # noqa: E402  the reader of docs/vkbench.schema.json, tests/check_json.py's

HEALTH_SCHEMA = vkbschema.load("vkbench-health.schema.json")
LVP = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
LINE = re.compile(r"^vkbench: GPU (\d+) ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}) (\S+): "
                  r"([a-z]+): (.+)$")


def check(cond, what, *context):
    if not cond:
        print(f"FAIL: {what}")
        for c in context:
            print(str(c)[-3000:])
        sys.exit(1)


def health(args, env=None, two=False):
    """(exit code, stdout, stderr, verdict JSON or None) of vkbench health ARGS."""
    tmp = tempfile.mkdtemp()
    e = dict(os.environ, **(env or {}))
    e.pop("VKB_FAULT_INJECT", None) if not env or "VKB_FAULT_INJECT" not in env else None
    if not os.path.exists(LVP):
        print("no lavapipe manifest")
        sys.exit(77)
    files = []
    for name in ("a.json", "b.json")[: 2 if two else 1]:
        files.append(os.path.join(tmp, name))
        with open(LVP) as src, open(files[-1], "w") as dst:
            dst.write(src.read())
    e["VK_DRIVER_FILES"] = ":".join(files)
    e.pop("VK_ICD_FILENAMES", None)
    js = os.path.join(tmp, "verdict.json")
    p = subprocess.run([VKBENCH, "health", *args, "--json", js], capture_output=True, text=True, env=e, timeout=300)
    doc = json.load(open(js)) if os.path.exists(js) else None
    defects = vkbschema.errors(doc, root=HEALTH_SCHEMA) if doc is not None else []
    check(not defects, "the verdict follows docs/vkbench-health.schema.json", defects, doc)
    return p.returncode, p.stdout, p.stderr, doc


def failing_lines(err):
    return [LINE.match(l) for l in err.splitlines() if l.startswith("vkbench: GPU ")]


def case_no_gpu():
    rc, out, err, doc = health([])
    check(rc == 1, "lavapipe alone is no GPU: exit 1", rc, err)
    check("vkbench: node: count: no GPU found" in err, "the node's line", err)
    check(doc and doc["exit"] == 1 and doc["gpus_found"] == 0 and doc["gpus"] == [], "the verdict JSON", doc)
    rc, out, err, doc = health(["--expect", "0"])
    check(rc == 0 and "no GPU" not in err, "--expect 0: a node meant to have none: kept", rc, err)


def case_healthy():
    rc, out, err, doc = health(["--allow-cpu"], two=True)
    check(rc == 0, "two healthy devices: exit 0", rc, out, err)
    check(not failing_lines(err), "no failure line", err)
    check([g["verdict"] for g in doc["gpus"]] in (["pass", "pass"], ["pass", "warn"], ["warn", "pass"],
                                                  ["warn", "warn"]), "pass (a SUSPECT timing warns)", doc)
    for g in doc["gpus"]:
        check(g["action"] == "none" and g["speed_judged"] is False and "not judged" in g["speed_note"],
              "no baseline: speed reported, not judged", g)
        rows = {r["row"]: r for r in g["rows"]}
        for row in ("copy/vec4", "peak/fma_f32", "transfer/staging_h2d", "transfer/staging_d2h", "reduce/subgroup"):
            check(rows.get(row, {}).get("status") == "ok" and rows[row]["metric"] > 0, f"battery row {row}", g)


def case_wrong_result():
    rc, out, err, doc = health(["--allow-cpu"], env={"VKB_FAULT_INJECT": "wrong-device:1"}, two=True)
    check(rc == 1, "a wrong result on GPU 1: exit 1", rc, err)
    lines = failing_lines(err)
    check(lines and all(m and m.group(1) == "1" and m.group(3) == "-" and m.group(4) == "validate" for m in lines),
          "every failure line names GPU 1, its check validate", err)
    g0, g1 = doc["gpus"]
    check(g0["verdict"] != "fail" and g1["verdict"] == "fail" and g1["action"] == "drain", "GPU 1 alone fails", doc)
    check(any("copy/vec4: wrong result" in f for f in g1["failing"]), "the failing check names the row", g1)


def case_hang():
    rc, out, err, doc = health(["--allow-cpu"], env={"VKB_FAULT_INJECT": "hang:1", "VKB_DEVICE_TIMEOUT_S": "2"},
                               two=True)
    check(rc == 1, "a hung GPU 1: exit 1", rc, err)
    g0, g1 = doc["gpus"]
    check(g0["verdict"] != "fail", "GPU 0 is not held by GPU 1's hang", doc)
    check(g1["verdict"] == "fail" and g1["action"] == "reset" and g1["failing"][0].startswith("device: "),
          "GPU 1: device, reset", g1)
    check(any(m and m.group(4) == "device" for m in failing_lines(err)), "a device line", err)


def case_expect():
    rc, out, err, doc = health(["--allow-cpu", "--expect", "2"])
    check(rc == 1 and "vkbench: node: count: expected 2 GPUs, found 1" in err, "a missing GPU", rc, err)
    check(doc["node_problem"] == "expected 2 GPUs, found 1" and doc["exit"] == 1, "in the JSON", doc)
    rc, out, err, doc = health(["--allow-cpu", "--expect", "llvmpipe:2,H100:1"], two=True)
    check(rc == 1 and "expected 1 H100, found 0" in err and "llvmpipe" not in err.split("count:")[1],
          "by model: only the model that differs", rc, err)
    rc, out, err, doc = health(["--allow-cpu", "--expect", "LLVMPIPE:2"], two=True)
    check(rc == 0, "by model, case-insensitive, matching", rc, err)


def baseline(path, median, noise="0", rows=None):
    """A baseline for this machine's lavapipe at PATH: copy/vec4 at MEDIAN and NOISE, or ROWS, (row, median,
    noise) each."""
    caps = subprocess.run([VKBENCH, "devices"], capture_output=True, text=True).stdout
    model = re.search(r"^0: (.*?) \(cpu\)$", caps, re.M).group(1)
    driver = re.search(r"^   driver +(.*)$", caps, re.M).group(1)
    with open(path, "w") as f:
        f.write("# vkbench baseline 1\n")
        for row, mid, spread in rows or [("copy/vec4", median, noise)]:
            f.write(f"{model}\t{driver}\t{row}\t{mid}\t{spread}\n")


def case_baseline():
    tmp = tempfile.mkdtemp()
    slow, fast = os.path.join(tmp, "high.tsv"), os.path.join(tmp, "low.tsv")
    baseline(slow, "1e12")   # no machine copies a petabyte a second: slower than the baseline, always
    baseline(fast, "1e-9")
    rc, out, err, doc = health(["--allow-cpu", "--baseline", slow])
    check(rc == 1 and doc["gpus"][0]["speed_judged"] is True and doc["gpus"][0]["action"] == "drain",
          "slower than the baseline: exit 1, drain", rc, err, doc)
    check(any(m and m.group(4) == "speed" and "copy/vec4" in m.group(5) for m in failing_lines(err)), "a speed line",
          err)
    rc, out, err, doc = health(["--allow-cpu", "--baseline", fast])
    check(rc == 0 and doc["gpus"][0]["speed_judged"] is True, "faster than the baseline: kept, speed judged", rc,
          err, doc)
    # a noise bound wider than the median: nothing is slow enough
    baseline(slow, "1e12", "1e12")
    rc, out, err, doc = health(["--allow-cpu", "--baseline", slow])
    check(rc == 0, "inside the noise bound: kept", rc, err)


def case_aggregate():
    """The whole GPU's speed (the median over its rows) and each row's are judged apart, each against its
    own bound; no verdict depends on timing: every median is far beyond or below any machine's, and a row's noise
    of 1e12 keeps the row rule out of it."""
    rc, out, err, doc = health(["--allow-cpu"])
    timed = [r["row"] for r in doc["gpus"][0]["rows"] if "metric" in r]
    check(len(timed) >= 5, "the battery's timed rows", doc)
    base = os.path.join(tempfile.mkdtemp(), "base.tsv")
    # every row slower than its median, none beyond its own bound: the whole GPU, bounded by 4 x the aggregate row's
    # noise (3%: 12%, beyond health's 8% floor)
    baseline(base, 0, rows=[(r, "1e12", "1e12") for r in timed] + [("*", "1", "0.03")])
    rc, out, err, doc = health(["--allow-cpu", "--baseline", base])
    g = doc["gpus"][0]
    speed = [f for f in g["failing"] if f.startswith("speed: ")]   # beside it a SUSPECT timing may warn
    check(rc == 1 and g["verdict"] == "fail" and g["action"] == "drain" and len(speed) == 1 and
          re.match(rf"speed: all rows: 0\.00x of the baseline \(the median of {len(timed)} rows; bound 0\.88x, "
                   r"noise 0\.03\)$", speed[0]), "the whole GPU fails speed, no row alone", rc, err, g)
    check([m.group(5).split(":")[0] for m in failing_lines(err) if m.group(4) == "speed"] == ["all rows"],
          "its failure line", err)
    # the same without the aggregate row: the rows' noise taken as independent, 1e12 each, holds the GPU too
    baseline(base, 0, rows=[(r, "1e12", "1e12") for r in timed])
    rc, out, err, doc = health(["--allow-cpu", "--baseline", base])
    check(doc["gpus"][0]["speed_judged"] is True and not [f for f in doc["gpus"][0]["failing"] if "speed" in f],
          "without it: the rows' noise bounds the whole GPU", rc, err)
    # one row slow, the others far faster than their medians: the whole GPU passes, the row rule finds that row
    baseline(base, 0, rows=[(r, "1e12" if r == "copy/vec4" else "1e-9", "0") for r in timed] + [("*", "1", "0.01")])
    rc, out, err, doc = health(["--allow-cpu", "--baseline", base])
    g = doc["gpus"][0]
    speed = [f for f in g["failing"] if f.startswith("speed: ")]
    check(rc == 1 and len(speed) == 1 and speed[0].startswith("speed: copy/vec4: "),
          "one row slow on its own: that row fails speed, the whole GPU does not", rc, err, g)


def case_baseline_roundtrip():
    """health --json, fleet.py --write-baseline, health --baseline: the tools agree on the format (the verdict's
    speed is this machine's load's, so only that it was judged is checked)."""
    rc, out, err, doc = health(["--allow-cpu"])
    base = write_baseline(doc)
    rc, out, err, doc = health(["--allow-cpu", "--baseline", base])
    check(rc in (0, 1) and doc["gpus"][0]["speed_judged"] is True, "the baseline read and used", rc, err)


def write_baseline(doc):
    """The baseline fleet.py --write-baseline writes from the verdict DOC (one healthy run: each row's median is
    that run's metric, its noise the tool's floor): its path."""
    tmp = tempfile.mkdtemp()
    verdict, base = os.path.join(tmp, "v.json"), os.path.join(tmp, "base.tsv")
    json.dump(doc, open(verdict, "w"))
    fleet = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools",
                         "fleet.py")
    p = subprocess.run([sys.executable, fleet, verdict, "--write-baseline", base], capture_output=True, text=True)
    check(p.returncode == 0, "fleet.py --write-baseline", p.stderr)
    return base


def case_slower():
    """A GPU slower than its own baseline: the baseline from a healthy run of this node, then the same node with
    VKB_FAULT_INJECT=slower:0:1000 (every timed row 11x the time). The verdict must not depend on load, and two
    lavapipe runs seconds apart on a shared 2-core machine differ by more than the 15% of the issue's throttled
    GPU (docs/tooling.md, the stress table: 15% is planted there, 10 times, and counted) but not by 11x: the
    fault's rows are judged at 1/11 of their baseline against a bound of 8% (health.c's MIN_SLOWDOWN over the
    tool's noise floor). A fault out of its range plants nothing: refused, exit 2, one line."""
    rc, out, err, doc = health(["--allow-cpu"])
    check(rc in (0, 1) and doc and doc["gpus"], "the healthy run", rc, err)
    base = write_baseline(doc)
    rc, out, err, doc = health(["--allow-cpu", "--baseline", base], env={"VKB_FAULT_INJECT": "slower:0:1000"})
    check(rc == 1, "a slower GPU 0: exit 1", rc, err, doc)
    g = doc["gpus"][0]
    check(g["verdict"] == "fail" and g["action"] == "drain" and g["speed_judged"] is True,
          "GPU 0: fail, drain, speed judged", g)
    timed = [r["row"] for r in g["rows"] if "metric" in r]
    speed = [f for f in g["failing"] if f.startswith("speed: ")]
    # the whole GPU first, then every timed row, each at about 1/11 of its baseline (a GPU keeps 8 checks): a run
    # merely slowed by load has some rows inside the bound and none at half its baseline
    check(len(speed) == min(8, len(timed) + 1) and speed[0].startswith("speed: all rows: ") and
          any(f.startswith("speed: copy/vec4: ") for f in speed), "the whole GPU and every timed row fail speed",
          timed, g)
    ratios = [float(re.search(r"([0-9.]+)x of the baseline", f).group(1)) for f in speed]
    check(max(ratios) < 0.5, "each at a fraction of its baseline", ratios, g)
    lines = failing_lines(err)
    check(lines and all(m and m.group(1) == "0" and m.group(4) == "speed" for m in lines),
          "every failure line: GPU 0, speed", err)
    for bad in ("slower:0:0", "slower:0:1001", "slower:0", "slower:64:15"):
        rc, out, err, doc = health(["--allow-cpu"], env={"VKB_FAULT_INJECT": bad})
        check(rc == 2 and len(err.strip().splitlines()) == 1 and "slower takes ':I:N'" in err,
              f"{bad}: refused, exit 2, one line", rc, err)


def case_schema():
    """docs/vkbench-health.schema.json: a real verdict (one GPU failing validate, the other passing) follows it,
    and each defect planted in a copy is found: the checker every case runs reads the schema, not a copy of it."""
    import copy
    rc, out, err, doc = health(["--allow-cpu"], env={"VKB_FAULT_INJECT": "wrong-device:1"}, two=True)
    check(rc == 1 and len(doc["gpus"]) == 2, "a verdict to check", rc, err)
    planted = (("schema", lambda d: d.update(schema="vkbench-health/2")),
               ("verdict", lambda d: d.update(verdict="fine")),
               ("exit", lambda d: d.update(exit=2)),
               ("unknown field", lambda d: d.update(extra=1)),
               ("missing gpus", lambda d: d.pop("gpus")),
               ("gpu verdict", lambda d: d["gpus"][0].update(verdict="ok")),
               ("action", lambda d: d["gpus"][1].update(action="reboot")),
               ("uuid", lambda d: d["gpus"][0].update(uuid="not-a-uuid")),
               ("failing check name", lambda d: d["gpus"][1]["failing"].append("slow: copy/vec4")),
               ("row status", lambda d: d["gpus"][0]["rows"][0].update(status="passed")),
               ("row metric", lambda d: d["gpus"][0]["rows"][0].update(metric=-1)),
               ("row unit", lambda d: d["gpus"][0]["rows"][0].update(unit="GiB/s")),
               ("unknown row field", lambda d: d["gpus"][0]["rows"][0].update(extra=1)))
    for what, plant in planted:
        bad = copy.deepcopy(doc)
        plant(bad)
        check(vkbschema.errors(bad, root=HEALTH_SCHEMA), f"planted {what}: found by the schema", bad)


def case_prom():
    """--prom: linted by Prometheus' own promtool, read back with prometheus_client's parser, every value the JSON
    verdict's; written whole beside an old file (no temporary left); a failing GPU's verdict 2."""
    import shutil
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        import prometheus_client  # noqa: F401
    except ImportError:
        if os.geteuid() == 0:
            subprocess.run([os.path.join(root, "tools", "setup.sh"), "--prom"], stdout=sys.stderr, timeout=900)
    try:
        from prometheus_client.parser import text_string_to_metric_families
    except ImportError:
        text_string_to_metric_families = None
    if not shutil.which("promtool") or not text_string_to_metric_families:
        print("no promtool or prometheus_client: run tools/setup.sh --prom (as root)")
        sys.exit(77)
    folder = tempfile.mkdtemp()
    prom = os.path.join(folder, "vkbench.prom")
    open(prom, "w").write("old\n")
    rc, out, err, doc = health(["--allow-cpu", "--prom", prom], env={"VKB_FAULT_INJECT": "wrong-device:1",
                                                                     "VKB_HOST": 'node "7"\\x'}, two=True)
    check(rc == 1 and os.listdir(folder) == ["vkbench.prom"], "exit 1, the file replaced, no temporary", rc,
          os.listdir(folder), err)
    text = open(prom).read()
    lint = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True)
    # dcgm-exporter's label names (UUID, modelName, Hostname) are camelCase by design, so that dashboards join the
    # two exporters' series: that one style remark is expected, any other (a parse error included) fails
    remarks = [l for l in (lint.stdout + lint.stderr).splitlines() if l.strip()]
    camel = re.compile(r"^vkbench_\w+ label names should be written in 'snake_case' not 'camelCase'$")
    check(lint.returncode in (0, 3) and all(camel.match(l) for l in remarks) or lint.returncode == 0,
          "promtool check metrics: nothing but dcgm-exporter's camelCase labels", lint.returncode, lint.stdout,
          lint.stderr, text)
    samples = {}
    series = set()
    for fam in text_string_to_metric_families(text):
        for smp in fam.samples:
            check(smp.timestamp is None, "no timestamps", smp)
            key = (smp.name, tuple(sorted(smp.labels.items())))
            check(key not in series, "each series once (a scrape refuses a duplicate)", smp)
            series.add(key)
            samples.setdefault(smp.name, []).append(smp)
    check(samples["vkbench_build_info"][0].value == 1 and samples["vkbench_build_info"][0].labels["version"],
          "build info", samples.get("vkbench_build_info"))
    check(samples["vkbench_health_exit_code"][0].value == doc["exit"] == 1, "the exit code", samples)
    check(samples["vkbench_health_exit_code"][0].labels["Hostname"] == doc["hostname"] == 'node "7"\\x',
          "Hostname, escaped and read back whole", samples["vkbench_health_exit_code"])
    check(abs(samples["vkbench_health_last_run_timestamp_seconds"][0].value - doc["time"]) <= 1, "last run time")
    verdicts = {"pass": 0, "warn": 1, "fail": 2}
    for g in doc["gpus"]:
        want = {"gpu": str(g["gpu"]), "UUID": g["uuid"], "pci_bus_id": g["pci_bus_id"] or "",
                "modelName": g["model"], "Hostname": doc["hostname"]}
        mine = [smp for smp in samples["vkbench_health_gpu_verdict"] if smp.labels == want]
        check(len(mine) == 1 and mine[0].value == verdicts[g["verdict"]], f"GPU {g['gpu']}'s verdict", mine, g)
        for r in g["rows"]:
            if "metric" not in r:
                continue
            name = "vkbench_health_row_" + {"GB/s": "bytes_per_second", "GFLOP/s": "flops_per_second"}[r["unit"]]
            got = [smp.value for smp in samples[name] if smp.labels == dict(want, row=r["row"], backend=r["backend"])]
            check(len(got) == 1 and abs(got[0] - r["metric"] * 1e9) <= 1e-6 * got[0], f"{r['row']} in base units",
                  got, r)
    check(samples["vkbench_health_gpu_verdict"][1].value == 2, "GPU 1 failed", samples["vkbench_health_gpu_verdict"])


def case_bad_input():
    tmp = tempfile.mkdtemp()
    bad = os.path.join(tmp, "bad.tsv")
    for content, what in (("", "empty"), ("# vkbench baseline 1\na\tb\tc\t-1\t0\n", "a negative median"),
                          ("# vkbench baseline 1\na\tb\tc\t5\n", "four fields"),
                          ("{}\n", "not a baseline")):
        open(bad, "w").write(content)
        rc, out, err, doc = health(["--baseline", bad])
        check(rc == 2 and len(err.strip().splitlines()) == 1 and "--baseline" in err, f"baseline {what}: exit 2",
              rc, err)
    for expect in ("x", "H100:", ":4", "4,H100:1", "H100:1,", "65", "-1"):
        rc, out, err, doc = health(["--expect", expect])
        check(rc == 2 and len(err.strip().splitlines()) == 1 and "--expect" in err, f"--expect {expect}: exit 2",
              rc, err)
    same = os.path.join(tmp, "same")
    for args in (["--prom", ""], ["--json", same, "--prom", same]):
        p = subprocess.run([VKBENCH, "health", *args], capture_output=True, text=True)
        check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "--prom" in p.stderr,
              f"{args}: exit 2", p.returncode, p.stderr)
    p = subprocess.run([VKBENCH, "run", "copy", "--expect", "1"], capture_output=True, text=True)
    check(p.returncode == 2 and "goes with `vkbench health`" in p.stderr, "--expect outside health", p.stderr)


if __name__ == "__main__":
    VKBENCH = sys.argv[1]
    globals()["case_" + sys.argv[2]]()
    print("ok")
