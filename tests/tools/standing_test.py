#!/usr/bin/python3
"""standing_test.py CASE: the performance pages' standing tables against the reference result set
(tools/standing.py). pages_agree: the tree's pages are what --write would make. detects_drift: a copy of the pages
with one number of one standing table changed fails --check, naming that page and no other. checked: the set is read
through the store, so a reference file its checker refuses (a timed row not validated) is one error, exit 2, and
no table is made from it."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
STANDING = os.path.join(ROOT, "tools", "standing.py")
PAGES = os.path.join(ROOT, "docs", "performance")


def check(*args):
    p = subprocess.run([sys.executable, STANDING, "--check", *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout.splitlines(), p.stderr


def fail(msg, *details):
    print(f"FAIL: {msg}", *details, sep="\n")
    sys.exit(1)


def case_pages_agree():
    code, out, err = check()
    if code != 0:
        fail("the pages' standing tables differ from docs/results/reference (tools/standing.py --write)", *out, err)


def case_detects_drift():
    pages = tempfile.mkdtemp()
    for name in os.listdir(PAGES):
        shutil.copy(os.path.join(PAGES, name), pages)
    code, out, err = check("--pages", pages)
    if code != 0:
        fail("the untouched copy of the pages does not pass", *out, err)
    path = os.path.join(pages, "matmul.md")
    text = open(path, encoding="utf-8").read()
    begin, end = text.index("<!-- standing:begin -->"), text.index("<!-- standing:end -->")
    block = text[begin:end]
    m = re.search(r"\| (\d+) GFLOP/s \|", block)
    if not m:
        fail("no GFLOP/s value in matmul.md's standing table", block)
    planted = block[:m.start(1)] + str(int(m.group(1)) + 1) + block[m.end(1):]
    open(path, "w", encoding="utf-8").write(text[:begin] + planted + text[end:])
    code, out, err = check("--pages", pages)
    if code != 1 or len(out) != 1 or not out[0].startswith(path + ": ") or "differs" not in out[0]:
        fail(f"one changed number in {path}: expected exit 1 and one line naming it", f"exit {code}", *out, err)


def case_checked():
    reference = tempfile.mkdtemp()
    source = os.path.join(ROOT, "docs", "results", "reference")
    for name in os.listdir(source):
        shutil.copy(os.path.join(source, name), reference)
    path = os.path.join(reference, "h100-2026-11-27-sgemm.json")
    doc = json.load(open(path, encoding="utf-8"))
    row = next(i for i, r in enumerate(doc["results"]) if r["status"] == "ok" and r["backend"] == "vulkan"
               and r["family"] == "matmul")
    doc["results"][row]["validated"] = False
    json.dump(doc, open(path, "w", encoding="utf-8"))
    code, out, err = check("--reference", reference)
    lines = err.splitlines()
    if (code != 2 or out or len(lines) != 1 or f"results[{row}]" not in lines[0]
            or "not validated" not in lines[0] or "Traceback" in err):
        fail(f"a timed row not validated in {path}: expected exit 2 and one line naming it", f"exit {code}", *out,
             err)


if __name__ == "__main__":
    cases = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}
    if len(sys.argv) != 2 or sys.argv[1] not in cases:
        fail(f"usage: standing_test.py {'|'.join(cases)}")
    cases[sys.argv[1]]()
    print(f"{sys.argv[1]} ok")
