#!/usr/bin/env python3
"""check_narrow_workgroup.py VKBENCH... -- TMP: workgroups narrower than a subgroup, legal through --spec, are
validated. The reduce family's kernels (the only ones with subgroup operations that take any workgroup width) run at
widths 1, 2 and 4 (`--spec 0=W`) over odd sizes; every row must run (a skip would hide the case) and pass, and the
device's subgroup must be wider than some W, so that the case is the one asked for. Exit 0 pass, 1 fail, 3 (ctest's
skip) without a Vulkan device."""
import json
import os
import subprocess
import sys

NO_DEVICE = ("no Vulkan loader", "no Vulkan driver", "no Vulkan device")


def main():
    sep = sys.argv.index("--")
    vkbench, tmp = sys.argv[1:sep], sys.argv[sep + 1]
    os.makedirs(tmp, exist_ok=True)
    narrower = 0
    for width in (1, 2, 4):
        path = os.path.join(tmp, f"narrow{width}.json")
        p = subprocess.run(vkbench + ["validate", "reduce", "--spec", f"0={width}", "--n", "1,31,257,4099", "--quiet",
                                      "--json", path], capture_output=True, text=True, timeout=600)
        if p.returncode == 3 and any(s in p.stderr for s in NO_DEVICE):
            print("skip: " + p.stderr.strip())
            return 3
        results = json.load(open(path, encoding="utf-8"))["results"] if os.path.exists(path) else []
        bad = [f"{r['variant']} at {r['shape_text']}: {r['status']} {r['skip_reason'] or ''}"
               for r in results if r["status"] != "ok"]
        if p.returncode != 0 or bad or not results:
            print(f"FAIL: workgroup width {width}: exit {p.returncode}; not validated: {bad[:5]} {p.stderr.strip()}")
            return 1
        narrower += sum(1 for r in results if (r["subgroup_size"] or 0) > width)
        print(f"ok: workgroup width {width}: {len(results)} rows validated, subgroup "
              f"{sorted({r['subgroup_size'] for r in results if r['subgroup_size']})}")
    if not narrower:
        print("FAIL: no row ran in a subgroup wider than its workgroup: the case was not tested")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
