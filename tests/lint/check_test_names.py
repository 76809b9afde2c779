#!/usr/bin/python3
"""check_test_names.py CTEST BUILD_DIR [MUTATE_PY]: every test `ctest -N` lists in BUILD_DIR is named
vkb.KIND.MODULE.CASE (four parts, each [a-z0-9_], KIND one of those below) and is listed once; with MUTATE_PY,
every test selection of tools/mutate.py selects at least one test (one that selects none would let its mutation
survive). Names every offender; exit 1 if there is one."""
import re
import subprocess
import sys

KINDS = ("unit", "vk", "verify", "bad", "tools", "cuda", "lvp26", "slurm", "lint")
SCHEME = re.compile(r"vkb\.(%s)\.[a-z0-9_]+\.[a-z0-9_]+" % "|".join(KINDS))


def main():
    ctest, build = sys.argv[1], sys.argv[2]
    p = subprocess.run([ctest, "--test-dir", build, "-N"], capture_output=True, text=True)
    names = re.findall(r"^\s*Test\s+#\d+: (\S+)", p.stdout, re.M)
    if p.returncode != 0 or not names:
        sys.exit(f"check_test_names: ctest -N in {build}: exit {p.returncode}, {len(names)} tests\n{p.stderr}")
    bad = [n for n in names if not SCHEME.fullmatch(n)]
    for n in bad:
        print(f"check_test_names: {n}: not vkb.KIND.MODULE.CASE (KIND: {', '.join(KINDS)}; [a-z0-9_] within a part)")
    twice = sorted({n for n in names if names.count(n) > 1})
    for n in twice:
        print(f"check_test_names: {n}: registered {names.count(n)} times")
    unselecting = []
    if len(sys.argv) > 3 and sys.argv[3]:   # the sanitizer build passes an empty argument: no mutations there
        sys.path.insert(0, sys.argv[3].rsplit("/", 1)[0])
        import mutate
        for m in mutate.MUTATIONS:
            if m["tests"] and not any(re.search(m["tests"], n) for n in names):
                unselecting.append(m["id"])
                print(f"check_test_names: mutation {m['id']}: its tests {m['tests']!r} select no test")
    if bad or twice or unselecting:
        print(f"check_test_names: {len(bad)} of {len(names)} names off the scheme, {len(twice)} twice, "
              f"{len(unselecting)} mutations selecting nothing")
        return 1
    print(f"check_test_names: {len(names)} tests, each vkb.KIND.MODULE.CASE, each once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
