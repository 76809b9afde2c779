#!/usr/bin/python3
"""plot.py FILE [--out DIR] [--format png,svg]: charts from a vkbench JSON file, with matplotlib.
Per family and shape: bars per variant and backend with the ceiling as a line; for a family run at
several sizes: the metric against size per variant; and a roofline of the families that do arithmetic
(matmul, reduce): achieved GFLOP/s against arithmetic intensity under the measured bandwidth and compute
ceilings. Prints the files it wrote."""
import argparse
import os
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import vkbjson  # noqa: E402


def size_of(r):
    """One number for a shape: its element count (the product of its dims)."""
    n = 1
    for v in r["shape"].values():
        n *= v
    return n


def save(fig, out, name, formats, written):
    for fmt in formats:
        path = os.path.join(out, f"{name}.{fmt}")
        fig.savefig(path, dpi=120, bbox_inches="tight")
        written.append(path)
    plt.close(fig)


def bars(fam, shape, rows, device, out, formats, written):
    kernels = [r for r in rows if not r["ceiling_row"]]
    variants = list(dict.fromkeys(r["variant"] for r in kernels))
    backends = sorted({r["backend"] for r in kernels})
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(variants) + 2), 4))
    width = 0.8 / max(len(backends), 1)
    for i, b in enumerate(backends):
        vals = [next((r["metric"]["value"] for r in kernels if r["variant"] == v and r["backend"] == b), 0)
                for v in variants]
        ax.bar([x + i * width for x in range(len(variants))], vals, width, label=b)
    for c in (r for r in rows if r["ceiling_row"]):
        ax.axhline(c["metric"]["value"], linestyle="--", linewidth=1, color="gray")
        ax.text(len(variants) - 0.5, c["metric"]["value"], f" {c['variant']} ({c['backend']})",
                va="bottom", ha="right", fontsize=8, color="gray")
    ax.set_xticks([x + width * (len(backends) - 1) / 2 for x in range(len(variants))])
    ax.set_xticklabels(variants, rotation=30, ha="right")
    ax.set_ylabel(rows[0]["metric"]["name"])
    ax.set_title(f"{fam} {shape} on {device}")
    ax.legend()
    save(fig, out, f"{fam}_{shape.replace('=', '')}", formats, written)


def swept_dim(rows):
    """The one dim that varies across ROWS (e.g. "stride"), or None when several do."""
    varying = [d for d in rows[0]["shape"] if len({r["shape"][d] for r in rows}) > 1]
    return varying[0] if len(varying) == 1 else None


def sweep(fam, rows, device, out, formats, written):
    fig, ax = plt.subplots(figsize=(7, 4))
    series = defaultdict(list)
    dim = swept_dim(rows)
    for r in rows:
        x = r["shape"][dim] if dim else size_of(r)
        series[(r["variant"], r["backend"])].append((x, r["metric"]["value"]))
    for (variant, backend), pts in sorted(series.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=f"{variant} ({backend})")
    ax.set_xscale("log", base=2)
    ax.set_xlabel(dim if dim else "elements (product of the dims)")
    ax.set_ylabel(rows[0]["metric"]["name"])
    ax.set_title(f"{fam} sweep on {device}")
    ax.legend(fontsize=7)
    save(fig, out, f"{fam}_sweep", formats, written)


def intensity(r):
    """(flops, bytes) of the least traffic the problem needs, for families that do arithmetic."""
    s = r["shape"]
    if r["family"] == "matmul":
        m, n, k = s["m"], s["n"], s["k"]
        elem = 2 if "f16" in r["variant"] or "hgemm" in r["variant"] else 4
        return 2.0 * m * n * k, elem * (m * k + k * n) + 4 * m * n
    if r["family"] == "reduce":
        return float(s["n"]), 4.0 * s["n"]
    return None


def roofline(rows, device, out, formats, written):
    pts = [(r, intensity(r)) for r in rows if intensity(r) and not r["ceiling_row"]]
    if not pts:
        return
    bw = max((r["metric"]["value"] for r in rows if r["ceiling_row"] and r["metric"]["name"] == "GB/s"),
             default=None)
    peak = max((r["metric"]["value"] for r in rows if r["ceiling_row"] and r["metric"]["name"] == "GFLOP/s"),
               default=None)
    fig, ax = plt.subplots(figsize=(7, 5))
    for r, (flops, nbytes) in pts:
        t = r["time_ms"]["median"] * 1e-3
        ax.scatter(flops / nbytes, flops / t / 1e9, s=18)
        ax.annotate(f"{r['family']}/{r['variant']}", (flops / nbytes, flops / t / 1e9), fontsize=6)
    xs = [2 ** e for e in range(-4, 12)]
    if bw:
        ys = [min(bw * x, peak) if peak else bw * x for x in xs]
        ax.plot(xs, ys, color="black", linewidth=1, label=f"{bw:.0f} GB/s (best copy)"
                + (f", {peak:.0f} GFLOP/s (vendor)" if peak else ""))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (flop / byte of necessary traffic)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(f"roofline on {device}")
    ax.legend(fontsize=7)
    save(fig, out, "roofline", formats, written)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--out", default=".", help="folder for the charts (default: here)")
    ap.add_argument("--format", default="png,svg", help="comma-separated: png, svg, pdf")
    args = ap.parse_args()
    doc = vkbjson.load(args.file)
    os.makedirs(args.out, exist_ok=True)
    formats = args.format.split(",")
    device = vkbjson.device_name(doc)
    rows = vkbjson.timed(doc)
    written = []
    by_family = defaultdict(list)
    for r in rows:
        by_family[r["family"]].append(r)
    for fam, frows in by_family.items():
        shapes = list(dict.fromkeys(r["shape_text"] for r in frows))
        # a sweep gets one curve chart and bars for its largest size only
        for shape in shapes if len(shapes) <= 3 else shapes[-1:]:
            bars(fam, shape, [r for r in frows if r["shape_text"] == shape], device, args.out, formats, written)
        if len(shapes) > 2:
            sweep(fam, [r for r in frows if not r["ceiling_row"]], device, args.out, formats, written)
    roofline(rows, device, args.out, formats, written)
    for w in written:
        print(w)


if __name__ == "__main__":
    main()
