"""testcheck.py - the one failure rule of the command-line test scripts: `check(cond, what, *context)` prints
"FAIL: WHAT" and the tail of each context (a command's output) and exits 1 where COND is false."""
import sys


def check(cond, what, *context):
    if not cond:
        print(f"FAIL: {what}")
        for c in context:
            print(str(c)[-3000:])
        sys.exit(1)
