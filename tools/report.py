#!/usr/bin/python3
"""report.py FILE [--out PATH] [--html PATH]: a summary of a vkbench results file: the device and how it
was measured, each family's table (metric, share of the ceiling, repetitions, spread, Vulkan/CUDA ratio),
and what was skipped, with the reason. Markdown on stdout (or --out); --html writes one self-contained
page with the same tables and the charts of plot.py inline as SVG (needs python3-matplotlib)."""
import argparse
import atexit
import html
import io
import math
import os
import sys

import vkbjson


def spread_text(r):
    s, how = vkbjson.spread(r)
    if s is None:
        return "?"
    return f"{100 * s:.1f}%" + ("" if how == "iqr" else "~")     # ~: from min and median (schema 1)


def family_table(rows):
    """(header, body rows) of one family's table; body cells are strings."""
    backends = sorted({r["backend"] for r in rows}, key=lambda b: (b != "vulkan", b))
    metric = rows[0]["metric"]["name"]
    by_key = {}
    for r in sorted(rows, key=vkbjson.sort_key):
        by_key.setdefault((r["variant"], r["shape_text"], r.get("constants")), {})[r["backend"]] = r
    both = {"vulkan", "cuda"} <= set(backends)
    head = ["variant", "shape"]
    for b in backends:
        head += [f"{b} {metric}", f"{b} of ceiling", f"{b} reps", f"{b} spread"]
    if both:
        head.append("vulkan / cuda")
    body = []
    for (variant, shape, constants), per in by_key.items():
        cells = [variant + (f" ({constants})" if constants else ""), shape]
        for b in backends:
            r = per.get(b)
            if not r:
                cells += ["", "", "", ""]
                continue
            m = r["metric"]
            if r["ceiling_row"]:
                share = "ceiling"
            elif m.get("fraction") is None:
                share = "-"
            else:
                share = f"{100 * m['fraction']:.1f}% of {m['ceiling_variant']} ({m['ceiling_backend']})"
                p = vkbjson.predicted_fraction(r)
                if p is not None:
                    share += f", rule {100 * p:.0f}%"
            reps = str(r["reps"]) + ("" if r.get("settled") is not False else " (not settled)")
            cells += [vkbjson.fmt(m["value"]), share, reps, spread_text(r)]
        if both:
            v, c = per.get("vulkan"), per.get("cuda")
            cells.append(f"{v['metric']['value'] / c['metric']['value']:.3f}" if v and c else "")
        body.append(cells)
    return head, body


def ratios(rows):
    """Per family: (rows with both backends, geometric mean of vulkan / cuda) over kernel rows."""
    out = {}
    for fam in dict.fromkeys(r["family"] for r in rows):
        pairs = {}
        for r in rows:
            if r["family"] == fam and not r["ceiling_row"]:
                pairs.setdefault(vkbjson.key(r, False), {})[r["backend"]] = r["metric"]["value"]
        logs = [math.log(p["vulkan"] / p["cuda"]) for p in pairs.values() if {"vulkan", "cuda"} <= p.keys()]
        if logs:
            out[fam] = (len(logs), math.exp(sum(logs) / len(logs)))
    return out


def settings_lines(doc):
    s = doc["settings"]
    known = {k: v for k, v in s.items() if k not in ("command", "from_command") and v is not None}
    text = ", ".join(f"{k} {v}" for k, v in known.items()) or "not recorded"
    if s.get("from_command"):
        text += " (schema 1: read from the command line)"
    return text


def not_measured(doc):
    return [r for r in doc["results"] if r["status"] != "ok"]


def markdown(doc):
    lines = ["# vkbench report", "", f"- date: {doc.get('date')}", f"- command: `{doc.get('command')}`",
             f"- settings: {settings_lines(doc)}"]
    for d in doc["devices"]:
        lines.append(f"- {d['backend']}: {d['name']} ({d['driver']}), subgroup {d['subgroup_size']}, "
                     f"shared memory {d['shared_memory_bytes'] // 1024} KiB per workgroup")
    rows = vkbjson.timed(doc)
    for fam in dict.fromkeys(r["family"] for r in rows):
        head, body = family_table([r for r in rows if r["family"] == fam])
        lines += ["", f"## {fam}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(c) + " |" for c in body]
    rat = ratios(rows)
    if rat:
        lines += ["", "## Vulkan / CUDA", ""]
        lines += [f"- {fam}: geometric mean {g:.3f} over {n} rows" for fam, (n, g) in rat.items()]
    bad = not_measured(doc)
    if bad:
        lines += ["", "## Not measured", ""]
        lines += [f"- {r['family']}/{r['variant']} {r['backend']} {r['shape_text']}: "
                  f"{r['status']} {r.get('skip_reason') or ''}" for r in bad]
    lines += ["", "spread: IQR over median of the repetitions (~: twice median minus min, over median, where the "
              "file has no quartiles); rule: the memory rule's predicted share of the ceiling"]
    return "\n".join(lines) + "\n"


CSS = """body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:12px}th,td{border:1px solid #ccc;padding:2px 6px}
td{text-align:right}td:first-child,td:nth-child(2){text-align:left}th{background:#eee}
figure{margin:1em 0}figure svg{max-width:100%;height:auto}dl{display:grid;grid-template-columns:max-content auto}
dt{font-weight:bold;margin-right:1em}"""


def svg_of(plt, fig):
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]        # drop the XML prologue and DOCTYPE: inline in HTML5


def html_page(doc):
    import plot
    try:
        plt = plot.pyplot()
    except ImportError:
        vkbjson.die("--html draws its charts with matplotlib: install python3-matplotlib (tools/setup.sh)")
    import matplotlib
    matplotlib.rcParams["svg.fonttype"] = "none"        # text stays text: small, and searchable
    matplotlib.rcParams["svg.hashsalt"] = "vkbench"     # the same input gives the same page
    sources = plot.sources_of([doc])
    charts = {}
    for fam, name, fig in plot.figures(plt, sources):
        charts.setdefault(fam, []).append((name, svg_of(plt, fig)))
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<link rel="icon" href="data:,">', f"<title>vkbench report: {e(vkbjson.label(doc))}</title>",
           f"<style>{CSS}</style></head><body>", f"<h1>vkbench report: {e(vkbjson.label(doc))}</h1>",
           '<section id="run"><h2>Run</h2><dl>']
    info = [("date", doc.get("date")), ("command", doc.get("command")), ("settings", settings_lines(doc)),
            ("schema", doc.get("schema_version")), ("vkbench", doc.get("version"))]
    info += [(d["backend"], f"{d['name']} ({d['driver']}), subgroup {d['subgroup_size']}, shared memory "
              f"{d['shared_memory_bytes'] // 1024} KiB per workgroup") for d in doc["devices"]]
    out += [f"<dt>{e(k)}</dt><dd>{e(str(v))}</dd>" for k, v in info]
    out.append("</dl></section>")
    rows = vkbjson.timed(doc)
    for fam in dict.fromkeys(r["family"] for r in rows):
        head, body = family_table([r for r in rows if r["family"] == fam])
        out.append(f'<section class="family" id="{e(fam)}"><h2>{e(fam)}</h2><table><thead><tr>'
                   + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr></thead><tbody>")
        out += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>" for cells in body]
        out.append("</tbody></table>")
        out += [f'<figure class="chart" id="{e(name)}">{svg}</figure>' for name, svg in charts.get(fam, [])]
        out.append("</section>")
    if charts.get(None):
        out.append('<section id="roofline"><h2>Roofline</h2>')
        out += [f'<figure class="chart" id="{e(name)}">{svg}</figure>' for name, svg in charts[None]]
        out.append("</section>")
    rat = ratios(rows)
    if rat:
        out.append('<section id="ratios"><h2>Vulkan / CUDA</h2><table><thead><tr><th>family</th><th>rows</th>'
                   "<th>geometric mean of vulkan / cuda</th></tr></thead><tbody>")
        out += [f"<tr><td>{e(f)}</td><td>{n}</td><td>{g:.3f}</td></tr>" for f, (n, g) in rat.items()]
        out.append("</tbody></table></section>")
    bad = not_measured(doc)
    out.append(f'<section id="skips"><h2>Not measured ({len(bad)})</h2><ul>')
    out += [f"<li>{e(r['family'])}/{e(r['variant'])} {e(r['backend'])} {e(r['shape_text'])}: {e(r['status'])} "
            f"{e(r.get('skip_reason') or '')}</li>" for r in bad]
    out.append("</ul></section>")
    out.append("<p>spread: IQR over median of the repetitions (~: twice median minus min, over median, where "
               "the file has no quartiles); rule: the memory rule's predicted share of the ceiling.</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


class Output:
    """A file written whole or not at all: opened (a temporary beside PATH) before any work, so a bad
    path costs nothing; renamed over PATH once written."""
    def __init__(self, path):
        self.path, self.tmp = path, f"{path}.{os.getpid()}.tmp"
        try:
            self.f = open(self.tmp, "w", encoding="utf-8")
        except OSError as e:
            vkbjson.die(f"cannot write {path}: {e.strerror}", 6)
        atexit.register(self.discard)

    def discard(self):
        """No temporary left behind when the report stops half-way."""
        if os.path.exists(self.tmp):
            os.unlink(self.tmp)

    def finish(self, text):
        try:
            self.f.write(text)
            self.f.close()
            os.replace(self.tmp, self.path)
        except OSError as e:
            vkbjson.die(f"cannot write {self.path}: {e.strerror}", 6)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--out", help="write the markdown here instead of stdout")
    ap.add_argument("--html", help="write a self-contained HTML page here (tables, charts, skips)")
    args = ap.parse_args()
    doc = vkbjson.load(args.file)
    page = Output(args.html) if args.html else None
    md = Output(args.out) if args.out else None
    if page:
        page.finish(html_page(doc))
    if md:
        md.finish(markdown(doc))
    elif not args.html:
        sys.stdout.write(markdown(doc))
    return 0


if __name__ == "__main__":
    vkbjson.run_main(main)
