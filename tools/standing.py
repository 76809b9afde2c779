#!/usr/bin/python3
"""standing.py [--reference DIR] [--pages DIR] [--write | --check]: the standing tables of the performance pages,
today's best rows per device, made from the reference result set (docs/results/reference/), read through the
results store (imported into a temporary store by tools/vkbstore.py: the numbers the results page and the gate read).

For each page (docs/performance/<family>.md), device and measured shape it keeps the best Vulkan row of every
comparison the page's families make: per ceiling and number type (a row measured against cuBLAS fp32 is not
ranked against one measured against cuBLAS fp16, nor a bf16 row against an fp16 one), and per variant where a row has no ceiling (latencies, cache probes, instruction
peaks). Best is the largest share of the ceiling measured in the same run, else the fastest (a latency: the
smallest). SUSPECT, failed and untimed rows never
stand. Each row says its shape, value, ceiling, share of the ceiling, ratio to its CUDA twin (same shape, same
file), date, driver and the command that wrote its file (the file's own, else the one in the set's commands.tsv).

Without an option the tables go to stdout. --write rewrites each page's block between the markers
<!-- standing:begin --> and <!-- standing:end -->; --check writes nothing and exits 1 with one line per page whose
block differs from what --write would put there (or that has no block). Exit 2: an unreadable reference file or
page, or a usage error."""
import json
import os
import shlex
import sys
import tempfile

import vkbjson
import vkbrecord
import vkbstore

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REFERENCE = os.path.join(ROOT, "docs", "results", "reference")
PAGES = os.path.join(ROOT, "docs", "performance")
BEGIN, END = "<!-- standing:begin -->", "<!-- standing:end -->"
NOTE = "<!-- made by tools/standing.py --write from docs/results/reference/: change those files, not this table -->"

# page: the result families it stands for (a name ending in "." takes every family under it)
FAMILIES = {
    "copy": ("copy",), "transpose": ("transpose",), "reduce": ("reduce",), "matmul": ("matmul",),
    "memory": ("memory.",), "peak": ("peak",), "transfer": ("transfer",), "latency": ("latency",),
    "cache": ("cache.",),
}
# rows that run in a family as its reference, not as a contender: transpose's tile-shaped copies (marked as copies
# in host/families/transpose/rows.h; the results file does not say it)
REFERENCES = {("transpose", "copy"), ("transpose", "copy_shared")}
HEAD = ["device", "row", "shape", "value", "ceiling", "of ceiling", "of CUDA twin", "date", "driver", "command"]


def page_of(family):
    for page, names in FAMILIES.items():
        if any(family == n or (n.endswith(".") and family.startswith(n)) for n in names):
            return page
    return None


def read_commands(folder):
    """{file name: command} from FOLDER/commands.tsv (file, tab, command; # starts a comment), if there is one."""
    path = os.path.join(folder, "commands.tsv")
    out = {}
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            name, tab, command = line.rstrip("\n").partition("\t")
            if not tab or not command.strip():
                vkbjson.die(f"{vkbjson.clean(path)}:{n}: not 'FILE<tab>COMMAND'")
            out[name] = command.strip()
    return out


def product_command(command, name):
    """COMMAND as a reader would type it: the binary as `vkbench` (tools/tune.py for the tuner), its --vkbench
    as build/vkbench, and its --json output as the reference file's own NAME."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return command
    if not argv:
        return command
    tool = os.path.basename(argv[0])
    argv[0] = {"tune.py": "tools/tune.py"}.get(tool, "vkbench" if tool.endswith("vkbench") else argv[0])
    for i, a in enumerate(argv[:-1]):
        if a == "--json":
            argv[i + 1] = name
        elif a == "--vkbench":
            argv[i + 1] = "build/vkbench"
    return " ".join(shlex.quote(a) for a in argv)


def load_reference(folder):
    """Every timed Vulkan kernel row of the result files in FOLDER (*.json), as flat dicts, read through the
    results store (tools/vkbstore.py): the files are imported into a temporary store and the rows built from its
    result table, so that the pages, the results page and the gate read the same numbers."""
    commands = read_commands(folder)
    with tempfile.TemporaryDirectory(prefix="standing-") as tmp:
        db = vkbstore.connect(os.path.join(tmp, "reference.db"))
        try:
            import_reference(db, folder)
            return stored_rows(db, commands)
        finally:
            db.close()


def import_reference(db, folder):
    """The *.json files of FOLDER, in name order, into the store DB; one refused by the store's checker is an
    error naming each reason."""
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
    except OSError as e:
        vkbjson.die(f"cannot read {vkbjson.clean(folder)}: {e.strerror}")
    if not names:
        vkbjson.die(f"{vkbjson.clean(folder)}: a folder with no .json file")
    for name in names:
        try:
            subs = vkbrecord.read(os.path.join(folder, name))
        except vkbrecord.Refused as e:
            vkbjson.die("; ".join(e.args[0])[:2000])
        for sub in subs:
            if vkbstore.insert(db, sub) is None:
                vkbjson.die(f"{vkbjson.clean(name)}: the same bytes as another file of the set")


# the rows that may stand: validated, timed, Vulkan, neither a ceiling nor SUSPECT nor in error; in file order
ROWS = """
    SELECT r.run_id, d.model, d.driver, r.family, r.variant, r.shape, r.shape_json, r.constants, r.metric, r.better,
           r.value, r.ceiling_variant, r.ceiling_backend, r.ceiling, r.fraction, r.twin_ratio
    FROM result r LEFT JOIN device d ON d.id = r.device_id
    WHERE r.status = 'ok' AND r.validated = 1 AND r.time_median_ms <> 0 AND r.value <> 0 AND r.backend = 'vulkan'
      AND r.ceiling_row = 0 AND r.suspect = 0 AND COALESCE(r.error, '') = ''
    ORDER BY r.run_id, r.ordinal"""


def stored_rows(db, commands):
    """The flat rows of the store DB's results (tools/store/schema.sql's result columns): value, ceiling and
    share of it, the CUDA twin's ratio as the store keeps them; the file, date and command from the run."""
    runs = {}
    for run in vkbstore.select(db, "SELECT id, source, started, command FROM run ORDER BY id"):
        name = os.path.basename(run["source"])
        command = commands.get(name) or run["command"]
        if not command or "not recorded" in command:
            vkbjson.die(f"{vkbjson.clean(name)}: no command in the file: give it one in commands.tsv")
        runs[run["id"]] = (name, (run["started"] or "-")[:10], commands.get(name) or product_command(command, name))
    rows = []
    for r in vkbstore.select(db, ROWS):
        if (r["family"], r["variant"]) in REFERENCES:
            continue
        name, date, command = runs[r["run_id"]]
        ceiling = r["ceiling_variant"] if r["fraction"] is not None and r["ceiling"] is not None else None
        rows.append({
            "file": name, "device": r["model"] or "unknown device", "driver": r["driver"] or "-", "date": date,
            "command": command, "family": r["family"], "variant": r["variant"], "shape": r["shape"],
            "shape_numbers": tuple(json.loads(r["shape_json"] or "{}").values()),
            "number_type": vkbjson.number_type(r), "constants": r["constants"], "unit": r["metric"],
            "value": r["value"], "speed": vkbjson.bounded(1 / r["value"]) if r["better"] == "lower" else r["value"],
            "fraction": r["fraction"], "ceiling": ceiling, "ceiling_backend": r["ceiling_backend"],
            "ceiling_value": r["ceiling"] if ceiling else None, "twin": r["twin_ratio"],
        })
    return rows


def standing(rows):
    """{page: [best rows]}: per device, family, comparison (the ceiling, else the variant) and shape the row with
    the largest share of its ceiling, else the fastest; the later file on a tie. Devices by name, then families
    and comparisons in the order first seen, shapes in numeric order."""
    best, order = {}, {}
    for r in rows:
        page = page_of(r["family"])
        if page is None:
            continue
        comparison = (page, r["device"], r["family"], r["ceiling"] or r["variant"], r["number_type"])
        order.setdefault(comparison, len(order))
        group = comparison + (r["shape_numbers"], r["shape"])
        score = (r["fraction"] if r["ceiling"] else r["speed"], r["date"], r["file"])
        if group not in best or score > best[group][0]:
            best[group] = (score, r)
    out = {}
    for group in sorted(best, key=lambda g: (g[1], order[g[:5]], g[5:])):
        out.setdefault(group[0], []).append(best[group][1])
    return out


def cells(r):
    row = f"{r['family']}/{r['variant']}" + (f" ({r['constants']})" if r.get("constants") else "")
    ceiling = "-"
    if r["ceiling"]:
        where = f" ({r['ceiling_backend']})" if r["ceiling_backend"] and r["ceiling_backend"] != "vulkan" else ""
        ceiling = f"{r['ceiling']}{where} {vkbjson.sig(r['ceiling_value'])}"
    return [r["device"], f"`{row}`", r["shape"], f"{vkbjson.sig(r['value'])} {r['unit']}", ceiling,
            vkbjson.pct(r["fraction"]) if r["ceiling"] else "-",
            f"{r['twin']:.2f}" if r["twin"] is not None else "-", r["date"], r["driver"], f"`{r['command']}`"]


def table(rows):
    """The block between the markers: a note that it is made, then the markdown table."""
    lines = [NOTE, "| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in cells(r)) + " |" for r in rows]
    return "\n".join(lines)


def replaced(text, block, path):
    """TEXT with its standing block made BLOCK; None where TEXT has no one pair of markers."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        return None
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    return f"{head}{BEGIN}\n{block}\n{END}{tail}"


def main():
    ap = vkbjson.ArgumentParser(prog="standing.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", default=REFERENCE, help="the reference result set (default docs/results/reference)")
    ap.add_argument("--pages", default=PAGES, help="the folder of the performance pages (default docs/performance)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite each page's standing block")
    mode.add_argument("--check", action="store_true", help="exit 1 naming each page whose block differs")
    a = ap.parse_args()
    tables = standing(load_reference(a.reference))
    if not (a.write or a.check):
        for page, rows in tables.items():
            print(f"## {page}\n\n{table(rows)}\n")
        return 0
    differ = 0
    for page in FAMILIES:
        path = os.path.join(a.pages, f"{page}.md")
        shown = vkbjson.clean(path)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            vkbjson.die(f"cannot read {shown}: {e.strerror}")
        rows = tables.get(page)
        if not rows:
            print(f"{shown}: no row of the reference set stands for it")
            differ += 1
            continue
        new = replaced(text, table(rows), path)
        if new is None:
            print(f"{shown}: no one pair of {BEGIN} and {END}")
            differ += 1
        elif new != text:
            if a.write:
                vkbjson.Output(path, "the page").finish(new)
                print(f"{shown}: written")
            else:
                print(f"{shown}: its standing table differs from {vkbjson.clean(a.reference)} "
                      "(tools/standing.py --write)")
                differ += 1
    return 1 if differ else 0


if __name__ == "__main__":
    vkbjson.run_main(main)
