#!/usr/bin/python3
"""tools_values_test.py CASE: the tools' verdicts on fixtures whose answers are known: report.py's aggregates
(the Vulkan / CUDA geometric mean per family, each row's share of its ceiling, spread, ratio, what is left
out) and tune.py's ranking (a fake vkbench gives each configuration a known metric). The fixtures are made
here from tests/tools/fixtures/v2-h100.json's first result, so each value is the one the case sets. Exit 1 on the
first wrong value."""
import copy
import json
import math
import os
import stat
import subprocess
import sys
import tempfile
from test_verdicts import check, run_cases

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools")   # tests/tools/ -> tools/
TEMPLATE = os.path.join(HERE, "fixtures", "v2-h100.json")


def tool(name, *args):
    p = subprocess.run([sys.executable, os.path.join(TOOLS, name + ".py"), *args], capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def base():
    with open(TEMPLATE) as f:
        return json.load(f)


def result(doc, family, variant, backend, value, *, ceiling_row=False, fraction=None, status="ok", reps=20,
           settled=True, q=(0.9, 1.0, 1.2), predicted=None, constants=None):
    """A result of DOC's template with these values; times: q1, median, q3 in ms."""
    r = copy.deepcopy(doc["results"][0])
    r.update(family=family, variant=variant, backend=backend, ceiling_row=ceiling_row, status=status, reps=reps,
             settled=settled, predicted=predicted, constants=constants, shape={"n": 1024}, shape_text="n=1024")
    r["time_ms"].update(q1=q[0], median=q[1], q3=q[2])
    r["metric"].update(value=value, fraction=fraction, ceiling=None if fraction is None else value / fraction,
                       ceiling_variant=None if fraction is None else "api_copy",
                       ceiling_backend=None if fraction is None else "cuda")
    if status != "ok":
        r["skip_reason"] = "needs subgroup arithmetic" if status == "skip" else None
    return r


def case_report_aggregates():
    doc = base()
    doc["results"] = [
        result(doc, "fam", "api_copy", "vulkan", 400, ceiling_row=True),   # ceilings: not in the ratios
        result(doc, "fam", "api_copy", "cuda", 500, ceiling_row=True),
        result(doc, "fam", "a", "vulkan", 200, fraction=0.4, predicted=0.6),
        result(doc, "fam", "a", "cuda", 100, fraction=0.2),
        result(doc, "fam", "b", "vulkan", 50, fraction=0.1, reps=17, settled=False, q=(0.95, 1.0, 1.35)),
        result(doc, "fam", "b", "cuda", 100, fraction=0.2),
        result(doc, "fam", "c", "vulkan", 400, fraction=0.8),
        result(doc, "fam", "c", "cuda", 100, fraction=0.2),
        result(doc, "fam", "d", "vulkan", 300, fraction=0.6),               # one backend only: not a pair
        result(doc, "fam", "e", "vulkan", 100, status="fail"),              # failed: not measured
        result(doc, "fam", "e", "cuda", 1, fraction=0.002),
        result(doc, "fam", "s", "cuda", 0, status="skip"),
        result(doc, "fam2", "x", "vulkan", 30, fraction=0.3),               # another family, its own mean
        result(doc, "fam2", "x", "cuda", 10, fraction=0.1),
    ]
    path = os.path.join(tempfile.mkdtemp(), "known.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    code, out, err = tool("report", path)
    check(code == 0, "report exit 0", out, err)
    gm = math.exp((math.log(2) + math.log(0.5) + math.log(4)) / 3)   # 1.587; the mean 2.167, the median 2
    # the means in the headline and in the Vulkan / CUDA table: one per family with pairs, its row count
    lines = out.splitlines()
    for want in (f"- Vulkan / CUDA, geometric mean over kernel rows: fam {gm:.3f} (3 rows), fam2 3.000 (1 rows)",
                 f"| fam | 3 | {gm:.3f} |", "| fam2 | 1 | 3.000 |"):
        check(want in lines, f"report has the line {want!r}", out)
    for want in ("| a | n=1024 | 200 | 40.0% of api_copy (cuda), rule 60% | 20 | 30.0% | 100 | 20.0% of "
                 "api_copy (cuda) | 20 | 30.0% | 2.000 |",
                 "| b | n=1024 | 50.0 | 10.0% of api_copy (cuda) | 17 (not settled) | 40.0% | 100 |",
                 "| 0.500 |", "| c | n=1024 | 400 | 80.0% of api_copy (cuda) |", "| 4.000 |",
                 "| api_copy | n=1024 | 400 | ceiling |", "| d | n=1024 | 300 | 60.0% of api_copy (cuda) | 20 "
                 "| 30.0% |  |  |  |  |  |", "- fam/e vulkan n=1024: fail", "- fam/s cuda n=1024: skip needs "
                 "subgroup arithmetic"):
        check(want in out, f"report has {want!r}", out)
    check("| e | n=1024 |  |  |  |  | 1.00 |" in out, "the failed row leaves its cells empty, the pair no ratio", out)
    table = lines[lines.index("## Vulkan / CUDA") + 4:]
    check(table[:2] == [f"| fam | 3 | {gm:.3f} |", "| fam2 | 1 | 3.000 |"] and not table[2].startswith("|"),
          "one mean per family with pairs", out)


def case_report_units():
    """A family whose rows count different work (peak: fp32 FMA in GFLOP/s, int32 multiply-add in
    GOP/s) gets a rate column whose cells each name their unit; a family of one unit keeps it in the header."""
    doc = base()
    doc["results"] = [result(doc, "peak", "fma_f32", "vulkan", 500), result(doc, "peak", "mad_i32", "vulkan", 250),
                      result(doc, "fam", "a", "vulkan", 200)]
    doc["results"][0]["metric"]["name"] = "GFLOP/s"
    doc["results"][1]["metric"]["name"] = "GOP/s"
    doc["results"][2]["metric"]["name"] = "GB/s"
    path = os.path.join(tempfile.mkdtemp(), "units.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    code, out, err = tool("report", path)
    check(code == 0, "report exit 0", out, err)
    for want in ("| variant | shape | vulkan rate |", "| fma_f32 | n=1024 | 500 GFLOP/s |",
                 "| mad_i32 | n=1024 | 250 GOP/s |", "| variant | shape | vulkan GB/s |", "| a | n=1024 | 200 |"):
        check(want in out, f"report has {want!r}", out)


FAKE_VKBENCH = r'''
import json, os, sys
argv = sys.argv[1:]
LOWER = os.environ.get("FAKE_LOWER") == "1"   # the metric a time (µs per call): lower is better
out = argv[argv.index("--json") + 1]
config = argv[argv.index("--spec") + 1] if "--spec" in argv else None   # None: tune's defaults baseline
# CONFIG -> (metric, fraction, status, registers, local memory); T=3 is refused
known = {None: (300.0, 0.3, "ok", 48, None), "T=1": (150.0, 0.15, "ok", 40, None), "T=2": (900.0, 0.9, "ok", 96, 2 ** 36),
         "T=4": (30.0, 0.03, "fail", None, None), "T=5": (450.0, 0.45, "ok", 64, 2 ** 36 + 16)}
if config not in known:
    sys.stderr.write("vkbench: error: --spec T=3: the family refuses it\n")
    sys.exit(2)
value, fraction, status, regs, local = known[config]
doc = json.load(open(TEMPLATE))
r = doc["results"][0]
r.update(family="fam", variant="v", backend="vulkan", status=status, constants=config, shape_text="n=1024")
r["skip_reason"] = None
r["metric"].update(value=value, fraction=fraction)
if LOWER:
    r["metric"].update(name="us", better="lower", fraction=None)
stats = {}
if regs is not None:
    stats["Register Count"] = regs
if local is not None:
    stats["Local Memory Size"] = local
r["pipelines"] = [{"kernel": "k", "executable": "CS", "statistics": stats}]
c = dict(r, variant="api_copy", ceiling_row=True, constants=None)
doc["results"] = [c, r]
json.dump(doc, open(out, "w"))
'''


def case_tune_ranking():
    tmp = tempfile.mkdtemp()
    fake = os.path.join(tmp, "vkbench")
    with open(fake, "w") as f:
        f.write(f"#!{sys.executable}\nTEMPLATE = {TEMPLATE!r}\n" + FAKE_VKBENCH)
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
    merged = os.path.join(tmp, "tune.json")
    code, out, err = tool("tune", "--vkbench", fake, "--json", merged, "fam", "v", "T=1", "T=2", "T=3", "T=4",
                          "T=5")
    check(code == 0, "tune exit 0", out, err)
    lines = [ln for ln in out.splitlines() if ln.startswith(("T=", "(defaults)"))]
    check([ln.split()[0] for ln in lines] == ["T=2", "T=5", "(defaults)", "T=1", "T=3", "T=4"],
          "ranked fastest first (the defaults baseline among them), then what did not run in the order given", out)
    t2, t5, dflt, t1 = (ln.split() for ln in lines[:4])
    # metric (three significant digits), share of the ceiling, spread (the template's IQR over median), ratio
    # to the defaults row with its interval (the same value each round: half the two 2% spreads combined,
    # 1.41% of the ratio), registers, spill less 2^36
    check(t2[2:10] == ["900", "90.0%", "2.0%", "3.00", "±", "0.04x", "96", "0"], "T=2: metric, share, spread, "
          "ratio and interval, registers, spill less 2^36", out)
    check(t5[2:10] == ["450", "45.0%", "2.0%", "1.50", "±", "0.02x", "64", "16"], "T=5: the same", out)
    check(dflt[2:10] == ["300", "30.0%", "2.0%", "1.00", "±", "0.01x", "48", "-"], "(defaults): the baseline, ratio 1",
          out)
    check(t1[2:10] == ["150", "15.0%", "2.0%", "0.500", "±", "0.007x", "40", "-"], "T=1: no local-memory statistic",
          out)
    check("exit 2: --spec T=3: the family refuses it" in lines[4], "T=3: the refusal's reason", out)
    check("FAILED validation" in lines[5], "T=4: failed", out)
    with open(merged) as f:
        doc = json.load(f)
    kinds = sorted((r["repeat"], r["variant"], r.get("constants") or "") for r in doc["results"])
    check(kinds == [(k, v, c) for k in range(3) for v, c in (("api_copy", ""), ("v", ""), ("v", "T=1"), ("v", "T=2"),
                                                              ("v", "T=4"), ("v", "T=5"))],
          "the merged document: per round (three) the ceiling once, every configuration's row", kinds)
    check([c["exit_code"] for c in doc["tune"]["configs"]] == [0, 0, 0, 2, 0, 0], "each configuration's exit code",
          doc["tune"])
    # the same values as µs per call (lower is better): the order turns round, ratios are of speeds
    os.environ["FAKE_LOWER"] = "1"
    code, out, err = tool("tune", "--vkbench", fake, "--json", merged, "fam", "v", "T=1", "T=2", "T=5")
    del os.environ["FAKE_LOWER"]
    lines = [ln.split() for ln in out.splitlines() if ln.startswith(("T=", "(defaults)"))]
    check(code == 0 and [ln[0] for ln in lines] == ["T=1", "(defaults)", "T=5", "T=2"],
          "lower is better: the fewest µs first", out, err)
    check([ln[5] for ln in lines] == ["2.00", "1.00", "0.667", "0.333"], "ratio to the defaults: of speeds", out)


if __name__ == "__main__":
    run_cases(globals(), "tools_values_test.py")
