#!/usr/bin/env python3
"""verify_faults.py VKBENCH FAULT MODE ARGS...: run `VKBENCH ARGS --json F` with VKB_FAULT_INJECT=FAULT
and assert that every result fails for the reason MODE names (docs/verification.md):
  value        the value check: wrong >= 1, and not the determinism re-run
  guard        "wrote N bytes after the end of output 0, at +A..+B"
  dropped      stores past a descriptor's range dropped by the driver's robust access: the value check fails
               and the kernel rows name no guard (ceiling rows, copies without a descriptor, may)
  poison       "not poisoned before the run"
  determinism  deterministic rows: "not deterministic"; rows flagged nondeterministic pass
  timer=REGEX  "timer: ..." matching REGEX (ceiling rows, timed beside the variant asked for, are not judged)
  injected     the rows stderr names ("fault injected: F/V ...") fail by value; at least one is named
Exit 0 when all hold, 1 with each broken row named; 3 (a skip) without a Vulkan device, or with
--robustness disabled on a device that lacks VK_EXT_pipeline_robustness (the reason printed)."""
import json, os, re, subprocess, sys, tempfile


GUARD = r"wrote \d+ bytes? after the end of output 0, at \+\d+\.\.\+\d+"


def reason(r):
    c = r.get("check") or {}
    return " ".join(str(x) for x in (c.get("reason"), c.get("method"), r.get("reason")) if x)


def main():
    vkbench, fault, mode, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "out.json")
        env = dict(os.environ, VKB_FAULT_INJECT=fault)
        p = subprocess.run([vkbench] + args + ["--json", path], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode == 3:
            print("no Vulkan device")
            return 3
        if p.returncode == 4 and "--robustness disabled:" in p.stderr:   # the device lacks the extension
            print(f"skipped: {p.stderr.strip().splitlines()[-1]}")
            return 3
        if not os.path.exists(path):
            print(f"no JSON written (exit {p.returncode}):\n{p.stderr[-2000:]}")
            return 1
        results = json.load(open(path))["results"]
    bad = []
    rows = [r for r in results if r["status"] != "skip"]
    named = set(re.findall(r"fault injected: (\S+/\S+) runs without", p.stderr))
    for r in rows:
        name = f'{r["family"]}/{r["variant"]} {r.get("backend", "")} {r.get("shape_text", "")}'
        why, wrong = reason(r), (r.get("check") or {}).get("wrong") or 0
        failed = r["status"] == "fail"
        if mode == "value" or (mode == "injected" and f'{r["family"]}/{r["variant"]}' in named):
            ok = failed and wrong >= 1 and "not deterministic" not in why
        elif mode == "injected":
            ok = True
        elif mode == "guard":
            ok = failed and re.search(GUARD, why)
        elif mode == "dropped":
            ok = failed and wrong >= 1 and (r.get("ceiling_row") or not re.search(GUARD, why))
        elif mode == "poison":
            ok = failed and "not poisoned before the run" in why
        elif mode == "determinism":
            ok = (failed and "not deterministic" in why) if r.get("deterministic", True) else not failed
        elif mode.startswith("timer="):   # the ceiling rows run too; the kernel row (--variant) is judged
            ok = (failed and "timer:" in why and re.search(mode[6:], why) is not None) or r.get("ceiling_row")
        else:
            print(f"unknown mode {mode}")
            return 2
        if not ok:
            bad.append(f"{name}: {r['status']} ({why}, wrong {wrong})")
    if mode == "injected" and not named:
        bad.append("no fault was injected: no plan has that pass")
    if not rows:
        bad.append("no results")
    if p.returncode != 1:
        bad.append(f"exit {p.returncode}, expected 1")
    for b in bad:
        print(b)
    print(f"{fault}: {len(rows)} results, {len(bad)} not caught as '{mode}'")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
