#!/usr/bin/python3
"""peaks_test.py VKBENCH: `vkbench peaks --json FILE` on the default device. Every row validated, exit 0, and the
table is the file: each number type's line has the JSON row's metric, unit, ceiling and check; every peak row the
device skipped is named once under the table; the bandwidth line is the copy family's fastest row beside its
api_copy. Values are compared as printed (two decimals), not timed against anything, so no verdict depends on the
machine's load. Exit 77: skipped (no Vulkan device)."""
import json
import math
import os
import re
import subprocess
import sys
import tempfile


def check(cond, what, *context):
    if not cond:
        print(f"FAIL: {what}")
        for c in context:
            print(str(c)[-4000:])
        sys.exit(1)


def printed(v):
    """A JSON number as the table prints it: two decimals, '-' for none."""
    return "-" if v is None or not (v > 0) or math.isinf(v) else f"{v:.2f}"


def main():
    vkbench = sys.argv[1]
    js = os.path.join(tempfile.mkdtemp(), "peaks.json")
    p = subprocess.run([vkbench, "peaks", "--quiet", "--json", js], capture_output=True, text=True, timeout=900)
    if p.returncode == 3 and "no Vulkan" in p.stderr:
        print("no Vulkan device")
        sys.exit(77)
    check(p.returncode == 0, f"exit {p.returncode}, not 0", p.stdout, p.stderr)
    checker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "check_json.py")
    c = subprocess.run([sys.executable, checker, js, "peak", "copy"], capture_output=True, text=True)
    check(c.returncode == 0, "the --json file fails the schema", c.stdout, c.stderr)
    doc = json.load(open(js))
    sub = doc["settings"]["subcommand"]
    check(sub == "peaks", f"the file's subcommand is {sub!r}, not 'peaks'")
    results = doc["results"]
    check({r["family"] for r in results} == {"peak", "copy"}, "the file holds other families than peak and copy",
          sorted({r["family"] for r in results}))
    for r in results:
        check(r["status"] in ("ok", "skip"), f"{r['family']}/{r['variant']}: status {r['status']}")
    out = p.stdout.splitlines()
    head = [i for i, line in enumerate(out) if line.startswith("number type")]
    check(len(head) == 1, "no table header 'number type'", p.stdout)
    rows = {}
    for line in out[head[0] + 1:]:
        if not line.strip():
            break  # the table ends at its first blank line; the closing line follows
        if line.startswith(" ") or line.startswith("not on this device"):
            continue
        cells = line.split()
        check(len(cells) >= 6, f"a line of fewer than 6 cells: {line!r}", p.stdout)
        check(cells[0] not in rows, f"{cells[0]} printed twice", p.stdout)
        rows[cells[0]] = cells
    peak = [r for r in results if r["family"] == "peak"]
    ran = [r for r in peak if r["status"] == "ok"]
    check(len(ran) >= 3, f"only {len(ran)} peak rows ran", p.stdout)
    for r in ran:
        cells = rows.get(r["variant"])
        check(cells is not None, f"peak/{r['variant']} ran and has no line", p.stdout)
        m = r["metric"]
        ceil = m["ceiling"] if m["ceiling"] is not None else m["theoretical"]
        want = [r["variant"], printed(m["value"]), m["name"]]
        check(cells[:3] == want, f"{r['variant']}: the line says {cells[:3]}, the file {want}", p.stdout)
        check(cells[4] == printed(ceil), f"{r['variant']}: ceiling {cells[4]}, the file {printed(ceil)}", p.stdout)
        check(cells[-1] == ("SUSPECT" if r["suspect"] else "ok"), f"{r['variant']}: check {cells[-1]}", p.stdout)
    skipped = [r["variant"] for r in peak if r["status"] == "skip"]
    at = [i for i, line in enumerate(out) if line.startswith("not on this device: ")]
    if skipped:
        check(len(at) == 1, "the skipped rows are not named under the table", p.stdout)
        text = out[at[0]]
        for line in out[at[0] + 1:]:  # wrapped: continuation lines are indented
            if not line.startswith("  "):
                break
            text += " " + line.strip()
        named = re.sub(r" \(-v.*\)$", "", text[len("not on this device: "):]).split(", ")
        check(named == skipped, f"skipped rows named {named}, the file's {skipped}", p.stdout)
    else:
        check(not at, "a 'not on this device' line with nothing skipped", p.stdout)
    copy = [r for r in results if r["family"] == "copy" and r["status"] == "ok"]
    api = [r for r in copy if r["variant"] == "api_copy"]
    best = max((r for r in copy if r["variant"] != "api_copy"), key=lambda r: r["metric"]["value"])
    cells = rows.get("bandwidth")
    check(cells is not None, "no bandwidth line", p.stdout)
    want = ["bandwidth", printed(best["metric"]["value"]), "GB/s", "api_copy", printed(api[0]["metric"]["value"])]
    check(cells[:5] == want, f"bandwidth: the line says {cells[:5]}, the file {want}", p.stdout)
    check(f"copy/{best['variant']} at" in p.stdout, f"the bandwidth line does not name copy/{best['variant']}",
          p.stdout)
    check(len(rows) == len(ran) + 1, f"{len(rows)} lines for {len(ran)} peak rows and the bandwidth", p.stdout)
    check(re.search(r"^peaks: \d+ number types? and the bandwidth, every row validated on ", p.stdout, re.M),
          "no closing line 'every row validated'", p.stdout)
    print(f"ok: {len(ran)} number types and the bandwidth; {len(skipped)} skipped")


if __name__ == "__main__":
    main()
