#!/usr/bin/env python3
"""check_ceilings.py FILE: in a vkbench JSON, every bandwidth row measured against a copy has as its ceiling
the faster of its shape's api_copy and stream_copy (the same round, the same backend), and its fraction is its
metric over that ceiling. Structural: it holds whatever the timings (vkb.vk.copy.slow_api_copy)."""
import json
import sys


def main():
    doc = json.load(open(sys.argv[1]))
    rows = doc["results"]
    key = lambda r: (r["family"], json.dumps(r["shape"], sort_keys=True), r.get("repeat", 0), r["backend"])
    copies = {}
    for r in rows:
        if r["variant"] in ("api_copy", "stream_copy"):
            assert r["ceiling_row"], f"{r['family']}/{r['variant']}: not a ceiling row"
        if r["variant"] in ("api_copy", "stream_copy") and r["status"] == "ok" and r["metric"]["value"]:
            copies.setdefault(key(r), {})[r["variant"]] = r["metric"]["value"]
    checked = 0
    for r in rows:
        m = r["metric"]
        if r["ceiling_row"] or r["status"] != "ok" or m["value"] is None:
            continue
        c = copies.get(key(r), {})
        assert set(c) == {"api_copy", "stream_copy"}, f"{r['family']}/{r['variant']}: copies of its shape {c}"
        best = max(c, key=c.get)
        assert m["ceiling_variant"] == best, f"{r['family']}/{r['variant']}: ceiling {m['ceiling_variant']}, not {best}"
        assert m["ceiling"] == c[best], (m["ceiling"], c)
        assert abs(m["fraction"] - m["value"] / c[best]) <= 1e-6 * m["fraction"], r
        checked += 1
    assert checked, "no row measured against a copy"
    print(f"check_ceilings: {checked} rows against the faster copy of their shape")


if __name__ == "__main__":
    main()
