#!/usr/bin/env python3
"""check_fixed.py JSON COUNT - the results of a `vkbench validate matmul` run of warptile rows with FIXED=1:
COUNT results, each ok and planned with FIXED=1 and FIXED_M, FIXED_N, FIXED_K equal to its shape (else it ran the
push-constant path and proved nothing), warptile_interior's with its INTERIOR=1 kept, and both kinds of shape among
them: whole BM x BN x BK blocks (the guards folded) and not (the guards kept). Exit 0 pass, 1 fail."""
import json
import sys


def main():
    results = json.load(open(sys.argv[1], encoding="utf-8"))["results"]
    whole = set()
    bad = []
    for r in results:
        c = dict(kv.split("=") for kv in r["planned"]["constants"].split(","))
        s = r["shape"]
        if r["status"] != "ok" or c.get("FIXED") != "1" or \
                [c.get(f"FIXED_{d.upper()}") for d in "mnk"] != [str(s[d]) for d in "mnk"] or \
                (r["variant"] == "warptile_interior" and c.get("INTERIOR") != "1"):
            bad.append(f"{r['variant']} {r['shape_text']}: {r['status']} {r['planned']['constants']}")
        else:
            whole.add(s["m"] % int(c["BM"]) == 0 and s["n"] % int(c["BN"]) == 0 and s["k"] % int(c["BK"]) == 0)
    if bad or len(results) != int(sys.argv[2]) or whole != {True, False}:
        print(f"FAIL: {len(results)} results (expected {sys.argv[2]}), whole-block shapes seen {sorted(whole)}; {bad}")
        return 1
    print(f"ok: {len(results)} results, FIXED=1 with each shape's M, N, K, whole blocks and not")
    return 0


if __name__ == "__main__":
    sys.exit(main())
