#!/usr/bin/python3
"""view_test.py CASE: what a user of the tools reads: the set-up step a missing plotting package names, build
identity across files, the `--changed` view, ratios with their interval, tune's rounds. On fixed files and
interpreters started here; nothing is timed. One ctest test per CASE, vkb.tools.TOOL.CASE (`--list`)."""
import os
import re
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


if __name__ == "__main__":
    run_cases(globals(), "view_test.py")
