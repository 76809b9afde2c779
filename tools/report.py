#!/usr/bin/python3
"""report.py FILE [--out PATH] [--html PATH]: a summary of a vkbench results file, titled with its device.
It opens with a headline that leads with what failed and what is SUSPECT (then listed row by row with the
reason), or, for a clean run, "all N rows validated, exit 0"; then the device and driver, each family's Vulkan/CUDA geometric mean over kernel rows (of speeds:
a latency's inverse), each family's best row against its ceiling (never a SUSPECT one); a validate file's
pass/fail/skip counts), then how it was measured, each
family's table (metric, share of the ceiling, repetitions, spread, Vulkan/CUDA ratio) with variants in
`vkbench list` order, the validation matrix of a validate file (every row, its tolerance and how it was
checked, whole), and what was not measured, with the reason. Markdown on stdout (or --out); --html
writes one self-contained page with the same sections and the charts of plot.py inline as SVG (needs
python3-matplotlib: tools/setup.sh --plot). Outputs follow the tools' output-path rule (README)."""
import argparse
import html
import io

import vkbjson


def spread_text(r):
    s, how = vkbjson.spread(r)
    if s is None:
        return "?"
    return vkbjson.pct(s) + ("" if how == "iqr" else "~")     # ~: from min and median (schema 1)


def share_text(r):
    m = r["metric"]
    if r["ceiling_row"]:
        return "ceiling"
    if m.get("fraction") is None:
        return "-"
    text = f"{vkbjson.pct(m['fraction'])} of {m['ceiling_variant']} ({m['ceiling_backend']})"
    p = vkbjson.predicted_fraction(r)
    return text + (f", rule {vkbjson.pct(p, 0)}" if p is not None else "")


def family_table(rows, order=None):
    """(header, body rows) of one family's table; body cells are strings; variants in list ORDER
    (vkbjson.variant_order of the whole file; by default, of ROWS)."""
    order = vkbjson.variant_order(rows) if order is None else order
    backends = sorted({r["backend"] for r in rows}, key=lambda b: (b != "vulkan", b))
    units = list(dict.fromkeys(r["metric"]["name"] for r in rows if r.get("metric")))
    metric = units[0] if len(units) == 1 else "rate"   # peak: GFLOP/s and GOP/s rows, each cell says its unit
    by_key = {}
    for r in sorted(rows, key=lambda r: vkbjson.sort_key(r, order)):
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
            reps = str(r["reps"]) + ("" if r.get("settled") is not False else " (not settled)")
            unit = f" {r['metric']['name']}" if len(units) > 1 and r.get("metric") else ""
            cells += [vkbjson.sig(r["metric"]["value"]) + unit + (" SUSPECT" if r.get("suspect") else ""), share_text(r),
                      reps, spread_text(r)]
        if both:
            v, c = per.get("vulkan"), per.get("cuda")
            cells.append(vkbjson.ratio_text(vkbjson.ratio(vkbjson.speed(v), vkbjson.speed(c))) if v and c else "")
        body.append(cells)
    return head, body


def ratios(rows):
    """Per family: (rows with both backends, geometric mean of vulkan / cuda speed) over kernel rows only."""
    out = {}
    for fam in dict.fromkeys(r["family"] for r in rows):
        pairs = {}
        for r in rows:
            if r["family"] == fam and not r["ceiling_row"]:
                pairs.setdefault(vkbjson.key(r, False), {})[r["backend"]] = vkbjson.speed(r)
        rs = [vkbjson.ratio(p["vulkan"], p["cuda"]) for p in pairs.values() if {"vulkan", "cuda"} <= p.keys()]
        if rs:
            out[fam] = (len(rs), vkbjson.geomean(rs))
    return out


def best_rows(rows):
    """Per family: the kernel row with the largest share of its ceiling (None where no row has one); a
    SUSPECT row (its number is not to be trusted) is never the best."""
    out = {}
    for r in rows:
        f = (r["metric"] or {}).get("fraction")
        if not r["ceiling_row"] and not r.get("suspect") and f is not None and f > (out.get(r["family"], {"metric": {"fraction": -1}})
                                                          ["metric"]["fraction"]):
            out[r["family"]] = r
    return out


def counts(results):
    """(passed, failed, skipped) over RESULTS: a row fails when it failed validation or recorded an error."""
    failed = sum(vkbjson.failed(r) for r in results)
    skipped = sum(r["status"] == "skip" and not vkbjson.failed(r) for r in results)
    return len(results) - failed - skipped, failed, skipped


def counts_text(results):
    p, f, s = counts(results)
    return f"{p} passed, {f} failed, {s} skipped"


def is_validate(doc):
    return doc["settings"].get("subcommand") == "validate" or (doc["results"] and not vkbjson.timed(doc))


def tolerance_text(r):
    """The tolerance as the check applied it: an exact check says so (its bound is in the check text)."""
    tol = r.get("tolerance")
    method = (r.get("check") or {}).get("method") or ""
    if tol == 0 and method.startswith("exact"):
        return "0 (exact)"
    return vkbjson.sig(tol) if tol is not None else "-"


def check_text(r):
    c = r.get("check") or {}
    text = c.get("method") or ""
    if r.get("error"):
        text = f"error: {r['error']}"
    elif r["status"] == "skip":
        text = r.get("skip_reason") or "skipped"
    elif c.get("reason"):
        text += f"; {c['reason']}"
    return text


def settings_line(doc):
    s = doc["settings"]
    known = {k: v for k, v in s.items() if k not in ("command", "from_command") and v is not None}
    text = ", ".join(f"{k} {v}" for k, v in known.items()) or "not recorded"
    if s.get("from_command"):
        text += " (schema 1: read from the command line)"
    return text


def device_detail(d):
    return (f"{vkbjson.device_line(d)}, subgroup {d.get('subgroup_size', '?')}, shared memory "
            f"{(d.get('shared_memory_bytes') or 0) // 1024} KiB per workgroup")


# --- the report as sections, rendered as markdown or HTML ---

def sections(doc):
    """[(id, title, [items])]: item ("p", text), ("list", [texts]), ("table", head, body) or
    ("charts", family): what both renderings show, in order."""
    rows = vkbjson.timed(doc)
    order = vkbjson.variant_order(doc["results"])
    failed = [r for r in doc["results"] if vkbjson.failed(r)]
    suspect = [r for r in rows if r.get("suspect")]
    head = []
    if failed:
        head.append(f"FAILED: {len(failed)} row{'s' * (len(failed) != 1)} failed validation or recorded an error "
                    "(listed below)")
    if suspect:
        head.append(f"SUSPECT: {len(suspect)} row{'s' * (len(suspect) != 1)} measured a number not to be trusted "
                    "(listed below, with the reason); vkbench exited 1")
    if not failed and not suspect and not doc.get("error") and not doc.get("interrupted"):
        # what passed, first: a reader should not have to count the rows to know the run was clean
        p, _, s = counts(doc["results"])
        head.append(f"all {p} row{'s' * (p != 1)} validated{f' ({s} skipped)' if s else ''}, exit 0")
    head.append(f"device: {vkbjson.devices_text(doc)}")
    if is_validate(doc):
        head.append(f"validation: {counts_text(doc['results'])}")
    rat = ratios(rows)
    if rat:
        head.append("Vulkan / CUDA, geometric mean over kernel rows: "
                    + ", ".join(f"{fam} {vkbjson.ratio_text(g)} ({n} rows)" for fam, (n, g) in rat.items()))
    for fam, r in best_rows(rows).items():
        head.append(f"best {fam} row: {r['variant']} {r['backend']} {r['shape_text']}, "
                    f"{vkbjson.sig(r['metric']['value'])} {r['metric']['name']} = {share_text(r)}")
    out = [("headline", "Headline", [("list", head)])]
    if failed or suspect:
        out.append(("attention", "Failed and SUSPECT rows", [("list", [
            f"{'FAIL' if vkbjson.failed(r) else 'SUSPECT'}: {row_text(r)}: "
            + (check_text(r) if vkbjson.failed(r) else r.get("suspect_reason") or "no reason recorded")
            for r in sorted(failed + suspect, key=lambda r: vkbjson.sort_key(r, order))])]))
    run = [f"date: {doc.get('date')}", f"command: {doc.get('command')}", f"settings: {settings_line(doc)}",
           f"schema: {doc.get('schema_version')}, vkbench {doc.get('version')}"]
    run += [f"{d['backend']}: {device_detail(d)}" for d in doc["devices"]]
    out.append(("run", "Run", [("list", run)]))
    for fam in dict.fromkeys(r["family"] for r in rows):
        h, body = family_table([r for r in rows if r["family"] == fam], order)
        out.append((fam, fam, [("table", h, body), ("charts", fam)]))
    out.append(("roofline", "Roofline", [("charts", None)]))
    if is_validate(doc):
        for fam in dict.fromkeys(r["family"] for r in doc["results"]):
            fr = sorted((r for r in doc["results"] if r["family"] == fam), key=lambda r: vkbjson.sort_key(r, order))
            body = [[r["variant"] + (f" ({r['constants']})" if r.get("constants") else ""), r["backend"],
                     r["shape_text"], "FAIL" if vkbjson.failed(r) else r["status"],
                     vkbjson.sig(r.get("max_error")) if r.get("max_error") is not None else "-",
                     tolerance_text(r), check_text(r)] for r in fr]
            out.append((f"validate-{fam}", f"validate {fam}: {counts_text(fr)}",
                        [("table", ["variant", "backend", "shape", "result", "max error", "tolerance", "check"],
                          body)]))
    if rat:
        out.append(("ratios", "Vulkan / CUDA", [("table", ["family", "kernel rows", "geometric mean of vulkan / cuda"],
                                                  [[f, str(n), vkbjson.ratio_text(g)] for f, (n, g) in rat.items()])]))
    if not is_validate(doc):
        bad = [r for r in doc["results"] if r["status"] != "ok" or vkbjson.failed(r)]
        out.append(("skips", f"Not measured ({len(bad)})",
                    [("list", [f"{r['family']}/{r['variant']} {r['backend']} {r['shape_text']}: "
                               f"{'fail' if vkbjson.failed(r) else r['status']} {check_text(r)}" for r in bad])]))
    out.append(("legend", "", [("p", "spread: IQR over median of the repetitions (~: twice median minus min, over "
                                     "median, where the file has no quartiles); rule: the memory rule's predicted "
                                     "share of the ceiling; tolerance 0 (exact): the check compares exactly (inputs "
                                     "chosen so that every sum is exact; the text gives the bound it would need)")]))
    return out


def row_text(r):
    return f"{r['family']}/{r['variant']} {r['backend']} {r['shape_text']}" + (
        f" ({r['constants']})" if r.get("constants") else "")


def report_title(doc):
    """The report's title: the device measured (the first listed: the one a Vulkan run ran on), then the file."""
    return f"vkbench report: {vkbjson.device_name(doc)} ({vkbjson.label(doc)})"


def md_cell(text):
    return str(text).replace("|", "\\|")


def markdown(doc):
    lines = [f"# {report_title(doc)}"]
    for _, title, items in sections(doc):
        items = [i for i in items if i[0] != "charts" and not (i[0] == "list" and not i[1])]
        if not items:
            continue
        lines += ["", f"## {title}", ""] if title else [""]
        for item in items:
            if item[0] == "p":
                lines.append(item[1])
            elif item[0] == "list":
                lines += [f"- {t}" for t in item[1]]
            elif item[0] == "table":
                lines += ["| " + " | ".join(md_cell(h) for h in item[1]) + " |", "|" + "---|" * len(item[1])]
                lines += ["| " + " | ".join(md_cell(c) for c in cells) + " |" for cells in item[2]]
    return "\n".join(lines) + "\n"


CSS = """body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:12px}th,td{border:1px solid #ccc;padding:2px 6px}
td{text-align:right}td:first-child,td:nth-child(2){text-align:left}th{background:#eee}
#headline{background:#f4f7fb;border:1px solid #cdd;padding:.2em 1em;font-size:15px}
figure{margin:1em 0}figure svg{max-width:100%;height:auto}"""


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
        vkbjson.die(plot.no_matplotlib("--html draws its charts with matplotlib"))
    import matplotlib
    matplotlib.rcParams["svg.fonttype"] = "none"        # text stays text: small, and searchable
    matplotlib.rcParams["svg.hashsalt"] = "vkbench"     # the same input gives the same page
    charts = {}
    for fam, name, fig in plot.figures(plt, plot.sources_of([doc])):
        charts.setdefault(fam, []).append((name, svg_of(plt, fig)))
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<link rel="icon" href="data:,">', f"<title>{e(report_title(doc))}</title>",
           f"<style>{CSS}</style></head><body>", f"<h1>{e(report_title(doc))}</h1>"]
    for ident, title, items in sections(doc):
        if all(i[0] == "charts" and not charts.get(i[1]) for i in items):
            continue
        cls = ' class="family"' if any(i[0] == "charts" and i[1] for i in items) else ""
        out.append(f'<section{cls} id="{e(ident)}">' + (f"<h2>{e(title)}</h2>" if title else ""))
        for item in items:
            if item[0] == "p":
                out.append(f"<p>{e(item[1])}</p>")
            elif item[0] == "list":
                out.append("<ul>" + "".join(f"<li>{e(t)}</li>" for t in item[1]) + "</ul>")
            elif item[0] == "table":
                out.append("<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in item[1])
                           + "</tr></thead><tbody>")
                out += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>" for cells in item[2]]
                out.append("</tbody></table>")
            else:
                out += [f'<figure class="chart" id="{e(n)}">{svg}</figure>' for n, svg in charts.get(item[1], [])]
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def main():
    ap = vkbjson.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--out", help="write the markdown here instead of stdout (- for stdout)")
    ap.add_argument("--html", help="write a self-contained HTML page here (headline, tables, charts, skips)")
    args = ap.parse_args()
    outputs = [(o, p) for o, p in (("--out", args.out), ("--html", args.html)) if p]
    if not args.html and not args.out:
        outputs.append(("stdout", "-"))
    vkbjson.claim(outputs, [args.file])
    doc = vkbjson.load(args.file)
    # opened before any work: a path that cannot be written costs nothing
    files = [(option, vkbjson.Output(path, option)) for option, path in outputs]
    for option, f in files:
        f.finish(html_page(doc) if option == "--html" else markdown(doc))
    return 0


if __name__ == "__main__":
    vkbjson.run_main(main)
