#!/usr/bin/env python3
"""check_vocabulary.py [--exclude PATH]... ROOT - the product speaks its own words, not the work log's.

Fails (exit 1, one line per hit: PATH:LINE: "TEXT") where a text file of the product names the work that made it
rather than what the code does: a tracker's numbered item, a numbered work session, or a design note cited by its
file number (three zero-padded digits) instead of its subject. A run's seed is no citation: `--seed 123`, "seed 42"
and a settings line's "seed 1" do not fire. Scanned: host/, cuda/, shaders/, tools/, tests/, docs/ and README.md;
in docs/results only the markdown pages, not the raw result data. Binary files are skipped.

--exclude PATH (relative to ROOT, repeated) leaves a file or folder out; it exists for this checker's own tests,
not to exempt a part of the product.
"""
import os
import re
import sys

SCANNED = ("host", "cuda", "shaders", "tools", "tests", "docs", "README.md")
RESULTS = os.path.join("docs", "results")
SKIPPED_DIRS = {".git", "__pycache__"}

# Each word is spelled through a character class so that this file holds no hit of its own.
WORK_LOG = re.compile(
    r"\b[i]ssues?\s+\d+"  # a tracker's item
    r"|\b[s]essions?\s+\d+"  # a numbered work session
    r"|(?<![-\w])[s]eeds?\s+0\d\d\b",  # a design note by file number; not --seed N, not a run's seed
    re.IGNORECASE)


def scanned_files(root, excluded):
    for top in SCANNED:
        path = os.path.join(root, top)
        if os.path.isfile(path):
            yield top
            continue
        for d, dirs, files in os.walk(path):
            rel_dir = os.path.relpath(d, root)
            dirs[:] = sorted(x for x in dirs if x not in SKIPPED_DIRS and os.path.join(rel_dir, x) not in excluded)
            for f in sorted(files):
                rel = os.path.join(rel_dir, f)
                if rel in excluded:
                    continue
                if (rel_dir == RESULTS or rel_dir.startswith(RESULTS + os.sep)) and not f.endswith(".md"):
                    continue
                yield rel


def text_lines(path):
    with open(path, "rb") as f:
        data = f.read()
    if b"\0" in data[:8192]:
        return []
    try:
        return data.decode("utf-8").split("\n")  # not splitlines(): a form feed or U+2028 ends no line
    except UnicodeDecodeError:
        return []


def main(argv):
    excluded, args = set(), list(argv)
    while args and args[0] == "--exclude":
        if len(args) < 2:
            break
        excluded.add(os.path.normpath(args[1]))
        args = args[2:]
    if len(args) != 1 or not os.path.isdir(args[0]):
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    root, hits, files = args[0], 0, 0
    for rel in scanned_files(root, excluded):
        files += 1
        for n, line in enumerate(text_lines(os.path.join(root, rel)), 1):
            for m in WORK_LOG.finditer(line):
                print(f'{rel}:{n}: "{m.group(0)}"')
                hits += 1
    if hits:
        print(f"check_vocabulary: {hits} work-log words in {files} files: say what the code does and why, "
              "credit a design note by its subject", file=sys.stderr)
        return 1
    print(f"check_vocabulary: {files} files, no work-log words")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
