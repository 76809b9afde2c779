"""test_verdicts.py - the verdict helpers the Python tests share: a failed check prints FAIL with its context and
exits 1; a tool's bad input must give exit RC and one error line, never a traceback."""
import re
import sys


def check(cond, what, *context):
    if not cond:
        print(f"FAIL: {what}")
        for c in context:
            print(c)
        sys.exit(1)


def one_line_error(code, out, err, rc, pattern):
    check(code == rc, f"exit {code}, expected {rc}", out, err)
    check("Traceback" not in err, "a traceback instead of one line", err)
    lines = err.strip().splitlines()
    check(len(lines) == 1 and re.search(pattern, lines[0]), f"one line matching {pattern!r}", err)
