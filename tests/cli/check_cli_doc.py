#!/usr/bin/env python3
"""check_cli_doc.py VKBENCH DOC: the ```help block of DOC (docs/cli.md) is exactly what `VKBENCH --help` prints.
Exit 0 when they match; 1 with a unified diff when they differ (update docs/cli.md with the new --help)."""
import difflib
import re
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_cli_doc.py VKBENCH DOC")
    text = open(sys.argv[2], encoding="utf-8").read()
    m = re.search(r"^```help\n(.*?)^```$", text, re.S | re.M)
    if not m:
        print(f"check_cli_doc: FAIL: {sys.argv[2]} has no ```help block")
        return 1
    p = subprocess.run([sys.argv[1], "--help"], capture_output=True, text=True)
    if p.returncode != 0:
        print(f"check_cli_doc: FAIL: vkbench --help exited {p.returncode}: {p.stderr.strip()}")
        return 1
    want, doc = p.stdout.splitlines(), m.group(1).splitlines()
    if want == doc:
        print(f"ok: {sys.argv[2]} matches vkbench --help ({len(want)} lines)")
        return 0
    print(f"check_cli_doc: FAIL: {sys.argv[2]} differs from vkbench --help:")
    sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(doc, want, "docs/cli.md", "vkbench --help", lineterm=""))
    return 1


if __name__ == "__main__":
    sys.exit(main())
