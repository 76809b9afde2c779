#!/usr/bin/python3
"""The results page (store.py page, tools/vkbpage.py) in a real headless Chromium: values read from the DOM against
the store, each number's link to its raw record, a planted <script> shown as text and never run, a screenshot of
substance. Usage: page_test.py CASE. 77: no chromium (tools/setup.sh --browser; as root the test runs it)."""
import html.parser
import json
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(ROOT, "tools")
SKIP = 77
TMP = tempfile.mkdtemp(prefix="vkb-page-test-")
DB = os.path.join(TMP, "results.db")
OUT = os.path.join(TMP, "site")
PLANT = "<script>document.title='ran';document.body.setAttribute('data-planted','ran')</script><b>x</b>"


def fail(msg):
    sys.exit(f"FAIL {msg}")


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def headless(page, *mode):
    """(console lines, stdout) of headless Chromium on PAGE (a file:// address)."""
    p = subprocess.run([browser(), "--headless", "--disable-gpu", "--no-sandbox", "--enable-logging=stderr", "--v=0",
                        "--user-data-dir=" + tempfile.mkdtemp(dir=TMP), *mode, "file://" + page],
                       capture_output=True, text=True, timeout=180)
    return [ln for ln in p.stderr.splitlines() if ":CONSOLE" in ln], p.stdout


def store(*args):
    p = subprocess.run([sys.executable, os.path.join(TOOLS, "store.py"), "--db", DB, *args], capture_output=True,
                       text=True, timeout=600)
    if p.returncode != 0 or p.stderr:
        fail(f"store.py {' '.join(args)}: exit {p.returncode}: {p.stderr}")
    return p


def doc(n, model, driver, value, status="ok", suspect=False):
    results = [{"family": "copy", "variant": v, "backend": "vulkan", "device_index": 0, "shape": {"n": 1024},
                "shape_text": "n=1024", "status": status if v == "vec4" else "ok", "reps": 20, "settled": True,
                "suspect": suspect, "validated": status == "ok" or v != "vec4", "max_error": 0.0,
                "time_ms": {"min": 1.0, "q1": 1.0, "median": 1.0, "q3": 1.0, "max": 1.0},
                "metric": {"name": "GB/s", "better": "higher", "value": value * k, "ceiling": 400.0,
                           "ceiling_variant": "memcpy", "fraction": value * k / 400.0}}
               for v, k in (("vec4", 1.0), ("scalar", 0.5))]
    d = {"schema_version": "2.1.0", "tool": "vkbench", "version": "0.1.0", "date": f"2026-11-{n + 1:02d}T00:00:00Z",
         "command": "vkbench run copy", "settings": {"subcommand": "run", "seed": 1},
         "devices": [{"backend": "vulkan", "name": model, "index": 0, "uuid": f"uuid-{model[:3]}", "host": "node1",
                      "driver": driver, "api_version": "1.4.312"}], "results": results}
    path = os.path.join(TMP, f"r{n}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f)
    return path


def health_doc():
    d = {"schema": "vkbench-health/1", "hostname": "node<i>7</i>", "time": 1795000000, "verdict":
         "take out of service", "exit": 1, "node_problem": None, "gpus_found": 1, "baseline": True,
         "gpus": [{"gpu": 0, "uuid": "0e9e0530-282a-bad9-f675-cb0b6719b2b5", "pci_bus_id": "0000:00:06.0", "model": "Test GPU", "driver": "D 1",
                   "verdict": "fail", "action": "drain", "speed_judged": True,
                   "failing": ["speed: all rows: 0.70x of the baseline"],
                   "rows": [{"row": "copy/vec4", "backend": "vulkan", "status": "ok", "metric": 70.0, "unit": "GB/s",
                             "median_s": 0.01}]}]}
    path = os.path.join(TMP, "health.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f)
    return path


def made():
    """A store: Test GPU over two drivers (the latest run's vec4 SUSPECT), a GPU named with a planted script whose
    latest vec4 failed, a health verdict; and its page."""
    files = [doc(n, "Test GPU", f"D {1 + n // 3}", 100.0 + n, suspect=(n == 5)) for n in range(6)]
    files += [doc(6, PLANT, "D 1", 50.0), doc(7, PLANT, "D 1", 60.0, status="fail"), health_doc()]
    store("import", "--quiet", *files)
    store("page", "--out", OUT, "--quiet")


class Cells(html.parser.HTMLParser):
    """The matrix's cells: {result id: (text, class, href)}, and every <script> and event attribute met."""

    def __init__(self):
        super().__init__()
        self.cells, self.scripts, self.events, self.cell, self.href, self.text = {}, 0, 0, None, None, ""
        self.planted = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.scripts += tag == "script"
        self.events += sum(1 for k in a if k.startswith("on"))
        if tag == "body":
            self.planted = a.get("data-planted")
        if tag == "td" and "data-result" in a:
            self.cell, self.text, self.css = a["data-result"], "", a.get("class", "")
        if tag == "a" and self.cell:
            self.href = a.get("href")

    def handle_data(self, data):
        if self.cell:
            self.text += data

    def handle_endtag(self, tag):
        if tag == "td" and self.cell:
            self.cells[self.cell] = (" ".join(self.text.split()), self.css, self.href)
            self.cell = None


def dom(name, fragment=""):
    console, out = headless(os.path.join(OUT, name), "--dump-dom")
    if console:
        fail(f"{name}: console messages: {console}")
    parsed = Cells()
    parsed.feed(out)
    return parsed, out


def case_values():
    """Each matrix cell is the latest run's value of its device and row, as the store holds it, with its share of
    the ceiling, its verdict and SUSPECT; each links to a record whose fields are that row's."""
    made()
    parsed, _ = dom("index.html")
    with sqlite3.connect(DB) as db:
        want = db.execute("SELECT r.id, r.value, r.fraction, r.status, r.suspect, r.run_id FROM result r "
                          "WHERE r.id IN (SELECT max(id) FROM result GROUP BY device_id, family, variant, shape, "
                          "backend)").fetchall()
    if len(parsed.cells) != len(want) or len(want) != 7:     # 3 devices of 2 rows (Test GPU under 2 drivers), 1 health
        fail(f"{len(parsed.cells)} cells in the DOM, {len(want)} latest rows in the store")
    for rid, value, fraction, status, suspect, run in want:
        text, css, href = parsed.cells[str(rid)]
        shown = float(text.split()[0])
        share = f"{100 * fraction:.1f}% of memcpy" if fraction is not None else "% of"
        if abs(shown - value) > 1e-3 * abs(value) or (share in text) != (fraction is not None):
            fail(f"cell {rid}: {text!r}, the store holds {value} ({fraction})")
        words = ("failed" if status == "fail" else "validated") + (" SUSPECT" if suspect else "")
        if not text.endswith(words) or ("fail" in css) != (status == "fail"):
            fail(f"cell {rid}: {text!r} class {css!r}: wanted {words!r}")
        if href != f"run-{run}.html#r{rid}":
            fail(f"cell {rid} links to {href}")
        _, page = headless(os.path.join(OUT, f"run-{run}.html"), "--dump-dom")
        start = page.index(f'id="r{rid}"')
        record = page[start:page.index("</section>", start)]
        if f'data-field="value">{value!r}<' not in record and f'data-field="value">{value}<' not in record:
            fail(f"record r{rid} does not hold value {value}: {record[:400]}")
    statuses = [t for t, _, _ in parsed.cells.values()]
    if sum(t.endswith("SUSPECT") for t in statuses) != 2 or sum(t.endswith("failed") for t in statuses) != 1:
        fail(f"verdicts shown: {statuses}")
    name = next(n for n in sorted(os.listdir(OUT)) if n.startswith("model-")
                and "<title>Test GPU:" in open(os.path.join(OUT, n), encoding="utf-8").read())
    _, text = dom(name)
    # copy/vec4 and copy/scalar under D 1 and D 2, and the health run's copy/vec4 row under D 1
    if text.count('data-driver="D 1"') != 3 or text.count('data-driver="D 2"') != 2 or text.count("<svg") != 3:
        fail("the timeline has not a table line per driver and row and a chart per row")
    _, text = dom("health.html")
    if "node&lt;i&gt;7&lt;/i&gt;" not in text or "drain" not in text or "0.70x of the baseline" not in text:
        fail("the health page lacks the node's verdict")


def case_escaped():
    """The device named with a <script> shows its name as text on every page, and no script ran."""
    made()
    text = ""
    for name in sorted(os.listdir(OUT)):
        parsed, out = dom(name)
        if parsed.scripts or parsed.events or parsed.planted or "<title>ran" in out:
            fail(f"{name}: {parsed.scripts} scripts, {parsed.events} event attributes, planted {parsed.planted}")
        text += out
    if "&lt;script&gt;document.title='ran'" not in text.replace("&#x27;", "'").replace("&#39;", "'"):
        fail("the planted name is not shown as text")
    # the check can fail: the same page with the name unescaped runs the script
    raw = os.path.join(OUT, "raw.html")
    with open(os.path.join(OUT, "index.html"), encoding="utf-8") as f:
        page = f.read()
    with open(raw, "w", encoding="utf-8") as f:
        f.write(page.replace("</body>", PLANT + "</body>"))
    parsed, _ = dom("raw.html")
    if parsed.planted != "ran":
        fail("a planted script that runs is not seen")


def png_colours(path):
    """The number of distinct colours of an 8-bit RGB or RGBA PNG (filters undone)."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", chunk[:10])
            if depth != 8 or ctype not in (2, 6):
                fail(f"PNG of depth {depth}, colour type {ctype}")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev, colours = bytearray(stride), set()
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        colours.update(bytes(line[i:i + 3]) for i in range(0, stride, bpp * 7))
        prev = line
    return len(colours)


def case_screenshot():
    """The matrix and a timeline as Chromium draws them: more than a few colours (text, the failed cell's red,
    the drivers' points), not a blank page."""
    made()
    for name in ("index.html", "model-0.html"):
        shot = os.path.join(TMP, f"{name}.png")
        headless(os.path.join(OUT, name), f"--screenshot={shot}", "--window-size=1000,700")
        n = png_colours(shot)
        if n < 8:
            fail(f"{name}: {n} colours in the screenshot")
    blank = os.path.join(TMP, "blank.html")
    with open(blank, "w") as f:
        f.write("<!DOCTYPE html><html><body></body></html>")
    shot = os.path.join(TMP, "blank.png")
    headless(blank, f"--screenshot={shot}", "--window-size=1000,700")
    if png_colours(shot) != 1:
        fail("a blank page does not read as blank")


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        sys.exit(f"usage: page_test.py {'|'.join(CASES)}")
    if not browser() and os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run([os.path.join(TOOLS, "setup.sh"), "--browser"], stdout=sys.stderr, timeout=900)
    if not browser():
        print("no chromium: run tools/setup.sh --browser (as root)")
        sys.exit(SKIP)
    try:
        CASES[sys.argv[1]]()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    print("ok")
