#!/usr/bin/env python3
"""lvp26_rows.py WRAPPER VKBENCH ROWS -- ARGS...: run `WRAPPER VKBENCH ARGS --json F` (tools/lvp26.sh: Mesa 26's
lavapipe) and assert that every one of ROWS distinct Vulkan variants ran and passed at every shape: none skipped
(the device lists the fragments they need), none failed. Exit 0 when so, 1 naming each row that did not, 77 where
the wrapper says Mesa 26's lavapipe is not installed (a skip)."""
import json, os, subprocess, sys, tempfile


def main():
    wrapper, vkbench, rows, sep, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
    assert sep == "--", "usage: lvp26_rows.py WRAPPER VKBENCH ROWS -- ARGS..."
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "out.json")
        p = subprocess.run([wrapper, vkbench] + args + ["--quiet", "--json", path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode == 77:
            print(p.stderr.strip())
            return 77
        if not os.path.exists(path):
            print(f"no JSON written (exit {p.returncode}):\n{p.stderr[-2000:]}")
            return 1
        doc = json.load(open(path))
    results = [r for r in doc["results"] if r["backend"] == "vulkan"]
    bad = [f'{r["variant"]} {r["shape_text"]}: {r["status"]} {r.get("skip_reason") or ""}'.strip()
           for r in results if r["status"] != "ok"]
    variants = sorted({r["variant"] for r in results})
    if len(variants) != rows:
        bad.append(f"{len(variants)} variants ran ({', '.join(variants)}), not {rows}")
    for line in bad:
        print(line)
    print(f"{len(results) - len(bad)} of {len(results)} results ok on {doc['devices'][0]['name'] if doc.get('devices') else '?'}")
    return 1 if bad or p.returncode != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
