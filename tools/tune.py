#!/usr/bin/python3
"""tune.py [--vkbench PATH] [--json OUT] FAMILY VARIANT CONFIG... -- [VKBENCH OPTIONS]

Run one variant with its own constants (the "(defaults)" row, the baseline), then once per set of
specialization constants (each CONFIG is a --spec value such as BM=64,BN=64,WM=64,WN=64), and print the
configurations from fastest to slowest: the metric with its unit to three significant digits, its share
of the ceiling, the spread of its repetitions (IQR over median: a difference smaller than the spreads is
noise), its ratio to the defaults (of speeds: above 1 is faster, for a latency too), and the driver's register and local-memory (spill) statistics where
it reports them. Options after -- go to every vkbench run (sizes, --budget-ms, --device...). Each
configuration is validated like any run; one the family refuses is listed with vkbench's reason.
--vkbench and the --json path are checked before anything runs (exit 2, or 6 for a path that cannot be
written). --json writes one vkbench results document (every tool reads it): the runs' results together,
each with its "constants", and a "tune" object naming the family, variant, configurations and what
became of each.

Example (tile shapes of the fp32 matmul; 256 invocations, so WM x WN / (TM x TN) must tile them):
    tools/tune.py matmul dbuf BM=64,BN=64,WM=64,WN=64,TM=4,TN=4 BK=16 -- --size 4096
"""
import os
import subprocess
import sys
import tempfile

import vkbjson

DEFAULTS = "(defaults)"     # the baseline row: the variant as declared, no --spec


def statistic(result, *names):
    for p in result.get("pipelines", []):
        for name in names:
            if name in p["statistics"]:
                return p["statistics"][name]
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
                k = (r["family"], r["variant"], r["backend"], r["shape_text"])
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


def table(rows):
    """The lines of tune's table: fastest first, each with its unit, share of the ceiling, spread, ratio to
    the defaults row of its backend, registers and spills; three significant digits."""
    unit = next((r["metric"]["name"] for _, _, r, _ in rows if r), "metric")
    base = {b: vkbjson.speed(r) for c, b, r, _ in rows if r and c == DEFAULTS}
    rows = sorted(rows, key=lambda x: -(vkbjson.speed(x[2]) if x[2] else -1))   # fastest first, whichever the direction
    width = max([len(c) for c, _, _, _ in rows] + [len("constants")])
    lines = [f"{'constants':{width}} {'backend':7} {unit:>9} {'of ceil':>7} {'spread':>6} {'vs dflt':>7} "
             f"{'regs':>5} {'spill B':>7}  shape / note"]
    for config, backend, r, note in rows:
        if not r:
            lines.append(f"{config:{width}} {backend or '-':7} {'-':>9} {'-':>7} {'-':>6} {'-':>7} {'-':>5} "
                         f"{'-':>7}  {note}")
            continue
        m = r["metric"]
        spread, _ = vkbjson.spread(r)
        regs = statistic(r, "Register Count", "Registers")
        local = statistic(r, "Local Memory Size")
        # NVIDIA reports local memory with a constant 2^36 added
        if local is not None and local >= 2 ** 36:
            local -= 2 ** 36
        ratio = vkbjson.ratio(vkbjson.speed(r), base[backend]) if base.get(backend) else None
        lines.append(f"{config:{width}} {backend:7} {vkbjson.sig(m['value']):>9} "
                     f"{vkbjson.sig(100 * m['fraction']) + '%' if m.get('fraction') is not None else '-':>7} "
                     f"{vkbjson.sig(100 * spread, 2) + '%' if spread is not None else '-':>6} "
                     f"{'x' + vkbjson.sig(ratio) if ratio else '-':>7} {regs if regs is not None else '-':>5} "
                     f"{local if local is not None else '-':>7}  {note}")
    return lines


def main():
    ap = vkbjson.ArgumentParser(description=__doc__.split("\n\n")[1], usage=__doc__.split("\n\n")[0])
    ap.add_argument("--vkbench", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build",
                                                      "vkbench"))
    ap.add_argument("--json", help="write every configuration's results into one vkbench results document")
    ap.add_argument("family")
    ap.add_argument("variant")
    ap.add_argument("configs", nargs="+")
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    args = ap.parse_args(argv)
    # everything that can be refused is refused before the first configuration runs
    if not (os.path.isfile(args.vkbench) and os.access(args.vkbench, os.X_OK)):
        vkbjson.die(f"--vkbench {vkbjson.clean(args.vkbench)}: no executable there (build vkbench, or name it)")
    output = None
    if args.json:
        vkbjson.claim([("--json", args.json)], [args.vkbench])
        output = vkbjson.Output(args.json, "--json")

    rows, docs, outcomes = [], [], []
    configs = [DEFAULTS] + args.configs
    with tempfile.TemporaryDirectory() as tmp:
        for i, config in enumerate(configs):
            print(f"tune: [{i + 1}/{len(configs)}] {config}", file=sys.stderr, flush=True)
            outcome, doc = run_config(args, extra, None if config == DEFAULTS else config,
                                      os.path.join(tmp, f"{i}.json"))
            outcomes.append(outcome)
            if doc:
                docs.append(doc)
            rows += rows_of(doc, args, config, outcome)
    if output:
        if not docs:
            vkbjson.die(f"no configuration ran; {vkbjson.clean(args.json)} not written", 1)
        tune = {"command": " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]), "family": args.family,
                "variant": args.variant, "vkbench_options": extra, "configs": outcomes}
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
