#!/usr/bin/python3
"""tools_test.py CASE: the results tooling (tools/*.py) on fixed files (tests/fixtures, made by
make_fixtures.py with known values and spreads) and the committed results: nothing is measured, so no
verdict depends on the machine's load. One ctest test per CASE (tests/tools.cmake); exit 77: skipped."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOOLS = os.path.join(ROOT, "tools")
FIX = os.path.join(HERE, "fixtures")
RESULTS = os.path.join(ROOT, "docs", "results")
sys.path.insert(0, TOOLS)
import vkbjson  # noqa: E402

PY = sys.executable
SKIP = 77


def fx(name):
    return os.path.join(FIX, name)


def tool(name, *args, stdin=None):
    """(exit code, stdout, stderr) of tools/NAME.py ARGS."""
    p = subprocess.run([PY, os.path.join(TOOLS, name + ".py"), *args], capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def check(cond, what, *context):
    if not cond:
        print(f"FAIL: {what}")
        for c in context:
            print(c)
        sys.exit(1)


def one_line_error(code, out, err, rc, pattern):
    check(code == rc, f"exit {code}, expected {rc}", out, err)
    check("Traceback" not in err, "a traceback instead of one line", err)
    lines = err.strip().splitlines()
    check(len(lines) == 1 and re.search(pattern, lines[0]), f"one line matching {pattern!r}", err)


# --- cases ---

def case_load():
    """Every form ever written loads into one form; anything else is refused in one line with exit 2."""
    v1 = vkbjson.load(fx("v1-lavapipe.json"))
    check(v1["schema_major"] == 1 and v1["settings"]["seed"] == 1 and v1["settings"]["budget_ms"] == 200
          and v1["settings"]["mode"] == "hot", "schema 1: settings read from the command line", v1["settings"])
    check(all(r["time_ms"]["q1"] is None for r in vkbjson.timed(v1)), "schema 1: no quartiles")
    v2 = vkbjson.load(fx("v2-lavapipe-cold.json"))
    check(v2["schema_major"] == 2 and v2["settings"]["mode"] == "cold", "schema 2 settings", v2["settings"])
    bare = vkbjson.load(fx("tune-bare-list.json"))
    check(bare["bare_list"] and len(bare["results"]) == 3, "a bare list becomes a document")
    for name, pattern in (("not-vkbench.json", "not a vkbench results file"), ("truncated.json", "is not JSON"),
                          ("future-schema.json", "schema_version '3.0.0'.*reads schema 1 and 2"),
                          ("missing.json", "cannot read .*missing.json")):
        for t in ("compare", "plot", "report"):
            args = [fx(name)] + ([fx("v2-lavapipe.json")] if t == "compare" else []) + (
                ["--out", tempfile.mkdtemp()] if t == "plot" else [])
            one_line_error(*tool(t, *args), 2, pattern)


def case_committed():
    """Every committed results file (the tune files were bare lists that crashed plot, report and compare)
    is a document each tool reads; plot runs on the four tune files."""
    files = sorted(f for f in os.listdir(RESULTS) if f.endswith(".json"))
    check(len(files) >= 10, "the committed results", files)
    for f in files:
        path = os.path.join(RESULTS, f)
        with open(path) as fh:
            raw = json.load(fh)
        check(isinstance(raw, dict) and raw.get("tool") == "vkbench", f"{f} is a vkbench document")
        if "tune" in f:
            check("tune" in raw and raw["tune"]["configs"], f"{f} names its configurations under tune")
        code, out, err = tool("compare", path, path)
        check(code == 0 and "Traceback" not in err, f"compare {f} with itself", out, err)
        summary = [ln for ln in out.splitlines() if ln.startswith("summary")]
        check(len(summary) == 1 and " 0 faster, 0 slower" in summary[0] and ", 0 missing" not in summary[0],
              f"{f} against itself: every row the same or unclear", summary)
        code, out, err = tool("report", path)
        check(code == 0 and out.startswith("# vkbench report"), f"report {f}", err)
    out_dir = tempfile.mkdtemp()
    tune_files = [os.path.join(RESULTS, f) for f in files if "tune" in f]
    for path in tune_files:
        code, out, err = tool("plot", path, "--out", out_dir, "--format", "png")
        check(code == 0 and "matmul_4096x4096x4096.png" in out, f"plot {path}", out, err)


def compare_rows(out):
    """{row name: (ratio, noise, verdict)} from compare's output with one compared file."""
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^(\S.*?)\s+\S+ \S+\s+\|\s+(\S+)\s+(\S*)\s+(\w+)$", line)
        if m and not line.startswith(("row", "summary")):
            rows[m.group(1)] = (m.group(2), m.group(3), m.group(4))
    return rows


def case_compare_verdicts():
    """Verdicts known by construction (see make_fixtures.py), noise bands, summary, numeric order."""
    new = vkbjson.load(fx("v2-lavapipe.json"))
    padded = next(r for r in new["results"] if r["variant"] == "padded")
    check(padded["time_ms"]["stddev"] > padded["time_ms"]["median"], "fixture: one outlier inflates the stddev")
    code, out, err = tool("compare", fx("v1-lavapipe.json"), fx("v2-lavapipe.json"))
    check(code == 1, f"a regression exits 1, got {code}", out, err)
    rows = compare_rows(out)
    expect = {"copy vec4 n=1024 vulkan": ("0.990", "±2.8%", "same"),
              "copy vec4 n=65536 vulkan": ("0.800", "±2.8%", "SLOWER"),
              "copy vec4 n=262144 vulkan": ("1.250", "±2.8%", "faster"),
              "transpose naive 256x256 vulkan": ("0.909", "±42.4%", "unclear"),
              "transpose padded 256x256 vulkan": ("0.847", "±2.8%", "SLOWER"),
              "matmul tiled16 64x64x64 vulkan": ("0.966", "±2.8%", "slower")}
    for name, want in expect.items():
        check(rows.get(name) == want, f"{name}: {rows.get(name)}, expected {want}", out)
    order = [n for n in rows if n.startswith("copy vec4")]
    check(order == ["copy vec4 n=1024 vulkan", "copy vec4 n=65536 vulkan", "copy vec4 n=262144 vulkan"],
          "shapes in numeric order", order)
    check("copy scalar n=1024 vulkan" in out and re.search(r"copy scalar n=1024 vulkan .*missing", out),
          "a row the new run lacks is 'missing'", out)
    check("summary v2-lavapipe: 1 faster, 3 slower (2 beyond 5%), 5 same, 1 unclear; geometric mean of ratios "
          "0.970 over 10 rows; 1 missing" in out, "summary line", out)
    check("2 regression(s)" in out, "regression count", out)
    # a wider threshold: the same rows, slower but no regression, exit 0
    code, out, err = tool("compare", "--threshold", "25", fx("v1-lavapipe.json"), fx("v2-lavapipe.json"))
    check(code == 0 and "(0 beyond 25%)" in out, "--threshold 25: no regression", out, err)


def case_compare_inputs():
    """Exit codes and messages: the same run twice, unreadable input, --backends with and without CUDA."""
    code, out, err = tool("compare", fx("v2-lavapipe.json"), fx("v2-lavapipe.json"))
    check(code == 0 and "1 faster" not in out and ", 0 slower" in out and "9 same" in out
          and "1 unclear" in out, "a run against itself", out, err)
    one_line_error(*tool("compare", fx("v2-lavapipe.json"), fx("truncated.json")), 2, "truncated.json is not JSON")
    one_line_error(*tool("compare", "--backends", fx("v2-lavapipe.json")), 2, "no timed cuda rows")
    one_line_error(*tool("compare", fx("v2-lavapipe.json")), 2, "give two or more files")
    code, out, err = tool("compare", "--backends", fx("v2-h100.json"))
    check(code == 0, "--backends never exits 1 (Vulkan slower than CUDA is no regression)", out, err)
    rows = compare_rows(out)
    check(rows.get("matmul dbuf 4096x4096x4096") == ("1.041", "±2.8%", "faster")
          and rows.get("copy vec4 n=268435456") == ("1.003", "±2.8%", "same")
          and rows.get("matmul vec4 4096x4096x4096") == ("0.775", "±2.8%", "slower"), "--backends verdicts", out)
    check("cublas" not in out, "ceilings without a Vulkan twin are left out", out)


def case_compare_warnings():
    """Warnings when devices or settings differ; none when they match."""
    code, out, err = tool("compare", fx("v1-lavapipe.json"), fx("v2-lavapipe.json"))
    check("warning" not in err, "no warning between runs with the same settings", err)
    code, out, err = tool("compare", fx("v2-lavapipe.json"), fx("v2-lavapipe-cold.json"))
    for w in ("settings differ: mode hot in v2-lavapipe, cold in v2-lavapipe-cold", "settings differ: seed 1",
              "settings differ: budget_ms 200"):
        check(w in err, f"warning {w!r}", err)
    code, out, err = tool("compare", fx("v1-lavapipe.json"), fx("v2-h100.json"))
    check("devices differ (vulkan): v1-lavapipe ran on llvmpipe" in err, "devices differ", err)
    doc = json.load(open(fx("v2-lavapipe.json")))
    doc["results"].append(doc["results"][0])
    twice = os.path.join(tempfile.mkdtemp(), "twice.json")
    json.dump(doc, open(twice, "w"))
    code, out, err = tool("compare", fx("v2-lavapipe.json"), twice)
    check(code == 0 and "twice: 1 row(s) measured more than once" in err, "a row measured twice", err)


def case_compare_pipe():
    """A reader that goes away (`| head`) ends compare quietly: no traceback."""
    p = subprocess.Popen([PY, os.path.join(TOOLS, "compare.py"), fx("v1-lavapipe.json"), fx("v2-lavapipe.json")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()        # closed before compare writes: its first write meets a broken pipe
    err = p.stderr.read().decode()
    code = p.wait()
    check("Traceback" not in err and err == "", "no traceback on a closed pipe", err)
    check(code == 141, f"exit 141 (like SIGPIPE), got {code}")
    sh = subprocess.run(f"'{PY}' '{TOOLS}/compare.py' '{fx('v1-lavapipe.json')}' '{fx('v2-lavapipe.json')}' | head -1",
                        shell=True, capture_output=True, text=True)
    check(sh.stdout.startswith("baseline:") and "Traceback" not in sh.stderr, "| head -1", sh.stdout, sh.stderr)


def case_plot_plans():
    """What each chart draws, checked as data: sweep axes, series, ceilings, predictions, roofs, styles."""
    import plot
    styles = [plot.style(i) for i in range(16)]
    check(len({s["color"] for s in styles}) == 16 and len({s["marker"] for s in styles}) == 16,
          "16 series: 16 colours and 16 markers")
    sweep = plot.sources_of([vkbjson.load(fx("v2-sweep.json"))])
    t = plot.sweep_plan("transpose", sweep)
    check(t["xlabel"] == "rows" and t["fixed"] == ["cols"], "rows x cols: rows on x, one line per cols", t["xlabel"])
    check(list(t["panels"]) == ["naive", "padded"], "one panel per variant", list(t["panels"]))
    for panel, series in t["panels"].items():
        kern = [s for s in series if s["role"] == "kernel"]
        check([s["label"] for s in kern] == ["cols=256", "cols=2048"], "lines per cols value, numeric order",
              [s["label"] for s in kern])
        check(all(s["xs"] == [256, 512, 1024] for s in kern), "x: the rows", kern)
        ceil = [s for s in series if s["role"] == "ceiling"]
        check(len(ceil) == 2 and {s["style"] for s in ceil} == {s["style"] for s in kern},
              "a ceiling per line, in its colour", ceil)
    check("product" not in t["xlabel"], "never the product of the dims")
    m = plot.sweep_plan("matmul", sweep)
    check(m["xlabel"] == "m = n = k" and m["fixed"] == [] and
          [s["label"] for s in m["panels"][""] if s["role"] == "kernel"] == ["naive", "tiled16"],
          "cubic sizes: one axis m = n = k", m["xlabel"])
    s = plot.sweep_plan("memory.stride", sweep)
    series = s["panels"][""]
    pred = next(x for x in series if x["role"] == "predicted")
    read = next(x for x in series if x["label"] == "read")
    ceil = next(x for x in series if x["role"] == "ceiling")
    check(pred["xs"] == [1, 2, 4, 8, 16, 32] and abs(pred["ys"][-1] - 0.0625 * ceil["ys"][-1]) < 1e-9 * ceil["ys"][-1],
          "prediction curve: predicted share x ceiling", pred, ceil)
    check(all(r < p for r, p in zip(read["ys"], pred["ys"])), "fixture: measured below prediction")
    h100 = plot.sources_of([vkbjson.load(fx("v2-h100.json"))])
    roof = plot.roofline_plan(h100, "vulkan")
    check(set(roof["roofs"]) == {"memory", "fp32", "fp16"} and "cublas_hgemm" in roof["roofs"]["fp16"][1]
          and "cublas_sgemm" in roof["roofs"]["fp32"][1] and "api_copy" in roof["roofs"]["memory"][1],
          "one roof per precision, the memory roof from the copy", roof["roofs"])
    check({p["label"] for p in roof["points"] if p["precision"] == "fp16"} == {"coopmat_f16"},
          "only fp16 kernels under the fp16 roof", roof["points"])
    mm = [(h100[0], r) for r in h100[0].rows if r["family"] == "matmul"]
    panels = plot.bar_panels([x for x in mm if not x[1]["ceiling_row"]], [x for x in mm if x[1]["ceiling_row"]])
    check([(t, sorted({r["variant"] for _, r in k}), [r["variant"] for _, r in c]) for t, k, c in panels] ==
          [("fp32", ["dbuf", "naive", "vec4"], ["cublas_sgemm"]), ("fp16", ["coopmat_f16"], ["cublas_hgemm"])],
          "bars: fp32 and fp16 kernels apart, each under its own ceiling", panels)
    lava = plot.roofline_plan(sweep, "vulkan")
    check(set(lava["roofs"]) == {"memory"}, "no compute ceiling measured: no compute roof", lava["roofs"])
    two = plot.sources_of([vkbjson.load(fx("v1-lavapipe.json")), vkbjson.load(fx("v2-h100.json"))])
    check([x.name for x in two] == ["llvmpipe (LLVM 15.0.6, 256 bits)", "NVIDIA H100 80GB HBM3"],
          "two devices: series named by device", [x.name for x in two])
    runs = plot.sources_of([vkbjson.load(fx("v1-lavapipe.json")), vkbjson.load(fx("v2-lavapipe.json"))])
    check([x.name for x in runs] == ["v1-lavapipe", "v2-lavapipe"], "two runs: series named by file")


def case_plot_files():
    """plot.py writes every chart of several files at once: two devices, two runs, a sweep, a tune file."""
    out_dir = tempfile.mkdtemp()
    code, out, err = tool("plot", fx("v1-lavapipe.json"), fx("v2-lavapipe.json"), fx("v2-h100.json"),
                          fx("v2-sweep.json"), "--out", out_dir, "--format", "png")
    check(code == 0, "plot exit 0", out, err)
    written = out.split()
    code, out, err = tool("plot", fx("v2-h100.json"), "--out", out_dir, "--format", "svg")
    check(code == 0, "plot --format svg exit 0", out, err)
    written += out.split()
    # copy and matmul: sizes of two devices together make sweeps (bars at the largest size)
    for name in ("transpose_sweep", "matmul_sweep", "memory.stride_sweep", "copy_sweep", "copy_n268435456",
                 "matmul_4096x4096x4096", "transpose_1024x2048", "roofline_vulkan", "roofline_cuda"):
        for ext in ("png", "svg") if name.startswith("roofline") else ("png",):
            path = os.path.join(out_dir, f"{name}.{ext}")
            check(path in written and os.path.getsize(path) > 5000, f"chart {name}.{ext}", out)
    one_line_error(*tool("plot", fx("v2-h100.json"), "--out", "/proc/no/such/dir"), 6, "cannot create /proc/no")
    one_line_error(*tool("plot", fx("v2-h100.json"), "--format", "gif"), 2, "--format gif: png, svg or pdf")
    code, out, err = tool("plot", fx("tune-bare-list.json"), "--out", out_dir, "--format", "png")
    check(code == 0 and "matmul_4096x4096x4096.png" in out, "plot of a bare list", out, err)


def case_report_markdown():
    code, out, err = tool("report", fx("v2-h100.json"))
    check(code == 0, "report exit 0", err)
    for want in ("## matmul", "| dbuf | 4096x4096x4096 | 37145.7 | 72.2% of cublas_sgemm (cuda) | 20 | 2.0% |",
                 "| 1.041 |", "## Vulkan / CUDA", "settings: seed 1, mode hot"):
        check(want in out, f"report has {want!r}", out)
    one_line_error(*tool("report", fx("v2-h100.json"), "--html", "/proc/no/such.html"), 6, "cannot write /proc/no")
    code, out, err = tool("report", fx("v1-lavapipe.json"))
    check("## Not measured" in out and "coopmat_f16 vulkan 64x64x64: skip needs VK_KHR_cooperative_matrix" in out
          and "2.0%~" in out, "skips with reasons; schema-1 spread marked ~", out)


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def headless(page, *mode):
    """(stderr's console lines, stdout) of a headless browser on PAGE."""
    p = subprocess.run([browser(), "--headless", "--disable-gpu", "--no-sandbox", "--enable-logging=stderr",
                        "--v=0", "--user-data-dir=" + tempfile.mkdtemp(), *mode, "file://" + page],
                       capture_output=True, text=True, timeout=120)
    console = [ln for ln in p.stderr.splitlines() if ":CONSOLE" in ln]
    return console, p.stdout


def case_report_html():
    """report.py --html in a real browser: no console message, the tables and charts in the DOM, a
    screenshot of substance. The console check is first proven on a page with a planted error."""
    if not browser() and os.geteuid() == 0 and shutil.which("apt-get"):
        # CI runs as root on Debian: install the browser the first time this test needs it
        subprocess.run([os.path.join(TOOLS, "setup.sh"), "--browser"], stdout=sys.stderr, timeout=900)
    if not browser():
        print("no chromium: run tools/setup.sh --browser (as root)")
        sys.exit(SKIP)
    out_dir = tempfile.mkdtemp()
    page = os.path.join(out_dir, "h100.html")
    code, out, err = tool("report", fx("v2-h100.json"), "--html", page)
    check(code == 0 and os.path.getsize(page) > 20000, "report --html", out, err)
    text = open(page, encoding="utf-8").read()
    check(not re.search(r"""(src|href)=["'](?!data:|#)""", text), "self-contained: no external src or href")
    planted = os.path.join(out_dir, "planted.html")
    with open(planted, "w") as f:
        f.write(text.replace("</body>", "<script>console.error('planted'); missing_function();</script></body>"))
    console, _ = headless(planted, "--dump-dom")
    check(len(console) >= 2, "the console check sees a planted error", console)
    console, dom = headless(page, "--dump-dom")
    check(not console, "no console message", *console)
    families = len(re.findall(r'<section class="family"', dom))
    tables = len(re.findall(r"<table", dom))
    svgs = len(re.findall(r"<svg", dom))
    check(families == 3 and tables == families + 1, f"a table per family and the ratios: {families}, {tables}")
    check(svgs >= 5 and len(re.findall(r'<figure class="chart"', dom)) == svgs,
          f"charts rendered as inline SVG: {svgs}")
    check(dom.count("<tr>") == 17 and "NVIDIA H100 80GB HBM3" in dom and "budget_ms 500" in dom,
          "rows, device and settings in the DOM")
    shot = os.path.join(out_dir, "shot.png")
    headless(page, "--screenshot=" + shot, "--window-size=1280,3000")
    check(os.path.exists(shot) and os.path.getsize(shot) > 50000, "a screenshot of substance",
          os.path.getsize(shot) if os.path.exists(shot) else "none")
    # the skips with their reasons
    lava = os.path.join(out_dir, "lavapipe.html")
    tool("report", fx("v1-lavapipe.json"), "--html", lava)
    console, dom = headless(lava, "--dump-dom")
    check(not console and "needs VK_KHR_cooperative_matrix" in dom and "Not measured (1)" in dom,
          "skips listed with reasons", *console)


def case_tune_merge():
    """tune.py's document: the runs' results together, ceilings once, "tune" kept; every tool reads it."""
    import tune
    base = json.load(open(fx("v2-lavapipe.json")))
    runs = []
    for c in ("TILE=16", "TILE=32"):
        d = json.loads(json.dumps(base))
        d["results"] = [r for r in d["results"] if r["family"] == "transpose"]
        for r in d["results"]:
            if not r["ceiling_row"]:
                r["constants"] = c
        runs.append(d)
    info = {"command": "tune.py transpose naive TILE=16 TILE=32", "family": "transpose", "variant": "naive",
            "vkbench_options": [], "configs": [{"constants": "TILE=16", "exit_code": 0, "message": None},
                                               {"constants": "TILE=32", "exit_code": 0, "message": None}]}
    doc = tune.merge(runs, info)
    kernels = [r for r in doc["results"] if not r["ceiling_row"]]
    ceilings = [r for r in doc["results"] if r["ceiling_row"]]
    check(len(kernels) == 4 and len(ceilings) == 1, "kernels of both runs, the ceiling once", doc["results"])
    check(doc["tune"] == info and doc["settings"] == base["settings"] and doc["devices"] == base["devices"],
          "header from the runs, tune kept")
    path = os.path.join(tempfile.mkdtemp(), "tune.json")
    json.dump(doc, open(path, "w"))
    code, out, err = tool("compare", path, path)
    check(code == 0 and "TILE=16" in out and "TILE=32" in out, "compare keeps configurations apart", out, err)
    code, out, err = tool("report", path)
    check(code == 0 and "naive (TILE=32)" in out, "report names the configuration", out, err)


if __name__ == "__main__":
    cases = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}
    if len(sys.argv) != 2 or sys.argv[1] not in cases:
        sys.exit(f"usage: tools_test.py {'|'.join(cases)}")
    cases[sys.argv[1]]()
    print(f"{sys.argv[1]} ok")
