#!/usr/bin/python3
"""view_test.py CASE: what a user of the tools reads: the set-up step a missing plotting package names, build
identity across files, the `--changed` view, ratios with their interval, tune's rounds. On fixed files and
interpreters started here; nothing is timed. One ctest test per CASE, vkb.tools.TOOL.CASE (`--list`)."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from test_verdicts import check, one_line_error, run_cases

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(ROOT, "tools")
FIX = os.path.join(HERE, "fixtures")
PY = sys.executable


def fx(name):
    return os.path.join(FIX, name)


def tool(name, *args, env=None):
    """(exit code, stdout, stderr) of tools/NAME.py ARGS."""
    p = subprocess.run([PY, os.path.join(TOOLS, name + ".py"), *args], capture_output=True, text=True,
                       timeout=300, env=env)
    return p.returncode, p.stdout, p.stderr


def without_matplotlib():
    """An environment whose interpreter finds a matplotlib that cannot be imported (a folder first on its path)."""
    shadow = tempfile.mkdtemp()
    os.makedirs(os.path.join(shadow, "matplotlib"))
    with open(os.path.join(shadow, "matplotlib", "__init__.py"), "w") as f:
        f.write("raise ImportError('matplotlib withheld')\n")
    return dict(os.environ, PYTHONPATH=shadow)


def case_plot_no_matplotlib():
    """plot.py and report.py --html without matplotlib: one line that names the interpreter which cannot import
    it and the set-up step that installs it (tools/setup.sh --plot), exit 2, no traceback."""
    env = without_matplotlib()
    out_dir = tempfile.mkdtemp()
    want = re.escape(PY) + r" cannot import: install python3-matplotlib \(as root: tools/setup.sh --plot\)"
    one_line_error(*tool("plot", fx("v2-lavapipe.json"), "--out", out_dir, env=env), 2, "^plot.py: error: charts need matplotlib, which " + want)
    one_line_error(*tool("report", fx("v2-lavapipe.json"), "--html", os.path.join(out_dir, "r.html"), env=env),
                   2, "^report.py: error: .*" + want)
    code, out, err = tool("report", fx("v2-lavapipe.json"), env=env)
    check(code == 0 and out.startswith("# vkbench report"), "the Markdown report needs no matplotlib", err)


def case_plot_setup():
    """tools/setup.sh installs matplotlib only when asked (--plot): the main job's list lacks it."""
    with open(os.path.join(TOOLS, "setup.sh")) as f:
        text = f.read()
    base = text.split('pkgs="', 1)[1].split('"', 1)[0]
    check("python3-matplotlib" not in base, "the main job's packages hold no matplotlib", base)
    check('"--plot" ] && pkgs="$pkgs python3-matplotlib"' in text, "--plot adds python3-matplotlib")


def variant_file(path, edit):
    """A copy of the fixture PATH after EDIT(doc), in a folder of its own: its path."""
    with open(path) as f:
        doc = json.load(f)
    edit(doc)
    out = os.path.join(tempfile.mkdtemp(), os.path.basename(path))
    with open(out, "w") as f:
        json.dump(doc, f)
    return out


BUILD = {"commit": "v0.1.0-12-g5504baefbdff", "build_type": "Release", "cuda_architectures": "90",
         "sanitizer": False}


def with_build(**changes):
    def edit(doc):
        doc["schema_version"] = "2.3.0"
        doc["build"] = dict(BUILD, **changes)
    return edit


def case_compare_builds():
    """Two files from different builds (another commit; another CUDA architecture list) say so in one line before
    the table, naming both; files of one build, and files written before the build was recorded, say nothing."""
    a = variant_file(fx("v2-lavapipe.json"), with_build())
    same = variant_file(fx("v2-lavapipe.json"), with_build())
    other = variant_file(fx("v2-lavapipe.json"), with_build(commit="v0.1.0-14-g0123456789ab-dirty"))
    archs = variant_file(fx("v2-lavapipe.json"), with_build(cuda_architectures="80"))
    for cand, want in ((other, "builds differ (commit): v2-lavapipe commit v0.1.0-12-g5504baefbdff (Release, CUDA 90, "
                               "no sanitizer), v2-lavapipe commit v0.1.0-14-g0123456789ab-dirty (Release, CUDA 90, "
                               "no sanitizer)"),
                       (archs, "builds differ (cuda architectures): ")):
        code, out, err = tool("compare", a, cand)
        lines = out.splitlines()
        table = next(i for i, ln in enumerate(lines) if ln.startswith("row "))
        hits = [i for i, ln in enumerate(lines) if ln.startswith("builds differ")]
        check(code == 0 and len(hits) == 1 and hits[0] < table and lines[hits[0]].startswith(want),
              f"one line before the table: {want}", out, err)
    for x, y in ((a, same), (fx("v2-lavapipe.json"), other)):
        code, out, err = tool("compare", x, y)
        check(code == 0 and "builds differ" not in out, "one build (or an old file): no line", out)
    code, out, err = tool("compare", a, other, "--format", "markdown")
    check("- builds differ (commit)" in out, "the markdown names it too", out)


def case_compare_changed():
    """--changed: only the rows whose verdict is not same (a row made twice as fast), and the rows the candidate
    lacks as one line per candidate, per family, instead of a line each; the summary still counts every row."""
    def edit(doc):
        kept = []
        for r in doc["results"]:
            if r["family"] == "transpose":
                continue                     # missing from the candidate
            if r["family"] == "copy" and r["variant"] == "vec4" and r["shape_text"] == "n=65536":
                r["metric"]["value"] *= 2
                for k in ("median", "min", "q1", "q3", "mean"):
                    if r["time_ms"].get(k) is not None:
                        r["time_ms"][k] /= 2
            kept.append(r)
        doc["results"] = kept
    with open(fx("v2-lavapipe.json")) as f:
        base = json.load(f)
    transposes = sum(1 for r in base["results"] if r["family"] == "transpose" and r["status"] == "ok")
    cand = variant_file(fx("v2-lavapipe.json"), edit)
    code, out, err = tool("compare", fx("v2-lavapipe.json"), cand)
    full = [ln for ln in out.splitlines() if " | " in ln and not ln.startswith("row ")]
    code, out, err = tool("compare", fx("v2-lavapipe.json"), cand, "--changed")
    rows = [ln for ln in out.splitlines() if " | " in ln and not ln.startswith("row ")]
    check(code == 0 and len(full) > 3 and len(rows) == 1 and rows[0].startswith("copy vec4 n=65536")
          and rows[0].endswith("faster"), "--changed: the one changed row", out, err)
    missing = [ln for ln in out.splitlines() if "missing from" in ln]
    check(transposes >= 2 and missing == [f"{transposes} rows missing from v2-lavapipe (not shown: transpose "
                                          f"{transposes})"], "the missing rows in one line", out)
    check(f"{transposes} missing" in out.splitlines()[-1], "the summary counts them", out)


# A stand-in for vkbench behind tune.py: each call appends its --spec to LOG and writes one kernel row whose
# value is VALUES[config][call number of that config] (the round), settled unless the config is in UNSETTLED.
# With MODE "nostats" its pipeline carries no statistics; with "term" it sends SIGTERM to tune.py and waits.
FAKE = r'''
import json, os, signal, sys, time
argv = sys.argv[1:]
out = argv[argv.index("--json") + 1]
config = argv[argv.index("--spec") + 1] if "--spec" in argv else "-"
with open(LOG, "a") as f:
    f.write(config + "\n")
if MODE == "term":
    os.kill(os.getppid(), signal.SIGTERM)
    time.sleep(30)
calls = open(LOG).read().split().count(config) - 1
doc = json.load(open(TEMPLATE))
r = [x for x in doc["results"] if x["status"] == "ok" and not x["ceiling_row"]][0]
r.update(family="fam", variant="v", backend="vulkan", constants=None if config == "-" else config,
         shape_text="n=1024", settled=config not in UNSETTLED, suspect=False)
r["metric"].update(value=VALUES[config][calls], fraction=None, better="higher")
r["pipelines"] = [{"kernel": "k"}] if MODE == "nostats" else []
doc["results"] = [r]
json.dump(doc, open(out, "w"))
'''


def fake_vkbench(values, unsettled=(), mode=""):
    d = tempfile.mkdtemp()
    path, log = os.path.join(d, "vkbench"), os.path.join(d, "calls")
    with open(path, "w") as f:
        f.write(f"#!{PY}\nLOG = {log!r}\nTEMPLATE = {fx('v2-lavapipe.json')!r}\nVALUES = {values!r}\n"
                f"UNSETTLED = {list(unsettled)!r}\nMODE = {mode!r}\n" + FAKE)
    os.chmod(path, 0o755)
    return path, log


def case_tune_rounds():
    """tune.py interleaves its configurations (round-robin, the order rotated each round: drift falls on all
    alike), shows each ratio with its interval from the rounds ("1.50 ± 0.15x": per-round ratios 1.35, 1.5,
    1.65), marks a ratio whose interval holds 1, and does not rank a configuration that did not settle, however
    fast: it is listed after the ranked ones, marked."""
    values = {"-": [300, 300, 300], "A=1": [405, 450, 495], "A=2": [306, 297, 303], "A=3": [3000, 3000, 3000]}
    fake, log = fake_vkbench(values, unsettled=["A=3"])
    code, out, err = tool("tune", "--vkbench", fake, "fam", "v", "A=1", "A=2", "A=3")
    with open(log) as f:
        calls = f.read().split()
    check(calls == ["-", "A=1", "A=2", "A=3", "A=1", "A=2", "A=3", "-", "A=2", "A=3", "-", "A=1"],
          "three rounds, each configuration once per round, the order rotated", calls)
    rows = [ln for ln in out.splitlines() if ln.startswith(("A=", "(defaults)"))]
    check(code == 0 and [ln.split()[0] for ln in rows] == ["A=1", "A=2", "(defaults)", "A=3"],
          "ranked by speed, the unsettled one last", out, err)
    check(re.search(r"^A=1 .* 450 .* 1\.50 ± 0\.15x .*n=1024$", rows[0]), "A=1: 1.50 ± 0.15x, no mark", out)
    check(re.search(r" 1\.01 ± 0\.02x .*; within noise of the defaults$", rows[1]), "A=2: within noise", out)
    check(rows[3].endswith("; not settled: not ranked") and " 10.0 ± " in rows[3], "A=3: marked, not ranked", out)
    one_line_error(*tool("tune", "--vkbench", fake, "--rounds", "0", "fam", "v", "A=1"), 2, "--rounds 0: 1 to 100")


def case_tune_no_statistics():
    """A pipeline without driver statistics (no "statistics" key): the registers and spills are "-", no traceback."""
    fake, _ = fake_vkbench({"-": [300], "A=1": [450]}, mode="nostats")
    code, out, err = tool("tune", "--vkbench", fake, "--rounds", "1", "fam", "v", "A=1")
    check(code == 0 and "Traceback" not in err, "exit 0, no traceback", out, err)
    row = next(ln for ln in out.splitlines() if ln.startswith("A=1"))
    check(row.split()[2:8] == ["450", "-", "2.0%", "1.50", "±", "0.02x"] and row.split()[8:10] == ["-", "-"],
          "no registers, no spills", out)


def case_tune_sigterm():
    """SIGTERM while a configuration runs (vkbench sends it, so no timing): tune.py exits 143, stops vkbench and
    leaves no scratch folder; the output file is not written."""
    fake, log = fake_vkbench({"-": [300]}, mode="term")
    tmp = tempfile.mkdtemp()
    out_json = os.path.join(tempfile.mkdtemp(), "t.json")
    p = subprocess.run([PY, os.path.join(TOOLS, "tune.py"), "--vkbench", fake, "--json", out_json, "fam", "v", "A=1"],
                       capture_output=True, text=True, timeout=120, env=dict(os.environ, TMPDIR=tmp))
    check(p.returncode == 128 + signal.SIGTERM and "Traceback" not in p.stderr, "exit 143, no traceback",
          p.returncode, p.stderr)
    check(os.listdir(tmp) == [], "no scratch folder left", os.listdir(tmp))
    check(os.listdir(os.path.dirname(out_json)) == [], "no output, no temporary beside it",
          os.listdir(os.path.dirname(out_json)))


if __name__ == "__main__":
    run_cases(globals(), "view_test.py")
