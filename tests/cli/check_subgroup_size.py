#!/usr/bin/env python3
"""check_subgroup_size.py VKBENCH SIZE: `validate reduce` at --subgroup-size SIZE on a device that offers it
(lavapipe: LP_NATIVE_VECTOR_WIDTH = 32 x SIZE) records SIZE in every result that ran a kernel, null in the
API-copy rows, names each row NAME@sgSIZE in the table (--wide: whole names), a trailing CSV column holding the same; without the
option the names carry no @sg and the results the device's only size. Exit 0, 1 with what broke, 3 no device."""
import csv, json, os, subprocess, sys, tempfile


def run(vkbench, tmp, extra):
    js, cs = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.csv")
    p = subprocess.run([vkbench, "-v", "validate", "reduce", "--n", "1,257", "--json", js, "--csv", cs, "--wide"] + extra,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode == 3:
        sys.exit(3)
    return p, json.load(open(js)) if os.path.exists(js) else None, list(csv.DictReader(open(cs))) if os.path.exists(cs) else []


def main():
    vkbench, size = sys.argv[1], int(sys.argv[2])
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for asked in (size, None):
            p, doc, rows = run(vkbench, tmp, ["--subgroup-size", str(asked)] if asked else [])
            if p.returncode != 0 or doc is None:
                bad.append(f"--subgroup-size {asked}: exit {p.returncode}: {p.stderr[-500:]}")
                continue
            results = [r for r in doc["results"] if r["status"] != "skip"]
            for r, row in zip(doc["results"], rows):
                want = None if r["variant"] == "api_copy" else size   # lavapipe offers one size: known either way
                if r["status"] != "skip" and r.get("subgroup_size") != want:
                    bad.append(f'{r["variant"]} {r["shape_text"]}: subgroup_size {r.get("subgroup_size")}, want {want}')
                if r["status"] != "skip" and row.get("subgroup_size") != ("" if want is None else str(want)):
                    bad.append(f'CSV {row["variant"]}: subgroup_size {row.get("subgroup_size")!r}, want {want}')
            named = sum(f'{r["variant"]}@sg{size} ' in p.stdout for r in results)
            if asked and named != len(results):
                bad.append(f"--subgroup-size {asked}: {named} of {len(results)} table rows named NAME@sg{size}")
            if not asked and "@sg" in p.stdout:
                bad.append("without --subgroup-size a table row carries @sg")
            if len(rows) != len(doc["results"]) or not results:
                bad.append(f"{len(rows)} CSV rows, {len(doc['results'])} results, {len(results)} run")
    for b in bad:
        print(b)
    print(f"--subgroup-size {size}: {len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
