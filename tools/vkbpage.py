"""vkbpage.py - the results page: a static site made from the store (store.py page --out DIR, docs/store.md).

    index.html      the device x row matrix: each device's latest value of each row, its share of the ceiling,
                    validated or failed beside it, SUSPECT marked; links to the pages below
    model-N.html    per model, each row's timeline across driver versions (inline SVG) and a table per driver
    health.html     per node, its GPUs' health verdicts over time
    run-N.html      the raw records of one run: each result an anchor (#rID, #hID for a health verdict) holding
                    every field the store keeps; written for the runs the other pages link to

No script, no style sheet or image from elsewhere: it reads the same from file:// as from any web server. Every
string from the store goes through esc() (HTML-escaped, quotes too), so a device named "<script>" shows as text."""
import html
import math
import os
import re

import vkbjson
import vkbstore

POINTS = 240          # the most points a timeline draws: more runs are drawn as the median of consecutive runs
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
STYLE = """body{font:14px sans-serif;margin:1.5em;color:#222;background:#fff}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right;vertical-align:top}th{background:#eef}
td.row,th.row{text-align:left}.fail{background:#fcc}.suspect{background:#ffe9a8}.ok{color:#060}
.bad{color:#b00;font-weight:bold}dl{display:grid;grid-template-columns:max-content auto;gap:0 1em}
dt{font-weight:bold}section.record{border-top:1px solid #ccc;margin-top:.5em}svg{background:#fafafa}"""


def esc(x):
    return html.escape("" if x is None else str(x), quote=True)


def num(x):
    return vkbjson.sig(x, 4) if isinstance(x, (int, float)) and not isinstance(x, bool) else "-"


def page(title, body, back=True):
    nav = '<p><a href="index.html">matrix</a> · <a href="health.html">health</a></p>' if back else ""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>'
            f"<style>{STYLE}</style></head><body><h1>{esc(title)}</h1>{nav}{body}</body></html>\n")


def row_name(r):
    name = f"{r['family']}/{r['variant']}" + (f" ({r['constants']})" if r["constants"] else "")
    return f"{name} {r['shape']} {r['backend']}".replace("  ", " ")


def verdict(r):
    """(css class, the words beside a number): validated, failed, not validated; SUSPECT after them."""
    if r["status"] == "fail" or r["validated"] == 0:
        words, css = "failed", "fail"
    elif r["validated"] == 1:
        words, css = "validated", ""
    else:
        words, css = "not validated", ""
    if r["suspect"]:
        words, css = words + " SUSPECT", css or "suspect"
    return css, words


def link(r, text):
    return f'<a href="run-{r["run_id"]}.html#r{r["id"]}">{text}</a>'


# --- the matrix ---

LATEST = """SELECT r.*, d.model, d.driver, d.uuid, m.hostname, u.started FROM result r
    JOIN (SELECT max(id) AS id FROM result WHERE status != 'skip' AND device_id IS NOT NULL
          GROUP BY device_id, family, variant, shape, backend, constants) l ON l.id = r.id
    JOIN device d ON d.id = r.device_id JOIN machine m ON m.id = d.machine_id JOIN run u ON u.id = r.run_id"""


def matrix(db, linked):
    latest = vkbstore.select(db, LATEST)
    devices = sorted({(r["model"], r["hostname"], r["uuid"] or "", r["device_id"]) for r in latest})
    column = {d[3]: n for n, d in enumerate(devices)}
    rows = {}
    for r in latest:
        rows.setdefault(row_name(r), {})[r["device_id"]] = r
        linked.add(r["run_id"])
    head = "".join(f'<th data-device="{d[3]}">{esc(d[0])}<br><small>{esc(d[1])} {esc(d[2])}</small></th>'
                   for d in devices)
    body = []
    for name in sorted(rows):
        cells = [""] * len(devices)
        for dev, r in rows[name].items():
            css, words = verdict(r)
            share = f" · {vkbjson.pct(r['fraction'])} of {esc(r['ceiling_variant'])}" \
                if r["fraction"] is not None and math.isfinite(r["fraction"]) else ""
            cells[column[dev]] = (f'<td class="cell {css}" data-result="{r["id"]}" data-value="{esc(r["value"])}">'
                                  f'{link(r, num(r["value"]))} {esc(r["metric"] or "")}{share}'
                                  f'<br><small class="{"bad" if css == "fail" else "ok"}">{esc(words)}</small></td>')
        body.append(f'<tr><td class="row">{esc(name)}</td>' + "".join(c or "<td>-</td>" for c in cells) + "</tr>")
    models = sorted({d[0] for d in devices})
    index = {m: n for n, m in enumerate(models)}
    nav = "".join(f'<li><a href="model-{index[m]}.html">{esc(m)}</a></li>' for m in models)
    text = (f"<h2>Models</h2><ul>{nav}</ul><h2>Each device's latest run of each row</h2>"
            f'<table class="matrix"><tr><th class="row">row</th>{head}</tr>{"".join(body)}</table>')
    return text, index


# --- the timelines ---

TIMELINE = """SELECT r.id, r.run_id, r.family, r.variant, r.shape, r.backend, r.constants, r.value, r.metric,
    r.validated, r.status, r.suspect, d.model, d.driver, u.started FROM result r JOIN device d ON d.id = r.device_id
    JOIN run u ON u.id = r.run_id WHERE r.status != 'skip' AND r.value IS NOT NULL ORDER BY d.model, u.started, r.id"""


def svg(series, drivers, unit):
    """A timeline of SERIES ([(x order, value, driver)]) as inline SVG, one colour per driver."""
    if len(series) > POINTS:
        step = len(series) / POINTS
        chunks = [series[int(i * step):int((i + 1) * step)] for i in range(POINTS)]
        series = [(c[0][0], vkbjson.median([v for _, v, _ in c]), c[-1][2]) for c in chunks if c]
    w, h, pad = 640, 160, 40
    lo, hi = min(v for _, v, _ in series), max(v for _, v, _ in series)
    span = (hi - lo) or abs(hi) or 1.0
    lo, hi = lo - span * 0.05, hi + span * 0.05
    pts = []
    for n, (_, v, drv) in enumerate(series):
        x = pad + (w - 2 * pad) * (n / max(1, len(series) - 1))
        y = h - pad / 2 - (h - pad) * (v - lo) / (hi - lo)
        pts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{COLOURS[drivers[drv] % len(COLOURS)]}"/>')
    legend = "".join(f'<text x="{pad + 150 * (i % 4)}" y="{h - 4 - 14 * (i // 4)}" font-size="11" '
                     f'fill="{COLOURS[i % len(COLOURS)]}">{esc(d)}</text>' for d, i in drivers.items())
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h + 14 * (len(drivers) // 4)}" '
            f'role="img"><text x="4" y="14" font-size="11">{esc(num(hi))} {esc(unit)}</text>'
            f'<text x="4" y="{h - pad / 2}" font-size="11">{esc(num(lo))}</text>{"".join(pts)}{legend}</svg>')


def timelines(db, index, linked):
    """{model: page body}: per row a timeline over the model's runs in time order and a table per driver."""
    by_model = {}
    cur = db.cursor()
    cur.row_factory = None          # plain tuples: a million rows of sqlite3.Row cost seconds
    for (rid, run, family, variant, shape, backend, constants, value, metric, validated, status, suspect, model,
         driver, started) in cur.execute(TIMELINE):
        rows = by_model.setdefault(model, {})
        key = (family, variant, shape, backend, constants)
        if key not in rows:
            rows[key] = ([], {}, metric)
        series, drivers, _ = rows[key]
        driver = driver or "-"
        series.append((len(series), value, driver))
        d = drivers.get(driver)
        if d is None:
            d = drivers[driver] = {"values": [], "failed": 0, "suspect": 0, "first": started}
        d["values"].append(value)
        d["failed"] += status == "fail" or validated == 0
        d["suspect"] += bool(suspect)
        d["last"] = {"id": rid, "run_id": run, "value": value}
    out = {}
    for model, rows in by_model.items():
        parts = []
        named = {row_name(dict(zip(("family", "variant", "shape", "backend", "constants"), k))): k for k in rows}
        for name in sorted(named):
            series, drivers, metric = rows[named[name]]
            colour = {drv: n for n, drv in enumerate(drivers)}
            table = ["<tr><th class=\"row\">driver</th><th>runs</th><th>failed</th><th>SUSPECT</th><th>median</th>"
                     "<th>q1</th><th>q3</th><th>first</th><th>latest</th></tr>"]
            for drv, d in drivers.items():
                values = sorted(d["values"])
                last = d["last"]
                linked.add(last["run_id"])
                table.append(f'<tr data-driver="{esc(drv)}"><td class="row">{esc(drv)}</td><td>{len(values)}</td>'
                             f'<td>{d["failed"]}</td><td>{d["suspect"]}</td>'
                             f'<td>{num(vkbjson.median(values))}</td><td>{num(values[len(values) // 4])}</td>'
                             f'<td>{num(values[3 * len(values) // 4])}</td><td>{esc((d["first"] or "")[:10])}'
                             f'</td><td>{link(last, num(last["value"]))}</td></tr>')
            parts.append(f'<h2>{esc(name)}</h2><figure class="chart">{svg(series, colour, metric)}'
                         f'</figure><table>{"".join(table)}</table>')
        out[model] = "".join(parts)
    return out


# --- health ---

HEALTH = """SELECT h.*, m.hostname, d.model, d.uuid, u.started FROM health h JOIN run u ON u.id = h.run_id
    JOIN machine m ON m.id = u.machine_id JOIN device d ON d.id = h.device_id ORDER BY m.hostname, u.started, h.gpu"""


def health(db, linked):
    hosts = {}
    for h in vkbstore.select(db, HEALTH):
        hosts.setdefault(h["hostname"], []).append(h)
        linked.add(h["run_id"])
    parts = []
    for host, rows in hosts.items():
        trs = "".join(
            f'<tr class="{"fail" if h["verdict"] == "fail" else ""}"><td>{esc(h["started"])}</td><td>{h["gpu"]}</td>'
            f'<td class="row">{esc(h["model"])}</td><td><a href="run-{h["run_id"]}.html#h{h["id"]}">'
            f'{esc(h["verdict"])}</a></td><td>{esc(h["action"])}</td><td>{num(h["speed_ratio"])}</td>'
            f'<td class="row">{esc("; ".join(reasons(h["reasons"])))}</td></tr>' for h in rows)
        parts.append(f'<h2>{esc(host or "(no host)")}</h2><table><tr><th>time</th><th>GPU</th><th>model</th>'
                     f"<th>verdict</th><th>action</th><th>speed</th><th>reasons</th></tr>{trs}</table>")
    return "".join(parts) or "<p>No health verdicts stored.</p>"


def reasons(text):
    import json
    try:
        got = json.loads(text or "[]")
        return [str(x) for x in got] if isinstance(got, list) else [str(got)]
    except ValueError:
        return [text]


# --- the raw records ---

def records(db, run_id):
    run = vkbstore.select(db, "SELECT u.*, m.hostname, b.version, b.git_commit, b.shader_compiler FROM run u "
                              "JOIN machine m ON m.id = u.machine_id JOIN build b ON b.id = u.build_id "
                              "WHERE u.id = ?", (run_id,))[0]
    head = "".join(f"<dt>{esc(k)}</dt><dd>{esc(run[k])}</dd>" for k in run.keys())
    parts = [f"<dl>{head}</dl>"]
    for table, mark in (("result", "r"), ("health", "h")):
        for r in vkbstore.select(db, f"SELECT t.*, d.model, d.driver, d.uuid FROM {table} t LEFT JOIN device d "
                                     f"ON d.id = t.device_id WHERE t.run_id = ? ORDER BY t.id", (run_id,)):
            fields = "".join(f'<dt>{esc(k)}</dt><dd data-field="{esc(k)}">{esc(r[k])}</dd>' for k in r.keys())
            title = row_name(r) if table == "result" else f"health of GPU {r['gpu']}"
            parts.append(f'<section class="record" id="{mark}{r["id"]}"><h3>{esc(title)}</h3><dl>{fields}</dl>'
                         "</section>")
    return "".join(parts)


def write(folder, name, text):
    path = os.path.join(folder, name)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise vkbstore.StoreError(f"cannot write {vkbjson.clean(path)}: {e.strerror}", vkbstore.WRITE)


def build(db, folder):
    """Write the site for the store DB into FOLDER (made where absent): the number of files written."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise vkbstore.StoreError(f"cannot make {vkbjson.clean(folder)}: {e.strerror}", vkbstore.WRITE)
    for old in os.listdir(folder):        # a page of a run no longer linked must not linger from a previous build
        if re.fullmatch(r"(run|model)-[0-9]+\.html", old):
            os.remove(os.path.join(folder, old))
    linked = set()
    text, index = matrix(db, linked)
    write(folder, "index.html", page(f"vkbench results: {db.shown}", text))
    for model, body in timelines(db, index, linked).items():
        write(folder, f"model-{index.get(model, len(index))}.html", page(f"{model}: timeline across drivers", body))
    write(folder, "health.html", page("Health of each node over time", health(db, linked)))
    for run in sorted(linked):
        write(folder, f"run-{run}.html", page(f"run {run}", records(db, run)))
    return 3 + len(index) + len(linked)


def cmd_page(args):
    db = vkbstore.connect(args.db, create=False)
    n = build(db, args.out)
    if not args.quiet:
        print(f"{n} pages written to {vkbjson.clean(args.out)}")
    return 0


def add_commands(sub, common):
    p = sub.add_parser("page", parents=[common], help="write the results page (a static site) from the store")
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write it into")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(handler=cmd_page)
