#!/usr/bin/python3
"""report.py FILE [--out PATH]: a markdown summary of a vkbench JSON file: the device, each family's
table with its ceilings, and the Vulkan/CUDA ratios where both backends ran."""
import argparse
import sys

import vkbjson


def family_table(rows, lines):
    backends = sorted({r["backend"] for r in rows})
    metric = rows[0]["metric"]["name"]
    by_key = {}
    for r in rows:
        by_key.setdefault((r["variant"], r["shape_text"]), {})[r["backend"]] = r
    head = ["variant", "shape"] + [f"{b} {metric}" for b in backends] + [f"{b} % of ceiling" for b in backends]
    if {"vulkan", "cuda"} <= set(backends):
        head.append("vulkan / cuda")
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for (variant, shape), per in by_key.items():
        cells = [variant, shape]
        cells += [vkbjson.fmt(per[b]["metric"]["value"]) if b in per else "" for b in backends]
        for b in backends:
            r = per.get(b)
            if not r:
                cells.append("")
            elif r["ceiling_row"]:
                cells.append("ceiling")
            elif r["metric"]["fraction"] is None:
                cells.append("-")
            else:
                cells.append(f"{100 * r['metric']['fraction']:.1f}% of {r['metric']['ceiling_variant']}"
                             f" ({r['metric']['ceiling_backend']})")
        if {"vulkan", "cuda"} <= set(backends):
            v, c = per.get("vulkan"), per.get("cuda")
            cells.append(f"{v['metric']['value'] / c['metric']['value']:.3f}" if v and c else "")
        lines.append("| " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--out", help="write here instead of stdout")
    args = ap.parse_args()
    doc = vkbjson.load(args.file)
    lines = [f"# vkbench report", "", f"- date: {doc['date']}", f"- command: `{doc['command']}`"]
    for d in doc["devices"]:
        lines.append(f"- {d['backend']}: {d['name']} ({d['driver']}), subgroup {d['subgroup_size']}, "
                     f"shared memory {d['shared_memory_bytes'] // 1024} KiB per workgroup")
    rows = vkbjson.timed(doc)
    for fam in dict.fromkeys(r["family"] for r in rows):
        lines += ["", f"## {fam}", ""]
        family_table([r for r in rows if r["family"] == fam], lines)
    bad = [r for r in doc["results"] if r["status"] != "ok"]
    if bad:
        lines += ["", "## Not measured", ""]
        lines += [f"- {r['family']}/{r['variant']} {r['backend']} {r['shape_text']}: "
                  f"{r['status']} {r.get('skip_reason') or ''}" for r in bad]
    text = "\n".join(lines) + "\n"
    if args.out:
        open(args.out, "w").write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
