#!/usr/bin/python3
"""health_test.py VKBENCH CASE: `vkbench health` on lavapipe (--allow-cpu counts it as a GPU; two or three devices come
from as many driver manifests naming the same lavapipe, as devices_test.py does). Each case plants a fault and checks
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

from testcheck import check

HEALTH_SCHEMA = vkbschema.load("vkbench-health.schema.json")
LVP = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
LINE = re.compile(r"^vkbench: GPU (\d+) ((?:GPU-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}) (\S+): "
                  r"([a-z]+): (.+)$")


def health(args, env=None, devices=1):
    """(exit code, stdout, stderr, verdict JSON or None) of vkbench health ARGS on DEVICES lavapipes."""
    tmp = tempfile.mkdtemp()
    e = dict(os.environ, **(env or {}))
    e.pop("VKB_FAULT_INJECT", None) if not env or "VKB_FAULT_INJECT" not in env else None
    if not os.path.exists(LVP):
        print("no lavapipe manifest")
        sys.exit(77)
    files = []
    for i in range(devices):
        files.append(os.path.join(tmp, f"lvp{i}.json"))
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
    # --expect on a node of CPU implementations alone explains as the check without it does
    rc, out, err, doc = health(["--expect", "1"])
    check(rc == 1 and "vkbench: node: count: expected 1 GPU, found 0 (1 Vulkan device, all CPU implementations; "
          "--allow-cpu counts them)" in err and doc["expected_gpus"] == 1, "--expect 1: the count and why", rc, err)


def case_healthy():
    rc, out, err, doc = health(["--allow-cpu"], devices=2)
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
    rc, out, err, doc = health(["--allow-cpu"], env={"VKB_FAULT_INJECT": "wrong-device:1"}, devices=2)
    check(rc == 1, "a wrong result on GPU 1: exit 1", rc, err)
    lines = failing_lines(err)
    check(lines and all(m and m.group(1) == "1" and m.group(3) == "-" and m.group(4) == "validate" for m in lines),
          "every failure line names GPU 1, its check validate", err)
    g0, g1 = doc["gpus"]
    check(g0["verdict"] != "fail" and g1["verdict"] == "fail" and g1["action"] == "drain", "GPU 1 alone fails", doc)
    check(any("copy/vec4: wrong result" in f for f in g1["failing"]), "the failing check names the row", g1)


def case_hang():
    rc, out, err, doc = health(["--allow-cpu"], env={"VKB_FAULT_INJECT": "hang:1", "VKB_DEVICE_TIMEOUT_S": "2"},
                               devices=2)
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
    rc, out, err, doc = health(["--allow-cpu", "--expect", "llvmpipe:2,H100:1"], devices=2)
    check(rc == 1 and "expected 1 H100, found 0" in err and "llvmpipe" not in err.split("count:")[1],
          "by model: only the model that differs", rc, err)
    rc, out, err, doc = health(["--allow-cpu", "--expect", "LLVMPIPE:2"], devices=2)
    check(rc == 0, "by model, case-insensitive, matching", rc, err)


def prom_samples(path):
    """[(name, {label: value}, value)] of the metrics file PATH, read with a parser of the test's own (the text
    format's lines `name{label="value",...} number`; the prom case reads it with Prometheus' own tools)."""
    samples = []
    for line in open(path, encoding="utf-8").read().splitlines():
        if line.startswith("#") or not line:
            continue
        m = re.fullmatch(r'(\w+)\{(.*)\} (\S+)', line)
        check(m, "a sample line", line)
        labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2)))
        samples.append((m.group(1), labels, float(m.group(3))))
    return samples


def per_gpu(samples, name):
    """{gpu index: value} of the per-GPU metric NAME; each GPU once, its labels its own."""
    got = {}
    for n, labels, value in samples:
        if n == name:
            check(labels["gpu"] not in got, f"{name}: GPU {labels['gpu']} once", samples)
            got[labels["gpu"]] = value
    return got


def three(args, env=None):
    """health ARGS on three lavapipes, with --json and --prom: (exit code, stderr, verdict, metrics samples)."""
    prom = os.path.join(tempfile.mkdtemp(), "v.prom")
    rc, out, err, doc = health(["--allow-cpu", "--prom", prom, *args], env=env, devices=3)
    check(doc and os.path.exists(prom), "a verdict and its metrics", rc, err)
    check([g["gpu"] for g in doc["gpus"]] == [0, 1, 2] and doc["gpus_found"] == 3, "three GPUs judged, in order", doc)
    samples = prom_samples(prom)
    gpu_series = [tuple(sorted(l.items())) for n, l, _ in samples if n == "vkbench_health_gpu_verdict"]
    check(len(set(gpu_series)) == 3 and {dict(t)["gpu"] for t in gpu_series} == {"0", "1", "2"},
          "each GPU's labels its own in the metrics (a scrape refuses a series twice)", gpu_series)
    rows = [(l["gpu"], l["row"], l["backend"]) for n, l, _ in samples if n.startswith("vkbench_health_row_")]
    timed = {(str(g["gpu"]), r["row"], r["backend"]) for g in doc["gpus"] for r in g["rows"] if "metric" in r}
    check(len(rows) == len(set(rows)) and set(rows) == timed, "every GPU's timed battery rows, each series once",
          rows, timed)
    gauge = {n: v for n, l, v in samples if n in ("vkbench_health_gpus", "vkbench_health_expected_gpus",
                                                  "vkbench_health_exit_code")}
    check(gauge["vkbench_health_gpus"] == 3 and gauge["vkbench_health_exit_code"] == rc == doc["exit"],
          "the node's gauges: 3 GPUs, the exit code", gauge, rc)
    return rc, err, doc, samples, gauge


def case_three_healthy():
    """Three healthy GPUs, --expect 3: three verdicts, each GPU's series its own, the expected-GPU gauge 3."""
    rc, err, doc, samples, gauge = three(["--expect", "3"])
    check(rc == 0 and not failing_lines(err) and doc["verdict"] == "keep" and doc["node_problem"] is None,
          "kept, no failure line", rc, err, doc)
    check(all(g["verdict"] in ("pass", "warn") and g["action"] == "none" for g in doc["gpus"]), "no GPU fails", doc)
    check(doc["expected_gpus"] == 3 and gauge["vkbench_health_expected_gpus"] == 3, "the expected GPUs: 3", gauge)
    verdict = per_gpu(samples, "vkbench_health_gpu_verdict")
    check(verdict == {str(g["gpu"]): {"pass": 0, "warn": 1}[g["verdict"]] for g in doc["gpus"]},
          "each GPU's verdict gauge is its JSON verdict", verdict, doc)
    check(per_gpu(samples, "vkbench_health_gpu_action") == {"0": 0, "1": 0, "2": 0}, "no action", samples)


def case_three_expect_four():
    """Three healthy GPUs where four are expected: the missing GPU is counted, the node goes out of service, each
    GPU present keeps its own verdict."""
    rc, err, doc, samples, gauge = three(["--expect", "4"])
    check(rc == 1 and "vkbench: node: count: expected 4 GPUs, found 3" in err.splitlines(), "the node's line", rc, err)
    check(doc["node_problem"] == "expected 4 GPUs, found 3" and doc["verdict"] == "take out of service" and
          doc["expected_gpus"] == 4 and doc["gpus_found"] == 3, "the verdict JSON", doc)
    check(gauge["vkbench_health_expected_gpus"] == 4, "the expected-GPU gauge 4 beside 3 found", gauge)
    check(all(g["verdict"] in ("pass", "warn") and g["action"] == "none" for g in doc["gpus"]) and
          not failing_lines(err), "the GPUs present are not blamed for the one missing", doc, err)
    check(per_gpu(samples, "vkbench_health_gpu_action") == {"0": 0, "1": 0, "2": 0}, "no GPU's action", samples)


def case_three_middle_fails():
    """Three GPUs, the middle one returning a wrong result (VKB_FAULT_INJECT=wrong-device:1): it alone fails and
    is drained, in the failure lines, the JSON and the metrics; the node goes out of service."""
    rc, err, doc, samples, gauge = three(["--expect", "3"], env={"VKB_FAULT_INJECT": "wrong-device:1"})
    check(rc == 1 and doc["verdict"] == "take out of service" and doc["node_problem"] is None,
          "out of service for GPU 1, not for the count", rc, err, doc)
    lines = failing_lines(err)
    check(lines and all(m and m.group(1) == "1" and m.group(4) == "validate" for m in lines),
          "every failure line names GPU 1, its check validate", err)
    g0, g1, g2 = doc["gpus"]
    check(g1["verdict"] == "fail" and g1["action"] == "drain" and
          any("copy/vec4: wrong result" in f for f in g1["failing"]), "GPU 1: fail, drain, the row named", g1)
    for g in (g0, g2):
        check(g["verdict"] in ("pass", "warn") and g["action"] == "none" and
              not any(f.startswith("validate") for f in g["failing"]), f"GPU {g['gpu']} is not flagged", g)
    verdict, action = per_gpu(samples, "vkbench_health_gpu_verdict"), per_gpu(samples, "vkbench_health_gpu_action")
    check(verdict["1"] == 2 and action["1"] == 1, "GPU 1's gauges: verdict 2 (fail), action 1 (drain)", samples)
    check(all(verdict[g] in (0, 1) and action[g] == 0 for g in ("0", "2")), "GPUs 0 and 2: no failure, no action",
          verdict, action)
    failing = per_gpu(samples, "vkbench_health_gpu_failing_checks")
    check(failing == {str(g["gpu"]): len(g["failing"]) for g in doc["gpus"]} and failing["1"] >= 1,
          "each GPU's failing checks, the JSON's count", failing, doc)


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
    timed = [r["row"] for r in doc["gpus"][0]["rows"] if "metric" in r and not r["ceiling"]]   # what is judged
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
    timed = [r["row"] for r in g["rows"] if "metric" in r and not r["ceiling"]]
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
    rc, out, err, doc = health(["--allow-cpu"], env={"VKB_FAULT_INJECT": "wrong-device:1"}, devices=2)
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
    rc, out, err, doc = health(["--allow-cpu", "--expect", "2", "--prom", prom], env={"VKB_FAULT_INJECT": "wrong-device:1",
                                                                     "VKB_HOST": 'node "7"\\x'}, devices=2)
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
        want = {"gpu": str(g["gpu"]), "UUID": g["uuid"], "modelName": g["model"], "Hostname": doc["hostname"]}
        if g["pci_bus_id"] is not None:
            want["pci_bus_id"] = g["pci_bus_id"]
        for name in ("vkbench_health_gpu_verdict", "vkbench_health_gpu_action"):
            for smp in samples[name]:
                # dcgm-exporter's GPU labels (its README and tests: gpu, UUID, pci_bus_id, device, modelName,
                # Hostname), never an empty value: lavapipe has no PCI address, so no pci_bus_id label
                check(set(smp.labels) <= {"gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname"} and
                      all(smp.labels.values()), "dcgm-exporter's label names, no empty label", smp)
        act = [smp for smp in samples["vkbench_health_gpu_action"] if smp.labels == want]
        check(len(act) == 1 and act[0].value == ["none", "drain", "reset", "service"].index(g["action"]),
              f"GPU {g['gpu']}'s action", act, g)
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
    check(samples["vkbench_health_expected_gpus"][0].value == 2 == doc["expected_gpus"], "the expected GPUs", samples)
    check("vkbench_health_gpu_speed_ratio" not in samples, "no speed ratio without a baseline", samples)


def case_bad_input():
    tmp = tempfile.mkdtemp()
    bad = os.path.join(tmp, "bad.tsv")
    for content, what in (("", "empty"), ("# vkbench baseline 1\na\tb\tc\t-1\t0\n", "a negative median"),
                          ("# vkbench baseline 1\na\tb\tc\t5\n", "four fields"),
                          ("{}\n", "not a baseline")):
        open(bad, "w").write(content)
        rc, out, err, doc = health(["--baseline", bad])
        check(rc == 7 and len(err.strip().splitlines()) == 1 and "could not judge: --baseline" in err,
              f"baseline {what}: could not judge, exit 7", rc, err)
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


def run(args, env=None, timeout=300, cwd=None, text=True):
    """(exit code, stdout, stderr) of vkbench ARGS with lavapipe alone (ENV: the whole environment when given)."""
    e = env if env is not None else dict(os.environ, VK_DRIVER_FILES=LVP)
    if env is None:
        e.pop("VKB_FAULT_INJECT", None)
    p = subprocess.run([VKBENCH, *args], capture_output=True, text=text, env=e, timeout=timeout, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def one_line(err):
    return len(err.strip().splitlines()) == 1


def case_config():
    """The configuration file, read by the check itself: Slurm 22.05 runs HealthCheckProgram with SLURMD_NODENAME
    and PWD alone, and the file configures it whole; the command line wins over it; every broken setting is
    could not judge (exit 7), one line naming the key and the line, never a drain."""
    if not os.path.exists(LVP):
        sys.exit(77)
    tmp = tempfile.mkdtemp()
    js, conf = os.path.join(tmp, "v.json"), os.path.join(tmp, "health.conf")
    with open(conf, "w") as f:
        f.write(f"# the node's check\n  expect = 1  \n\nallow_cpu = yes\njson = {js}\ndevice_timeout_s = 20\n")
    rc, out, err = run(["health", "--config", conf], env={"SLURMD_NODENAME": "n1", "PWD": tmp}, cwd=tmp)
    doc = json.load(open(js)) if os.path.exists(js) else None
    check(rc == 0 and doc and doc["expected_gpus"] == 1 and doc["gpus_found"] == 1,
          "Slurm's bare environment: configured by the file alone", rc, out, err, doc)
    rc, out, err = run(["health", "--config", conf, "--expect", "2"])
    check(rc == 1 and "vkbench: node: count: expected 2 GPUs, found 1" in err, "the command line wins", rc, err)
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    cases = (("expect = 1\nbogus = 2\n", "line 2: unknown key 'bogus'"),
             ("expect = x\n", "line 1: expect: --expect wants"),
             ("allow_cpu = maybe\n", "line 1: allow_cpu wants yes or no, not 'maybe'"),
             ("device_timeout_s = 0x10\n", "line 1: device_timeout_s wants a whole number"),
             ("device_timeout_s = 0\n", "line 1: device_timeout_s wants a whole number"),
             ("baseline = rel.tsv\n", "line 1: baseline wants an absolute path"),
             ("expect = 1\nexpect = 2\n", "line 2: expect is set twice (first on line 1)"),
             ("expect 1\n", "line 1: wants KEY = VALUE"),
             ("json =\n", "line 1: json wants an absolute path"),
             (f"baseline = {tmp}/missing.tsv\n", "could not judge: --baseline"),
             (f"baseline = {fifo}\n", "not a regular file"))
    for text, want in cases:
        with open(conf, "w") as f:
            f.write(text)
        rc, out, err = run(["health", "--allow-cpu", "--config", conf], timeout=60)
        check(rc == 7 and one_line(err) and "could not judge: " in err and want in err,
              f"config {text!r}: could not judge, exit 7, {want}", rc, err)
    for path, want in ((os.path.join(tmp, "none.conf"), "No such file"), (fifo, "not a regular file")):
        rc, out, err = run(["health", "--allow-cpu", "--config", path], timeout=60)
        check(rc == 7 and one_line(err) and want in err, f"--config {path}: could not judge", rc, err)
    rc, out, err = run(["run", "copy", "--config", conf])
    check(rc == 2 and "--config goes with `vkbench health`" in err, "--config outside health", rc, err)


def case_refuse():
    """health refuses every option it would drop (exit 2, one line, nothing written or made), checks its outputs
    before the battery, never writes over its baseline (by file identity: a hard link, a symbolic link), never
    waits on a FIFO, reads numbers as strictly as the rest of vkbench, and a dry run leaves the last verdict and
    metrics as they are."""
    if not os.path.exists(LVP):
        sys.exit(77)
    tmp = tempfile.mkdtemp()
    csv, sass = os.path.join(tmp, "r.csv"), os.path.join(tmp, "sass")
    for args in (["--csv", csv], ["--device", "0"], ["--variant", "copy/vec4"], ["--backend", "vulkan"],
                 ["--reps", "3"], ["--cold"], ["--spec", "X=1"], ["--sass", sass], ["--subgroup-size", "4"],
                 ["--validation"], ["--wide"], ["--robustness", "disabled"], ["--repeat", "2"]):
        rc, out, err = run(["health", "--allow-cpu", *args], timeout=60)
        check(rc == 2 and one_line(err) and args[0] in err and not os.path.exists(csv) and not os.path.exists(sass),
              f"{args}: refused, exit 2, nothing made", rc, err)
    rc, out, err = run(["health", "--allow-cpu", "--json", "/nonexistent/v.json"], timeout=60)
    check(rc == 6 and one_line(err) and "cannot write /nonexistent/v.json" in err and "GPU 0" not in out,
          "an output that cannot be written: exit 6 before the battery", rc, out, err)
    base = os.path.join(tmp, "base.tsv")
    content = "# vkbench baseline 1\nx\ty\tcopy/vec4\t5\t0\n"
    open(base, "w").write(content)
    os.link(base, os.path.join(tmp, "hard"))
    os.symlink(base, os.path.join(tmp, "sym"))
    for out_path in (base, os.path.join(tmp, "hard"), os.path.join(tmp, "sym")):
        for opt in ("--json", "--prom"):
            rc, out, err = run(["health", "--allow-cpu", "--baseline", base, opt, out_path], timeout=60)
            check(rc == 2 and one_line(err) and "is the --baseline file itself" in err and
                  open(base).read() == content, f"{opt} {out_path}: the baseline itself, refused, kept", rc, err)
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    rc, out, err = run(["health", "--allow-cpu", "--baseline", fifo], timeout=60)
    check(rc == 7 and one_line(err) and "not a regular file" in err, "a FIFO baseline: refused at once", rc, err)
    for num in ("0x10", " 5", "5 ", "inf", "nan", "1e301", "+5", "-1", "5e", "1_0"):
        open(base, "w").write(f"# vkbench baseline 1\nx\ty\tcopy/vec4\t{num}\t0\n")
        rc, out, err = run(["health", "--allow-cpu", "--baseline", base], timeout=60)
        check(rc == 7 and one_line(err) and "line 2: the median" in err, f"median {num!r}: refused", rc, err)
    # out of host memory reading the baseline: the check's own failure, exit 7 (4 is no health exit code)
    import resource
    big = os.path.join(tmp, "big.tsv")
    with open(big, "w") as f:
        f.write("# vkbench baseline 1\n" + "#" * (15 << 20) + "\n")

    def small():
        resource.setrlimit(resource.RLIMIT_AS, (20 << 20, 20 << 20))   # room to start, not for 15 MiB more
    p = subprocess.run([VKBENCH, "health", "--baseline", big], capture_output=True, text=True, timeout=60,
                       preexec_fn=small)
    check(p.returncode == 7 and one_line(p.stderr) and "out of host memory" in p.stderr,
          "out of host memory: could not judge, exit 7", p.returncode, p.stderr)
    # a dry run checks the set-up and writes nothing: the last verdict and metrics stay
    js, prom = os.path.join(tmp, "v.json"), os.path.join(tmp, "v.prom")
    for f in (js, prom):
        open(f, "w").write("old\n")
    rc, out, err = run(["health", "--allow-cpu", "--dry-run", "--json", js, "--prom", prom], timeout=60)
    check(rc == 0 and open(js).read() == "old\n" and open(prom).read() == "old\n" and "nothing written" in out,
          "--dry-run: exit 0, the last verdict and metrics kept", rc, out, err)


def case_pci():
    """Fail closed: a GPU the PCI bus shows (display class 0x03, a GPU vendor) and Vulkan does not is a missing
    GPU, counted beside --expect; a server's BMC VGA (ASPEED) is no GPU. The bus is a sysfs tree of the test's own
    (VKB_SYSFS_ROOT)."""
    root = tempfile.mkdtemp()
    devs = os.path.join(root, "sys", "bus", "pci", "devices")
    for addr, cls, vendor in (("0000:3b:00.0", "0x030200", "0x10de"), ("0000:02:00.0", "0x030000", "0x1a03")):
        os.makedirs(os.path.join(devs, addr))
        open(os.path.join(devs, addr, "class"), "w").write(cls + "\n")
        open(os.path.join(devs, addr, "vendor"), "w").write(vendor + "\n")
    rc, out, err, doc = health(["--allow-cpu"], env={"VKB_SYSFS_ROOT": root})
    check(rc == 1 and "vkbench: node: count: 1 GPU on the PCI bus that Vulkan does not show (0000:3b:00.0)" in err
          and doc["pci_gpus"] == 1 and doc["verdict"] == "take out of service", "a GPU Vulkan does not show", rc,
          err, doc)
    rc, out, err, doc = health(["--allow-cpu", "--expect", "2"], env={"VKB_SYSFS_ROOT": root})
    check(rc == 1 and "expected 2 GPUs, found 1; 1 GPU on the PCI bus that Vulkan does not show" in err,
          "beside --expect: both", rc, err)
    rc, out, err, doc = health(["--expect", "0"], env={"VKB_SYSFS_ROOT": root})
    check(rc == 1 and "1 GPU on the PCI bus" in err, "--expect 0 does not hide a GPU the bus shows", rc, err)
    import shutil
    shutil.rmtree(os.path.join(devs, "0000:3b:00.0"))
    rc, out, err, doc = health(["--allow-cpu"], env={"VKB_SYSFS_ROOT": root})
    check(rc == 0 and doc["pci_gpus"] == 0 and "PCI" not in err, "the BMC's VGA alone: no GPU missing", rc, err)


def case_ceiling():
    """The battery judges the rows that stand for a fault, not a ceiling measured a second time: a baseline that
    only a ceiling row (copy/api_copy, reduce/api_copy, ...) fails against judges nothing; the verdict marks the
    ceilings, and fleet.py --write-baseline leaves them out."""
    rc, out, err, doc = health(["--allow-cpu"])
    rows = doc["gpus"][0]["rows"]
    ceilings = [r["row"] for r in rows if r["ceiling"]]
    check({"copy/api_copy", "reduce/api_copy", "transfer/memcpy"} <= set(ceilings) and
          not [r for r in rows if r["ceiling"] and "/api_copy" not in r["row"] and "copy" not in r["row"] and
               "memcpy" not in r["row"]], "the ceilings marked", rows)
    base = os.path.join(tempfile.mkdtemp(), "base.tsv")
    baseline(base, 0, rows=[(r, "1e12", "0") for r in ceilings])
    rc, out, err, doc = health(["--allow-cpu", "--baseline", base])
    g = doc["gpus"][0]
    check(rc == 0 and not [f for f in g["failing"] if f.startswith("speed")] and g["speed_judged"] is False,
          "ceilings far slower than their baseline: not judged", rc, err, g)
    baseline(base, 0, rows=[(r, "1e12", "0") for r in ceilings + ["copy/vec4"]])
    rc, out, err, doc = health(["--allow-cpu", "--baseline", base])
    speed = [f for f in doc["gpus"][0]["failing"] if f.startswith("speed")]
    check(rc == 1 and speed and all("api_copy" not in f and "memcpy" not in f for f in speed),
          "a kernel row far slower: judged, the ceilings not", rc, err, speed)
    rc, out, err, doc = health(["--allow-cpu"])
    text = open(write_baseline(doc)).read()
    check("copy/vec4" in text and not any(c + "\t" in text for c in ceilings), "no ceiling in the baseline", text)


def verdict(gpus, host="n1"):
    """A verdict of the schema's shape: GPUS (model, driver, {row: metric}) each passing."""
    return {"schema": "vkbench-health/1", "hostname": host, "time": 1, "verdict": "keep", "exit": 0,
            "node_problem": None, "gpus_found": len(gpus), "baseline": False,
            "gpus": [{"gpu": i, "uuid": "00000000-0000-0000-0000-%012d" % i, "pci_bus_id": None, "model": m,
                      "driver": d, "verdict": "pass", "action": "none", "speed_judged": False, "failing": [],
                      "rows": [{"row": r, "backend": "vulkan", "status": "ok", "metric": v, "unit": "GB/s",
                                "median_s": 0.001} for r, v in rows.items()]} for i, (m, d, rows) in enumerate(gpus)]}


def fleet_write(docs):
    """(exit code, stderr, baseline text or None) of fleet.py --write-baseline over the verdicts DOCS."""
    tmp = tempfile.mkdtemp()
    paths = []
    for i, doc in enumerate(docs):
        paths.append(os.path.join(tmp, f"v{i}.json"))
        with open(paths[-1], "w") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
    base = os.path.join(tmp, "base.tsv")
    fleet = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools",
                         "fleet.py")
    p = subprocess.run([sys.executable, fleet, *paths, "--write-baseline", base], capture_output=True, text=True)
    return p.returncode, p.stderr, open(base, encoding="utf-8").read() if os.path.exists(base) else None


def read_back(text_bytes):
    """(exit code, stderr, [(model, driver, row, median, noise)]) of vkbench health --dry-run -v reading the
    baseline TEXT_BYTES: what the reader took from each line."""
    path = os.path.join(tempfile.mkdtemp(), "base.tsv")
    open(path, "wb").write(text_bytes)
    rc, out, err = run(["health", "--dry-run", "-v", "--baseline", path], timeout=60)
    rows = [tuple(l.split("\t")[1:4]) + tuple(float(x) for x in l.split("\t")[4:6])
            for l in out.splitlines() if l.startswith("baseline row\t")]
    return rc, err, rows


def case_baseline_rules():
    """The baseline's one rule for names and numbers, applied by the writer and the reader: every hostile verdict
    the writer refuses (exit 2, one line, the GPU named, no file) the reader refuses too (exit 7), and every file
    the writer accepts the reader reads identically, name for name and number for number."""
    ok_row = {"copy/vec4": 5.5}
    refused = (("\r", "model", "x\ry"), ("NUL", "model", "x\0y"), ("tab", "model", "x\ty"),
               ("newline", "driver", "x\ny"), ("#", "model", "#hash"), ("long", "model", "M" * 128),
               ("long", "driver", "\u00e9" * 64), ("surrogate", "model", "x\udc80"), ("control", "model", "x\x01"))
    for what, field, name in refused:
        m, d = (name, "drv") if field == "model" else ("GPU", name)
        rc, err, text = fleet_write([verdict([("H200", "drv", ok_row), (m, d, ok_row)], host="node7")])
        check(rc == 2 and one_line(err) and "GPU 1 of host node7" in err and f"its {field}" in err and text is None,
              f"writer: a {what} in the {field}: refused, the GPU named", rc, err, text)
        line = "\t".join((m, d, "copy/vec4", "5.5", "0")).encode("utf-8", "surrogateescape")
        rc, err, rows = read_back(b"# vkbench baseline 1\n" + line + b"\n")
        if what == "#":     # the reader takes the line for a comment: the GPU would be gone without a word
            check(rc == 0 and rows == [], "reader: a model beginning with # is a comment line", rc, err, rows)
            continue
        check(rc == 7 and one_line(err) and "--baseline" in err, f"reader: a {what} in the {field}: refused", rc,
              err, rows)
    for metric in (1e301, 1.5e308):
        rc, err, text = fleet_write([verdict([("H200", "drv", {"copy/vec4": metric})])])
        check(rc == 2 and one_line(err) and "GPU 0 of host n1" in err and text is None, f"writer: {metric}", rc, err)
    rc, err, rows = read_back(b"# vkbench baseline 1\nH200\tdrv\tcopy/vec4\t1e+301\t0\n")
    check(rc == 7 and "the median" in err, "reader: 1e+301 refused", rc, err)
    # malformed verdicts: one line each, never a traceback
    good = verdict([("H200", "drv", ok_row)])
    for bad in ("[1]", json.dumps(dict(good, gpus=[1])), json.dumps(dict(good, gpus=[dict(good["gpus"][0], rows=5)])),
                json.dumps(dict(good, gpus=[dict(good["gpus"][0], rows=[[1]])])),
                json.dumps(dict(good, gpus=[dict(good["gpus"][0], model=7)])),
                json.dumps(dict(good, gpus=[dict(good["gpus"][0], rows=[{"row": "copy/vec4\t", "backend": "v",
                                                                          "status": "ok", "metric": 1}])])),
                "{\"schema\": \"vkbench-health/1\", \"gpus\": [{\"rows\": [{\"metric\": \"x\"}]}]}"):
        rc, err, text = fleet_write([bad])
        check(rc == 2 and one_line(err) and "Traceback" not in err and text is None, f"malformed {bad[:60]}", rc,
              err)
    # what the writer accepts, the reader reads identically
    accepted = [("NVIDIA H200 \u00b7 141 GB", "NVIDIA 580.65.06", {"copy/vec4": 1e299, "peak/fma_f32": 5e-300}),
                ("A#1 \"quoted\" \\back", " lead and trail ", {"copy/vec4": 0.1}),
                ("\u00e9" * 63 + "x", "d" * 127, {"transfer/staging_h2d": 123456789.123}),
                ("\u4e2d\u6587 GPU", "drv", {"reduce/subgroup": 7})]
    docs = [verdict([g]) for g in accepted] + [verdict([accepted[0]])]
    rc, err, text = fleet_write(docs)
    check(rc == 0 and text, "writer: the odd but lawful names accepted", rc, err)
    want = []
    for line in text.splitlines()[1:]:
        if line.startswith("#"):
            continue
        m, d, r, med, noise = line.split("\t")
        want.append((m, d, r, float(med), float(noise)))
    rc, err, rows = read_back(text.encode("utf-8"))
    check(rc == 0 and rows == want and len(rows) == 9, "reader: every line read as written", rc, err, rows, want)
    names = {(m, d) for m, d, _ in accepted}
    check({(m, d) for m, d, *_ in rows} == names, "the names are the verdicts'", rows)


def case_textfile():
    """Host text in the metrics: an invalid UTF-8 host name, control characters and a long name cut mid-character
    make a file that a real node_exporter's textfile collector reads without error (its scrape serves the series,
    node_textfile_scrape_error 0) and promtool accepts; the name shows as the docs say, '?' for each invalid byte
    and control character, a cut character left out whole."""
    import shutil
    import socket
    import time
    import urllib.request
    exporter = shutil.which("prometheus-node-exporter")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not exporter and os.geteuid() == 0:
        subprocess.run([os.path.join(root, "tools", "setup.sh"), "--prom"], stdout=sys.stderr, timeout=900)
        exporter = shutil.which("prometheus-node-exporter")
    if not exporter or not shutil.which("promtool") or not os.path.exists(LVP):
        print("no prometheus-node-exporter or promtool: run tools/setup.sh --prom (as root)")
        sys.exit(77)
    folder = tempfile.mkdtemp()
    prom, js = os.path.join(folder, "vkbench.prom"), os.path.join(folder, "v.json")
    host = b"node\xff\x01--" + "\u00e9".encode() * 200     # 408 bytes: the 255-byte cut falls inside an e-acute
    env = dict(os.environb, VK_DRIVER_FILES=LVP.encode(), VKB_HOST=host)
    env.pop(b"VKB_FAULT_INJECT", None)
    p = subprocess.run([VKBENCH, "health", "--allow-cpu", "--prom", prom, "--json", js], env=env,
                       capture_output=True, timeout=300)
    check(p.returncode in (0, 1) and os.path.exists(prom), "a verdict", p.returncode, p.stderr)
    raw = open(prom, "rb").read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        check(False, "the metrics file is valid UTF-8", e)
    want = "node??--" + "\u00e9" * 123                      # 8 + 246 bytes: the 124th would pass 255
    check(f'Hostname="{want}"' in text and json.load(open(js))["hostname"] == want,
          "the host name: '?' for the invalid byte and the control character, cut on a character", text[:2000])
    lint = subprocess.run(["promtool", "check", "metrics"], input=raw, capture_output=True)
    remarks = [l for l in (lint.stdout + lint.stderr).decode().splitlines() if l.strip()]
    check(all("camelCase" in l for l in remarks), "promtool: nothing but dcgm-exporter's camelCase labels",
          remarks)
    with socket.socket() as s:                          # a free port of the test's own
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([exporter, f"--web.listen-address=127.0.0.1:{port}", "--collector.disable-defaults",
                             "--collector.textfile", f"--collector.textfile.directory={folder}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        scraped = None
        for _ in range(100):
            try:
                scraped = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        check(scraped is not None, "node_exporter serves /metrics")
        check("node_textfile_scrape_error 0" in scraped, "the textfile collector read the file without error",
              [l for l in scraped.splitlines() if "textfile" in l])
        check(re.search(r'^vkbench_health_exit_code\{Hostname="' + re.escape(want) + r'"\} [01]$', scraped, re.M),
              "the series scraped, with its host name", scraped[-3000:])
        action = [l for l in scraped.splitlines() if l.startswith("vkbench_health_gpu_action{")]
        check(len(action) == 1 and 'gpu="0"' in action[0] and "UUID=" in action[0] and "pci_bus_id" not in action[0],
              "a GPU's action, dcgm-exporter's labels, no empty pci_bus_id", action)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    VKBENCH = os.path.abspath(sys.argv[1])
    globals()["case_" + sys.argv[2]]()
    print("ok")
