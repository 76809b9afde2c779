#!/usr/bin/python3
"""tune.py [--vkbench PATH] [--json OUT] FAMILY VARIANT CONFIG... -- [VKBENCH OPTIONS]

Run one variant with its own constants (the "(defaults)" row, the baseline) and once per set of
specialization constants (each CONFIG is a --spec value such as BM=64,BN=64,WM=64,WN=64), interleaved: --rounds
N (default 3) rounds, each running every configuration once, the order rotated each round, so that drift
(clocks, heat, another process) falls on every configuration alike. Then print the configurations from fastest
to slowest: the metric (median over the rounds) with its unit to three significant digits, its share of the
ceiling, the spread of its repetitions (IQR over median), its ratio to the defaults with its interval
("1.50 ± 0.05x": of speeds, above 1 is faster, for a latency too; the ratio is the median of each round's ratio,
the interval the larger of half their range and half the two rows' spreads combined), and the driver's register
and local-memory (spill) statistics where it reports them. A ratio whose interval holds 1 is marked "within
noise"; a configuration whose runs did not settle (or were SUSPECT), or whose defaults did not, is not ranked:
it is listed after the ranked ones, marked "not settled". A configuration vkbench refuses runs once. Options after -- go to every vkbench run (sizes, --budget-ms, --device...). Each
configuration is validated like any run; one the family refuses is listed with vkbench's reason.
--vkbench and the --json path are checked before anything runs (exit 2, or 6 for a path that cannot be
written). --json writes one vkbench results document (every tool reads it): the runs' results together,
each with its "constants", and a "tune" object naming the family, variant, configurations and what
became of each.

Example (tile shapes of the fp32 matmul; 256 invocations, so WM x WN / (TM x TN) must tile them):
    tools/tune.py matmul dbuf BM=64,BN=64,WM=64,WN=64,TM=4,TN=4 BK=16 -- --size 4096
"""
import math
import os
import signal
import subprocess
import sys
import tempfile

import vkbjson

DEFAULTS = "(defaults)"     # the baseline row: the variant as declared, no --spec
ROUNDS = 3                  # enough for a median and a range per ratio; more narrow the interval


def statistic(result, *names):
    """The first of NAMES among the driver's statistics of RESULT's pipelines; None where a pipeline carries
    none (drivers without VK_KHR_pipeline_executable_properties, files from other tools)."""
    for p in result.get("pipelines") or []:
        stats = p.get("statistics") if isinstance(p, dict) else None
        if not isinstance(stats, dict):
            continue
        for name in names:
            if isinstance(stats.get(name), (int, float)) and not isinstance(stats.get(name), bool):
                return stats[name]
    return None


def merge(docs, tune):
    """One vkbench document from the documents DOCS of the tuning runs (all from one device): the first
    run's header (schema, devices, settings), every run's kernel rows, the ceiling rows once (each run
    measured them again: the first run's are kept), and TUNE, what tune.py did, under "tune"."""
    doc = {k: v for k, v in docs[0].items() if k != "results"}
    doc["command"] = tune["command"]
    seen, results = set(), []
    for d in docs:
        for r in d["results"]:
            if r["ceiling_row"]:
                k = (r["family"], r["variant"], r["backend"], r["shape_text"], r.get("repeat"))
                if k in seen:
                    continue
                seen.add(k)
            results.append(r)
    doc["results"] = results
    doc["tune"] = tune
    return doc


def run_config(args, extra, config, out):
    """Run the variant once with --spec CONFIG (None: its defaults) into OUT: (outcome, document or None)."""
    cmd = [args.vkbench, "run", args.family, "--variant", args.variant, "--quiet", "--json", out] + (
        ["--spec", config] if config else []) + extra
    try:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    except OSError as e:
        vkbjson.die(f"cannot run {vkbjson.clean(args.vkbench)}: {e.strerror}")
    # vkbench's one-line error, without its "vkbench: error: " prefix
    message = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    message = vkbjson.clean(message.split("error: ", 1)[-1])
    outcome = {"constants": config, "exit_code": proc.returncode, "message": message or None}
    return outcome, (vkbjson.load(out) if os.path.exists(out) else None)


def rows_of(doc, args, config, outcome):
    """The table rows of one configuration: (constants, backend, result or None, note)."""
    if doc is None:
        return [(config, None, None, f"exit {outcome['exit_code']}: {outcome['message']}")]
    out = []
    for r in doc["results"]:
        if r["variant"] != args.variant or r["ceiling_row"]:
            continue
        if r["status"] != "ok" or vkbjson.failed(r):
            out.append((config, r["backend"], None, r.get("error") or r["skip_reason"] or "FAILED validation"))
        else:
            out.append((config, r["backend"], r, r["shape_text"]))
    return out


def unsettled(results):
    return any(r.get("settled") is False or r.get("suspect") for r in results)


def ratio_interval(runs, base_runs):
    """(ratio, half-width) of a configuration's speed to the defaults': RUNS and BASE_RUNS {round: result}. The
    median of the rounds' ratios (a round's two runs are closest in time), the half-width the larger of half
    their range and half the two rows' spreads (IQR over median) combined; None without a common round where
    both speeds are above 0. Both within the doubles (a ratio of 1e308 to 1e-300 with spreads of 10^6 is the
    largest double, not inf), so that the text and the "within noise" test are numbers."""
    rounds = sorted(k for k in runs.keys() & base_runs.keys()
                    if vkbjson.speed(runs[k]) > 0 and vkbjson.speed(base_runs[k]) > 0)
    ratios = [vkbjson.ratio(vkbjson.speed(runs[k]), vkbjson.speed(base_runs[k])) for k in rounds]
    if not ratios:
        return None
    centre = vkbjson.median(ratios)
    spreads = [vkbjson.median([x for x in (vkbjson.spread(r)[0] for r in side.values()) if x is not None] or [0.0])
               for side in (runs, base_runs)]
    half = max(max(ratios) / 2 - min(ratios) / 2, vkbjson.bounded(centre * (math.hypot(*spreads) / 2)))
    return centre, half


def ratio_text(centre, half):
    """ "1.50 ± 0.05x": the half-width to the ratio's decimals (three significant digits); where the ratio
    is in exponent form (1.80e+308) or the half-width is 100 or more, the half-width to two significant digits."""
    text = vkbjson.sig(centre)
    if "e" in text or half >= 100:
        return f"{text} ± {vkbjson.sig(half, 2)}x"
    decimals = len(text.split(".")[1]) if "." in text else 0
    return f"{text} ± {half:.{decimals}f}x"


def table(rows):
    """The lines of tune's table. ROWS: (constants, backend, {round: result} or None, note). Ranked fastest
    first: the rows that settled (and whose defaults did), each with its unit, share of the ceiling, spread,
    ratio to the defaults row of its backend with its interval, registers and spills; three significant digits.
    Then the rows that did not settle (marked, not ranked), then those that did not run, in the order given."""
    unit = next((r["metric"]["name"] for _, _, runs, _ in rows if runs for r in runs.values()), "metric")
    base = {b: runs for c, b, runs, _ in rows if runs and c == DEFAULTS}

    def speed(runs):
        return vkbjson.median([vkbjson.speed(r) for r in runs.values()])

    def ranked(row):
        c, b, runs, _ = row
        return runs and not unsettled(runs.values()) and b in base and not unsettled(base[b].values())
    order = (sorted([x for x in rows if ranked(x)], key=lambda x: -speed(x[2]))     # fastest first, either direction
             + [x for x in rows if x[2] and not ranked(x)] + [x for x in rows if not x[2]])
    width = max([len(c) for c, _, _, _ in rows] + [len("constants")])
    lines = [f"{'constants':{width}} {'backend':7} {unit:>9} {'of ceil':>7} {'spread':>6} {'vs defaults':>15} "
             f"{'regs':>5} {'spill B':>7}  shape / note"]
    for row in order:
        config, backend, runs, note = row
        if not runs:
            lines.append(f"{config:{width}} {backend or '-':7} {'-':>9} {'-':>7} {'-':>6} {'-':>15} {'-':>5} "
                         f"{'-':>7}  {note}")
            continue
        results = list(runs.values())
        r = results[0]
        value = vkbjson.median([x["metric"]["value"] for x in results])
        fractions = [x["metric"]["fraction"] for x in results if x["metric"].get("fraction") is not None]
        spreads = [x for x in (vkbjson.spread(x)[0] for x in results) if x is not None]
        regs = statistic(r, "Register Count", "Registers")
        local = statistic(r, "Local Memory Size")
        # NVIDIA reports local memory with a constant 2^36 added
        if local is not None and local >= 2 ** 36:
            local -= 2 ** 36
        interval = ratio_interval(runs, base[backend]) if backend in base else None
        marks = []
        if not ranked(row):
            marks.append("not settled: not ranked")
        elif interval and config != DEFAULTS and abs(interval[0] - 1) <= interval[1]:
            marks.append("within noise of the defaults")
        frac = vkbjson.sig(100 * vkbjson.median(fractions)) + "%" if fractions else "-"
        spread = vkbjson.sig(100 * vkbjson.median(spreads), 2) + "%" if spreads else "-"
        lines.append(f"{config:{width}} {backend:7} {vkbjson.sig(value):>9} {frac:>7} {spread:>6} "
                     f"{ratio_text(*interval) if interval else '-':>15} {regs if regs is not None else '-':>5} "
                     f"{local if local is not None else '-':>7}  {note}" + "".join(f"; {m}" for m in marks))
    return lines


def gather(per_round):
    """The table's rows from each round's rows_of() lines: one per configuration, backend and shape, holding
    {round: result}, in the order the configurations were given."""
    rows, index = [], {}
    for rnd, lines in per_round:
        for config, backend, r, note in lines:
            k = (config, backend, note if r is None else r["shape_text"])
            if k not in index:
                index[k] = len(rows)
                rows.append([config, backend, {} if r else None, note])
            row = rows[index[k]]
            if r and row[2] is not None:
                row[2][rnd] = r
    return [tuple(x) for x in rows]


def main():
    ap = vkbjson.ArgumentParser(description=__doc__.split("\n\n")[1], usage=__doc__.split("\n\n")[0])
    ap.add_argument("--vkbench", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build",
                                                      "vkbench"))
    ap.add_argument("--json", help="write every configuration's results into one vkbench results document")
    ap.add_argument("--rounds", type=int, default=ROUNDS,
                    help=f"rounds, each running every configuration once (default {ROUNDS})")
    ap.add_argument("family")
    ap.add_argument("variant")
    ap.add_argument("configs", nargs="+")
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    args = ap.parse_args(argv)
    if not 1 <= args.rounds <= 100:
        vkbjson.die(f"--rounds {args.rounds}: 1 to 100")
    # everything that can be refused is refused before the first configuration runs
    if not (os.path.isfile(args.vkbench) and os.access(args.vkbench, os.X_OK)):
        vkbjson.die(f"--vkbench {vkbjson.clean(args.vkbench)}: no executable there (build vkbench, or name it)")
    output = None
    if args.json:
        vkbjson.claim([("--json", args.json)], [args.vkbench])
        output = vkbjson.Output(args.json, "--json")

    # SIGTERM or SIGHUP: SystemExit, so that the running vkbench is stopped and the scratch folder removed
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) == signal.SIG_DFL:   # an inherited SIG_IGN (nohup) stays ignored
            signal.signal(sig, lambda n, _frame: sys.exit(128 + n))
    docs, per_round = [], []
    configs = [DEFAULTS] + args.configs
    outcomes = [None] * len(configs)
    with tempfile.TemporaryDirectory() as tmp:
        for rnd in range(args.rounds):
            order = [(i + rnd) % len(configs) for i in range(len(configs))]    # rotated: no one always first
            for step, i in enumerate(order):
                config = configs[i]
                if outcomes[i] is not None and outcomes[i]["exit_code"] not in (0, 1):
                    continue    # refused (a usage error, no device): the same again each round
                print(f"tune: round {rnd + 1}/{args.rounds} [{step + 1}/{len(configs)}] {config}", file=sys.stderr,
                      flush=True)
                outcome, doc = run_config(args, extra, None if config == DEFAULTS else config,
                                          os.path.join(tmp, f"{rnd}-{i}.json"))
                if outcomes[i] is None:
                    outcomes[i] = outcome
                if doc:
                    if args.rounds > 1:
                        doc["settings"]["repeat"] = args.rounds
                        for r in doc["results"]:
                            r["repeat"] = rnd
                    docs.append(doc)
                per_round.append((rnd, rows_of(doc, args, config, outcome)))
    rows = gather(per_round)
    if output:
        if not docs:
            vkbjson.die(f"no configuration ran; {vkbjson.clean(args.json)} not written", 1)
        tune = {"command": " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]), "family": args.family,
                "variant": args.variant, "vkbench_options": extra, "rounds": args.rounds, "configs": outcomes}
        for d in docs:
            d.pop("path", None)
            d.pop("schema_major", None)
        output.finish(vkbjson.dumps(merge(docs, tune)) + "\n")
    if docs:
        print(f"tune: {args.family}/{args.variant} on {vkbjson.devices_text(docs[0])}; "
              f"options: {' '.join(extra) or '(none)'}")
    print("\n".join(table(rows)))
    return 0 if any(r[2] for r in rows) else 1


if __name__ == "__main__":
    vkbjson.run_main(main)
