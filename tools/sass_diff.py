#!/usr/bin/env python3
"""sass_diff.py DIR NAME | sass_diff.py A.sass B.sass: a Vulkan pipeline's machine code beside its CUDA twin's.

DIR is what `vkbench run ... --backend all --sass DIR` wrote; NAME picks a pipeline by its file name's start
(e.g. transpose_padded or "matmul_dbuf[256x1x1"): NAME*.sass (the driver's code, from nvdisasm) is set beside
NAME*.cuda.sass (cuobjdump of the CUDA module). Prints the instruction classes side by side, the most frequent
opcodes, and the innermost loop of each (the largest loop that holds no other loop), instruction by instruction.
Options: --width N (columns of each side, default 70), --all-loops (every innermost loop, not only the largest).
"""
import argparse
import collections
import glob
import os
import re
import signal
import sys

CLASSES = ["instructions", "hmma_f32", "hmma_f16", "hgmma_f32", "hgmma_f16", "ldg_32", "ldg_64", "ldg_128",
           "stg_32", "stg_64", "stg_128", "ldgsts", "lds", "sts", "ffma", "ldl", "stl", "atomics", "shuffles",
           "branches", "barriers"]

LINE = re.compile(r"^\s*/\*([0-9a-fA-F]{4,})\*/\s*(\{\s*)?(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);")
LABEL = re.compile(r"^\s*(\.L\w+):")
TARGET = re.compile(r"`\((\.L\w+)\)|\b0x([0-9a-fA-F]+)\b")


def width(op):
    mods = op.split(".")[1:]
    return 128 if "128" in mods else 64 if "64" in mods else 32


def classify(op):
    """The summary class of one opcode (with modifiers), as vkbench counts it; None for the rest."""
    base = op.split(".")[0]
    mods = op.split(".")[1:]
    if base == "HMMA" or base == "HGMMA":
        return base.lower() + ("_f16" if len(mods) > 1 and mods[1] == "F16" else "_f32")
    if base in ("LDG", "STG"):
        return "%s_%d" % (base.lower(), width(op))
    return {"LDGSTS": "ldgsts", "LDS": "lds", "LDSM": "lds", "STS": "sts", "FFMA": "ffma", "LDL": "ldl",
            "STL": "stl", "ATOM": "atomics", "ATOMG": "atomics", "ATOMS": "atomics", "RED": "atomics",
            "REDG": "atomics", "SHFL": "shuffles", "BRA": "branches", "BRX": "branches", "JMP": "branches",
            "JMX": "branches", "BAR": "barriers"}.get(base)


def parse(path):
    """[(address, opcode, text, branch target address or None)] of a disassembly file."""
    labels, pending, instrs = {}, [], []
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    for line in lines:
        m = LABEL.match(line)
        if m:
            pending.append(m.group(1))
            continue
        m = LINE.match(line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        for name in pending:
            labels[name] = addr
        pending = []
        pred = (m.group(3) or "").strip()
        instrs.append([addr, m.group(4), (pred + " " if pred else "") + m.group(4) + " " + m.group(5).strip(),
                       m.group(5)])
    out = []
    for addr, op, text, args in instrs:
        target = None
        if op.split(".")[0] in ("BRA", "BRX", "JMP"):
            t = TARGET.search(args)
            if t:
                target = labels.get(t.group(1)) if t.group(1) else int(t.group(2), 16)
        out.append((addr, op, text, target))
    return out


def histogram(instrs):
    classes, ops = collections.Counter(), collections.Counter()
    for _, op, _, _ in instrs:
        if op.split(".")[0] == "NOP":
            continue
        classes["instructions"] += 1
        ops[op.split(".")[0]] += 1
        c = classify(op)
        if c:
            classes[c] += 1
    return classes, ops


def innermost_loops(instrs):
    """Backward branches as (start, end) address spans, keeping those that enclose no other loop."""
    loops = sorted({(t, a) for a, _, _, t in instrs if t is not None and t < a})
    inner = [l for l in loops if not any(o != l and l[0] <= o[0] and o[1] <= l[1] for o in loops)]
    return inner


def loop_body(instrs, span):
    return [i for i in instrs if span[0] <= i[0] <= span[1]]


def pick(directory, name):
    cands = sorted(glob.glob(os.path.join(directory, glob.escape(name) + "*.sass")))
    cuda = [c for c in cands if c.endswith(".cuda.sass")]
    vk = [c for c in cands if not c.endswith(".cuda.sass") and not os.path.basename(c).startswith("cuobjdump")]
    if not vk:
        sys.exit("sass_diff.py: no %s*.sass in %s" % (name, directory))
    # a variant's first pass (NAME[...]) before its later ones (NAME.kernel[...]), which sort first
    v = sorted(vk, key=lambda c: not os.path.basename(c).startswith(name.rstrip("[") + "["))[0]
    twin = v[:-len(".sass")] + ".cuda.sass"
    return v, twin if os.path.exists(twin) else (cuda[0] if cuda else None)


def side_by_side(left, right, w):
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        print("%-*s | %s" % (w, a[:w], b[:w]))


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="the --sass DIR, or the first .sass file")
    ap.add_argument("b", help="a pipeline name (file name start) in DIR, or the second .sass file")
    ap.add_argument("--width", type=int, default=70)
    ap.add_argument("--all-loops", action="store_true")
    args = ap.parse_args()
    if os.path.isdir(args.a):
        left, right = pick(args.a, args.b)
    else:
        left, right = args.a, args.b
    sides = [(os.path.basename(left), parse(left))]
    if right:
        sides.append((os.path.basename(right), parse(right)))
    else:
        print("(no CUDA twin found beside %s)" % os.path.basename(left))
    w = args.width
    hists = [histogram(i) for _, i in sides]
    print("%-14s %12s %12s" % ("class", "A", "B" if len(sides) > 1 else ""))
    for c in CLASSES:
        vals = [h[0].get(c, 0) for h in hists]
        if any(vals) or c == "instructions":
            print("%-14s %12s %12s" % (c, *[str(v) for v in vals], *([""] * (2 - len(vals)))))
    print("A = %s" % sides[0][0])
    if len(sides) > 1:
        print("B = %s" % sides[1][0])
    print("\nmost frequent opcodes")
    tops = [["%-10s %5d" % kv for kv in h[1].most_common(12)] for h in hists]
    side_by_side(*tops, w=w) if len(tops) > 1 else side_by_side(tops[0], [], w)
    bodies = []
    for title, instrs in sides:
        loops = innermost_loops(instrs)
        if not loops:
            bodies.append(["%s: no loop" % title])
            continue
        chosen = loops if args.all_loops else [max(loops, key=lambda l: len(loop_body(instrs, l)))]
        text = []
        for span in chosen:
            body = loop_body(instrs, span)
            h, _ = histogram(body)
            text.append("loop %04x-%04x: %d instr, %s" % (span[0], span[1], h["instructions"], ", ".join(
                "%s %d" % (c, h[c]) for c in CLASSES[1:] if h.get(c))))
            text += ["  %04x %s" % (a, t) for a, _, t, _ in body]
        bodies.append(text)
    print("\ninnermost loop")
    side_by_side(bodies[0], bodies[1] if len(bodies) > 1 else [], w)


if __name__ == "__main__":
    main()
