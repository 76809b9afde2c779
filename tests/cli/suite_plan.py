#!/usr/bin/python3
"""suite_plan.py VKBENCH: the default suite's plan (`vkbench --dry-run`) adds up. Its first line's families,
shapes and cases are the sums of the per-family lines under it, each family's cases a whole number of runs of its
rows per shape (every point of a family runs the same rows), and the memory families that declare several points
(host/families/memory/memory.c) show them: no count is written here, each is derived from the plan itself. Exit
3: no Vulkan device."""
import re
import subprocess
import sys

from testcheck import check

TOTAL = re.compile(r"^(\d+) cases? \((\d+) famil(?:y|ies): (\d+) shapes? and (\d+) variants? in all; .*\)")
FAMILY = re.compile(r"^  (\S+) +(\d+) shapes? +\(.*\), (\d+) cases?$")
SWEPT = ("memory.width", "memory.offset", "memory.stride", "memory.shared_stride")   # a rule over a knob


def main():
    p = subprocess.run([sys.argv[1], "--dry-run"], capture_output=True, text=True, timeout=300)
    if p.returncode == 3:
        sys.exit(3)
    check(p.returncode == 0, f"vkbench --dry-run: exit {p.returncode}", p.stderr)
    lines = p.stdout.splitlines()
    total = TOTAL.match(lines[0]) if lines else None
    check(total is not None, "the plan's line first", p.stdout)
    cases, families, shapes = int(total[1]), int(total[2]), int(total[3])
    rows = {m[1]: (int(m[2]), int(m[3])) for m in map(FAMILY.match, lines) if m}
    check(len(rows) == families, f"{families} families in the plan's line, {len(rows)} family lines", p.stdout)
    check(sum(s for s, _ in rows.values()) == shapes, f"{shapes} shapes: the families' sum", rows)
    check(sum(c for _, c in rows.values()) == cases, f"{cases} cases: the families' sum", rows)
    for name, (s, c) in rows.items():
        check(s > 0 and c % s == 0, f"{name}: {c} cases over {s} shapes, the same rows at each", rows)
    for name in SWEPT:
        check(rows.get(name, (0, 0))[0] > 1, f"{name}: its rule at several points", rows)
    print(f"{cases} cases, {shapes} shapes, {families} families: the sums of the family lines")


if __name__ == "__main__":
    main()
