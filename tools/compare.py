#!/usr/bin/python3
"""compare.py - compare vkbench runs: two or more JSON files (two runs, two devices), or the two backends
of one file (--backends). Prints each row's ratio to the first run and a verdict: faster, slower, or
same when the difference is within the measured noise. Exits 1 when a row is slower than the first run
by more than --threshold and beyond the noise, so it can gate a script; 2 on a usage error."""
import argparse
import math
import sys

import vkbjson

NOISE_SIGMAS = 3.0      # a difference must exceed 3 combined standard deviations of the medians...
NOISE_FLOOR = 2.0       # ...and 2%: below that, run-to-run drift of clocks and placement dominates


def verdict(base, other, floor=NOISE_FLOOR / 100):
    """(ratio of metric other/base, verdict, noise) for two results of the same row."""
    ratio = other["metric"]["value"] / base["metric"]["value"]
    # the standard error of a median is ~1.25 sd / sqrt(n); combine both runs' relative errors
    def err(r):
        return 1.2533 * vkbjson.rel_spread(r) / math.sqrt(max(r["reps"], 1))
    noise = max(floor, NOISE_SIGMAS * math.hypot(err(base), err(other)))
    if ratio > 1 + noise:
        return ratio, "faster", noise
    if ratio < 1 / (1 + noise):
        return ratio, "slower", noise
    return ratio, "same", noise


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", help="vkbench JSON files; the first is the baseline")
    ap.add_argument("--backends", action="store_true",
                    help="compare the cuda rows of one file with its vulkan rows (baseline: cuda)")
    ap.add_argument("--threshold", type=float, default=5.0,
                    help="percent slower than the baseline that counts as a regression (default 5)")
    ap.add_argument("--noise-floor", type=float, default=NOISE_FLOOR,
                    help="percent difference always treated as noise (default 2); the spread within each "
                         "run cannot see drift between runs, which is large on a busy CPU implementation")
    args = ap.parse_args()
    docs = [vkbjson.load(f) for f in args.files]
    if args.backends:
        if len(docs) != 1:
            ap.error("--backends takes one file")
        rows = vkbjson.timed(docs[0])
        runs = [("cuda", {vkbjson.key(r, False): r for r in rows if r["backend"] == "cuda"}),
                ("vulkan", {vkbjson.key(r, False): r for r in rows if r["backend"] == "vulkan"})]
    else:
        if len(docs) < 2:
            ap.error("give two or more files, or one with --backends")
        runs = [(f, {vkbjson.key(r): r for r in vkbjson.timed(d)}) for f, d in zip(args.files, docs)]

    base_name, base = runs[0]
    regressions = 0
    print(f"baseline: {base_name}")
    print(f"{'row':58} {'metric':>10} " + " ".join(f"{'ratio':>7} {'verdict':>8}" for _ in runs[1:]))
    for k, b in sorted(base.items()):
        cells = []
        for _, run in runs[1:]:
            o = run.get(k)
            if not o:
                cells.append(f"{'-':>7} {'missing':>8}")
                continue
            ratio, word, noise = verdict(b, o, args.noise_floor / 100)
            if word == "slower" and ratio < 1 - args.threshold / 100:
                word = "SLOWER"
                regressions += 1
            cells.append(f"{ratio:7.3f} {word:>8}")
        name = " ".join(str(x) for x in k)
        print(f"{name:58} {b['metric']['value']:10.1f} " + " ".join(cells))
    if regressions:
        print(f"{regressions} row(s) slower than the baseline by more than {args.threshold}% and the noise")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
