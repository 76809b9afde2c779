#!/usr/bin/python3
"""fleet_test.py CASE: tools/fleet.py on generated fleets of fixed files: the rows and per-row spreads of the
committed H100 suite (docs/results/h100-2026-11-23-s3-suite.json), each device's times drawn around them
with a seeded generator, so nothing is measured and no verdict depends on the machine. Exit 77: skipped."""
import copy
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
from test_verdicts import check, one_line_error, run_cases

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))   # tests/tools/ -> the repository
FLEET = os.path.join(ROOT, "tools", "fleet.py")
SUITE = os.path.join(ROOT, "docs", "results", "h100-2026-11-23-s3-suite.json")
SEEDS = range(10)
DEVICES = 8
SLOWDOWN = 1.15      # the planted sick GPU takes 15% longer on every row


def fleet(*args):
    p = subprocess.run([sys.executable, FLEET, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def suite():
    with open(SUITE, encoding="utf-8") as f:
        return json.load(f)


def device_doc(base, host, index, uuid, rng, scale=1.0):
    """BASE's run as seen on one more GPU: every timed row's median drawn around the suite's, with that row's
    spread of one repetition (IQR / median / 1.349, a normal sample's standard deviation: more than the
    run-to-run noise of a median of many repetitions, so the test errs toward false flags), times SCALE."""
    doc = copy.deepcopy(base)
    for d in doc["devices"]:
        d.update(index=index, uuid=uuid, pci_bus=f"0000:{0x18 + index:02x}:00.0", host=host)
    for r in doc["results"]:
        r["device_index"] = index
        t = r.get("time_ms")
        if not t or not t.get("median"):
            continue
        sigma = (t.get("iqr_over_median") or 0) / 1.349
        f = math.exp(rng.gauss(0, sigma)) * scale
        for q in ("min", "q1", "median", "q3", "max", "mean"):
            if t.get(q) is not None:
                t[q] *= f
        if (r.get("metric") or {}).get("value"):
            r["metric"]["value"] /= f
    return doc


def write_fleet(base, seed, sick=None, tamper=None):
    """A folder of DEVICES result files (hosts of 4 GPUs each); device SICK runs SLOWDOWN slower."""
    rng = random.Random(seed)
    out = tempfile.mkdtemp(prefix=f"fleet{seed}-")
    for g in range(DEVICES):
        host, index = f"node{g // 4}", g % 4
        doc = device_doc(base, host, index, f"GPU-{seed:04d}-{g:04d}", rng, SLOWDOWN if g == sick else 1.0)
        if tamper:
            tamper(g, doc)
        with open(os.path.join(out, f"{host}-{index}.json"), "w") as f:
            json.dump(doc, f)
    return out


def flagged_devices(out):
    """(host, index) of every flagged device in fleet.py's report."""
    return re.findall(r"^(node\d+)  device (\d+):", out, re.M)


def case_planted():
    """A GPU 15% slower on every row, a different one per seed: flagged, and no other, 10 of 10 times."""
    base = suite()
    for seed in SEEDS:
        sick = random.Random(1000 + seed).randrange(DEVICES)
        folder = write_fleet(base, seed, sick)
        code, out, err = fleet(folder)
        want = [(f"node{sick // 4}", str(sick % 4))]
        check(code == 1 and flagged_devices(out) == want, f"seed {seed}: only device {want} flagged", out, err)
        check(f"GPU-{seed:04d}-{sick:04d}" in out and "slower on" in out, "the UUID and the rows named", out)


def case_healthy():
    """Eight healthy GPUs with the suite's noise: nothing flagged, 10 of 10 times."""
    base = suite()
    for seed in SEEDS:
        code, out, err = fleet(write_fleet(base, seed))
        check(code == 0 and not flagged_devices(out) and "verdict: 0 of 8" in out, f"seed {seed}: none flagged",
              out, err)


def case_failed_missing():
    """A failed row and a missing row each flag their device, by row and reason."""
    def tamper(g, doc):
        timed = [r for r in doc["results"] if r["status"] == "ok"]
        if g == 2:
            timed[7]["status"] = "fail"
            timed[7]["check"]["reason"] = "element 5: 1.0 vs 2.0"
        if g == 6:
            doc["results"].remove(timed[9])
    code, out, err = fleet(write_fleet(suite(), 0, tamper=tamper))
    check(code == 1 and flagged_devices(out) == [("node0", "2"), ("node1", "2")], "the failing and the missing "
          "device flagged", out, err)
    check("failed on 1 row" in out and "element 5: 1.0 vs 2.0" in out and "missing or skipped on 1 row" in out,
          "reasons given", out)


def case_bad_input():
    """A file of another tool, a file without a device identity, a device index the file does not list, an
    empty folder: one line, exit 2."""
    tmp = tempfile.mkdtemp()
    other = os.path.join(tmp, "other.json")
    json.dump({"tool": "nvbench", "results": []}, open(other, "w"))
    one_line_error(*fleet(other), 2, "not a vkbench results file")
    anon = os.path.join(tmp, "anon.json")
    doc = suite()
    doc["devices"] = []
    json.dump(doc, open(anon, "w"))
    one_line_error(*fleet(anon), 2, "no device identity")
    stray = os.path.join(tmp, "stray.json")
    doc = suite()
    doc["results"][0]["device_index"] = 3
    json.dump(doc, open(stray, "w"))
    one_line_error(*fleet(stray), 2, "device 3, which the file's devices do not list")
    empty = tempfile.mkdtemp()
    one_line_error(*fleet(empty), 2, "no result files")
    one_line_error(*fleet(SUITE, "--html", "/proc/no/such.html"), 6, "cannot write /proc/no")


def case_html():
    """--html in headless chromium: no console message, a heat map of devices x rows, the flagged cells."""
    sys.path.insert(0, HERE)
    import tools_test
    if not tools_test.browser() and os.geteuid() == 0:
        subprocess.run([os.path.join(ROOT, "tools", "setup.sh"), "--browser"], stdout=sys.stderr, timeout=900)
    if not tools_test.browser():
        print("no chromium: run tools/setup.sh --browser (as root)")
        sys.exit(77)
    base = suite()
    folder = write_fleet(base, 3, sick=5)
    page = os.path.join(folder, "fleet.html")
    code, out, err = fleet(folder, "--html", page)
    check(code == 1 and os.path.getsize(page) > 10000, "fleet --html", out, err)
    text = open(page, encoding="utf-8").read()
    check(not re.search(r"""(src|href)=["'](?!data:|#)""", text), "self-contained: no external src or href")
    console, dom = tools_test.headless(page, "--dump-dom")
    check(not console, "no console message", *console)
    rows = len([r for r in base["results"] if r["status"] == "ok"])
    check(dom.count("<tr>") == rows + 1 and dom.count("<th class=\"dev\"") == DEVICES,
          f"{rows} rows x {DEVICES} devices", dom.count("<tr>"), dom.count("<th class=\"dev\""))
    flagged = dom.count('class="flag"')
    slow = int(re.search(r"slower on (\d+) row", out).group(1))
    check(flagged == slow and slow > rows // 2, f"the flagged cells are the sick device's slow rows: {flagged}")


def case_lavapipe_sick():
    """Fixed files of four lavapipe runs (tests/tools/fixtures/fleet-lavapipe, `run copy transpose --n 262144 --size 128
    --variant api_copy,vec4,naive,padded --reps 15`, one run per VKB_HOST=nodeI), node2's with
    VKB_FAULT_INJECT=slow-device:0 (each timed repetition does its work twice): node2 flagged, no other."""
    code, out, err = fleet(os.path.join(HERE, "fixtures", "fleet-lavapipe"))
    check(code == 1 and re.findall(r"^(node\d+)  device", out, re.M) == ["node2"], "only node2 flagged", out, err)


def tiny_fleet(speeds, names=None, tamper=None):
    """A folder of one file per device, one timed row each (the suite's first timed row, its own spread 0), device
    g SPEEDS[g] times as fast as 1.0; NAMES[g] its model. Exact ratios: the rule's constants decide, not noise."""
    base = suite()
    row = next(r for r in base["results"] if r["status"] == "ok" and (r.get("time_ms") or {}).get("median"))
    out = tempfile.mkdtemp(prefix="tiny-")
    for g, speed in enumerate(speeds):
        doc = copy.deepcopy(base)
        r = copy.deepcopy(row)
        r["time_ms"] = {q: 1.0 / speed for q in ("min", "q1", "median", "q3", "max", "mean")}
        r["time_ms"]["iqr_over_median"] = 0.0
        doc["results"] = [r]
        for d in doc["devices"]:
            d.update(index=0, uuid=f"GPU-tiny-{g:04d}", host=f"node{g}")
            if names:
                d["name"] = names[g]
        if tamper:
            tamper(g, doc)
        with open(os.path.join(out, f"node{g}.json"), "w") as f:
            json.dump(doc, f)
    return out


def case_rules():
    """The outlier rule far from its edges: the spread's scale (1.4826, a MAD as a standard deviation) and a group
    of exactly MIN_GROUP (3) devices; a model without peers; a CPU implementation among GPUs; a row only a
    minority ran; SUSPECT rows."""
    noisy = [1.0, 1.02, 0.98, 1.02, 0.98, 1.0]   # MAD 0.02: sigma 0.0297, 5 sigma 0.148
    # 13% slower: inside 5 x 1.4826 x MAD (a scale of 1.0 would flag it), 16% slower: beyond it (2.0 would not)
    code, out, err = fleet(tiny_fleet(noisy + [0.87]), "--threshold", "0.01")
    check(code == 0 and not re.findall(r"^node\d+  device", out, re.M), "13% slower, inside the noise bound", out)
    code, out, err = fleet(tiny_fleet(noisy + [0.84]), "--threshold", "0.01")
    check(code == 1 and re.findall(r"^(node\d+)  device", out, re.M) == ["node6"], "16% slower: flagged", out)
    code, out, err = fleet(tiny_fleet([1.0, 1.0, 0.5]))
    check(code == 1 and re.findall(r"^(node\d+)  device", out, re.M) == ["node2"] and "1 rows, 1 compared" in out,
          "a group of exactly 3 is judged", out)
    code, out, err = fleet(tiny_fleet([1.0, 1.0, 1.0, 0.5], names=["H100", "H100", "H100", "A100"]))
    check(code == 0 and "NOT COMPARED: 1 device" in out and "1 not compared (no peers" in out and
          re.search(r"^node3  device 0: A100", out, re.M), "a model without peers: said, not healthy", out)

    def cpu(g, doc):
        if g == 3:
            doc["devices"][0].update(type="cpu", cpu_implementation=True, name="llvmpipe")
    code, out, err = fleet(tiny_fleet([1.0, 1.0, 1.0, 1.0], tamper=cpu))
    check(code == 1 and re.findall(r"^(node\d+)  device", out, re.M)[:1] == ["node3"] and
          "a CPU implementation in a fleet of GPUs" in out, "lavapipe among GPUs flagged", out)

    def extra(g, doc):
        if g == 1:   # this device's cache probe chose one more footprint
            r = copy.deepcopy(doc["results"][0])
            r["shape_text"] += "+"
            doc["results"].append(r)
        if g == 2:
            doc["results"][0]["suspect"] = True
            doc["results"][0]["suspect_reason"] = "above 1.25x the fastest copy"
    code, out, err = fleet(tiny_fleet([1.0, 1.0, 1.0, 1.0], tamper=extra))
    check(code == 0 and "missing or skipped on" not in out, "a row only one of four ran is missing on none", out)
    check("SUSPECT timings" in out and re.search(r"^node2  device 0: .*above 1.25x the fastest copy", out, re.M),
          "SUSPECT rows shown", out)


def case_rule_edges():
    """The slow-GPU rule's other edges (where planted rule bugs went unseen): a faster GPU is not sick; peers
    are of one model and driver; a row's own spread widens its bound; the 0.5% floor; a row half the devices ran
    is missing on none; a device's several runs of a row judged by their median."""
    def flagged(*args):
        code, out, err = fleet(*args)
        return code, re.findall(r"^(node\d+)  device", out, re.M), out
    code, names, out = flagged(tiny_fleet([1.0, 1.0, 1.0, 1.0, 1.5]))
    check(code == 0 and names == [], "a GPU 50% faster than its group is not flagged", out)
    code, names, out = flagged(tiny_fleet([1.0, 1.0, 0.5]), "--threshold", "0.01")
    check(code == 1 and names == ["node2"], "three of one model and driver: judged", out)

    def driver(g, doc):
        doc["devices"][0]["driver"] = "NVIDIA 575" if g == 2 else "NVIDIA 580"
    code, names, out = flagged(tiny_fleet([1.0, 1.0, 0.5], tamper=driver))
    check(code == 0 and "NOT COMPARED: 3 devices" in out, "two drivers: no model with 3 peers, none judged", out)

    def noisy(g, doc):
        if g == 5:      # its own repetitions 50% apart: bound 5 x 0.5 / 1.349
            t = doc["results"][0]["time_ms"]
            t.update(q1=t["median"] * 0.75, q3=t["median"] * 1.25, iqr_over_median=0.5)
    code, names, out = flagged(tiny_fleet([1.0] * 5 + [0.8], tamper=noisy))
    check(code == 0 and names == [], "20% slower inside its own spread's bound", out)
    code, names, out = flagged(tiny_fleet([1.0] * 5 + [0.8]))
    check(code == 1 and names == ["node5"], "20% slower with no spread of its own: flagged", out)
    code, names, out = flagged(tiny_fleet([1.0] * 5 + [0.98]), "--threshold", "0.01")
    check(code == 0 and names == [], "2% slower among identical peers: inside the floor's bound (5 x 0.5%)", out)
    code, names, out = flagged(tiny_fleet([1.0] * 5 + [0.97]), "--threshold", "0.01")
    check(code == 1 and names == ["node5"], "3% slower: beyond it", out)

    def half(g, doc):
        if g in (1, 2):     # two of four ran one more footprint: not most, missing on none
            r = copy.deepcopy(doc["results"][0])
            r["shape_text"] += "+"
            doc["results"].append(r)
    code, names, out = flagged(tiny_fleet([1.0] * 4, tamper=half))
    check(code == 0 and "missing or skipped on" not in out, "a row half the devices ran: missing on none", out)

    def reruns(g, doc):
        if g == 3:          # its first run of the row slow, its next two as fast as the group's
            first = copy.deepcopy(doc["results"][0])
            first["time_ms"] = {k: (v * 2 if k != "iqr_over_median" else v) for k, v in first["time_ms"].items()}
            doc["results"] = [first] + [copy.deepcopy(doc["results"][0]) for _ in range(2)]
    code, names, out = flagged(tiny_fleet([1.0] * 4, tamper=reruns))
    check(code == 0 and names == [], "three runs of a row, one slow: their median is the group's", out)


def case_outputs():
    """fleet.py's outputs follow the tools' rules: never over an input, no hang on a FIFO, `-` refused, a usage
    error in one line, --sigmas nan refused; --write-baseline from health verdicts."""
    folder = tiny_fleet([1.0, 1.0, 1.0])
    first = os.path.join(folder, "node0.json")
    before = open(first).read()
    one_line_error(*fleet(first, os.path.join(folder, "node1.json"), "--html", first), 2, "is the input")
    check(open(first).read() == before, "the input untouched")
    one_line_error(*fleet(folder, "--html", "-"), 2, "--html -: the report is on stdout")
    one_line_error(*fleet(folder, "--bogus"), 2, "unrecognized arguments")
    for bad in ("nan", "inf", "-1", "0"):
        one_line_error(*fleet(folder, "--sigmas", bad), 2, "--sigmas a finite number")
    fifo = os.path.join(tempfile.mkdtemp(), "page.html")
    os.mkfifo(fifo)
    one_line_error(*fleet(folder, "--html", fifo), 6, "no reader on the FIFO")
    page = os.path.join(tempfile.mkdtemp(), "page.html")
    open(page, "w").write("old page")
    code, out, err = fleet(folder, "--html", page)
    check(code == 0 and open(page).read().startswith("<!DOCTYPE html>"), "the page replaced", err)
    check(os.listdir(os.path.dirname(page)) == ["page.html"], "no temporary left", os.listdir(os.path.dirname(page)))
    # --write-baseline: per model, driver and row the median of the passing GPUs, a failing one left out
    tmp = tempfile.mkdtemp()
    def verdict(name, gpus):          # whole verdicts: the writer checks each against its schema
        path = os.path.join(tmp, name)
        for i, g in enumerate(gpus):
            g.update(gpu=i, uuid="00000000-0000-0000-0000-%012d" % i, pci_bus_id=None, action="none",
                     speed_judged=False, failing=[])
        json.dump({"schema": "vkbench-health/1", "hostname": "h", "time": 1, "verdict": "keep", "exit": 0,
                   "node_problem": None, "gpus_found": len(gpus), "baseline": False, "gpus": gpus}, open(path, "w"))
        return path
    def gpu(v, metric, model="H100"):
        return {"model": model, "driver": "580", "verdict": v,
                "rows": [{"row": "copy/vec4", "backend": "vulkan", "status": "ok", "metric": metric}]}
    a = verdict("a.json", [gpu("pass", 100.0), gpu("pass", 104.0)])
    b = verdict("b.json", [gpu("warn", 96.0), gpu("fail", 1.0), gpu("pass", 50.0, "A100")])
    base = os.path.join(tmp, "base.tsv")
    code, out, err = fleet(a, b, "--write-baseline", base)
    lines = open(base).read().splitlines()
    check(code == 0 and lines[0] == "# vkbench baseline 1", "a baseline written", err)
    rows = [l.split("\t") for l in lines if not l.startswith("#")]
    check(rows[:2] == [["A100", "580", "copy/vec4", "50", "0.25"], ["H100", "580", "copy/vec4", "100", "5.9304"]],
          "median 100 of 96, 100, 104 (the failing GPU left out), noise 1.4826 x MAD 4; A100's at least 0.5%", rows)
    # the whole GPU's row: the spread of the GPUs' geometric means (log 1.04, log 0.96: 1.4826 x 0.03922)
    check(rows[2:] == [["A100", "580", "*", "1", "0.005"], ["H100", "580", "*", "1", "0.0581486"]],
          "per model the aggregate row: median 1, the spread of the GPUs' means (one GPU: the floor)", rows)
    one_line_error(*fleet(first, "--write-baseline", os.path.join(tmp, "x.tsv")), 2, "not a `vkbench health")


def verdict_doc(host, gpus, node_problem=None):
    """A `vkbench health --json` verdict of HOST: GPUS are (model, verdict, failing, metric of copy/vec4)."""
    return {"schema": "vkbench-health/1", "hostname": host, "time": 1764633600,
            "verdict": "take out of service" if node_problem or any(g[1] == "fail" for g in gpus) else "keep",
            "exit": 1 if node_problem or any(g[1] == "fail" for g in gpus) else 0, "node_problem": node_problem,
            "gpus_found": len(gpus), "baseline": False,
            "gpus": [{"gpu": i, "uuid": f"0e9e0530-0000-0000-0000-{host[-1]}{i:011d}", "pci_bus_id": None,
                      "model": model, "driver": "Mesa 22.3.6", "verdict": verdict, "action": "none",
                      "speed_judged": False, "speed_note": "no --baseline", "failing": failing,
                      "rows": [{"row": "copy/vec4", "backend": "vulkan", "status": "ok", "metric": metric,
                                "unit": "GB/s", "median_s": 0.001},
                               {"row": "peak/fma_f32", "backend": "vulkan", "status": "ok", "metric": 50.0,
                                "unit": "GFLOP/s", "median_s": 0.001}]}
                     for i, (model, verdict, failing, metric) in enumerate(gpus)]}


def write_verdicts(docs):
    folder = tempfile.mkdtemp(prefix="verdicts-")
    for i, doc in enumerate(docs):
        with open(os.path.join(folder, f"v{i}.json"), "w") as f:
            json.dump(doc, f)
    return folder


def case_verdicts():
    """Health verdict files read as the fleet writes them: a GPU that failed its check flagged with its check's
    line, a node's problem flagged for its host, a GPU half as fast as its peers flagged by the rows; the page lists
    the flagged devices and nodes with their reasons. A model whose name begins with # is a model like another."""
    wrong = "validate: copy/vec4: wrong result: element 5: 1.0 vs 2.0"
    docs = [verdict_doc("node0", [("H100", "pass", [], 100.0)]),
            verdict_doc("node1", [("H100", "pass", [], 101.0)]),
            verdict_doc("node2", [("H100", "fail", [wrong], 99.0)]),
            verdict_doc("node3", [("H100", "pass", [], 100.5)], node_problem="count: expected 2 GPUs, found 1")]
    docs += [verdict_doc(f"node{4 + i}", [("#1 GPU", "pass", [], m)]) for i, m in enumerate((80.0, 80.5, 40.0))]
    folder = write_verdicts(docs)
    page = os.path.join(tempfile.mkdtemp(), "fleet.html")
    code, out, err = fleet(folder, "--html", page)
    check(code == 1 and "not a vkbench results file" not in err, "verdicts read", out, err)
    check(re.findall(r"^(node\d+)  device", out, re.M) == ["node2", "node6"], "node2 (its check) and node6 (slow) "
          "flagged, no other", out)
    check(f"  health: {wrong}" in out, "the check's line as the reason", out)
    check(re.search(r"^node3  node: count: expected 2 GPUs, found 1$", out, re.M) and
          "verdict: 2 of 7 devices flagged; 1 node flagged" in out, "the node's problem flagged", out)
    check(re.search(r"^node6  device 0: #1 GPU .*\n  slower on 1 row: .*\n    health copy/vec4 vulkan +0\.500x", out, re.M) and
          "  #1 GPU (Mesa 22.3.6): 3 devices, 1 flagged; 2 rows, 2 compared" in out, "the # model kept and judged", out)
    text = open(page, encoding="utf-8").read()
    flagged = text[text.index("<h2>Flagged</h2>"):text.index("<table")]
    check("<b>node3</b> node: count: expected 2 GPUs, found 1" in flagged and f"<li>health: {wrong}</li>" in flagged
          and "node6 #0 #1 GPU" in flagged and "slower on 1 row, worst health copy/vec4" in flagged and
          "node0" not in flagged, "the page lists the flagged devices and nodes with their reasons", flagged)
    # healthy verdicts: none flagged, exit 0, and the page says so
    code, out, err = fleet(write_verdicts(docs[:2] + [verdict_doc("node2", [("H100", "pass", [], 99.0)])]),
                           "--html", page)
    check(code == 0 and "verdict: 0 of 3 devices flagged" in out and "No device flagged." in open(page).read(),
          "healthy verdicts", out, err)


def case_bad_verdicts():
    """Malformed verdicts, a defect in any item of a list (not only the first): one line naming the field, exit 2,
    never a traceback."""
    good = verdict_doc("node0", [("H100", "pass", [], 100.0), ("H100", "pass", [], 100.0)])
    def breaks(edit):
        doc = copy.deepcopy(good)
        edit(doc)
        return doc
    cases = [
        (lambda d: d.update(gpus={"0": 1}), "gpus is not a list"),
        (lambda d: d["gpus"].__setitem__(1, "GPU"), r"gpus\[1\] is not an object"),
        (lambda d: d["gpus"][1].update(gpu=-1), r"gpus\[1\].gpu is not a device index"),
        (lambda d: d["gpus"][1].update(gpu=True), r"gpus\[1\].gpu is not a device index"),
        (lambda d: d["gpus"][1].update(model=""), r"gpus\[1\].model is not a string \(empty\)"),
        (lambda d: d["gpus"][1].pop("uuid"), r"gpus\[1\].uuid is not a string"),
        (lambda d: d["gpus"][1].update(verdict="ok"), r"gpus\[1\].verdict is not pass"),
        (lambda d: d["gpus"][1].update(failing=["x", 3]), r"gpus\[1\].failing is not a list of strings"),
        (lambda d: d["gpus"][1].update(rows=None), r"gpus\[1\].rows is not a list"),
        (lambda d: d["gpus"][1]["rows"][1].update(metric="12"), r"gpus\[1\].rows\[1\].metric is not a number"),
        (lambda d: d["gpus"][1]["rows"][1].update(metric=-1), r"gpus\[1\].rows\[1\].metric is not a number"),
        (lambda d: d["gpus"][1]["rows"][1].update(status="done"), r"gpus\[1\].rows\[1\].status is not ok"),
        (lambda d: d["gpus"][1]["rows"].__setitem__(1, []), r"gpus\[1\].rows\[1\] is not an object"),
        (lambda d: d.update(hostname=None), "hostname is not a string"),
        (lambda d: d.update(node_problem=7), "node_problem is neither"),
        (lambda d: d.update(verdict="sick"), "verdict is not keep"),
        (lambda d: d.update(schema="vkbench-health/2"), "schema vkbench-health/2: this tool reads vkbench-health/1"),
    ]
    for edit, want in cases:
        folder = write_verdicts([breaks(edit)])
        one_line_error(*fleet(folder), 2, want)
    folder = write_verdicts([good])
    with open(os.path.join(folder, "v0.json"), "a") as f:
        f.write("{")
    one_line_error(*fleet(folder), 2, "is not JSON")


def case_skipped_row():
    """A row one device skipped that its peers ran: that device flagged, with the skip's reason; its peers not."""
    def skip(g, doc):
        if g == 2:
            doc["results"][0].update(status="skip", skip_reason="needs subgroup arithmetic")
            doc["results"][0].pop("time_ms", None)
    code, out, err = fleet(tiny_fleet([1.0, 1.0, 1.0, 1.0], tamper=skip))
    check(code == 1 and re.findall(r"^(node\d+)  device", out, re.M) == ["node2"], "only the skipping device", out)
    check(re.search(r"missing or skipped on 1 row:\n    .* skip: needs subgroup arithmetic", out), "its reason", out)


def case_help():
    """--help is the whole description, to its last sentence, and every option."""
    code, out, err = fleet("--help")
    check(code == 0 and "which GPU of a fleet is not like the others" in out and
          "6: an output could not be written." in out and "health --json` verdicts" in out and
          all(o in out for o in ("--threshold", "--sigmas", "--rows", "--html", "--write-baseline")), "--help", out)


def case_bench():
    """Not a ctest: 1000 files of 200 rows (the suite's 166 and 34 at a second shape), 125 hosts of 8 GPUs,
    timed on one core (taskset); the time goes to docs/performance.md."""
    import time
    base = suite()
    extra = [copy.deepcopy(r) for r in base["results"][:34]]
    for r in extra:
        r["shape_text"] += "+"
    base["results"] += extra
    rng = random.Random(7)
    out = tempfile.mkdtemp(prefix="fleetbench-")
    for g in range(1000):
        host, index = f"node{g // 8:03d}", g % 8
        with open(os.path.join(out, f"{host}-{index}.json"), "w") as f:
            json.dump(device_doc(base, host, index, f"GPU-{g:04d}", rng, SLOWDOWN if g == 417 else 1.0), f)
    size = sum(os.path.getsize(os.path.join(out, n)) for n in os.listdir(out))
    t0 = time.monotonic()
    p = subprocess.run(["taskset", "-c", "0", sys.executable, FLEET, out], capture_output=True, text=True)
    wall = time.monotonic() - t0
    print(p.stdout[-600:])
    print(f"1000 files, {size / 1e6:.0f} MB, 200 rows each: exit {p.returncode} in {wall:.2f} s on one core")


if __name__ == "__main__":
    run_cases(globals(), "fleet_test.py", {k[5:]: "fleet" for k in globals() if k.startswith("case_")},
              not_registered=("bench",))
