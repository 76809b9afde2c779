#!/usr/bin/env python3
"""sizes_test.py VKBENCH... -- TMP CASE: which family got which size, read from the JSON of a short run (a
size flag means one thing per run; --FAMILY.FLAG sizes one family; a shared size beyond one family skips it with
the reason while the others run). Exit 0 pass, 1 fail, 3 (ctest's skip) without a Vulkan device.
`sizes_test.py --list` names the cases."""
import json
import os
import subprocess
import sys

RUN = ["--reps", "1", "--warmup-ms", "0", "--quiet"]
NO_DEVICE = ("no Vulkan loader", "no Vulkan driver", "no Vulkan device")

# CASE: (arguments, exit code, {family: [shape, ...]} every result of the family must be one of, the skip reason
# a family's every row must give, or None where its rows ran)
CASES = {
    # one family each: copy 1000 words, transpose 64x64 (a plain --size was refused: words beside a matrix side)
    "scoped": (["run", "copy", "transpose", "--copy.n", "1000", "--transpose.size", "64",
                "--variant", "copy/vec4,transpose/naive"], 0,
               {"copy": [{"n": 1000}], "transpose": [{"rows": 64, "cols": 64}]}, {}),
    # a plain flag beside a scoped one sizes the families without their own
    "plain_beside_scoped": (["run", "copy", "transpose", "--copy.n", "7", "--size", "32",
                             "--variant", "copy/vec4,transpose/naive"], 0,
                            {"copy": [{"n": 7}], "transpose": [{"rows": 32, "cols": 32}]}, {}),
    # the same unit (4-byte words) in both: one plain flag sizes both
    "shared": (["run", "copy", "reduce", "--n", "1000", "--variant", "copy/vec4,reduce/sequential"], 0,
               {"copy": [{"n": 1000}], "reduce": [{"n": 1000}]}, {}),
    # a shared --n that memory.stride cannot take at this --stride: its rows skip with the reason, memory.width runs
    "beyond_skips": (["run", "memory.width", "memory.stride", "--n", "8192", "--stride", "1M"], 0,
                     {"memory.width": [{"n": 8192, "width": 4}], "memory.stride": [{"n": 8192, "stride": 1 << 20}]},
                     {"memory.stride": "the kernel indexes with 32 bits"}),
}


def main():
    if sys.argv[1:] == ["--list"]:
        print(" ".join(CASES))
        return 0
    sep = sys.argv.index("--")
    vkbench, tmp, case = sys.argv[1:sep], sys.argv[sep + 1], sys.argv[sep + 2]
    args, code, shapes, skips = CASES[case]
    os.makedirs(tmp, exist_ok=True)
    path = os.path.join(tmp, case + ".json")
    p = subprocess.run(vkbench + args + RUN + ["--json", path], capture_output=True, text=True, timeout=600)
    if p.returncode == 3 and any(s in p.stderr for s in NO_DEVICE):
        print("skip: " + p.stderr.strip())
        return 3
    if p.returncode != code:
        print(f"FAIL: exit {p.returncode}, wanted {code}: {p.stderr.strip()}")
        return 1
    results = json.load(open(path, encoding="utf-8"))["results"]
    seen = set()
    for r in results:
        fam = r["family"]
        seen.add(fam)
        if fam not in shapes:
            print(f"FAIL: {fam}/{r['variant']} ran, not asked for")
            return 1
        if r["shape"] not in shapes[fam]:
            print(f"FAIL: {fam}/{r['variant']} at {r['shape']}, wanted one of {shapes[fam]}")
            return 1
        why = skips.get(fam)
        if (r["status"] == "skip") != (why is not None) or (why and why not in (r["skip_reason"] or "")):
            print(f"FAIL: {fam}/{r['variant']}: {r['status']} ({r['skip_reason']}), wanted "
                  f"{'skip: ' + why if why else 'a run'}")
            return 1
    if seen != set(shapes):
        print(f"FAIL: results of {sorted(seen)}, wanted {sorted(shapes)}")
        return 1
    print(f"ok: {case}: {len(results)} results, each family at its own size")
    return 0


if __name__ == "__main__":
    sys.exit(main())
