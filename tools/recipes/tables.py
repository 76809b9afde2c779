#!/usr/bin/python3
"""tables.py TABLE OUTDIR [ARGS]: the tables the measurement recipes print last (tools/gpu.sh), each read from the
files a recipe's steps left in OUTDIR (NAME.json, NAME.txt, steps.tsv: step, exit, expected, seconds, verdict).
  two-drivers  per-device ratio of each row with --device all to the same row on that device alone
  no-cuda      the default suite with the CUDA module in reach and out of it: ceilings, SUSPECT rows, cache probe
  node         per-device validate counts; GPU 0 beside every GPU busy / alone, per family
  health       wall time and verdict of each health run; the slowed GPU caught, the healthy one kept
  tensor-cores each tensor-core row's rate and the constants its plan chose; bf16 / fp16 ratios
  twins        each Vulkan row's share of its ceiling and its ratio to its CUDA twin"""
import collections
import json
import os
import re
import statistics
import sys


def steps(out):
    """steps.tsv as {step: exit}"""
    rows = {}
    with open(os.path.join(out, "steps.tsv")) as f:
        next(f)
        for line in f:
            name, rc = line.split("\t")[:2]
            rows[name] = int(rc)
    return rows


def results(path):
    try:
        return json.load(open(path))["results"]
    except (OSError, ValueError, KeyError) as e:
        print(f"tables.py: no results in {path}: {e}")
        return []


def two_drivers(out):
    def rows(path, index=None):
        doc = json.load(open(path))
        names = {(d["backend"], d.get("index", 0)): d["name"] for d in doc["devices"]}
        res = {}
        for r in doc["results"]:
            i = r.get("device_index", 0)
            if index is not None and i != index or r["status"] != "ok" or not (r.get("metric") or {}).get("value"):
                continue
            res[(i, r["family"], r["variant"], r["shape_text"], r["backend"])] = (r["metric"]["value"],
                                                                                names.get((r["backend"], i)))
        return res
    together, alone = {}, {}
    for w in (1, 2):
        together.update(rows(f"{out}/all-{w}.json"))
        for d in (0, 1):
            alone.update(rows(f"{out}/alone-{w}-{d}.json", d))
    print(f"{'device':<34} {'row':<44} {'alone':>10} {'all':>10} {'all/alone':>9}")
    per = {}
    for k in sorted(set(together) & set(alone)):
        a, name = alone[k]
        t, _ = together[k]
        per.setdefault((k[0], name), []).append(t / a)
        print(f"{k[0]}: {name[:30]:<31} {' '.join(k[1:]):<44} {a:10.4g} {t:10.4g} {t / a:9.3f}")
    print()
    for (i, name), rs in per.items():
        print(f"device {i} ({name}): {len(rs)} rows, all/alone median {statistics.median(rs):.3f}, "
              f"min {min(rs):.3f}, max {max(rs):.3f}; within 3%: {sum(abs(r - 1) <= 0.03 for r in rs)} of {len(rs)}")


def no_cuda(out):
    docs = [json.load(open(f"{out}/{n}.json")) for n in ("with", "without")]
    texts = [open(f"{out}/{n}.txt", errors="replace").read() for n in ("with", "without")]
    rc = steps(out)

    def val(doc, fam, var, backend="vulkan"):
        for r in doc["results"]:
            if r["family"] == fam and r["variant"] == var and r["backend"] == backend and r["status"] == "ok":
                return r["metric"]["value"]
        return None

    def fmt(x):
        return "-" if x is None else f"{x:.1f}"

    def ceil_pct_max(doc):
        f = [r["metric"]["fraction"] for r in doc["results"] if r["status"] == "ok" and r["metric"]
             and r["metric"]["name"] == "GB/s" and r["metric"]["ceiling_variant"] in ("api_copy", "stream_copy")
             and r["metric"]["fraction"] is not None]
        return f"{100 * max(f):.0f}%" if f else "-"

    def probe(text):
        m = re.findall(r"(cache probe[^\n]*)", text)
        return m[-1][:90] if m else "(no probe line: CUDA's L2 or a kept file)"

    def ceiling(d):
        return max([x for x in (val(d, "copy", "api_copy"), val(d, "copy", "stream_copy")) if x is not None],
                   default=None)
    print(f"{'':34} {'with CUDA':>12} {'without CUDA':>14}")
    rows = [("copy/vec4 GB/s (first family)", [fmt(val(d, "copy", "vec4")) for d in docs]),
            ("copy/api_copy (vkCmdCopyBuffer)", [fmt(val(d, "copy", "api_copy")) for d in docs]),
            ("copy/stream_copy (Vulkan shader)", [fmt(val(d, "copy", "stream_copy")) for d in docs]),
            ("Vulkan ceiling = max of the two", [fmt(ceiling(d)) for d in docs]),
            ("cudaMemcpy (copy/api_copy, cuda)", [fmt(val(docs[0], "copy", "api_copy", "cuda")), "-"]),
            ("largest memory-row ceil%", [ceil_pct_max(d) for d in docs]),
            ("SUSPECT rows", [str(sum(r["suspect"] for r in d["results"])) for d in docs]),
            ("exit code", [str(rc.get("with", "-")), str(rc.get("without", "-"))])]
    for name, v in rows:
        print(f"{name:34} {v[0]:>12} {v[1]:>14}")
    for label, t in zip(("with", "without"), texts):
        print(f"cache probe {label}: {probe(t)}")


def node(out):
    doc = json.load(open(f"{out}/validate-all.json"))
    c = collections.Counter((r.get("device_index"), r["backend"], r["status"]) for r in doc["results"])
    for key in sorted(c, key=str):
        print("  validate device %s %-6s %-4s %d" % (key[0], key[1], key[2], c[key]))

    def rows(path, want=None):
        got = {}
        for r in json.load(open(path))["results"]:
            i = r.get("device_index", 0)
            m = r.get("metric") or {}
            if r["status"] == "ok" and m.get("value") and (want is None or i == want):
                got[(i, r["family"], r["variant"], r["shape_text"], r["backend"])] = (m["value"],
                                                                                    m.get("better", "higher"))
        return got
    together, alone = rows(f"{out}/suite-all.json"), rows(f"{out}/suite-0.json", 0)
    by_family = {}
    for k in set(together) & set(alone):
        if k[0] != 0:
            continue
        (a, better), (t, _) = alone[k], together[k]
        by_family.setdefault(k[1], []).append(t / a if better == "higher" else a / t)
    print("  GPU 0 with every GPU busy / GPU 0 alone, per family (median ratio of rates; >1: faster beside the others):")
    for fam in sorted(by_family):
        v = by_family[fam]
        print("    %-26s %6.3f  (%d rows, %.3f-%.3f)" % (fam, statistics.median(v), len(v), min(v), max(v)))


def health(out):
    rc = steps(out)
    secs = {}
    with open(os.path.join(out, "steps.tsv")) as f:
        next(f)
        for line in f:
            name, _, _, s = line.split("\t")[:4]
            secs[name] = s
    print("run  wall      exit   verdict")
    i = 1
    while f"health-{i}" in rc:
        lines = open(f"{out}/health-{i}.txt", errors="replace").read().splitlines()
        print(f"{i:<4} {float(secs[f'health-{i}']):6.2f} s   exit {rc[f'health-{i}']}   {lines[-1] if lines else ''}")
        i += 1
    wrong = open(f"{out}/wrong.txt", errors="replace").read()
    first = next((ln for ln in wrong.splitlines() if ln.startswith("vkbench: GPU")), "")
    print(f"planted wrong result: exit {rc.get('wrong')} (expected 1); {first}")
    caught = kept = runs = 0
    speed = re.compile(r"^vkbench: GPU 0 \S+ \S+: speed: ", re.M)
    while f"slow-{runs + 1}" in rc:
        runs += 1
        caught += rc[f"slow-{runs}"] == 1 and bool(speed.search(open(f"{out}/slow-{runs}.txt").read()))
        kept += rc.get(f"kept-{runs}") == 0
    base = sum(1 for ln in open(f"{out}/base.tsv") if ln.strip()) if os.path.exists(f"{out}/base.tsv") else 0
    print(f"baseline: {base} lines; 15% slower GPU 0 flagged (exit 1, a speed line) in {caught} of {runs}; "
          f"healthy kept (exit 0) in {kept} of {runs}")


def tensor_cores(out, bf16=""):
    rows = results(f"{out}/tc.json") + results(f"{out}/peak.json")
    rate = {}
    print(f"{'row':<22} {'backend':<7} {'shape':<16} {'TFLOP/s':>8}  status / constants")
    for r in rows:
        m = (r.get("metric") or {}).get("value")
        tf = m / 1e3 if isinstance(m, (int, float)) else None
        rate[(r["variant"], r["backend"])] = tf
        print(f"{r['variant']:<22} {r['backend']:<7} {r['shape_text']:<16} {tf if tf is None else round(tf, 1)!s:>8}  "
              f"{r['status']} {r.get('skip_reason') or (r.get('planned') or {}).get('constants') or ''}")
    fp16 = rate.get(("coopmat_khr", "vulkan"))
    if not bf16:
        print("bf16 GEMM: not built (no coopmat_khr bf16 row in this build)")
    for name in filter(None, bf16.split(",")):
        b = rate.get((name, "vulkan"))
        print(f"{name} / coopmat_khr (vulkan): {b / fp16:.3f}" if b and fp16 else f"{name}: no rate")
    for api in ("vulkan", "cuda"):
        b, h = rate.get(("coopmat_bf16_f32", api)), rate.get(("coopmat_f16_f32", api))
        print(f"peak coopmat_bf16_f32 / coopmat_f16_f32 ({api}): {b / h:.3f}" if b and h else
              f"peak coopmat_bf16_f32 ({api}): no rate")


def twins(out):
    """latency: Vulkan / CUDA, lower is better; the others CUDA's metric as the denominator, higher is better"""
    rows = []
    for name in ("latency", "transfer", "sgemm", "transpose"):
        path = os.path.join(out, name + ".json")
        if os.path.exists(path):
            rows += [r for r in json.load(open(path))["results"] if r["status"] == "ok"]
    cuda = {(r["variant"], r["shape_text"]): r["metric"]["value"] for r in rows if r["backend"] == "cuda"}
    print("\n== Vulkan rows beside their CUDA twins (%s)" % ", ".join(sorted({r["device"] for r in rows})))
    print("%-8s %-18s %-14s %12s %-6s %8s %10s  %s" % ("family", "variant", "shape", "value", "unit", "ceil%",
                                                     "vs twin", "queues"))
    for r in rows:
        if r["backend"] != "vulkan":
            continue
        m = r["metric"]
        twin = cuda.get((r["variant"], r["shape_text"]))
        if r["family"] == "latency":   # CUDA's launch and synchronize is the twin of both submission rows
            twin = cuda.get(("submit_fence", r["shape_text"]))
        ratio = "%.2fx" % (m["value"] / twin) if twin else "-"
        if r["family"] == "transfer" and "both" in r["variant"] and ("cuda_pinned_both", r["shape_text"]) in cuda:
            ratio = "%.2f" % (m["value"] / cuda[("cuda_pinned_both", r["shape_text"])])
        frac = "%.1f" % (100 * m["fraction"]) if m.get("fraction") else "-"
        print("%-8s %-18s %-14s %12.4g %-6s %8s %10s  %s" % (r["family"], r["variant"], r["shape_text"], m["value"],
                                                           m["name"], frac, ratio, r.get("queues") or ""))
    print("latency: vs twin = Vulkan / CUDA launch+synchronize (target <= 2x); transfer: both-way rows / "
          "cuda_pinned_both (target >= 0.85); matmul: ceil% of cublas_sgemm (target >= 85), vs twin = Vulkan / CUDA")


TABLES = {"two-drivers": two_drivers, "no-cuda": no_cuda, "node": node, "health": health,
          "tensor-cores": tensor_cores, "twins": twins}

if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in TABLES:
        sys.exit(f"usage: tables.py {{{','.join(TABLES)}}} OUTDIR [ARGS]")
    TABLES[sys.argv[1]](*sys.argv[2:])
