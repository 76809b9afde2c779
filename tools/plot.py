#!/usr/bin/python3
"""plot.py FILE... [--out DIR] [--format png,svg] [--describe]: charts from vkbench results files, with matplotlib.
Several files (two devices, two runs) share each chart, one series per file. Per family and shape: bars per
variant (in `vkbench list` order), backend and file, error bars from the spread, a panel per number type (fp64,
fp32, fp16, int8, ...) and ceiling the rows name, under that one ceiling as a reference line, and the rule's
predictions as marks; for a family run at several sizes: the metric against the swept dim (a product of two
dims: one panel per variant, one line per value of the other dim), with the ceilings its rows name dashed and
the predictions dotted; an axis is logarithmic only where its values span more than 10x (a ceiling 10x the
bars, a latency from 1 to 44 µs), never over a narrow range; legends beside the panels, never over the data;
per backend and device (each GPU of a --device all file, each file), a roofline of the families that do
arithmetic (matmul, reduce): achieved GFLOP/s (GOP/s for integer types) against arithmetic intensity under that
device's measured bandwidth roof (its fastest copy past the cache: the API's or a shader copy, named in the legend)
and one compute roof per number type, drawn once: from ceilings of its own type, else the peak family's row of
that type and kind (int32: mad_i32; an fp32 roof never from a tensor-core peak, an int8 tensor-core roof never
from the byte dot product), else the GPU facts' peak its rows carry. Prints the files it wrote, all inside --out:
names made from a file's fields are made safe, and every chart follows the tools' output-path rule (README)."""
import argparse
import json
import math
import os
import re
import sys
from collections import defaultdict

import vkbjson

# 16 series stay apart: 16 colours and 16 markers, each used once
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf", "#000000", "#e6ab02", "#1b9e77", "#6a3d9a", "#b2df8a", "#fb9a99"]
GREYS = ["#444444", "#888888", "#222222", "#aaaaaa"]
LABELS = 60            # roofline points labelled one by one up to this many
MARKERS = ["o", "s", "^", "v", "D", "P", "X", "*", "<", ">", "p", "h", "d", "8", "H", "x"]


def style(i):
    """Colour, marker and line style of series I: distinct for the first 16."""
    return {"color": COLOURS[i % 16], "marker": MARKERS[i % 16], "linestyle": "-" if i < 16 else ":"}


def number(v):
    return f"{v:.0f}" if v >= 100 else f"{v:.3g}"


TYPES = ("fp64", "fp32", "bf16", "fp16", "fp8", "int32", "int16", "int8")     # panels' and roofs' order
ELEMENT_BYTES = {"fp64": 8, "fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int32": 4, "int16": 2, "int8": 1}
TYPE_COLOURS = {"fp64": "#2ca02c", "fp32": "#1f77b4", "bf16": "#9467bd", "fp16": "#d62728", "fp8": "#8c564b",
                "int32": "#7f7f7f", "int16": "#bcbd22", "int8": "#ff7f0e"}


def number_type(r):
    return vkbjson.number_type(r)


def lower_better(rows):
    """Whether ROWS' metric is one where lower is better (a latency): drawn on a log axis, said on it."""
    return any(r["metric"].get("better") == "lower" for r in rows)


def metric_label(rows):
    """The y label of ROWS' metric: its unit (or units), and "lower is better" where it is."""
    units = " / ".join(dict.fromkeys(r["metric"]["name"] for r in rows))
    return units + (" (lower is better)" if lower_better(rows) else "")


def chart_name(text):
    """A file name made from a results file's fields (family, shape): only letters, digits, '.', '_',
    '-' and '=' survive, never a leading dot, never a separator: a chart is written inside --out, always."""
    name = re.sub(r"[^A-Za-z0-9._=-]", "_", text).lstrip(".")[:160]
    return name or "chart"


def error_bar(r):
    """(below, above) the metric from the spread of the repetitions: the metric at the third and the
    first quartile of the time (the metric is work over time), or (0, 0) without quartiles or where the
    bar would reach past what an axis can draw. Never negative (rounding of equal quartiles)."""
    t, v = r.get("time_ms") or {}, r["metric"]["value"]
    if not t.get("q1") or not t.get("q3") or not t.get("median"):
        return 0.0, 0.0
    low, high = v * (t["median"] / t["q3"]), v * (t["median"] / t["q1"])
    if not (drawable(low) and drawable(high)):
        return 0.0, 0.0
    return max(0.0, v - low), max(0.0, high - v)


# matplotlib's ticks overflow near the largest double: values outside this range (a file of absurd numbers,
# 1e-300 or 1e308) are left out of the charts, with a warning, rather than end in a traceback
DRAWABLE = (1e-100, 1e100)
# a log axis only where the values drawn span more than this: over a narrow range (a latency of 320 to 346 ns) a
# log axis makes 2% look like 2x
LOG_SPAN = 10


def drawable(x):
    return DRAWABLE[0] <= x <= DRAWABLE[1]


# --- what to draw (plain data, tested without matplotlib) ---

class Source:
    """One input file: its document, rows that were timed, and the name its series carry."""
    def __init__(self, doc, name):
        self.doc, self.name = doc, name
        rows = vkbjson.timed(doc)
        self.rows = [r for r in rows if drawable(r["metric"]["value"]) and drawable(r["time_ms"]["median"])
                     and all(abs(v) <= DRAWABLE[1] for v in r["shape"].values())]
        if len(self.rows) < len(rows):
            vkbjson.warn(f"{vkbjson.label(doc)}: {len(rows) - len(self.rows)} row(s) left out of the charts: a "
                         f"metric, time or size outside {DRAWABLE[0]:g} to {DRAWABLE[1]:g}, which no axis can draw")


def sources_of(docs):
    """Sources named by device where the files' devices differ, else by file name."""
    devices = [vkbjson.device_name(d) for d in docs]
    by_device = len(set(devices)) == len(docs)
    return [Source(d, dev if by_device else vkbjson.label(d)) for d, dev in zip(docs, devices)]


def series_label(parts, many):
    """The label of a series: the PARTS (variant, backend, file) that tell it apart in this chart."""
    return " ".join(p for p, m in zip(parts, many) if m)


def sweep_axes(rows):
    """(x dim, other varying dims, x label) for rows of one family over several shapes: the one dim that
    varies; or, when several vary together (m = n = k), the first of them; or, for a product of dims, the
    one with the most values on x and the others as one line each."""
    dims = list(rows[0]["shape"])
    varying = [d for d in dims if len({r["shape"].get(d) for r in rows}) > 1]
    if len(varying) <= 1:
        x = varying[0] if varying else dims[-1]
        return x, [], x
    if all(len({r["shape"][d] for d in varying}) == 1 for r in rows):
        return varying[0], [], " = ".join(varying)
    x = max(varying, key=lambda d: (len({r["shape"][d] for r in rows}), varying.index(d)))
    return x, [d for d in varying if d != x], x


def sweep_plan(fam, sources):
    """The sweep chart of family FAM: panels (one per variant/backend/file for a product of dims, else
    one), each a list of series {label, role: kernel|ceiling|predicted, xs, ys, style index}."""
    rows = [(s, r) for s in sources for r in s.rows if r["family"] == fam]
    xdim, fixed, xlabel = sweep_axes([r for _, r in rows])
    kernels = [(s, r) for s, r in rows if not r["ceiling_row"]]
    backends = {r["backend"] for _, r in rows}
    many = (True, len(backends) > 1, len({s.name for s, _ in rows}) > 1)

    def fixed_text(r):
        return ", ".join(f"{d}={r['shape'][d]}" for d in fixed)

    panels = defaultdict(list)
    groups = defaultdict(list)          # (panel, role, series name) -> rows
    seen = set()                        # (panel, ceiling name, x): each ceiling's point once
    for s, r in kernels:
        panel = series_label((r["variant"], r["backend"], s.name), many) if fixed else ""
        groups[(panel, "kernel", (fixed_text(r) if fixed else series_label((r["variant"], r["backend"], s.name),
                                                                           many)))].append(r)
        # the ceiling this row was measured against (never another's): a product of dims, one per line, in its
        # colour; else one per ceiling the panel's rows name
        c = ceiling_of(s, r)
        if c is None or r["shape"].get(xdim) is None:
            continue
        if fixed:
            name = f"ceiling {c['variant']} {fixed_text(r)}"
        else:
            name = f"ceiling {series_label((c['variant'], c['backend'], s.name), (True, True, many[2]))}"
        if (panel, name, r["shape"][xdim]) not in seen:
            seen.add((panel, name, r["shape"][xdim]))
            groups[(panel, "ceiling", name)].append({"shape": r["shape"], "metric": {"value": c["value"]}})
    colour_of = {}      # product of dims: one colour per value of the other dims, the same in every panel
    def order(kv):      # panels, then kernels before ceilings, the fixed dims' values in numeric order
        (panel, role, name), grp = kv
        return (panel, role != "kernel", tuple(grp[0]["shape"][d] for d in fixed), name)

    for (panel, role, name), grp in sorted(groups.items(), key=order):
        line = sorted((r for r in grp if r["shape"].get(xdim) is not None), key=lambda r: r["shape"][xdim])
        colour = colour_of.setdefault(fixed_text(grp[0]) if fixed else name, len(colour_of))
        xs, ys = [r["shape"][xdim] for r in line], [r["metric"]["value"] for r in line]
        panels[panel].append({"label": name, "role": role, "style": colour, "xs": xs, "ys": ys})
        pred = [(r["shape"][xdim], vkbjson.predicted_fraction(r) * r["metric"]["ceiling"]) for r in line
                if role == "kernel" and vkbjson.predicted_fraction(r) is not None and r["metric"].get("ceiling")]
        if pred:
            panels[panel].append({"label": f"{name} predicted", "role": "predicted", "style": colour,
                                  "xs": [p[0] for p in pred], "ys": [p[1] for p in pred]})
    return {"family": fam, "xlabel": xlabel, "fixed": fixed, "metric": rows[0][1]["metric"]["name"],
            "lower": lower_better([r for _, r in rows]), "panels": dict(sorted(panels.items()))}


def short_shape(text):
    """4096x4096x4096 -> 4096³, n=268435456 -> n=2^28: labels that fit beside a point."""
    dims = text.split("x")
    if len(dims) == 3 and len(set(dims)) == 1:
        return f"{dims[0]}³"
    if text.startswith("n=") and text[2:].isdigit() and int(text[2:]) & (int(text[2:]) - 1) == 0:
        return f"n=2^{int(text[2:]).bit_length() - 1}"
    return text


def intensity(r):
    """(flops, bytes) of the least traffic the problem needs, for families that do arithmetic."""
    s = r["shape"]
    if r["family"] == "matmul":
        m, n, k = s["m"], s["n"], s["k"]
        elem = ELEMENT_BYTES[number_type(r)]
        flops, nbytes = 2.0 * m * n * k, elem * (m * k + k * n) + 4 * m * n
    elif r["family"] == "reduce":
        flops, nbytes = float(s["n"]), 4.0 * s["n"]
    else:
        return None
    return (flops, nbytes) if flops > 0 and nbytes > 0 else None     # a shape of 0: no point, no 0 / 0


def tensor_row(r):
    """Whether R runs on the tensor cores (the cooperative-matrix rows): its type's roof is then the tensor cores',
    never a scalar peak's."""
    return "coopmat" in r["variant"] or r["variant"].startswith("tc_")


def peak_value(r):
    """The GPU facts' peak a row is held under (its "peak" value: vkbench's judge), or None."""
    return next((v["value"] for v in r.get("values") or [] if v.get("tag") == "peak" and drawable(v["value"])), None)


def fastest(rows, what):
    """(metric value, WHAT filled from its fields) of the row of ROWS with the highest metric: a roof and its name."""
    best = max(rows, key=lambda r: r["metric"]["value"])
    return best["metric"]["value"], what.format(**best)


def compute_roof(prec, every, peaks, kernels):
    """The one roof of number type PREC: (value, what) from the best ceiling row of that type (EVERY: the device's
    ceilings); else the best row of the peak family of that type and of the kind of the type's KERNELS (tensor
    cores or not; PEAKS: the device's peak rows; `mad_i32` for int32); else the GPU facts' peak those kernels
    carry; None where none of the three says."""
    comp = [r for r in every if r["metric"]["name"] in ("GFLOP/s", "GOP/s") and number_type(r) == prec]
    if comp:
        return fastest(comp, "{variant} ({backend})")
    tensor = any(tensor_row(r) for r in kernels)
    measured = [r for r in peaks if number_type(r) == prec and tensor_row(r) == tensor]
    if measured:
        return fastest(measured, "peak/{variant} ({backend})")
    facts = [p for p in map(peak_value, kernels) if p is not None]
    if facts:
        return max(facts), "the GPU facts' peak" + (" (tensor cores)" if tensor else "")
    return None


# The copies a memory roof is read from, those vkbench's judge holds bandwidths under (host/core/runner/judge.c,
# is_copy): the API's copy (vkCmdCopyBuffer, cudaMemcpy) and the stream-copy ceiling of any family, and the
# kernels that move their input unchanged (the rows flagged VKB_VAR_SHADER_COPY; the JSON names no flag)
CEILING_COPIES = ("api_copy", "stream_copy")
SHADER_COPIES = (("copy", "vec4"), ("transpose", "copy"), ("transpose", "copy_shared"))


def is_copy(r):
    """Whether R is a copy through device memory that bounds a bandwidth (CEILING_COPIES, SHADER_COPIES)."""
    return r["variant"] in CEILING_COPIES if r["ceiling_row"] else (r["family"], r["variant"]) in SHADER_COPIES


def memory_roof(rows):
    """The memory roof of one device's ROWS: (GB/s, what) of the fastest copy past the cache, either API, a shader
    copy as well as the API's (vkCmdCopyBuffer on NVIDIA's driver 580 moves 28% of what copy/vec4 does: under an
    API copy alone the kernels stood far above their roof); None where no copy ran past the cache."""
    bw = [r for r in rows if r["metric"]["name"] == "GB/s" and is_copy(r) and r.get("fits_in_cache") is not True]
    return fastest(bw, "{family}/{variant} ({backend})") if bw else None


def roofline_plan(source_list, backend, rank=0):
    """Points of BACKEND's kernels on one device (RANK: vkbjson.device_ranks, the file's device of that backend)
    and the roofs under them, each from that device's own rows: the measured bandwidth (memory_roof: its fastest
    copy past the cache), and one compute roof per number type that has points (compute_roof: a ceiling of that
    type, else the peak family's row of it, else the GPU facts' peak its rows carry)."""
    points, roofs, kernels = [], {}, defaultdict(list)
    for s in source_list:
        for r in s.rows:
            if r["backend"] == backend and r["device_rank"] == rank and not r["ceiling_row"] and intensity(r):
                flops, nbytes = intensity(r)
                x, y = flops / nbytes, flops / (r["time_ms"]["median"] * 1e-3) / 1e9
                if drawable(x) and drawable(y):
                    kernels[number_type(r)].append(r)
                    points.append({"label": r["variant"], "shape": r["shape_text"], "family": r["family"],
                                   "source": s.name, "precision": number_type(r), "x": x, "y": y})
    if not points:
        return None
    precisions = [t for t in TYPES if t in {p["precision"] for p in points}]
    # the roofs of this device: a ceiling of the other device (or the other GPU of a --device all file) is not its
    every = [r for s in source_list for r in s.rows if r["ceiling_row"] and r["device_rank"] == rank]
    roof = memory_roof([r for s in source_list for r in s.rows if r["device_rank"] == rank])
    if roof:
        roofs["memory"] = roof
    peaks = [r for s in source_list for r in s.rows if r["family"] == "peak" and r["device_rank"] == rank
             and not r["ceiling_row"]]
    for prec in precisions:
        roof = compute_roof(prec, every, peaks, kernels[prec])
        if roof:
            roofs[prec] = roof
    named = len({p["source"] for p in points}) > 1
    shapes_of = defaultdict(set)
    for p in points:
        shapes_of[p["family"]].add(p["shape"])
    # many points (a sweep): a label on the largest shape of each variant only, or the chart is all text
    largest = {}
    for p in points:
        k = (p["family"], p["label"], p["source"])
        if k not in largest or p["x"] > largest[k]["x"]:
            largest[k] = p
    labelled = {id(p) for p in largest.values()} if len(points) > LABELS else {id(p) for p in points}
    for p in points:
        if id(p) not in labelled:
            p["text"] = None
            continue
        shapes = len(shapes_of[p["family"]]) > 1
        p["text"] = p["label"] + (f" {short_shape(p['shape'])}" if shapes else "") + (f" [{p['source']}]" if named
                                                                                      else "")
    return {"backend": backend, "rank": rank, "points": points, "roofs": roofs, "precisions": precisions}


# --- drawing ---

def save(plt, fig, out, name, formats, written, inputs):
    """FIG as OUT/NAME.FORMAT for each format, each under the tools' output-path rule."""
    for fmt in formats:
        path = os.path.join(out, f"{name}.{fmt}")
        vkbjson.claim([("a chart", path)], inputs)
        f = vkbjson.Output(path, "a chart", binary=True)
        fig.savefig(f.f, format=fmt, dpi=120, bbox_inches="tight")
        f.finish()
        written.append(path)
    plt.close(fig)


def device_of(sources, backend, rank):
    """The name of the device of BACKEND at RANK (vkbjson.device_ranks) in SOURCES' files: its devices entry
    by index where the file has several, else the file's device of that backend."""
    for s in sources:
        idx = next((r.get("device_index") for r in s.doc["results"] if r["backend"] == backend
                    and r["device_rank"] == rank), None)
        entry = next((d for d in s.doc["devices"] if d["backend"] == backend and d.get("index") == idx), None)
        if entry is not None and idx is not None:
            return entry["name"] + (f" (device {idx})" if any(r["device_rank"] for r in s.doc["results"]) else "")
    return devices_text(sources)


def devices_text(sources):
    return " vs ".join(dict.fromkeys(vkbjson.device_name(s.doc) for s in sources))


def with_legend(fig, axes, top):
    """FIG with one legend on its right for all its AXES (each label once), laid out; TOP: its height."""
    handles, labels = [], []
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    # the series first, then the ceilings (one per panel)
    pairs = sorted(zip(handles, labels), key=lambda hl: hl[1].startswith("ceiling"))
    handles, labels = [h for h, _ in pairs], [lab for _, lab in pairs]
    fig.legend(handles, labels, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, top))
    fig.tight_layout()
    return fig


def ceiling_of(source, r):
    """The ceiling kernel row R was measured against, as its metric names it ({variant, backend, value, unit,
    source}), or None where it names none (or one no axis can draw)."""
    m = r["metric"]
    if not m.get("ceiling_variant") or not m.get("ceiling") or not drawable(m["ceiling"]):
        return None
    return {"variant": m["ceiling_variant"], "backend": m.get("ceiling_backend") or r["backend"],
            "value": m["ceiling"], "unit": m["name"], "source": source.name}


def bar_panels(kernels):
    """[(title, kernels, ceilings)]: one panel per number type (vkbjson.number_type) and ceiling the kernels
    name (metric.ceiling_variant and ceiling_backend), so that each panel carries the one ceiling its own rows
    were measured against, never another's (a cuBLAS fp16 line would flatten the fp32 bars; transfer's pinned
    h2d ceiling is not the d2h rows'). CEILINGS: that ceiling, once per file (two devices: each its own
    value); empty for rows that name none. Panels in number-type order, then in the order their first variant
    runs; titled with the type where several ran, and with the ceiling where several are named."""
    types = [t for t in TYPES if t in {number_type(r) for _, r in kernels}]
    order = vkbjson.variant_order([r for _, r in kernels])
    groups = {}
    for s, r in kernels:
        c = ceiling_of(s, r)
        key = (number_type(r), (c["variant"], c["backend"]) if c else None)
        kern, ceil = groups.setdefault(key, ([], {}))
        kern.append((s, r))
        if c:
            ceil.setdefault(c["source"], c)
    named = {k[1] for k in groups if k[1]}
    panels = []
    for (t, name), (kern, ceil) in sorted(groups.items(), key=lambda kv: (
            TYPES.index(kv[0][0]) if kv[0][0] in TYPES else len(TYPES),
            min(order[(r["family"], r["variant"])] for _, r in kv[1][0]))):
        title = "\n".join(x for x in (f"{t} kernels" if len(types) > 1 else "",
                                       f"of {name[0]} ({name[1]})" if name and len(named) > 1 else "") if x)
        panels.append((title, kern, list(ceil.values())))
    return panels


def bars(plt, fam, shape, sources):
    rows = [(s, r) for s in sources for r in s.rows if r["family"] == fam and r["shape_text"] == shape]
    kernels = [(s, r) for s, r in rows if not r["ceiling_row"]]
    if not kernels:
        return None
    panels = bar_panels(kernels)
    keys = list(dict.fromkeys((r["backend"], s.name) for s, r in kernels))
    many = (False, len({k[0] for k in keys}) > 1, len({s.name for s, _ in rows}) > 1)
    counts = [len({r["variant"] for _, r in k}) for _, k, _ in panels]
    width_in = min(14, max(6.5, 0.6 * sum(counts) * max(1, len(keys) / 2) + 3))
    fig, axes = plt.subplots(1, len(panels), figsize=(width_in, 4.2), squeeze=False,
                             gridspec_kw={"width_ratios": counts})
    width = min(0.8 / len(keys), 0.3)     # thin bars where there are few variants
    drawn = []                              # ceilings so far: each its own colour and dashes
    for ax, (title, pk, pc) in zip(axes[0], panels):
        order = vkbjson.variant_order([r for _, r in pk])       # the files' order: `vkbench list` order
        variants = sorted({r["variant"] for _, r in pk}, key=lambda v: order[(fam, v)])
        at = {(r["variant"], r["backend"], s.name): r for s, r in pk}
        tallest, values = 0, []
        for i, (backend, src) in enumerate(keys):
            xs, vals, errs, preds = [], [], [[], []], []
            for j, v in enumerate(variants):
                r = at.get((v, backend, src))
                if r:
                    xs.append(j + i * width)
                    vals.append(r["metric"]["value"])
                    below, above = error_bar(r)
                    errs[0].append(below)
                    errs[1].append(above)
                    tallest = max(tallest, vals[-1] + above)
                    p = vkbjson.predicted_fraction(r)
                    if p is not None and r["metric"].get("ceiling"):
                        preds.append((j + i * width, p * r["metric"]["ceiling"]))
            values += vals
            if not xs:
                continue
            ax.bar(xs, vals, width, yerr=errs, error_kw={"elinewidth": 0.8, "capsize": 2},
                   label=series_label(("", backend, src), many) or backend, color=style(i)["color"])
            if preds:
                ax.scatter([p[0] for p in preds], [p[1] for p in preds], marker="_", s=300, color="black",
                           zorder=3, label="rule's prediction" if i == 0 else None)
        for c in pc:
            k = len(drawn)
            drawn.append(c)
            ax.axhline(c["value"], linestyle=["--", "-.", ":"][k % 3], linewidth=1.2, color=COLOURS[(10 + k) % 16],
                       label=f"ceiling: {c['variant']} ({c['backend']})" + (f" [{c['source']}]" if many[2] else "")
                             + f" {number(c['value'])} {c['unit']}")
        # a ceiling far above the bars (a tensor-core peak over fp32 kernels) would squash them, and a latency
        # of 0.165 µs beside one of 40 µs would be no bar: a log axis; values within 10x of each other (a
        # latency of 341 ns beside 356) stay on a linear one, where 4% looks like 4%
        if lower_better([r for _, r in pk]) and values and min(values) > 0 and max(values) / min(values) > LOG_SPAN:
            ax.set_yscale("log")
            ax.set_title(f"{title} (log scale, lower is better)" if title else "log scale, lower is better",
                         fontsize=9)
        elif pc and max(c["value"] for c in pc) > LOG_SPAN * tallest > 0:
            ax.set_yscale("log")
            ax.set_title(f"{title} (log scale)" if title else "log scale", fontsize=9)
        else:
            # room above the tallest bar and the ceiling, so that a ceiling just above the bars is not the frame
            ax.set_ylim(0, 1.08 * max([tallest] + [c["value"] for c in pc]) or None)
            if lower_better([r for _, r in pk]):
                ax.set_title(f"{title} (lower is better)" if title else "lower is better", fontsize=9)
            elif title:
                ax.set_title(title, fontsize=9)
        ax.set_xticks([j + width * (len(keys) - 1) / 2 for j in range(len(variants))])
        ax.set_xticklabels(variants, rotation=30, ha="right")
        ax.set_ylabel(metric_label([r for _, r in pk]))     # each panel its unit: GFLOP/s beside GOP/s
    fig.suptitle(f"{fam} {shape} on {devices_text(sources)}", fontsize=11)
    return with_legend(fig, axes, 0.92)


def sweep(plt, fam, sources):
    plan = sweep_plan(fam, sources)
    panels = plan["panels"]
    n = len(panels)
    cols = min(3, n)
    rows_n = math.ceil(n / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(4.6 * cols + 1.5, 3.4 * rows_n + 0.6), squeeze=False,
                             sharex=True, sharey=True)
    xs_all = [x for p in panels.values() for sr in p for x in sr["xs"]]
    xs_set = sorted(set(xs_all))
    even = len({b - a for a, b in zip(xs_set, xs_set[1:])}) <= 1     # 0, 1, 2, ... 64: a linear axis
    log_x = min(xs_all) > 0 and max(xs_all) / min(xs_all) >= 16 and not even
    ceiling_index = {}
    ys_all = [y for p in panels.values() for sr in p for y in sr["ys"] if y > 0]
    # values more than 10x apart (two devices, a latency from 1 to 44 µs): a log axis; a narrow range a linear one
    log_y = bool(ys_all) and max(ys_all) / min(ys_all) > LOG_SPAN
    for ax, (name, series) in zip(axes.flat, panels.items()):
        for sr in series:
            st = style(sr["style"])
            if sr["role"] == "kernel":
                ax.plot(sr["xs"], sr["ys"], label=sr["label"], color=st["color"], marker=st["marker"],
                        linestyle=st["linestyle"], markersize=4)
            elif sr["role"] == "predicted":
                ax.plot(sr["xs"], sr["ys"], label=sr["label"], color=st["color"], linestyle=":", linewidth=1.5)
            elif plan["fixed"]:     # the ceiling of each line, in its colour
                ax.plot(sr["xs"], sr["ys"], label=sr["label"], color=st["color"], linestyle="--", linewidth=1,
                        marker="x", markersize=4, alpha=0.8)
            else:
                k = ceiling_index.setdefault(sr["label"], len(ceiling_index))
                ax.plot(sr["xs"], sr["ys"], label=sr["label"], color=GREYS[k % 4],
                        linestyle=["--", "-.", ":", (0, (6, 2))][k % 4], linewidth=1.1, marker="x", markersize=4)
        if log_x:
            ax.set_xscale("log", base=2)
        if log_y:
            ax.set_yscale("log")
        ax.set_xlabel(plan["xlabel"])
        if name:
            ax.set_title(name, fontsize=9)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel(plan["metric"])
    if plan["lower"]:
        for ax in axes[:, 0]:
            ax.set_ylabel(f"{plan['metric']} (lower is better)")
    fixed = f" (lines: {', '.join(plan['fixed'])}; dashed: ceilings)" if plan["fixed"] else ""
    fig.suptitle(f"{fam} sweep on {devices_text(sources)}{fixed}", fontsize=11)
    return with_legend(fig, axes, 0.95)


def place_labels(fig, ax, texts):
    """Labels that never overlap: the points are grouped into clusters of nearly equal x; each cluster's
    labels form a column on the side with more free room, in the points' vertical order, one line
    apart, kept inside the axes, with a thin leader line to each point. TEXTS: (annotation, data point)."""
    to_axes = ax.transAxes.inverted()
    box = ax.get_window_extent()
    pts = sorted(((t, ax.transData.transform(xy)) for t, xy in texts), key=lambda tp: tp[1][0])
    clusters = []
    for t, p in pts:
        if clusters and p[0] - clusters[-1][-1][1][0] < 30:
            clusters[-1].append((t, p))
        else:
            clusters.append([(t, p)])
    for i, col in enumerate(clusters):
        left_x, right_x = min(p[0] for _, p in col), max(p[0] for _, p in col)
        room_left = left_x - (clusters[i - 1][-1][1][0] if i else box.x0)
        room_right = (clusters[i + 1][0][1][0] if i + 1 < len(clusters) else box.x1) - right_x
        side = 1 if room_right >= room_left else -1
        col.sort(key=lambda tp: tp[1][1])
        size = min(6.5, box.height / len(col) / (fig.dpi / 72 * 1.3))      # shrink a column taller than the axes
        gap = size * fig.dpi / 72 * 1.3
        x = right_x + 25 if side > 0 else left_x - 25
        ys = [p[1] for _, p in col]
        for k in range(1, len(ys)):         # push up to keep one line between labels...
            ys[k] = max(ys[k], ys[k - 1] + gap)
        shift = (sum(ys) - sum(p[1] for _, p in col)) / len(ys)
        shift = max(ys[-1] - shift - (box.y1 - gap / 2), min(shift, ys[0] - (box.y0 + gap / 2)))
        for (t, _), y in zip(col, ys):      # ...centred on the points, inside the axes
            t.set_fontsize(size)
            t.set_position(tuple(to_axes.transform((x, y - shift))))
            t.set_horizontalalignment("left" if side > 0 else "right")
            t.set_verticalalignment("center")


def roofline(plt, sources, backend, rank=0):
    plan = roofline_plan(sources, backend, rank)
    if not plan:
        return None
    fig, ax = plt.subplots(figsize=(8, 5.5))
    colour = TYPE_COLOURS
    xs = [p["x"] for p in plan["points"]]
    lo, hi = min(xs + [0.25]) / 4, max(xs + [64]) * 4
    grid = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    roofs = plan["roofs"]
    if "memory" in roofs:
        bw, what = roofs["memory"]
        ax.plot(grid, [bw * x for x in grid], color="black", linewidth=0.8, linestyle=":",
                label=f"memory roof {bw:.0f} GB/s: {what}")
    for prec in plan["precisions"]:
        if prec in roofs and "memory" in roofs:
            peak, what = roofs[prec]
            ax.plot(grid, [min(roofs["memory"][0] * x, peak) for x in grid], color=colour[prec], linewidth=1.2,
                    label=f"{prec} roof {peak:.0f} {'GOP/s' if prec.startswith('int') else 'GFLOP/s'}: {what}")
    texts = []
    for i, s in enumerate(sources):
        for prec in plan["precisions"]:
            pts = [p for p in plan["points"] if p["precision"] == prec and p["source"] == s.name]
            if not pts:
                continue
            named = len({p["source"] for p in plan["points"]}) > 1
            ax.scatter([p["x"] for p in pts], [p["y"] for p in pts], s=22, color=colour[prec],
                       marker=MARKERS[i], label=f"{prec} kernels" + (f" [{s.name}]" if named else ""))
            texts += [(ax.annotate(p["text"], (p["x"], p["y"]), textcoords="axes fraction", xytext=(0, 0),
                                  fontsize=6.5, color=colour[prec],
                                  arrowprops={"arrowstyle": "-", "color": colour[prec], "linewidth": 0.4,
                                              "alpha": 0.6, "shrinkA": 0, "shrinkB": 3}), (p["x"], p["y"]))
                      for p in pts if p["text"]]
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (flop / byte of necessary traffic)")
    # integer rows (reduce's sums, int8 products) count operations, not floating-point ones
    ax.set_ylabel("GFLOP/s, GOP/s for integer types" if any(p.startswith("int") for p in plan["precisions"])
                  else "GFLOP/s")
    ax.set_title(f"roofline of the {backend} kernels on {device_of(sources, backend, rank)}")
    ax.grid(alpha=0.3, which="both")
    # right of the axes, never over the points' labels
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    fig.canvas.draw()
    place_labels(fig, ax, texts)
    return fig


def figures(plt, sources):
    """Every chart of SOURCES, as (family or None, file name without extension, figure): the caller saves
    or embeds each figure and closes it. Names are made safe (chart_name) and never repeat."""
    by_family = defaultdict(dict)           # family -> {shape text: its dims}, in the files' order
    for s in sources:
        for r in s.rows:
            by_family[r["family"]].setdefault(r["shape_text"], vkbjson.shape_numbers(r))
    used = set()

    def unique(name):
        name = chart_name(name)
        base, k = name, 2
        while name in used:
            name, k = f"{base}-{k}", k + 1
        used.add(name)
        return name

    for fam, shapes in by_family.items():
        shapes = sorted(shapes, key=lambda t: (shapes[t], t))
        # a sweep gets one curve chart and bars for its largest size only
        for shape in shapes if len(shapes) <= 3 else shapes[-1:]:
            fig = bars(plt, fam, shape, sources)
            if fig:
                yield fam, unique(f"{fam}_{shape.replace('=', '')}"), fig
        if len(shapes) > 2:
            yield fam, unique(f"{fam}_sweep"), sweep(plt, fam, sources)
    # a roofline per backend and device: each GPU under its own roofs (a --device all file, or several files)
    backends = list(dict.fromkeys(r["backend"] for s in sources for r in s.rows))
    devices = list(dict.fromkeys((i, r["device_rank"]) for i, s in enumerate(sources) for r in s.rows))
    for b in backends:
        for i, rank in devices:
            fig = roofline(plt, [sources[i]], b, rank)
            if fig:
                name = "roofline" + (f"_{b}" if len(backends) > 1 else "") + (
                    f"_{chart_name(sources[i].name)}" if len(sources) > 1 else "") + (
                    f"_device{rank}" if len({r for _, r in devices}) > 1 else "")
                yield None, unique(name), fig


def describe(fig):
    """What FIG shows, read back from the figure itself: per panel (visible axes) its title, x and y scale and the
    ceilings and roofs drawn on it (label and value); and whether a legend lies over any panel's data area."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    axes = [ax for ax in fig.axes if ax.get_visible()]
    panels = []
    for ax in axes:
        lines = [ln for ln in ax.get_lines() if ln.get_label().startswith("ceiling") or " roof " in ln.get_label()]
        panels.append({"title": ax.get_title(), "xscale": ax.get_xscale(), "yscale": ax.get_yscale(),
                       "ceilings": [{"label": ln.get_label(), "value": float(ln.get_ydata()[-1])} for ln in lines]})
    legends = list(fig.legends) + [ax.get_legend() for ax in axes if ax.get_legend()]
    over = any(leg.get_window_extent(renderer).overlaps(ax.get_window_extent(renderer)) for leg in legends
               for ax in axes)
    return {"panels": panels, "legend_over_data": over}


def no_matplotlib(what):
    """The error line when matplotlib cannot be imported: names this interpreter (another python3 on the path may
    have matplotlib, this one has not) and the set-up step that installs it."""
    return (f"{what}, which {sys.executable} cannot import: install python3-matplotlib "
            f"(as root: tools/setup.sh --plot)")


def pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def main():
    ap = vkbjson.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="vkbench results files (several: one series each)")
    ap.add_argument("--out", default=".", help="folder for the charts (default: here)")
    ap.add_argument("--format", default="png,svg", help="comma-separated: png, svg, pdf")
    ap.add_argument("--describe", action="store_true",
                    help="write no chart: print one JSON line per chart, what it draws (its name; each panel's "
                         "title, x and y scale, ceilings and roofs; whether a legend lies over the data)")
    args = ap.parse_args()
    sources = sources_of([vkbjson.load(f) for f in args.files])
    formats = args.format.split(",")
    if not set(formats) <= {"png", "svg", "pdf"}:
        vkbjson.die(f"--format {args.format}: png, svg or pdf, comma-separated")
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        vkbjson.die(f"cannot create {args.out}: {e.strerror}", 6)
    try:
        plt = pyplot()
    except ImportError:
        vkbjson.die(no_matplotlib("charts need matplotlib"))
    written = []
    for _, name, fig in figures(plt, sources):
        if args.describe:
            print(json.dumps(dict(chart=name, **describe(fig))))
            plt.close(fig)
            continue
        save(plt, fig, args.out, name, formats, written, args.files)
    for w in written:
        print(vkbjson.clean(w))


if __name__ == "__main__":
    vkbjson.run_main(main)
