#!/usr/bin/python3
"""compare.py - compare vkbench runs: two or more results files (two runs, two devices), or the two backends
of one file (--backends). Prints each row's ratio to the baseline, its noise band and a verdict, then a
summary per file. Exit 0; 1 when a row is slower than the baseline beyond the noise and by more than
--threshold percent (a regression; never with --backends); 2 for an unreadable input or a usage error.

The noise of a row is robust to outliers: the IQR over the median of each run (schema 2), or, for schema 1
files, twice the distance from the fastest repetition to the median; never the standard deviation, which
one slow repetition inflates. The band is the two runs' spreads combined (root of the sum of squares),
at least --noise-floor. Verdicts: faster / slower beyond the band; same within it; unclear within it when
the band is wider than --threshold (the noise hides a regression of that size), when a run did not
settle, or when a spread is unknown (one repetition)."""
import argparse
import math

import vkbjson

NOISE_FLOOR = 2.0       # percent: below this, run-to-run drift of clocks and placement dominates
THRESHOLD = 5.0         # percent slower than the baseline that counts as a regression


def verdict(base, other, floor, threshold):
    """(ratio of metric other/base, noise band or None, verdict) for two results of the same row."""
    ratio = other["metric"]["value"] / base["metric"]["value"]
    sa, _ = vkbjson.spread(base)
    sb, _ = vkbjson.spread(other)
    if sa is None or sb is None:
        return ratio, None, "unclear"
    band = max(floor, math.hypot(sa, sb))
    if math.log(ratio) > math.log1p(band):
        return ratio, band, "faster"
    if math.log(ratio) < -math.log1p(band):
        return ratio, band, "SLOWER" if ratio < 1 - threshold else "slower"
    unsettled = any(r.get("settled") is False or r.get("suspect") for r in (base, other))
    return ratio, band, "unclear" if band > threshold or unsettled else "same"


def metric_text(v):
    return f"{v:.0f}" if v >= 1000 else f"{v:.1f}" if v >= 10 else f"{v:.3g}"


def setting_warnings(base, other):
    """Lines naming what differs between two runs besides the code: devices, drivers, run settings."""
    out = []
    bn, on = vkbjson.label(base), vkbjson.label(other)
    bdev = {d["backend"]: d for d in base["devices"]}
    odev = {d["backend"]: d for d in other["devices"]}
    for backend in sorted(bdev.keys() & odev.keys()):
        a, b = bdev[backend], odev[backend]
        if a["name"] != b["name"]:
            out.append(f"devices differ ({backend}): {bn} ran on {a['name']}, {on} on {b['name']}")
        elif a.get("driver") != b.get("driver"):
            out.append(f"drivers differ ({backend}): {bn} {a.get('driver')}, {on} {b.get('driver')}")
    for name in ("mode", "seed", "budget_ms", "warmup_ms", "reps", "spec"):
        a, b = base["settings"].get(name), other["settings"].get(name)
        if a is not None and b is not None and a != b:
            out.append(f"settings differ: {name} {a} in {bn}, {b} in {on}")
    return out


def rows_by_key(rows, with_backend=True, name=None):
    out = {}
    for r in rows:
        out[vkbjson.key(r, with_backend)] = r
    if name and len(out) < len(rows):
        vkbjson.warn(f"{name}: {len(rows) - len(out)} row(s) measured more than once; the last is compared")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="vkbench results files; the first is the baseline")
    ap.add_argument("--backends", action="store_true",
                    help="compare the vulkan rows of one file with its cuda rows (baseline: cuda)")
    ap.add_argument("--threshold", type=float, default=THRESHOLD,
                    help=f"percent slower than the baseline that counts as a regression (default {THRESHOLD:g})")
    ap.add_argument("--noise-floor", type=float, default=NOISE_FLOOR,
                    help=f"smallest noise band in percent (default {NOISE_FLOOR:g}): the spread within each run "
                         "cannot see drift between runs")
    args = ap.parse_args()
    floor, threshold = args.noise_floor / 100, args.threshold / 100
    docs = [vkbjson.load(f) for f in args.files]
    if args.backends:
        if len(docs) != 1:
            vkbjson.die("--backends takes one file")
        rows = vkbjson.timed(docs[0])
        cuda = [r for r in rows if r["backend"] == "cuda"]
        if not cuda:
            vkbjson.die(f"{args.files[0]} has no timed cuda rows: --backends compares the cuda and vulkan rows "
                        "of one run made with --backend all on a machine with CUDA")
        vulkan = rows_by_key([r for r in rows if r["backend"] == "vulkan"], False)
        # a ceiling with no Vulkan twin (cuBLAS, CUB) has nothing to be compared with
        runs = [("cuda", {k: r for k, r in rows_by_key(cuda, False).items() if k in vulkan or not r["ceiling_row"]}),
                ("vulkan", vulkan)]
        threshold = math.inf    # Vulkan slower than CUDA is a finding, not a regression
        print(f"baseline: the cuda rows of {args.files[0]}; ratio = vulkan / cuda (above 1: Vulkan faster)")
    else:
        if len(docs) < 2:
            vkbjson.die("give two or more files, or one with --backends")
        for d in docs[1:]:
            for line in setting_warnings(docs[0], d):
                vkbjson.warn(line)
        runs = [(vkbjson.label(d), rows_by_key(vkbjson.timed(d), name=vkbjson.label(d))) for d in docs]
        print(f"baseline: {runs[0][0]}; ratio = metric / baseline metric (above 1: faster)")

    base_name, base = runs[0]
    keys = sorted(base, key=lambda k: vkbjson.sort_key(base[k]))
    names = {k: " ".join(str(x) for x in k) for k in keys}
    width = min(max([len(n) for n in names.values()] + [3]), 48)
    head = f"{'row':{width}} {'baseline':>16}"
    for name, _ in runs[1:]:
        head += f" | {'ratio':>6} {'noise':>6} {'verdict':>7}"
    print(head)
    if len(runs) > 2:
        print(f"{'':{width}} {'':>16}" + "".join(f" | {name[:22]:>22}" for name, _ in runs[1:]))
    tallies = [{"faster": 0, "slower": 0, "SLOWER": 0, "same": 0, "unclear": 0, "missing": 0, "logs": []}
               for _ in runs[1:]]
    for k in keys:
        b = base[k]
        line = f"{names[k]:{width}} {metric_text(b['metric']['value']):>8} {b['metric']['name']:<7}"
        for (_, run), tally in zip(runs[1:], tallies):
            o = run.get(k)
            if not o:
                tally["missing"] += 1
                line += f" | {'-':>6} {'':>6} {'missing':>7}"
                continue
            ratio, band, word = verdict(b, o, floor, threshold)
            tally[word] += 1
            tally["logs"].append(math.log(ratio))
            noise = f"±{100 * band:.1f}%" if band is not None else "?"
            line += f" | {ratio:6.3f} {noise:>6} {word:>7}"
        print(line)

    regressions = 0
    for (name, run), t in zip(runs[1:], tallies):
        n = len(t["logs"])
        geo = f"geometric mean of ratios {math.exp(sum(t['logs']) / n):.3f} over {n} rows" if n else "no common rows"
        extra = [f"{t['missing']} missing"] if t["missing"] else []
        added = len(run.keys() - base.keys())
        if added:
            extra.append(f"{added} not in the baseline")
        slower = t["slower"] + t["SLOWER"]
        beyond = "" if args.backends else f" ({t['SLOWER']} beyond {args.threshold:g}%)"
        print(f"summary {name}: {t['faster']} faster, {slower} slower{beyond}, "
              f"{t['same']} same, {t['unclear']} unclear; {geo}" + (f"; {', '.join(extra)}" if extra else ""))
        regressions += t["SLOWER"]
    if regressions and not args.backends:
        print(f"{regressions} regression(s): slower than the baseline beyond the noise and by more than "
              f"{args.threshold:g}%")
        return 1
    return 0


if __name__ == "__main__":
    vkbjson.run_main(main)
