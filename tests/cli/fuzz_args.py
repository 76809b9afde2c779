#!/usr/bin/env python3
"""fuzz_args.py - a seeded argument fuzzer for vkbench (standard library only).

Builds command lines from the real option table (parsed from `vkbench --help`, the families and their
size flags from `vkbench run --help`, the variants from `vkbench list`), fills them with hostile values,
runs them in parallel with a timeout and checks each: no signal, no hang, an exit code in 0..6, no
sanitizer report, and an error that is one line: exactly one `vkbench: error: ` line, the last on stderr
(none at exit 0). Most lines carry --dry-run (parse, select, open the device, check every case against
the limits, run nothing); the rest are real runs at tiny sizes. Exit 0 when every line passes.

    tests/cli/fuzz_args.py --vkbench build/vkbench [--count 2000] [--seed 1] [--jobs 2] [--timeout 120]
"""
import argparse
import concurrent.futures
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

EXIT_CODES = set(range(7))  # README: 0 ok .. 6 a result file could not be written
SANITIZER = re.compile(rb"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:")

# hostile values for any option (bytes: a command line is bytes, not text)
HOSTILE = [b"0", b"-1", b"-0", b"1.5", b"1e308", b"1e-308", b"NaN", b"nan", b"inf", b"-inf", b"", b",", b",,",
           b"1,,2", b"1M,", b",4", b":", b"::", b"1:2", b"1:2^62:x2", b"0:0:+0", b"2^64", b"2^63", b"2^62", b"2^33",
           b"2^32", b"2^-1", b"2^", b"4294967296", b"4294967297", b"18446744073709551615",
           b"18446744073709551616", b"99999999999999999999999999999", b"0x10", b" 4", b"4 ", b"+4", b"1K", b"1G",
           b"4KK", b"=", b"a=b", b"BM=0", b"0=0", b"-", b"--", b"--n", b"%s%n%x", b"\n", b"a\nb", b"\t",
           b"\xc3\xbcn\xc3\xafc\xc3\xb6d\xc3\xa9", b"\xf0\x9f\x92\xa5", b"\xff\xfe\x80", b"x" * 5000,
           b"1," * 300 + b"1", b"all", b"copy/", b"/vec4", b"copy/vec4", b"core", b"sync", b"metal", b"vulkan",
           b"cuda"]
# well-formed values by option (small, so that a real run stays tiny)
GOOD = {
    "size": [b"1", b"7", b"31", b"33", b"64", b"100", b"1,33", b"1:64:x4", b"8:24:+8", b"2^6", b"1e2"],
    "offset": [b"0", b"1", b"3", b"0,1", b"0:32:+16"],
    "stride": [b"1", b"2", b"3", b"32", b"33"],
    "width": [b"4", b"8", b"16", b"4,16"],
    "reps": [b"1", b"2"],
    "warmup-ms": [b"0", b"0.5"],
    "budget-ms": [b"0", b"1"],
    "seed": [b"0", b"1", b"18446744073709551615", b"9007199254740993"],
    "backend": [b"vulkan", b"cuda", b"all"],
    "device": [b"0", b"1", b"99", b"lavapipe", b"llvmpipe", b"nosuch"],
    "spec": [b"BM=64", b"TILE=16", b"0=64", b"ROWS=4", b"REC=3", b"BM=0", b"TILE=0", b"0=0", b"WORDS=2",
             b"FIELDS=5", b"BK=0", b"OPT=1", b"TN=4,TM=4"],
    "validation": [b"core", b"sync"],
}
SIZE_FLAGS = {"n", "m", "k", "rows", "cols", "size"}


def capture(vkbench, *args):
    out = subprocess.run([vkbench, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
    return out.stdout.decode("utf-8", "replace")


def option_table(vkbench):
    """{name: kind} for every long option in `vkbench --help`: kind 'flag', 'value', 'optional' or 'path'
    (a PATH, DIR or FILE: written to, so it only gets names inside the scratch folder or ones that fail)."""
    text = capture(vkbench, "--help")
    opts = {}
    for name, arg in re.findall(r"(?<![\w-])--([a-z][a-z-]*)(\[=[^\]]*\]| [A-Z][A-Z|,=.-]*)?", text):
        kind = ("optional" if arg.startswith("[") else "path" if re.search("PATH|DIR|FILE", arg)
                else "value" if arg else "flag")
        if kind == "flag" and name in opts:
            continue
        opts[name] = kind
    # "--n LIST --m LIST ..." on one line: each takes a value
    return opts


def family_table(vkbench):
    """{family: [size flags]} from `vkbench run --help`, {family: [variants]} from `vkbench list`."""
    fams = {}
    for m in re.finditer(r"^  (\S+)\s+((?:--[a-z]+ ?)+)", capture(vkbench, "run", "--help"), re.M):
        fams[m.group(1)] = re.findall(r"--([a-z]+)", m.group(2))
    variants, current = {}, None
    for line in capture(vkbench, "list").splitlines():
        m = re.match(r"^(\S+): ", line)
        if m:
            current = m.group(1)
            variants[current] = []
        elif current and re.match(r"^  \S", line):   # a variant; its note wraps deeper
            variants[current].append(line.split()[0])
    return fams, variants


def build(rng, opts, fams, variants, tmp, real):
    """One command line (a list of bytes)."""
    fam_names = sorted(fams)
    safe_path = [b"r.json", b"sub/none/r.json", b"missing/r.csv", tmp.encode(), b"-",
                 b"\xff\xfe.json", b"\xc3\xbc.csv", b"x" * 300, b"a\nb.json", b""]
    if real:  # a tiny real run: well-formed sizes of small families, a short budget
        fam = rng.choice([f for f in fam_names if f in ("copy", "reduce") or f.startswith("memory.")])
        line = [b"run", fam.encode(), b"--reps", b"1", b"--warmup-ms", b"0", b"--budget-ms", b"1"]
        for d in fams[fam]:
            line += [b"--" + d.encode(), rng.choice(GOOD.get(d, GOOD["size"]))]
        for _ in range(rng.randint(0, 2)):
            name = rng.choice(["seed", "variant", "spec", "cold", "validation", "quiet", "wide"] +
                              [o for o, kind in opts.items() if kind == "path"])
            if name == "variant":
                line += [b"--variant", rng.choice([v.encode() for v in variants.get(fam, ["x"])] + HOSTILE[:12])]
            elif opts.get(name) == "path":
                line += [b"--" + name.encode(), rng.choice(safe_path)]
            elif name in GOOD:
                line += [b"--" + name.encode(), rng.choice(GOOD[name] + HOSTILE[:8])]
            elif name == "validation":
                line += [b"--validation"]
            else:
                line += [b"--" + name.encode()]
        return line
    line = []
    r = rng.random()
    if r < 0.75:
        line.append(b"run")
    elif r < 0.85:
        line.append(b"validate")
    elif r < 0.9:
        line.append(rng.choice([b"list", b"devices"]))
    for _ in range(rng.randint(0 if line[:1] != [b"run"] else 1, 3)):
        line.append(rng.choice([f.encode() for f in fam_names] + [b"memory", rng.choice(HOSTILE)]))
    names = sorted(opts)
    for _ in range(rng.randint(1, 5)):
        name = rng.choice(names)
        if name in ("help", "version"):
            continue  # they print and exit 0 whatever follows: covered by the battery
        kind = opts[name]
        flag = b"--" + name.encode()
        if kind == "flag":
            line.append(flag)
            continue
        if kind == "path":
            value = rng.choice(safe_path)
        elif rng.random() < 0.35:
            value = rng.choice(HOSTILE + [bytes(rng.randrange(1, 256) for _ in range(rng.randint(1, 12)))])
        elif name in SIZE_FLAGS:
            value = rng.choice(GOOD["size"])
        else:
            value = rng.choice(GOOD.get(name, HOSTILE))
        if kind == "optional":
            line.append(flag + b"=" + value if rng.random() < 0.7 else flag)
        elif rng.random() < 0.3:
            line.append(flag + b"=" + value)
        else:
            line += [flag, value]
    line.append(b"--dry-run")
    if rng.random() < 0.1 and not any(opts.get(a[2:].split(b"=")[0].decode("utf-8", "replace")) == "path"
                                      for a in line if a.startswith(b"--")):
        rng.shuffle(line)  # options anywhere, words out of order (never a path moved next to --json)
    return line


def check(vkbench, line, timeout, cwd):
    """(exit code, None) when LINE behaves, else (exit code, a one-line reason)."""
    try:
        p = subprocess.run([vkbench.encode()] + line, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        return None, f"no answer within {timeout} s (a hang?)"
    rc, err = p.returncode, p.stderr
    return rc, verdict(rc, err)


def verdict(rc, err):
    if rc < 0:
        return f"killed by signal {-rc}: {err[-300:]!r}"
    if rc not in EXIT_CODES:
        return f"exit {rc}, not one of 0..6: {err[-300:]!r}"
    if SANITIZER.search(err):
        return f"a sanitizer report (exit {rc}): {err[:600]!r}"
    lines = err.rstrip(b"\n").split(b"\n") if err else []
    errors = [x for x in lines if x.startswith(b"vkbench: error: ")]
    if rc == 0 and errors:
        return f"exit 0 with an error line: {errors[0][:200]!r}"
    if rc >= 2 and (len(errors) != 1 or lines[-1] != errors[0]):
        return f"exit {rc} without exactly one error line, last: {err[-400:]!r}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vkbench", required=True)
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120, help="seconds per command line")
    ap.add_argument("--show", type=int, action="append", default=[], metavar="CODE",
                    help="print the command lines that exit with CODE (to look into them)")
    ap.add_argument("--real", type=float, default=0.03, help="fraction of real (tiny) runs, without --dry-run")
    args = ap.parse_args()
    vkbench = os.path.abspath(args.vkbench)
    opts = option_table(vkbench)
    fams, variants = family_table(vkbench)
    for needed in ("dry-run", "n", "spec", "json"):
        if needed not in opts:
            sys.exit(f"fuzz_args: --{needed} missing from `vkbench --help`: cannot read the option table")
    if not fams:
        sys.exit("fuzz_args: no families in `vkbench run --help`")
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="vkb-fuzz-")
    lines = []
    for i in range(args.count):
        lines.append(build(rng, opts, fams, variants, tmp, rng.random() < args.real))
    start = time.monotonic()
    failures, codes = [], {}
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for line, (rc, why) in zip(lines, pool.map(lambda l: check(vkbench, l, args.timeout, tmp), lines)):
                codes[rc] = codes.get(rc, 0) + 1
                if rc in args.show:
                    print(f"exit {rc}: vkbench", " ".join(shlex.quote(a.decode("utf-8", "backslashreplace"))
                                                          for a in line)[:300])
                if why:
                    failures.append((line, why))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for line, why in failures[:20]:
        print("FAIL:", why)
        print("      vkbench", " ".join(shlex.quote(a.decode("utf-8", "backslashreplace")) for a in line)[:400])
    print(f"fuzz_args: {len(lines)} command lines ({sum(b'--dry-run' not in l for l in lines)} real runs), "
          f"{len(failures)} failed, {time.monotonic() - start:.1f} s with {args.jobs} workers, seed {args.seed}, "
          f"{len(opts)} options, {len(fams)} families; exit codes "
          + ", ".join(f"{c}: {n}" for c, n in sorted(codes.items(), key=lambda x: str(x[0]))))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
