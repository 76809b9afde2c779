#!/usr/bin/python3
"""recipes_test.py CASE VKBENCH: tools/gpu.sh and tools/recipes/*.recipe. Cases:
  parse      every recipe expands (--dry-run) with exit 0, and --list names each with its description
  vkbench    every vkbench command of every recipe parses with vkbench's own parser (vkbench ARGS --dry-run
             never exits 2, the usage error)
  paths      every tool a recipe names (tools/..., tests/..., $TOOLS/...) exists
  bad        an unknown step kind, a missing recipe, a step without a name: one line and exit 2, nothing run
  run        tests/tools/fixtures/tiny.recipe end to end on the default device: the files it must leave"""
import os
import re
import shlex
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GPU = os.path.join(ROOT, "tools", "gpu.sh")
RECIPES = sorted(f[:-7] for f in os.listdir(os.path.join(ROOT, "tools", "recipes")) if f.endswith(".recipe"))


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def gpu(args, out, env=None):
    e = dict(os.environ, OUT=out, **(env or {}))
    return subprocess.run([GPU] + args, cwd=ROOT, env=e, capture_output=True, text=True, timeout=600)


def dry(recipe, out, vkbench):
    p = gpu([recipe, "--dry-run", "--build", os.path.dirname(vkbench)], out)
    if p.returncode != 0:
        fail(f"{recipe} --dry-run: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout.splitlines()


def case_parse(vkbench, out):
    if len(RECIPES) < 10:
        fail(f"only {len(RECIPES)} recipes: {RECIPES}")
    for r in RECIPES:
        lines = dry(r, out, vkbench)
        steps = [ln for ln in lines if re.match(r"^(run|shell|background|print|pack)[ :]", ln)]
        # every step line of the file (continuations joined, repeats counted once) shows up at least once
        text = open(os.path.join(ROOT, "tools", "recipes", r + ".recipe")).read().replace("\\\n", "")
        want = [ln for ln in text.splitlines() if re.match(r"^(run|shell|background|print|pack)\b", ln)]
        kinds = sorted({ln.split()[0].rstrip(":") for ln in want})
        got = sorted({ln.split()[0].rstrip(":") for ln in steps})
        if not want or len(steps) < len(want) or kinds != got:
            fail(f"{r}: {len(want)} steps ({kinds}) in the file, {len(steps)} ({got}) in --dry-run")
    listed = gpu(["--list"], out).stdout.splitlines()
    names = [ln.split()[0] for ln in listed]
    if names != RECIPES or any(len(ln.split()) < 4 for ln in listed):
        fail(f"--list: {listed}")
    print(f"{len(RECIPES)} recipes expand and are listed")


def case_vkbench(vkbench, out):
    n = 0
    for r in RECIPES:
        for ln in dry(r, out, vkbench):
            m = re.match(r"^run ([^:]+): (.*)$", ln)
            if not m:
                continue
            words = shlex.split(m.group(2))
            while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
                words.pop(0)
            if not words or os.path.basename(words[0]) != "vkbench":
                fail(f"{r}: {m.group(1)} does not run vkbench: {ln}")
            for flag, value in zip(words, words[1:]):   # a file an earlier step writes
                if flag == "--baseline" and not os.path.exists(value):
                    with open(value, "w") as f:
                        f.write("# vkbench baseline 1\n")
            # list and devices run nothing (and refuse --dry-run, which they do not use): run them as they are
            command = [w for w in words[1:] if not w.startswith("-")][:1]
            dry_run = [] if command in (["list"], ["devices"]) else ["--dry-run"]
            p = subprocess.run([vkbench] + words[1:] + dry_run, cwd=out, capture_output=True, text=True,
                               timeout=120)
            if p.returncode == 2:
                fail(f"{r}: {m.group(1)}: vkbench {' '.join(words[1:])}: {p.stderr.strip().splitlines()[-1:]}")
            n += 1
    if n < 50:
        fail(f"only {n} vkbench commands")
    print(f"{n} vkbench commands parse")


def case_paths(vkbench, out):
    n = 0
    for r in RECIPES:
        for ln in dry(r, out, vkbench):
            for path in re.findall(r"(?:\$TOOLS/|\b(?=tools/|tests/))([\w./-]+\.(?:py|sh))", ln):
                full = os.path.join(ROOT, "tools", path) if "$TOOLS/" + path in ln else os.path.join(ROOT, path)
                if not os.path.isfile(full):
                    fail(f"{r}: names {path}, which does not exist: {ln}")
                n += 1
    if n < 10:
        fail(f"only {n} tools named")
    print(f"{n} named tools exist")


def case_bad(vkbench, out):
    bad = os.path.join(out, "bad")
    os.makedirs(bad)
    cases = {"frobnicate x: y": "unknown step kind 'frobnicate'", "run: devices": "run needs a name",
             "run a expect=one: devices": "bad option", "repeat 2": "repeat without end",
             "run a: devices \\": "continues past the end"}
    for i, (line, want) in enumerate(cases.items()):
        path = os.path.join(bad, f"bad{i}.recipe")
        with open(path, "w") as f:
            f.write(f"# bad\nrun first: devices\n{line}\n")
        p = gpu([path], os.path.join(bad, f"out{i}"))
        if p.returncode != 2 or want not in p.stderr or len(p.stderr.splitlines()) != 1 or p.stdout:
            fail(f"{line!r}: exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr!r} (want {want!r})")
        if os.path.exists(os.path.join(bad, f"out{i}")):
            fail(f"{line!r}: something ran")
    p = gpu(["no-such-recipe"], bad)
    if p.returncode != 2 or len(p.stderr.splitlines()) != 1 or "suite" not in p.stderr:
        fail(f"missing recipe: exit {p.returncode}, {p.stderr!r}")
    print("bad recipes: one line, exit 2")


def case_run(vkbench, out):
    fixture = os.path.join(HERE, "fixtures", "tiny.recipe")
    p = gpu([fixture, "--build", os.path.dirname(vkbench)], out)
    if p.returncode == 1 and re.search(r"^copy\t3\t", open(os.path.join(out, "steps.tsv")).read(), re.M):
        sys.exit(77)   # vkbench's exit 3: no loader, driver or device
    if p.returncode != 0:
        fail(f"tiny.recipe: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    if open(os.path.join(out, "copy.txt")).read().count("copy") < 1:
        fail("copy.txt holds no table")
    rows = [ln.split("\t") for ln in open(os.path.join(out, "steps.tsv")).read().splitlines()]
    if [r[0] for r in rows] != ["step", "copy", "round-1", "round-2"] or any(r[4] != "ok" for r in rows[1:]):
        fail(f"steps.tsv: {rows}")
    summary = open(os.path.join(out, "summary.txt")).read()
    if not re.match(r"^[1-9][0-9]* rows$", summary.strip()) or summary.strip() not in p.stdout:
        fail(f"summary.txt: {summary!r}")
    if not os.path.isfile(os.path.join(out, "rounds.tar.gz")):
        fail(f"no rounds.tar.gz in {sorted(os.listdir(out))}")
    with tarfile.open(os.path.join(out, "rounds.tar.gz")) as t:
        names = sorted(t.getnames())
        second = t.extractfile("round-2.txt").read().decode()
    if names != ["round-1.txt", "round-2.txt"] or second.strip() != "round 2 of round-2":
        fail(f"rounds.tar.gz: {names} {second!r}")
    left = sorted(os.listdir(out))
    if left != ["copy.json", "copy.txt", "rounds.tar.gz", "steps.tsv", "summary.txt"]:
        fail(f"output folder: {left}")
    print("tiny.recipe ran:", ", ".join(left))


if __name__ == "__main__":
    case, vk = sys.argv[1], os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        globals()["case_" + case](vk, tmp)
