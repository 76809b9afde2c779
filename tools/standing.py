#!/usr/bin/python3
"""standing.py [--reference DIR] [--pages DIR] [--write | --check]: the standing tables of the performance pages,
today's best rows per device, made from the reference result set (docs/results/reference/).

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
import os
import shlex
import sys

import vkbjson

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
    """Every timed Vulkan kernel row of the result files in FOLDER (*.json), as flat dicts: the one place that
    reads the reference set, so that another store of results can feed the tables through the same rows."""
    commands = read_commands(folder)
    rows = []
    for doc in vkbjson.load_all([folder]):
        name = os.path.basename(doc["path"])
        command = commands.get(name) or doc.get("command")
        if not command or "not recorded" in command:
            vkbjson.die(f"{vkbjson.clean(name)}: no command in the file: give it one in commands.tsv")
        command = commands.get(name) or product_command(command, name)
        devices = {d["backend"]: d for d in doc["devices"]}
        timed = vkbjson.timed(doc)
        by_key = {vkbjson.device_key(r): r for r in timed}
        for r in timed:
            if (r["backend"] != "vulkan" or r["ceiling_row"] or r.get("suspect") or vkbjson.failed(r)
                    or (r["family"], r["variant"]) in REFERENCES):
                continue
            m = r["metric"]
            ceiling = None
            if m.get("ceiling_variant") and m.get("fraction") is not None:
                ceiling = by_key.get((r["family"], m["ceiling_variant"], r["shape_text"])
                                     + ((r["constants"],) if r.get("constants") else ())
                                     + (m.get("ceiling_backend") or "vulkan",))
            twin = by_key.get(vkbjson.device_key(r, False) + ("cuda",)
                              + ((r["device_rank"],) if r.get("device_rank") else ()))
            device = devices.get("vulkan", {})
            rows.append({
                "file": name, "device": device.get("name", "unknown device"), "driver": device.get("driver") or "-",
                "date": (doc.get("date") or "-")[:10], "command": command,
                "family": r["family"], "variant": r["variant"], "shape": r["shape_text"],
                "shape_numbers": vkbjson.shape_numbers(r), "number_type": vkbjson.number_type(r),                "constants": r.get("constants"), "unit": m["name"], "value": m["value"], "speed": vkbjson.speed(r),
                "fraction": m.get("fraction"), "ceiling": m.get("ceiling_variant") if ceiling else None,
                "ceiling_backend": m.get("ceiling_backend"),
                "ceiling_value": ceiling["metric"]["value"] if ceiling else None,
                "twin": vkbjson.ratio(vkbjson.speed(r), vkbjson.speed(twin)) if twin else None,
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
