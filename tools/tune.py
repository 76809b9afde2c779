#!/usr/bin/python3
"""tune.py [--vkbench PATH] [--json OUT] FAMILY VARIANT CONFIG... -- [VKBENCH OPTIONS]

Run one variant once per set of specialization constants (each CONFIG is a --spec value such as
BM=64,BN=64,WM=64,WN=64) and print the configurations from fastest to slowest, with the driver's
register and local-memory (spill) statistics where it reports them. Options after -- go to every
vkbench run (sizes, --budget-ms, --device...). Each configuration is validated like any run; a
configuration the family refuses is listed with the reason. --json writes one vkbench results document
(every tool reads it): the runs' results together, each with its "constants", and a "tune" object
naming the family, variant, configurations and what became of each.

Example (tile shapes of the fp32 matmul on the GPU at hand):
    tools/tune.py matmul dbuf BM=128,BN=128,BK=16 BM=64,BN=64,WM=64,WN=64,TM=4,TN=4 -- --size 4096
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1], usage=__doc__.split("\n\n")[0])
    ap.add_argument("--vkbench", default=os.path.join(os.path.dirname(__file__), "..", "build", "vkbench"))
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

    rows, docs, outcomes = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i, config in enumerate(args.configs):
            out = os.path.join(tmp, f"{i}.json")
            cmd = [args.vkbench, "run", args.family, "--variant", args.variant, "--spec", config, "--quiet",
                   "--json", out] + extra
            print(f"tune: [{i + 1}/{len(args.configs)}] {config}", file=sys.stderr, flush=True)
            proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            # vkbench's one-line error, without its "vkbench: error: " prefix
            message = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
            message = message.split("error: ", 1)[-1]
            outcomes.append({"constants": config, "exit_code": proc.returncode, "message": message or None})
            if not os.path.exists(out):
                rows.append((config, None, None, None, None, f"exit {proc.returncode}: {message}"))
                continue
            with open(out) as f:
                docs.append(json.load(f))
            results = docs[-1]["results"]
            for r in results:
                if r["variant"] != args.variant or r["ceiling_row"]:
                    continue
                if r["status"] != "ok":
                    rows.append((config, r["backend"], None, None, None, r["skip_reason"] or "FAILED validation"))
                    continue
                m = r["metric"]
                regs = statistic(r, "Register Count", "Registers")
                local = statistic(r, "Local Memory Size")
                # NVIDIA reports local memory with a constant 2^36 added
                if local is not None and local >= 2 ** 36:
                    local -= 2 ** 36
                rows.append((config, r["backend"], m["value"], m.get("fraction"), (regs, local), r["shape_text"]))
    if args.json:
        if not docs:
            sys.exit(f"tune: error: no configuration ran; {args.json} not written")
        tune = {"command": " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]), "family": args.family,
                "variant": args.variant, "vkbench_options": extra, "configs": outcomes}
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump(merge(docs, tune), f, indent=1)
            f.write("\n")
        os.replace(tmp, args.json)

    rows.sort(key=lambda x: -(x[2] or 0))
    print(f"{'constants':48} {'backend':7} {'metric':>10} {'of ceiling':>10} {'regs':>5} {'spill B':>7}  shape / note")
    for config, backend, value, fraction, stats, note in rows:
        regs, local = stats if stats else (None, None)
        print(f"{config:48} {backend or '-':7} {value if value is not None else float('nan'):10.1f} "
              f"{(fraction or float('nan')) * 100:9.1f}% {regs if regs is not None else '-':>5} "
              f"{local if local is not None else '-':>7}  {note}")
    return 0 if any(r[2] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
