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



def run_cases(namespace, script, tool_of=None, not_registered=()):
    """The entry point of a tests/tools script: its cases are its functions case_NAME, each the ctest test
    vkb.tools.TOOL.CASE (tests/tools/tools.cmake registers what `SCRIPT --list` prints). TOOL is the tool the case
    is of: tool_of[NAME] (CASE then is NAME), else NAME's first word, a tools/TOOL.py (CASE the rest of NAME).
    not_registered: cases run by hand only (a time is no verdict). A case runs by TOOL.CASE or by NAME."""
    import os
    tools = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools")
    tool_of = tool_of or {}
    cases, listed = {}, []
    for key, fn in namespace.items():
        if not key.startswith("case_"):
            continue
        name = key[5:]
        tool, _, rest = name.partition("_")
        if name in tool_of:
            tool, rest = tool_of[name], name
        elif not rest or not os.path.exists(os.path.join(tools, tool + ".py")):
            sys.exit(f"{script}: case_{name}: its first word names no tools/*.py (give its tool in tool_of)")
        cases[f"{tool}.{rest}"] = cases[name] = fn
        if name not in not_registered:
            listed.append(f"{tool}.{rest}")
    if sys.argv[1:] == ["--list"]:
        print(" ".join(listed))
        return
    if len(sys.argv) != 2 or sys.argv[1] not in cases:
        sys.exit(f"usage: {script} --list | {'|'.join(listed)}")
    cases[sys.argv[1]]()
    print(f"{sys.argv[1]} ok")
