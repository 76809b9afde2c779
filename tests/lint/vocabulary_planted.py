#!/usr/bin/env python3
"""vocabulary_planted.py SRC TMP - check_vocabulary.py catches what it is for: on a copy of SRC's scanned files
under TMP, lines planted at the end of host/core/util.c (a tracker's item, a work session, a design note by
number) must each be named at their file and line, exit 1; a run's seed written beside them must not be; a file
left out by --exclude must not be read. Hits the tree already has are allowed, but must be the same ones before
and after the plant. The words are put together here at run time, so no file of the tree holds them.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "check_vocabulary.py")
SCANNED = ("host", "cuda", "shaders", "tools", "tests", "docs", "README.md")
PLANTED = os.path.join("host", "core", "util.c")
EXCLUDED = os.path.join("tests", "planted_but_excluded.txt")

ITEM, SESSION, NOTE = "iss" + "ue 12", "Sess" + "ion 4", "se" + "ed 003"
# (text of the line, what the checker must report on it; None: nothing)
LINES = [
    (f"/* the spec constants of 0 ({ITEM}) */", ITEM),
    ("/* run with --seed 123 or --seed=123, seed 42 and a settings line's seed 1 */", None),
    (f"/* measured in {SESSION} */", SESSION),
    (f"/* the tiled product ({NOTE}, figure 4.3) */", NOTE),
]


def check(root, *extra):
    p = subprocess.run([sys.executable, CHECKER, *extra, root], capture_output=True, text=True)
    # the hits alone: "path:line: \"text\"" (a clean tree prints only its one summary line)
    return p.returncode, {line for line in p.stdout.splitlines() if ': "' in line}, p.stderr


def fail(why, *groups):
    print(f"vocabulary_planted: {why}", file=sys.stderr)
    for title, lines in groups:
        print(f"{title}:", file=sys.stderr)
        for line in sorted(lines):
            print(f"  {line}", file=sys.stderr)
    sys.exit(1)


def main(src, tmp):
    root = os.path.join(tmp, "tree")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    for top in SCANNED:
        s = os.path.join(src, top)
        if os.path.isdir(s):
            shutil.copytree(s, os.path.join(root, top), ignore=shutil.ignore_patterns("__pycache__", "*.json",
                                                                                       "*.tar.gz", "*.png"))
        elif os.path.isfile(s):
            shutil.copy(s, root)

    code, before, err = check(root)
    if code not in (0, 1):
        fail(f"the checker exited {code} on the copy: {err.strip()}")

    target = os.path.join(root, PLANTED)
    with open(target, encoding="utf-8") as f:
        first = f.read().count("\n") + 1
    with open(target, "a", encoding="utf-8") as f:
        f.write("".join(text + "\n" for text, _ in LINES))
    with open(os.path.join(root, EXCLUDED), "w", encoding="utf-8") as f:
        f.write(f"{ITEM}\n")

    code, after, err = check(root, "--exclude", EXCLUDED)
    want = {f'{PLANTED}:{first + i}: "{hit}"' for i, (_, hit) in enumerate(LINES) if hit}
    if code != 1:
        fail(f"planted lines, exit {code}, not 1", ("reported", after))
    if after - before != want or before - after:
        fail("the planted lines not reported as planted", ("wanted", want), ("new hits", after - before),
             ("hits gone", before - after))
    print(f"vocabulary_planted: {len(want)} planted lines named at {PLANTED}:{first}..{first + len(LINES) - 1}, "
          f"a run's seed and the excluded file not ({len(before)} hits the tree already has)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.splitlines()[0])
    main(sys.argv[1], sys.argv[2])
