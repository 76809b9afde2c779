#!/usr/bin/python3
"""compare.py - compare vkbench runs: a baseline against one or more candidates, each side one or several
runs (files, folders of files, or the repetitions of `vkbench run --repeat N` in one file), or the two
backends of one file (--backends). Prints the device, each row's ratio to the baseline, its noise band
and a verdict, then a summary per candidate, as text, markdown or JSON (--format).

Exit 0; 1 when the gate fails: a row slower than the baseline beyond the noise and by more than
--threshold percent (SLOWER, a regression; never with --backends), a row that failed validation or
recorded an error in a candidate (FAIL), and with --strict also a baseline row a candidate lacks
(missing); 2 for an unreadable input (a metric whose direction is unknown included), a usage error,
files from different devices (--allow-different-devices compares them anyway), or a candidate with no
row in common with the baseline (nothing was compared).

Every ratio is of speeds: the metric where higher is better, its inverse where lower is better (the
results file's metric.better: latencies in µs, ns per load), so that above 1 is faster for every row.

The noise of a row: with one run per side, the spread within each run (the IQR over the median; twice
the distance from the fastest repetition to the median for schema 1 files, never the standard
deviation, which one slow repetition inflates), combined (root of the sum of squares); with several
runs on a side, the range of that side's run medians over their median, which sees the drift between
runs that no single run can. The band is at least --noise-floor. With several runs on both sides a
Mann-Whitney U test across the run medians must also reject "no change" at --alpha (an exact
two-sided p; a row whose runs are too few for any p below --alpha is judged by the band alone).
Verdicts: faster / slower beyond the band (SLOWER: a regression); same within it; unclear within it
when the band is wider than --threshold (the noise hides a regression of that size), when a run did not
settle or was SUSPECT, when a spread is unknown (one repetition), or when the rank test does not
confirm the band; every verdict is unclear and warned about when a spread passes --absurd percent.

A line before the table says when the files come from different builds (the commit and build options each
file records, schema 2.3). --changed prints only the rows whose verdict is not same, and the rows a candidate
lacks as one line (how many, per family)."""
import argparse
import math
import os
import sys

import vkbjson

NOISE_FLOOR = 2.0       # percent: below this, run-to-run drift of clocks and placement dominates
THRESHOLD = 5.0         # percent slower than the baseline that counts as a regression
ALPHA = 0.05            # the rank test's level
ABSURD = 100.0          # percent of spread past which a row's numbers say the machine was busy, not the code
GATE = ("SLOWER", "FAIL")
VERDICTS = ("faster", "slower", "SLOWER", "same", "unclear", "FAIL", "missing")


# --- the rank test (Mann-Whitney U), in plain Python ---

def u_counts(n, m):
    """How many of the C(n+m, n) orders of two untied samples of sizes N and M give each U = 0 .. n*m
    (the null distribution: U counts the pairs in which the first sample's value is the larger)."""
    # counts[j][u]: arrangements of i first-sample values among j second-sample values, built up in i
    prev = [[1] for _ in range(m + 1)]                  # i = 0: U = 0 in one way, whatever j
    for i in range(1, n + 1):
        cur = [[1]]                                     # j = 0: U = 0
        for j in range(1, m + 1):
            size = i * j + 1
            c = [0] * size
            for u, w in enumerate(prev[j]):             # the largest value is from the first sample: +j
                c[u + j] += w
            for u, w in enumerate(cur[j - 1]):          # ... or from the second: U unchanged
                c[u] += w
            cur.append(c)
        prev = cur
    return prev[m]


def u_test(a, b):
    """Two-sided p of the Mann-Whitney U test that samples A and B come from one distribution: exact
    (ties count one half) up to 20 values a side, else the normal approximation with a tie correction."""
    n, m = len(a), len(b)
    u = sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in a for y in b)
    low = min(u, n * m - u)
    if n <= 20 and m <= 20:
        counts = u_counts(n, m)
        return min(1.0, 2 * sum(counts[: math.floor(low) + 1]) / math.comb(n + m, n))
    ranks = sorted(a + b)
    ties = sum(t ** 3 - t for t in (ranks.count(v) for v in set(ranks)))
    var = n * m / 12 * ((n + m + 1) - ties / ((n + m) * (n + m - 1)))
    z = (low + 0.5 - n * m / 2) / math.sqrt(var) if var > 0 else 0.0
    return min(1.0, math.erfc(-z / math.sqrt(2)))


def smallest_p(n, m):
    """The smallest two-sided p that N against M runs can give: the test can say nothing above it."""
    return 2 / math.comb(n + m, n)


# --- the sides of a comparison ---

def row_key(r, with_backend=True):
    """The row of R: vkbjson.key, and which of its file's devices it ran on (vkbjson.device_key): a file of
    one device per backend meets any other, old (no device_index) or new, whatever the index."""
    return vkbjson.device_key(r, with_backend)


class Side:
    """One side: its name, the files it was read from, and its runs: a file is one run, or as many runs
    as it has distinct "repeat" values (vkbench run --repeat N). Per row key: the timed results (one per
    run that has the row) and the results that failed."""
    def __init__(self, name, docs, select=lambda r: True, with_backend=True):
        self.name, self.docs = name, docs
        self.timed, self.failed, self.runs = {}, {}, 0
        for d in docs:
            runs = {}
            for r in d["results"]:
                if select(r):
                    runs.setdefault(r.get("repeat") or 0, []).append(r)
            self.runs += max(1, len(runs))
            ok = {id(r) for r in vkbjson.timed(d)}
            for rep, rows in sorted(runs.items()):
                seen = {}
                for r in rows:
                    k = row_key(r, with_backend)
                    if vkbjson.failed(r):
                        self.failed.setdefault(k, []).append(r)
                    elif id(r) in ok:
                        if k in seen:
                            vkbjson.warn(f"{vkbjson.label(d)}: {' '.join(map(str, k))} measured twice in one "
                                         "run; the last is compared")
                        seen[k] = r
                for k, r in seen.items():
                    self.timed.setdefault(k, []).append(r)


def side_name(paths, docs):
    if len(paths) == 1 and os.path.isdir(paths[0]):
        return vkbjson.clean(os.path.basename(os.path.normpath(paths[0])))
    names = [vkbjson.label(d) for d in docs]
    return "+".join(names) if len(names) <= 3 else f"{names[0]} and {len(names) - 1} more"


def devices_of(doc):
    """{backend: (name, uuid or None)} of DOC's devices."""
    return {d["backend"]: (d["name"], d.get("uuid")) for d in doc["devices"]}


def check_devices(docs, allow):
    """Refuse (exit 2) files measured on different devices unless ALLOW; warn when drivers differ."""
    first = docs[0]
    for d in docs[1:]:
        a, b = devices_of(first), devices_of(d)
        for backend in sorted(a.keys() & b.keys()):
            (an, au), (bn, bu) = a[backend], b[backend]
            if an != bn or (au and bu and au != bu):
                what = (f"{vkbjson.label(first)} ran on {an}, {vkbjson.label(d)} on {bn}" if an != bn else
                        f"{vkbjson.label(first)} and {vkbjson.label(d)} ran on two {an} (uuid {au}, {bu})")
                if not allow:
                    vkbjson.die(f"devices differ ({backend}): {what}; --allow-different-devices compares them")
                vkbjson.warn(f"devices differ ({backend}): {what}")
        drivers_a = {x["backend"]: x.get("driver") for x in first["devices"]}
        for x in d["devices"]:
            if x["backend"] in drivers_a and x.get("driver") != drivers_a[x["backend"]]:
                vkbjson.warn(f"drivers differ ({x['backend']}): {vkbjson.label(first)} {drivers_a[x['backend']]}, "
                             f"{vkbjson.label(d)} {x.get('driver')}")
    for d in docs:
        if not d["devices"]:
            vkbjson.warn(f"{vkbjson.label(d)} names no device: it cannot be checked to be the same device")


def setting_warnings(base, other):
    """Lines naming what differs between two runs besides the code and the device: the run settings."""
    out = []
    bn, on = vkbjson.label(base), vkbjson.label(other)
    for name in ("mode", "seed", "budget_ms", "warmup_ms", "reps", "spec"):
        a, b = base["settings"].get(name), other["settings"].get(name)
        if a is not None and b is not None and a != b:
            out.append(f"settings differ: {name} {a} in {bn}, {b} in {on}")
    return out


def build_differences(docs):
    """One line when the files come from different builds of vkbench (another commit, build type, CUDA
    architectures or sanitizer: a code change then reads as a change of speed), else None. Files written
    before the build was recorded (schema 2.3), or outside git ("unknown"), are not compared on that part."""
    builds = [(d, vkbjson.build_of(d)) for d in docs]
    known = [(d, b) for d, b in builds if b]
    if len(known) < 2:
        return None
    first_doc, first = known[0]
    for d, b in known[1:]:
        parts = [k for k in ("commit", "build_type", "cuda_architectures", "sanitizer")
                 if b[k] != first[k] and not (k == "commit" and "unknown" in (b[k], first[k]))]
        if parts:
            return (f"builds differ ({', '.join(p.replace('_', ' ') for p in parts)}): {vkbjson.label(first_doc)} "
                    f"{vkbjson.build_text(first)}, {vkbjson.label(d)} {vkbjson.build_text(b)}")
    return None


def changed_rows(table, cands):
    """--changed: the rows of TABLE whose verdict is not "same" in some candidate, less the rows only missing,
    which become one line per candidate (how many, per family) instead of a line each."""
    kept, missing = [], [dict() for _ in cands]
    for k, b, judged in table:
        verdicts = [j["verdict"] if j else None for j in judged]
        for i, v in enumerate(verdicts):
            if v == "missing":
                missing[i][k[0]] = missing[i].get(k[0], 0) + 1
        if any(v not in (None, "same", "missing") for v in verdicts):
            kept.append((k, b, judged))
    lines = []
    for c, counts in zip(cands, missing):
        if counts:
            per = ", ".join(f"{f} {n}" for f, n in sorted(counts.items()))
            lines.append(f"{sum(counts.values())} rows missing from {c.name} (not shown: {per})")
    return kept, lines


# --- a row's verdict ---

def run_noise(results):
    """The noise of one side of a row: with several runs, the larger of the range of their medians over
    the median (the drift between runs) and the runs' typical spread within (what a few runs can miss);
    with one run, its spread within; None when unknown."""
    within = [s for s in (vkbjson.spread(r)[0] for r in results) if s is not None]
    if len(results) >= 2:
        values = [vkbjson.speed(r) for r in results]
        drift = vkbjson.bounded((max(values) - min(values)) / vkbjson.median(values), vkbjson.SPREAD_CAP)
        return max(drift, vkbjson.median(within)) if within else drift
    return within[0] if within else None


def judge(base, cand, opts):
    """The comparison of one row: BASE and CAND its timed results, one per run of each side. Returns
    {ratio, band, p, verdict, absurd}: ratio of the median speeds (vkbjson.speed: the metric, inverted where
    lower is better), so that above 1 the candidate is faster for every metric, latencies included."""
    bv, cv = [vkbjson.speed(r) for r in base], [vkbjson.speed(r) for r in cand]
    ratio = vkbjson.ratio(vkbjson.median(cv), vkbjson.median(bv))    # 1e308 against 1e-300: no inf, no 0
    out = {"ratio": ratio, "band": None, "p": None, "verdict": "unclear", "absurd": None, "runs": [len(bv), len(cv)]}
    noises = [run_noise(base), run_noise(cand)]
    within = [vkbjson.spread(r)[0] for r in base + cand]
    worst = max([s for s in noises + within if s is not None], default=None)
    if worst is not None and worst > opts.absurd:
        out["absurd"] = worst
    if None in noises:
        return out
    band = out["band"] = max(opts.floor, math.hypot(*noises))
    if len(bv) >= 2 and len(cv) >= 2:
        out["p"] = u_test(bv, cv)
    confirmed = out["p"] is None or smallest_p(len(bv), len(cv)) > opts.alpha or out["p"] <= opts.alpha
    doubtful = any(r.get("settled") is False or r.get("suspect") for r in base + cand)
    if out["absurd"] is not None:
        return out
    if abs(math.log(ratio)) > math.log1p(band):
        if confirmed:
            out["verdict"] = "faster" if ratio > 1 else "SLOWER" if ratio < 1 - opts.threshold else "slower"
    elif band <= opts.threshold and not doubtful:
        out["verdict"] = "same"
    return out


def compare(base, cand, keys, opts):
    """{key: judgement} of side CAND against side BASE over KEYS; FAIL and missing included."""
    rows = {}
    for k in keys:
        if k in cand.failed:
            r = cand.failed[k][0]
            reason = r.get("error") or ((r.get("check") or {}).get("reason")) or "failed validation"
            rows[k] = {"verdict": "FAIL", "reason": reason, "runs": [len(base.timed.get(k, [])), len(cand.failed[k])]}
        elif k not in cand.timed:
            rows[k] = {"verdict": "missing", "runs": [len(base.timed.get(k, [])), 0]}
        elif k in base.timed:
            rows[k] = judge(base.timed[k], cand.timed[k], opts)
    return rows


# --- output ---

def metric_text(v):
    return vkbjson.sig(v) if not 1e-4 <= v < 1e6 else f"{v:.0f}" if v >= 1000 else f"{v:.1f}" if v >= 10 else f"{v:.3g}"


def row_name(k):
    return " ".join(str(x) for x in k)


def summary(side, rows, base):
    t = {v: 0 for v in VERDICTS}
    ratios = []
    for j in rows.values():
        t[j["verdict"]] += 1
        if "ratio" in j:
            ratios.append(j["ratio"])
    return {"candidate": side.name, "files": [d["path"] for d in side.docs], "runs": side.runs, "counts": t,
            "compared": len(ratios), "geomean": vkbjson.geomean(ratios) if ratios else None,
            "not_in_baseline": len(side.timed.keys() - base.timed.keys())}


def summary_text(s, backends, threshold):
    t = s["counts"]
    geo = (f"geometric mean of ratios {vkbjson.ratio_text(s['geomean'])} over {s['compared']} rows" if s["compared"]
           else "no common rows")
    extra = [f"{t['missing']} missing"] if t["missing"] else []
    if t["FAIL"]:
        extra.append(f"{t['FAIL']} FAIL")
    if s["not_in_baseline"]:
        extra.append(f"{s['not_in_baseline']} not in the baseline")
    beyond = "" if backends else f" ({t['SLOWER']} beyond {threshold:g}%)"
    return (f"summary {s['candidate']}: {t['faster']} faster, {t['slower'] + t['SLOWER']} slower{beyond}, "
            f"{t['same']} same, {t['unclear']} unclear; {geo}" + (f"; {', '.join(extra)}" if extra else ""))


def cells(j):
    """(ratio, noise, p, verdict) texts of one judgement."""
    if j["verdict"] in ("missing", "FAIL"):
        return "-", "", "", j["verdict"]
    noise = f"±{vkbjson.pct(j['band'])}" if j["band"] is not None else "?"
    p = f"{j['p']:.3f}" if j["p"] is not None else ""
    return vkbjson.ratio_text(j["ratio"]), noise, p, j["verdict"]


def render_text(head, table, notes, summaries, many, ranked, out):
    names = {k: row_name(k) for k, _, _ in table}
    width = min(max([len(n) for n in names.values()] + [3]), 48)
    out += head
    pw = 6 if ranked else 0
    line = f"{'row':{width}} {'baseline':>16}"
    for _ in summaries:
        line += f" | {'ratio':>6} {'noise':>6}" + (f" {'p':>{pw}}" if ranked else "") + f" {'verdict':>7}"
    out.append(line)
    if many:
        out.append(f"{'':{width}} {'':>16}" + "".join(f" | {s['candidate'][:22 + pw]:>{22 + pw}}" for s in summaries))
    for k, b, judged in table:
        line = f"{names[k]:{width}} {metric_text(b['value']) if b else '-':>8} {b['name'] if b else '':<7}"
        for j in judged:
            ratio, noise, p, word = cells(j) if j else ("", "", "", "")
            line += f" | {ratio:>6} {noise:>6}" + (f" {p:>{pw}}" if ranked else "") + f" {word:>7}"
        out.append(line)
    out += notes


def render_markdown(head, table, notes, summaries, ranked, out):
    out += [h if h.startswith("#") else f"- {h}" for h in head] + [""]
    hcells = ["row", "baseline"]
    for s in summaries:
        sfx = f" ({s['candidate']})" if len(summaries) > 1 else ""
        hcells += [f"ratio{sfx}", "noise"] + (["p"] if ranked else []) + ["verdict"]
    out += ["| " + " | ".join(hcells) + " |", "|" + "---|" * len(hcells)]
    for k, b, judged in table:
        c = [row_name(k).replace("|", "\\|"), f"{metric_text(b['value'])} {b['name']}" if b else "-"]
        for j in judged:
            ratio, noise, p, word = cells(j) if j else ("", "", "", "")
            c += [ratio, noise] + ([p] if ranked else []) + [f"**{word}**" if word in GATE else word]
        out.append("| " + " | ".join(c) + " |")
    out += [""] + [f"- {n}" for n in notes]


def vkbrecord_key(path):
    """The store's submission key of the file at PATH (its SHA-256): a stored candidate is no baseline of itself."""
    import hashlib
    with open(path, "rb") as f:
        return "sha256:" + hashlib.sha256(f.read()).hexdigest()


def store_history(args, first):
    """The baseline from the store at --db: the --last runs of --model with --driver (default: FIRST's first
    device's), as documents; one line and exit 2 where it holds none, the store's own code where it is unusable."""
    import vkbquestions
    import vkbstore
    device = (first["devices"] or [{}])[0]
    args.model = args.model or device.get("name")
    args.driver = args.driver or device.get("driver")
    if not args.model or not args.driver:
        vkbjson.die(f"{vkbjson.label(first)} names no device: give --model and --driver")
    if args.last < 1:
        vkbjson.die(f"--last {args.last}: one run or more")
    try:
        history = vkbquestions.history_documents(vkbstore.connect(args.db, create=False), args.model, args.driver,
                                                 args.last, [vkbrecord_key(f) for f in args.files])
    except vkbstore.StoreError as e:
        vkbjson.die(str(e), e.code)
    if not history:
        vkbjson.die(f"no run of {vkbjson.clean(args.model)} with {vkbjson.clean(args.driver)} in the store "
                    f"{vkbjson.clean(args.db)}: nothing to compare against")
    return history


def main():
    ap = vkbjson.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", help="results files or folders: the first is the baseline, each other "
                                             "a candidate")
    ap.add_argument("--baseline", nargs="+", metavar="RUN", help="the baseline's runs (files or folders)")
    ap.add_argument("--candidate", nargs="+", metavar="RUN", help="the candidate's runs (files or folders)")
    ap.add_argument("--backends", action="store_true",
                    help="compare the vulkan rows of one file with its cuda rows (baseline: cuda)")
    ap.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    ap.add_argument("--changed", action="store_true",
                    help="print only the rows whose verdict is not same; missing rows in one line per candidate")
    ap.add_argument("--strict", action="store_true",
                    help="fail (exit 1) also on a missing row (for CI)")
    ap.add_argument("--allow-different-devices", action="store_true",
                    help="compare files measured on different devices (a warning, not exit 2)")
    ap.add_argument("--threshold", type=float, default=THRESHOLD,
                    help=f"percent slower than the baseline that counts as a regression (default {THRESHOLD:g})")
    ap.add_argument("--noise-floor", type=float, default=NOISE_FLOOR,
                    help=f"smallest noise band in percent (default {NOISE_FLOOR:g})")
    ap.add_argument("--alpha", type=float, default=ALPHA,
                    help=f"level of the rank test across several runs per side (default {ALPHA:g})")
    ap.add_argument("--absurd", type=float, default=ABSURD,
                    help=f"percent of spread past which a row is warned about and unclear (default {ABSURD:g})")
    ap.add_argument("--db", metavar="PATH", help="take the baseline from the results store (docs/store.md): the "
                    "last --last runs of the candidates' device model and driver; every file is a candidate")
    ap.add_argument("--model", help="with --db: the model of the baseline's runs (default: the first candidate's "
                    "first device)")
    ap.add_argument("--driver", help="with --db: the driver of the baseline's runs (default: the first "
                    "candidate's first device's)")
    ap.add_argument("--last", type=int, default=10, help="with --db: how many runs of history (default 10)")
    args = ap.parse_args()
    for name in ("threshold", "noise_floor", "absurd"):
        if not (0 <= getattr(args, name) < 1e6):
            vkbjson.die(f"--{name.replace('_', '-')} {getattr(args, name)}: a percent, 0 or more")
    if not 0 < args.alpha < 1:
        vkbjson.die(f"--alpha {args.alpha}: between 0 and 1")
    opts = argparse.Namespace(floor=args.noise_floor / 100, threshold=args.threshold / 100, alpha=args.alpha,
                              absurd=args.absurd / 100)
    sided = args.baseline is not None or args.candidate is not None
    if sided and (args.files or not (args.baseline and args.candidate)):
        vkbjson.die("give --baseline RUN... and --candidate RUN... together, and no other file")

    if args.backends:
        if sided or len(args.files) != 1:
            vkbjson.die("--backends takes one file")
        doc = vkbjson.load(args.files[0])
        if not any(r["backend"] == "cuda" for r in vkbjson.timed(doc)):
            vkbjson.die(f"{vkbjson.clean(args.files[0])} has no timed cuda rows: --backends compares the cuda "
                        "and vulkan rows of one run made with --backend all on a machine with CUDA")
        vulkan = Side("vulkan", [doc], lambda r: r["backend"] == "vulkan", with_backend=False)
        # a ceiling with no Vulkan twin (cuBLAS, CUB) has nothing to be compared with
        twins = {r["variant"] for r in doc["results"] if r["backend"] == "vulkan"}
        cuda = Side("cuda", [doc], lambda r: r["backend"] == "cuda" and (not r["ceiling_row"] or r["variant"] in twins),
                    with_backend=False)
        sides, docs = [cuda, vulkan], [doc]
        opts.threshold = math.inf       # Vulkan slower than CUDA is a finding, not a regression
        intro = (f"baseline: the cuda rows of {vkbjson.label(doc)}; ratio = vulkan / cuda speed (the metric, "
                 "inverted where lower is better; above 1: Vulkan faster)")
    elif args.db:
        if sided or not args.files:
            vkbjson.die("--db takes the candidates as files, and no --baseline or --candidate")
        groups = [[f] for f in args.files]
        loaded = [vkbjson.load_all(g) for g in groups]
        docs = [d for group in loaded for d in group]
        history = store_history(args, docs[0])
        sides = [Side(f"the store's last {len(history)} runs", history)] + [
            Side(side_name(g, ds), ds) for g, ds in zip(groups, loaded)]
        docs = history + docs
        intro = (f"baseline: the store's last {len(history)} runs of {args.model} with {args.driver}; ratio = speed "
                 "/ baseline speed (above 1: faster); noise: the spread between those runs and within each")
    else:
        groups = [args.baseline, args.candidate] if sided else [[f] for f in args.files]
        if len(groups) < 2:
            vkbjson.die("give two or more files, --baseline and --candidate, or one file with --backends")
        loaded = [vkbjson.load_all(g) for g in groups]
        docs = [d for group in loaded for d in group]
        check_devices(docs, args.allow_different_devices)
        for d in docs[1:]:
            for line in setting_warnings(docs[0], d):
                vkbjson.warn(line)
        sides = [Side(side_name(g, ds), ds) for g, ds in zip(groups, loaded)]
        intro = (f"baseline: {sides[0].name}" + (f" ({sides[0].runs} runs)" if sides[0].runs > 1 else "")
                 + "; ratio = speed / baseline speed (the metric, inverted where lower is better: "
                 "above 1: faster)")

    base, cands = sides[0], sides[1:]
    every = [r for d in docs for r in d["results"]]
    order = vkbjson.variant_order(every)
    first = {}
    for r in every:
        first.setdefault(row_key(r, not args.backends), r)
    keys = set(base.timed) | {k for c in cands for k in c.failed}
    keys = sorted(keys, key=lambda k: vkbjson.sort_key(first[k], order))
    judged = [compare(base, c, keys, opts) for c in cands]
    summaries = [summary(c, rows, base) for c, rows in zip(cands, judged)]

    head = [f"device: {vkbjson.devices_text(docs[0])}", intro]
    differ = build_differences(docs)
    if differ:
        head.append(differ)
    for c in cands:
        if c.runs > 1:
            head.append(f"candidate: {c.name} ({c.runs} runs)")
    if all(s.runs == 1 for s in sides) and not args.backends:
        head.append("one run a side: the band sees the noise within each run, not the drift between runs; "
                    "several runs a side (--baseline A1 A2 A3 --candidate B1 B2 B3, vkbench run --repeat N) "
                    "add a rank test across them")
    ranked = any(j.get("p") is not None for rows in judged for j in rows.values())
    table = []
    for k in keys:
        b = base.timed.get(k)
        bm = {"value": vkbjson.median([r["metric"]["value"] for r in b]), "name": b[0]["metric"]["name"]} if b else None
        table.append((k, bm, [rows.get(k) for rows in judged]))
    notes = []
    if args.changed:
        table, missing_lines = changed_rows(table, cands)
        notes += missing_lines
    for rows in judged:
        for k, j in rows.items():
            if j.get("absurd") is not None:
                vkbjson.warn(f"{row_name(k)}: spread {100 * j['absurd']:.0f}%: the machine was busy or the clock "
                             "unstable; verdict unclear")
    notes += [summary_text(s, args.backends, args.threshold) for s in summaries]
    regressions = sum(s["counts"]["SLOWER"] for s in summaries) if not args.backends else 0
    failures = sum(s["counts"]["FAIL"] for s in summaries)
    missing = sum(s["counts"]["missing"] for s in summaries)
    empty = [s["candidate"] for s in summaries if not s["compared"] and not s["counts"]["FAIL"]]
    gate = []
    if regressions:
        gate.append(f"{regressions} regression(s): slower than the baseline beyond the noise and by more than "
                    f"{args.threshold:g}%")
    if failures:
        gate.append(f"{failures} row(s) FAIL: failed validation or recorded an error")
    if args.strict and missing:
        gate.append(f"{missing} row(s) missing (--strict)")
    if empty:   # nothing was compared: no verdict at all, not a pass
        vkbjson.die(f"no row in common with the baseline ({base.name}): {', '.join(empty)}; the files ran "
                    "different families, shapes or backends")
    notes += gate
    code = 1 if gate else 0

    out = []
    if args.format == "text":
        render_text(head, table, notes, summaries, len(cands) > 1, ranked, out)
    elif args.format == "markdown":
        render_markdown(["# vkbench compare"] + head, table, notes, summaries, ranked, out)
    else:
        rows = []
        for k, b, js in table:
            r = first[k]
            rows.append({"row": row_name(k), "family": r["family"], "variant": r["variant"],
                         "shape": r["shape_text"], "constants": r.get("constants"),
                         "backend": None if args.backends else r["backend"],
                         "metric": b["name"] if b else r["metric"]["name"] if r.get("metric") else None,
                         "baseline": b["value"] if b else None,
                         "candidates": [None if j is None else {x: j.get(x) for x in (
                             "verdict", "ratio", "band", "p", "runs", "absurd", "reason") if x in j}
                             for j in js]})
        doc = {"tool": "vkbench-compare", "version": 1, "devices": docs[0]["devices"],
               "baseline": {"name": base.name, "files": [d["path"] for d in base.docs], "runs": base.runs},
               "candidates": summaries, "rows": rows, "gate": gate, "exit_code": code,
               "settings": {"threshold": args.threshold, "noise_floor": args.noise_floor, "alpha": args.alpha,
                            "absurd": args.absurd, "strict": args.strict, "backends": args.backends}}
        out.append(vkbjson.dumps(doc))
    sys.stdout.write("\n".join(out) + "\n")
    return code


if __name__ == "__main__":
    vkbjson.run_main(main)
