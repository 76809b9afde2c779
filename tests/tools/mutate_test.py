#!/usr/bin/python3
"""mutate_test.py CASE: the mutants tools/mutate.py --from-diff generates, on small fixed sources: each operator
class gives exactly the expected set, nothing comes from comments, strings or #include lines, a whitespace-only
change gives no changed line (a real git repository in a temporary folder), and each file maps onto the tests a
reader would pick. Exit 1 on the first wrong set."""
import os
import subprocess
import sys
import tempfile
from test_verdicts import check, run_cases

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools"))
import mutate  # noqa: E402


def news(path, src, op, lines=None):
    """The mutated lines of class OP of SRC (all its lines, or LINES), as a set of stripped texts."""
    lines = lines or range(1, src.count("\n") + 2)
    return {m["new"].strip() for m in mutate.line_mutants(path, src, lines) if m["op"] == op}


def case_mutate_compare():
    src = "int f(int a, int b)\n{\n    return a < b && b >= 2 || a == b || p->x > 0 || a != (b << 1);\n}\n"
    got = news("x.c", src, "compare")
    want = {"return a <= b && b >= 2 || a == b || p->x > 0 || a != (b << 1);",
            "return a < b && b > 2 || a == b || p->x > 0 || a != (b << 1);",
            "return a < b && b >= 2 || a != b || p->x > 0 || a != (b << 1);",
            "return a < b && b >= 2 || a == b || p->x >= 0 || a != (b << 1);",
            "return a < b && b >= 2 || a == b || p->x > 0 || a == (b << 1);"}
    check(got == want, "each comparison once, swapped with its partner; -> and << left alone", sorted(got))
    got = news("x.py", "if a <= b or c > d:\n    x = 1\n", "compare")
    check(got == {"if a < b or c > d:", "if a <= b or c >= d:"}, "Python comparisons", sorted(got))


def case_mutate_arith():
    src = "void f(void)\n{\n    x = a + b * c - (d / e);\n    y += -1;\n    int *p = &x;\n    q->n++;\n}\n"
    got = news("x.c", src, "arith")
    want = {"x = a - b * c - (d / e);", "x = a + b / c - (d / e);", "x = a + b * c + (d / e);",
            "x = a + b * c - (d * e);", "y -= -1;"}
    check(got == want, "binary + - * / and +=, not a unary minus, a pointer or ++", sorted(got))


def case_mutate_constants():
    src = "void f(void)\n{\n    g(0, 1, 7, 255u, 0x10, 1.5, 2e3, v2);\n}\n"
    got = news("x.c", src, "constant")
    want = {"g(1, 1, 7, 255u, 0x10, 1.5, 2e3, v2);", "g(0, 0, 7, 255u, 0x10, 1.5, 2e3, v2);",
            "g(0, 1, 8, 255u, 0x10, 1.5, 2e3, v2);", "g(0, 1, 7, 256u, 0x10, 1.5, 2e3, v2);"}
    check(got == want, "0 <-> 1, n -> n+1 (suffix kept); hex, floats and names left alone", sorted(got))


def case_mutate_ignored_return():
    c = "void f(void)\n{\n    if (open_it(p) != 0)\n        return;\n    if (x > 2)\n        y = 1;\n}\n"
    check(news("x.c", c, "ignored_return") == {"if ((open_it(p) != 0) && 0)"}, "C: a tested call's test dropped",
          sorted(news("x.c", c, "ignored_return")))
    g = "void main()\n{\n    if (subgroupElect()) {\n        s = 1;\n    }\n}\n"
    check(news("x.comp", g, "ignored_return") == {"if ((subgroupElect()) && false) {"}, "GLSL: false, not 0",
          sorted(news("x.comp", g, "ignored_return")))
    p = "def f(p):\n    if not os.path.exists(p):\n        return 1\n    if p:\n        return 2\n"
    check(news("x.py", p, "ignored_return") == {"if (not os.path.exists(p)) and False:"}, "Python: and False",
          sorted(news("x.py", p, "ignored_return")))


def case_mutate_dropped():
    c = ("void f(void)\n{\n    int n = 3;\n    n = g(n);\n    if (n)\n        h(n);\n    s->a[0] += 2;\n"
         "    call(1,\n         2);\n    barrier();\n    return (n);\n}\n")
    got = {m["old"].strip() for m in mutate.line_mutants("x.c", c, range(1, 13)) if m["op"] == "drop"}
    check(got == {"n = g(n);", "s->a[0] += 2;", "barrier();"},
          "whole statements only: no declaration, no brace-less body, no half of a call, no return", sorted(got))
    removed = [m for m in mutate.line_mutants("x.c", c, [4]) if m["op"] == "drop"]
    check(len(removed) == 1 and removed[0]["new"] == "", "the line emptied (its number kept)", removed)
    p = "def f(x):\n    x.append(1)\n    y = [1,\n         2]\n    return y\n"
    got = {(m["old"].strip(), m["new"]) for m in mutate.line_mutants("x.py", p, range(1, 6)) if m["op"] == "drop"}
    check(got == {("x.append(1)", "    pass")}, "Python: pass in its place, a continued statement kept", sorted(got))


def case_mutate_comments_strings():
    c = ('#include <stdio.h>\n/* a < b + 1\n   c == 2 */\nvoid f(void)\n{\n    puts("a < b + 1"); // x == 2\n'
         "    char q = '<';\n}\n")
    got = [m for m in mutate.line_mutants("x.c", c, range(1, 9)) if m["op"] != "drop"]
    check(got == [], "no mutant from a comment, a string, a character or #include", got)
    p = 'def f():\n    """a < b + 1\n    c == 2"""\n    return "x == 1"  # y < 2\n'
    got = mutate.line_mutants("x.py", p, range(1, 5))
    check(got == [], "Python: no mutant from a docstring, a string or a comment", got)


def case_mutate_diff_lines():
    with tempfile.TemporaryDirectory() as d:
        def git(*args):
            subprocess.run(["git", "-C", d, *args], check=True, capture_output=True)
        git("init", "-q")
        git("config", "user.email", "t@t")
        git("config", "user.name", "t")
        open(os.path.join(d, "a.c"), "w").write("int f(int a)\n{\n    return a+1;\n}\nint g(int b)\n{\n    return b;\n}\n")
        open(os.path.join(d, "notes.txt"), "w").write("a < b\n")
        git("add", ".")
        git("commit", "-qm", "one")
        # reformatted (whitespace only) and one real change, on line 7, and a file that is neither C nor Python
        open(os.path.join(d, "a.c"), "w").write("int f(int a)\n{\n    return a + 1 ;\n}\nint g(int b)\n{\n"
                                                 "    return b * 2;\n}\n")
        open(os.path.join(d, "notes.txt"), "w").write("a <= b\n")
        got = mutate.diff_lines("HEAD", d)
    check(got == {"a.c": [7]}, "git diff -w: the changed line only, by its new number", got)
    text = ("diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ -3,0 +4,2 @@\n+a\n+b\n@@ -10 +12 @@\n-c\n+d\n"
            "diff --git a/gone.c b/gone.c\n--- a/gone.c\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n")
    got = mutate.parse_diff(text)
    check(got == {"x.c": [4, 5, 12]}, "hunks' new line numbers; a deleted file gives none", got)


def case_mutate_tests_map():
    check(mutate.tests_for("host/core/stats.c") == r"vkb\.unit\.stats\.", "a core module: its unit tests",
          mutate.tests_for("host/core/stats.c"))
    fam = mutate.tests_for("host/families/transfer/transfer.c")
    check(fam.startswith(r"vkb\.verify\.transfer\.clean$|vkb\.vk\.transfer\.run_json$") and r"vkb\.unit\.transfer\." in fam,
          "a family file: its clean verify, its JSON run and the unit tests in its tests/ folder", fam)
    check(mutate.tests_for("tools/fleet.py") == r"vkb\.tools\.fleet\.|vkb\.tools\.every_tool\.", "a tool",
          mutate.tests_for("tools/fleet.py"))
    check(mutate.tests_for("host/app/cache_probe.c") == r"vkb\.unit\.cache_probe\.|vkb\.vk\.cache\.probe",
          "the cache probe: its unit tests and the family's probe tests", mutate.tests_for("host/app/cache_probe.c"))
    check(mutate.tests_for("docs/x.py") is None, "a file no row maps: None", mutate.tests_for("docs/x.py"))


if __name__ == "__main__":
    run_cases(globals(), "mutate_test.py")
