#!/usr/bin/env python3
"""check_skips.py VKBENCH EXPECTED: run `VKBENCH validate FAMILY SHAPES --json` for every family of
`VKBENCH list` (shapes below; the battery otherwise) and compare the set of skips, one line each as
"family/variant backend: reason", with EXPECTED exactly. Exit 0 when equal, 1 with the difference,
3 without a device. Regenerate EXPECTED with --write after a deliberate change (and read the diff)."""
import json, os, re, subprocess, sys, tempfile

SHAPES = {"copy": "--n 1000", "transpose": "--rows 33 --cols 17", "matmul": "--m 33 --n 17 --k 9",
          "reduce": "--n 1000"}


def families(vkbench):
    out = subprocess.run([vkbench, "list"], capture_output=True, text=True).stdout
    names = re.findall(r"^(\S+): ", out, re.M)
    groups = []
    for n in names:   # memory.width and its siblings run as `memory`
        g = n.split(".")[0]
        if g not in groups:
            groups.append(g)
    return groups


def main():
    vkbench, expected = sys.argv[1], sys.argv[2]
    seen = set()
    with tempfile.TemporaryDirectory() as tmp:
        for fam in families(vkbench):
            path = os.path.join(tmp, fam + ".json")
            p = subprocess.run([vkbench, "validate", fam] + SHAPES.get(fam, "").split() + ["--json", path],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if p.returncode == 3:
                print("no Vulkan device")
                return 3
            if not os.path.exists(path):
                print(f"{fam}: no JSON (exit {p.returncode}): {p.stderr[-500:]}")
                return 1
            for r in json.load(open(path))["results"]:
                if r["status"] == "skip":
                    seen.add(f'{r["family"]}/{r["variant"]} {r["backend"]}: {r["skip_reason"]}')
    if "--write" in sys.argv:
        open(expected, "w").write("".join(s + "\n" for s in sorted(seen)))
        print(f"wrote {len(seen)} skips to {expected}")
        return 0
    want = set(l.rstrip("\n") for l in open(expected) if l.strip() and not l.startswith("#"))
    for s in sorted(want - seen):
        print(f"expected skip missing: {s}")
    for s in sorted(seen - want):
        print(f"unexpected skip: {s}")
    print(f"{len(seen)} skips, {len(want)} expected")
    return 0 if seen == want else 1


if __name__ == "__main__":
    sys.exit(main())
