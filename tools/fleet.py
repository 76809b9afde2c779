#!/usr/bin/python3
"""fleet.py FILES... | DIR: which GPU of a fleet is not like the others. Reads vkbench result files and
`vkbench health --json` verdicts (one host or many; a DIR means every *.json under it), groups the results
by row (family, variant, shape, constants, backend, hot/cold) and by device model and driver, and for each group takes the fleet median time and its
robust spread (median absolute deviation). A device is flagged when a row of it is slower than its group's
median by more than both the threshold (default 10%) and the noise bound (SIGMAS x the larger of the
group's spread and the row's own repetition spread), or when a row failed, or is missing or skipped where
most devices of its model ran it, or when it is a CPU implementation (lavapipe) in a fleet of GPUs. A device
whose model has fewer than 3 devices is reported as not compared, never as healthy; SUSPECT timings are
listed. A health verdict's GPU that failed its check is flagged with the check's lines as reasons, and a node
problem (a GPU count that differs from --expect, no GPU found) is flagged for its host; the verdict's timed rows
(higher is faster) are compared like results, row `health FAMILY/VARIANT`. Flagged devices and nodes first (host,
device, UUID, rows, how far off, reasons), then a summary per model.
--html PATH: one self-contained page: the flagged devices and nodes with their reasons, and a heat map (devices x
rows, colour = speed / group median).
--write-baseline PATH VERDICTS...: from the `vkbench health --json` verdicts of a healthy fleet, the baseline
`vkbench health --baseline` judges speed against (per model, driver and row: the median metric and its noise).
Outputs are written whole (a temporary renamed over the file), never over an input; `-` is refused (the
report is on stdout). Exit 0: nothing flagged; 1: a device or node flagged; 2: unreadable input or a usage error
(one line); 6: an output could not be written."""
import argparse
import html
import json
import math
import os
import re
import sys

import vkbjson

SIGMA_PER_MAD = 1.4826      # a normal sample's standard deviation over its median absolute deviation
SIGMA_PER_IQR = 1 / 1.349   # ... over its interquartile range
MIN_SIGMA = 0.005           # noise below 0.5% is not believed (timer granularity, clocks)
MIN_GROUP = 3               # fewer devices cannot say which one is off
AGGREGATE_ROW = "*"         # a baseline's row for a whole GPU's speed (host/app/health.c's AGGREGATE_ROW)
# The baseline's one rule for names and numbers (docs/tooling.md, "The baseline file"), host/app/health.h's
# VKB_HEALTH_*_MAX and vkb_health_number: the writer refuses what `vkbench health --baseline` would
BASELINE_NAME_MAX = {"model": 128, "driver": 128, "row": 96}   # bytes of UTF-8, the reader's NUL included
BASELINE_NUMBER = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
BASELINE_NUMBER_MAX = 1e300


class Device:
    """One GPU: where it is and what it is; its rows' times by row key."""

    def __init__(self, host, index, name, uuid, pci, driver):
        self.host, self.index, self.name, self.uuid, self.pci, self.driver = host, index, name, uuid, pci, driver
        self.times = {}        # row key -> [median ms, ...] (a row run several times: all of them)
        self.spread = {}       # row key -> relative spread of one repetition (IQR / median), or None
        self.status = {}       # row key -> "ok", "fail", "skip: reason"
        self.slow = []         # (row key, speed ratio, noise bound)
        self.failed = []       # (row key, reason)
        self.missing = []      # (row key, what)
        self.suspect = []      # (row key, why the timing is not believed)
        self.health = []       # a health verdict's failing checks ("validate: copy/vec4: wrong result ...")
        self.cpu = False       # a CPU implementation (lavapipe)
        self.unpeered = False  # its model has fewer than MIN_GROUP devices: its speed was compared with nothing

    def label(self):
        return f"{self.host} #{self.index} {self.name}"

    def flagged(self):
        return bool(self.slow or self.failed or self.missing or self.cpu or self.health)


def device_entries(doc):
    """{(backend, index): entry} of DOC's devices; an entry without "index" is device 0 (one-device files)."""
    out = {}
    for d in doc["devices"]:
        if isinstance(d, dict) and d.get("name"):
            out.setdefault((d.get("backend"), d.get("index", 0)), d)
    return out


HEALTH_SCHEMA = "vkbench-health/1"


def read_json(path):
    """The JSON document at PATH and its text, or one line and exit 2."""
    shown = vkbjson.clean(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        return json.loads(text, parse_constant=vkbjson.refuse_constant), text
    except OSError as e:
        vkbjson.die(f"cannot read {shown}: {e.strerror}")
    except RecursionError:
        vkbjson.die(f"{shown}: nested too deeply to be a vkbench results file or health verdict")
    except ValueError as e:     # also invalid UTF-8 and integers too long to convert
        vkbjson.die(f"{shown} is not JSON ({vkbjson.clean(str(e).splitlines()[0])[:200]})")


def verdict_gpus(doc, shown):
    """The GPUs of the health verdict DOC, each field checked against docs/vkbench-health.schema.json's types
    (what the report uses), or one line naming the first bad field and exit 2."""
    def bad(where, what):
        vkbjson.die(f"{shown}: not a `vkbench health --json` verdict: {where} {what}")
    def text(x):
        return isinstance(x, str)
    if not text(doc.get("hostname")):
        bad("hostname", "is not a string")
    if not (doc.get("node_problem") is None or text(doc.get("node_problem"))):
        bad("node_problem", "is neither a string nor null")
    if doc.get("verdict") not in ("keep", "take out of service", "could not judge"):
        bad("verdict", "is not keep, take out of service or could not judge")
    if not isinstance(doc.get("gpus"), list):
        bad("gpus", "is not a list")
    for i, g in enumerate(doc["gpus"]):
        at = f"gpus[{i}]"
        if not isinstance(g, dict):
            bad(at, "is not an object")
        if type(g.get("gpu")) is not int or g["gpu"] < 0:
            bad(f"{at}.gpu", "is not a device index")
        for k in ("uuid", "model", "driver"):
            if not text(g.get(k)) or (k == "model" and not g[k]):
                bad(f"{at}.{k}", "is not a string" + (" (empty)" if k == "model" else ""))
        if not (g.get("pci_bus_id") is None or text(g.get("pci_bus_id"))):
            bad(f"{at}.pci_bus_id", "is neither a string nor null")
        if g.get("verdict") not in ("pass", "warn", "fail"):
            bad(f"{at}.verdict", "is not pass, warn or fail")
        if not isinstance(g.get("failing"), list) or not all(text(x) for x in g["failing"]):
            bad(f"{at}.failing", "is not a list of strings")
        if not isinstance(g.get("rows"), list):
            bad(f"{at}.rows", "is not a list")
        for j, r in enumerate(g["rows"]):
            if not isinstance(r, dict) or not text(r.get("row")) or not text(r.get("backend")):
                bad(f"{at}.rows[{j}]", "is not an object with a row and a backend")
            if r.get("status") not in ("ok", "fail", "skip"):
                bad(f"{at}.rows[{j}].status", "is not ok, fail or skip")
            m = r.get("metric")
            if m is not None and (type(m) not in (int, float) or not math.isfinite(m) or m < 0):
                bad(f"{at}.rows[{j}].metric", "is not a number of 0 or more")
    return doc["gpus"]


def read_verdict(doc, shown, stem, devices, order, nodes):
    """Add the GPUs of a health verdict to DEVICES and ORDER, its node problem to NODES ([(host, problem)])."""
    host = doc["hostname"] or stem
    gpus = verdict_gpus(doc, shown)
    if doc["node_problem"]:
        nodes.append((host, doc["node_problem"]))
    for g in gpus:
        ident = (host, g["gpu"], g["uuid"] or g["model"])
        dev = devices.get(ident)
        if dev is None:
            dev = devices[ident] = Device(host, g["gpu"], g["model"], g["uuid"] or None, g.get("pci_bus_id"),
                                          g["driver"] or None)
            order.append(ident)
        if g["verdict"] == "fail":
            dev.health += g["failing"] or ["failed its health check (no check named)"]
        for r in g["rows"]:
            key = ("health", r["row"], "", "", r["backend"], "hot")
            m = r.get("metric")
            if r["status"] == "ok" and m:
                dev.times.setdefault(key, []).append(1.0 / m)    # a time: lower is faster, as results' rows
                dev.spread.setdefault(key, None)
                dev.status.setdefault(key, "ok")
            elif r["status"] == "skip":
                dev.status.setdefault(key, "skip: skipped by the health check")
            elif r["status"] == "ok":
                dev.status.setdefault(key, "ok")
            else:
                dev.status[key] = "fail: failed in the health check"


def read(path, devices, order, nodes):
    """Add the results or health verdict of the file at PATH to DEVICES ({identity: Device}); ORDER keeps
    first-seen order; NODES gathers a verdict's node problem."""
    raw, text = read_json(path)
    shown = vkbjson.clean(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    if isinstance(raw, dict) and raw.get("schema") == HEALTH_SCHEMA:
        return read_verdict(raw, shown, stem, devices, order, nodes)
    if isinstance(raw, dict) and str(raw.get("schema", "")).startswith("vkbench-health/"):
        vkbjson.die(f"{shown}: schema {vkbjson.clean(str(raw['schema']))[:40]}: this tool reads {HEALTH_SCHEMA} "
                    "verdicts")
    doc = vkbjson.upgrade(raw, shown, vkbjson.may_control(text))
    doc["path"] = shown
    entries = device_entries(doc)
    if not entries:
        vkbjson.die(f"{path}: no device identity (no \"devices\" entry with a name): not a file fleet.py can "
                    "place")
    mode = doc["settings"].get("mode") or "hot"
    for r in doc["results"]:
        idx = r.get("device_index", 0)
        e = entries.get((r["backend"], idx)) or entries.get(("vulkan", idx))
        if e is None:
            vkbjson.die(f"{path}: a {r['backend']} result of device {idx}, which the file's devices do not list")
        vk = entries.get(("vulkan", idx), e)   # the GPU's identity: the Vulkan entry (the CUDA twin is the same GPU)
        host = vk.get("host") or e.get("host") or stem
        uuid = vk.get("uuid") or e.get("uuid")
        ident = (host, idx, uuid or vk["name"])   # two CPU implementations of one host may share a UUID
        dev = devices.get(ident)
        if dev is None:
            dev = devices[ident] = Device(host, idx, vk["name"], uuid, vk.get("pci_bus") or e.get("pci_bus"),
                                          vk.get("driver"))
            order.append(ident)
            dev.cpu = vk.get("type") == "cpu" or vk.get("cpu_implementation") is True
        key = (r["family"], r["variant"], r["shape_text"], r.get("constants") or "", r["backend"], mode)
        t = r.get("time_ms")
        if r.get("suspect") is True:
            dev.suspect.append((key, r.get("suspect_reason") or "above a physical bound"))
        if r["status"] == "ok" and t and t.get("median"):
            dev.times.setdefault(key, []).append(t["median"])
            dev.spread[key] = vkbjson.spread(r)[0]
            dev.status.setdefault(key, "ok")
        elif r["status"] == "skip":
            dev.status.setdefault(key, "skip: " + (r.get("skip_reason") or "no reason given"))
        elif r["status"] == "ok":
            dev.status.setdefault(key, "ok")           # validated, not timed (validate)
        else:
            why = (r.get("check") or {}).get("reason") or r.get("error") or r["status"]
            dev.status[key] = "fail: " + str(why)


def median_abs_dev(xs, mid):
    return vkbjson.median([abs(x - mid) for x in xs])


def judge(devices, threshold, sigmas):
    """Flag devices; returns {model: [groups judged, rows]}, and per device and row its speed ratio
    (ratio[id(dev)][key]) for the heat map."""
    models = {}
    gpus = any(not d.cpu for d in devices)
    for dev in devices:
        dev.cpu = dev.cpu and gpus       # a CPU implementation is flagged only among GPUs
        dev.unpeered = not dev.cpu and sum(d.name == dev.name and d.driver == dev.driver for d in devices) < MIN_GROUP
    for dev in devices:
        models.setdefault((dev.name, dev.driver), []).append(dev)
    ratios = {id(d): {} for d in devices}
    summary = {}
    for model, devs in models.items():
        keys = {}
        for d in devs:
            for k in d.status:
                keys.setdefault(k, None)
        rows = judged = 0
        spreads = []
        for k in sorted(keys):
            ran = [d for d in devs if d.status.get(k) == "ok"]
            if not ran:
                continue                    # skipped (or failed) everywhere: nothing to compare with
            rows += 1
            # a row most of the model's devices have is expected of all; one only a minority has (a shape that
            # device's cache probe chose) is missing on none
            expected = 2 * sum(k in d.status for d in devs) > len(devs)
            for d in devs:
                st = d.status.get(k)
                if st is None:
                    if expected:
                        d.missing.append((k, "missing (most devices of the model ran it)"))
                elif st.startswith("skip"):
                    d.missing.append((k, st))
                elif st.startswith("fail"):
                    d.failed.append((k, st[6:]))
            timed = [d for d in ran if k in d.times]
            if len(timed) < MIN_GROUP:
                continue
            judged += 1
            # vkbjson's median and ratio: times near the largest double or the smallest give no inf, no 0
            t = [vkbjson.median(ts) for ts in (d.times[k] for d in timed)]
            mid = vkbjson.median(t)
            speed = [vkbjson.ratio(mid, v) for v in t]          # above 1: faster than the fleet's median
            group_sigma = SIGMA_PER_MAD * median_abs_dev(speed, 1.0)
            spreads.append(group_sigma)
            for d, ratio in zip(timed, speed):
                ratios[id(d)][k] = ratio
                own = d.spread.get(k)
                sigma = max(group_sigma, SIGMA_PER_IQR * own if own else 0, MIN_SIGMA)
                bound = sigmas * sigma
                if 1 - ratio > threshold and 1 - ratio > bound:
                    d.slow.append((k, ratio, bound))
        summary[model] = (devs, rows, judged, vkbjson.median(spreads) if spreads else None)
    return summary, ratios


def row_text(k):
    family, variant, shape, constants, backend, mode = k
    return f"{family} {variant}{f' [{constants}]' if constants else ''}{f' {shape}' if shape else ''} {backend}" + \
        (f" {mode}" if mode != "hot" else "")


def pct(x):
    return vkbjson.pct(x)


def reasons(d):
    """Why device D is flagged, one line each, worst first: its health check's failures, a CPU implementation,
    slow rows (the worst), failed rows, missing rows."""
    out = [f"health: {x}" for x in d.health]
    if d.cpu:
        out.append("a CPU implementation in a fleet of GPUs: the node's GPU is missing or its driver is not loaded")
    if d.slow:
        k, ratio, _ = min(d.slow, key=lambda s: s[1])
        out.append(f"slower on {len(d.slow)} row{'s' * (len(d.slow) != 1)}, worst {row_text(k)} {ratio:.3f}x")
    out += [f"failed: {row_text(k)}: {why}" for k, why in d.failed]
    out += [f"missing or skipped: {row_text(k)}: {why}" for k, why in d.missing]
    return out


def report(order, devices, summary, args, nfiles, out, nodes=()):
    devs = [devices[i] for i in order]
    flagged = [d for d in devs if d.flagged()]
    hosts = {d.host for d in devs}
    w = out.write
    w(f"fleet: {len(devs)} device{'s' * (len(devs) != 1)} on {len(hosts)} host{'s' * (len(hosts) != 1)}, "
      f"{len(summary)} model{'s' * (len(summary) != 1)}, {nfiles} file{'s' * (nfiles != 1)}; slower than its group "
      f"by more than {pct(args.threshold)} and {args.sigmas:g} sigma of noise, or failed, or missing, is flagged\n")
    if nodes:
        w(f"\nFLAGGED NODES: {len(nodes)} (their health verdicts)\n")
        for host, problem in nodes:
            w(f"{host}  node: {problem}\n")
    if flagged:
        w(f"\nFLAGGED: {len(flagged)} device{'s' * (len(flagged) != 1)}\n")
    for d in flagged:
        w(f"{d.host}  device {d.index}: {d.name}  uuid {d.uuid or '-'}  pci {d.pci or '-'}  driver {d.driver or '-'}\n")
        for x in d.health:
            w(f"  health: {x}\n")
        if d.cpu:
            w("  a CPU implementation in a fleet of GPUs: the node's GPU is missing or its driver is not loaded\n")
        if d.slow:
            worst = sorted(d.slow, key=lambda s: s[1])
            med = vkbjson.median([s[1] for s in d.slow])
            w(f"  slower on {len(d.slow)} row{'s' * (len(d.slow) != 1)}: median {med:.3f}x the fleet, worst "
              f"{worst[0][1]:.3f}x\n")
            for k, ratio, bound in worst[:args.rows]:
                w(f"    {row_text(k):<56} {ratio:6.3f}x  ({pct(1 - ratio)} slower; noise bound {pct(bound)})\n")
            if len(worst) > args.rows:
                w(f"    ... and {len(worst) - args.rows} more\n")
        for what, items in (("failed", d.failed), ("missing or skipped", d.missing)):
            if items:
                w(f"  {what} on {len(items)} row{'s' * (len(items) != 1)}:\n")
                for k, why in items[:args.rows]:
                    w(f"    {row_text(k):<56} {why}\n")
                if len(items) > args.rows:
                    w(f"    ... and {len(items) - args.rows} more\n")
    unpeered = [d for d in devs if d.unpeered]
    if unpeered:
        w(f"\nNOT COMPARED: {len(unpeered)} device{'s' * (len(unpeered) != 1)} whose model has fewer than "
          f"{MIN_GROUP} devices: speed not judged\n")
        for d in unpeered:
            w(f"{d.host}  device {d.index}: {d.name}  uuid {d.uuid or '-'}  driver {d.driver or '-'}\n")
    suspect = [d for d in devs if d.suspect]
    if suspect:
        w("\nSUSPECT timings (a metric above a physical bound: not believed, not compared):\n")
        for d in suspect:
            for k, why in d.suspect[:args.rows]:
                w(f"{d.host}  device {d.index}: {row_text(k):<56} {why}\n")
            if len(d.suspect) > args.rows:
                w(f"{d.host}  device {d.index}: ... and {len(d.suspect) - args.rows} more\n")
    w("\nper model:\n")
    for (name, driver), (mdevs, rows, judged, spread) in summary.items():
        bad = sum(d.flagged() for d in mdevs)
        w(f"  {name} ({driver or 'driver unknown'}): {len(mdevs)} device{'s' * (len(mdevs) != 1)}, {bad} flagged; "
          f"{rows} rows, {judged} compared")
        w(f"; typical spread between devices {pct(spread)}\n" if spread is not None else
          f" (fewer than {MIN_GROUP} devices ran each row: speed not compared)\n")
    w(f"verdict: {len(flagged)} of {len(devs)} devices flagged" +
      (f"; {len(nodes)} node{'s' * (len(nodes) != 1)} flagged" if nodes else "") +
      (f"; {len(unpeered)} not compared (no peers of their model)" if unpeered else "") + "\n")
    return 1 if flagged or nodes else 0


def colour(ratio):
    """Heat-map colour of a speed ratio: white at 1, red as it falls to 0.8 and below, blue above 1."""
    if ratio is None:
        return "#ddd"
    x = max(-1.0, min(1.0, (ratio - 1) / 0.2))
    if x < 0:
        g = int(255 * (1 + x))
        return f"rgb(255,{g},{g})"
    r = int(255 * (1 - 0.6 * x))
    return f"rgb({r},{r},255)"


def heat_map(order, devices, ratios, args, nodes=()):
    devs = [devices[i] for i in order]
    flagged = [d for d in devs if d.flagged()]
    keys = sorted({k for d in devs for k in d.status})
    e = html.escape
    out = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>vkbench fleet</title><style>",
           "body{font:13px sans-serif;margin:1em}table{border-collapse:collapse}td,th{border:1px solid #fff;"
           "padding:2px 4px;white-space:nowrap}th.row{text-align:left;font-weight:normal}"
           "td.flag{outline:2px solid #000}th.dev{writing-mode:vertical-rl;transform:rotate(180deg)}"
           "</style></head><body>",
           f"<h1>vkbench fleet: {len(devs)} devices, {len(flagged)} flagged"
           f"{f', {len(nodes)} nodes flagged' if nodes else ''}</h1>",
           f"<p>Colour: a row's speed on a device over its group's median (white 1.0, red 0.8 or slower, blue "
           f"faster); grey: not run; outlined: flagged (threshold {pct(args.threshold)}, {args.sigmas:g} sigma)."
           "</p>"]
    if nodes or flagged:
        out.append("<h2>Flagged</h2><ul class='flagged'>")
        for host, problem in nodes:
            out.append(f"<li><b>{e(host)}</b> node: {e(problem)}</li>")
        for d in flagged:
            out.append(f"<li><b>{e(d.label())}</b> uuid {e(d.uuid or '-')} pci {e(d.pci or '-')}<ul>" +
                       "".join(f"<li>{e(x)}</li>" for x in reasons(d)[:args.rows + len(d.health)]) + "</ul></li>")
        out.append("</ul>")
    else:
        out.append("<p class='verdict'>No device flagged.</p>")
    out.append("<table class='heat'><thead><tr><th>row</th>")
    for d in devs:
        out.append(f"<th class='dev' title='{e(d.uuid or '')}'>{e(d.label())}</th>")
    out.append("</tr></thead><tbody>")
    for k in keys:
        out.append(f"<tr><th class='row'>{e(row_text(k))}</th>")
        for d in devs:
            ratio = ratios[id(d)].get(k)
            bad = any(s[0] == k for s in d.slow) or any(f[0] == k for f in d.failed + d.missing)
            st = d.status.get(k, "missing")
            text = vkbjson.ratio_text(ratio) if ratio is not None else ("FAIL" if st.startswith("fail") else "")
            out.append(f"<td{' class=flag' if bad else ''} style='background:{colour(ratio)}' "
                       f"title='{e(st)}'>{text}</td>")
        out.append("</tr>")
    out.append("</tbody></table></body></html>\n")
    return "".join(out)


def inputs(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in sorted(os.walk(p)):
                files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".json")]
        else:
            files.append(p)
    if not files:
        vkbjson.die(f"no result files in {' '.join(paths)}")
    return files


def baseline_name_problem(what, text):
    """Why TEXT cannot be a baseline's WHAT ("model", "driver", "row"), or None: the reader's rule."""
    if not isinstance(text, str) or not text:
        return "empty or not a string"
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return "not valid UTF-8 (a lone surrogate)"
    if size >= BASELINE_NAME_MAX[what]:
        return f"longer than {BASELINE_NAME_MAX[what] - 1} bytes"
    bad = next((c for c in text if ord(c) < 0x20 or ord(c) == 0x7f), None)
    if bad is not None:
        return {"\r": "a carriage return", "\0": "a NUL", "\t": "a tab", "\n": "a newline"}.get(
            bad, f"a control character (0x{ord(bad):02x})")
    if what == "model" and text.startswith("#"):
        return "begins with '#' (the reader's comment lines)"
    return None


def baseline_number(x, zero_ok):
    """X as the baseline writes it (6 significant digits), or None where the reader would refuse that text."""
    text = f"{x:.6g}"
    if not BASELINE_NUMBER.match(text):
        return None
    v = float(text)
    return text if (v >= 0 if zero_ok else v > 0) and v <= BASELINE_NUMBER_MAX else None


def write_baseline(paths, out):
    """The baseline of the `vkbench health --json` verdicts at PATHS into the Output OUT: per model, driver and
    row the median metric over the GPUs that passed, and its noise (the MAD as a standard deviation, at least
    MIN_SIGMA of the median); and per model and driver the row AGGREGATE_ROW: the median over the GPUs of a GPU's
    median of speed over the row medians, and its noise, from the spread of those over the GPUs (what the rows of
    one GPU or one run share, a loaded host or a warm room, is in it; the rows' own noise taken as independent
    would miss it). Ceiling rows are left out (health never judges them). A verdict that is not one, or a GPU
    whose names or numbers the reader would refuse, is one line and exit 2, the GPU named: one odd GPU must not
    make a file that every node's check refuses."""
    import json
    import vkbschema
    schema = vkbschema.load("vkbench-health.schema.json")
    verdicts = []
    for p in paths:
        try:
            with open(p, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            vkbjson.die(f"{vkbjson.clean(p)}: {getattr(e, 'strerror', None) or e}")
        if not isinstance(doc, dict) or doc.get("schema") != "vkbench-health/1" or not isinstance(doc.get("gpus"), list):
            vkbjson.die(f"{vkbjson.clean(p)}: not a `vkbench health --json` verdict")
        defects = vkbschema.errors(doc, root=schema)
        if defects:
            vkbjson.die(f"{vkbjson.clean(p)}: not a `vkbench health --json` verdict: {vkbjson.clean(defects[0])}")
        verdicts += [(f"{vkbjson.clean(p)}: GPU {g['gpu']} of host {vkbjson.clean(doc['hostname'])}", g)
                     for g in doc["gpus"]]
    out.finish(baseline_text(verdicts))
    return 0


def baseline_text(verdicts):
    """The baseline file (see write_baseline) of VERDICTS: (who, GPU) pairs, WHO naming the GPU in a refusal and
    GPU a "gpus" entry of `vkbench health --json` (model, driver, verdict, rows: row, status, metric, ceiling), from
    files or from the results store. A name or number the reader would refuse is one line and exit 2."""
    values, gpus = {}, []
    for who, g in verdicts:
        if g["verdict"] == "fail":
            continue                  # an unhealthy GPU sets no baseline
        mine = {}
        for r in g["rows"]:
            m = r.get("metric")
            if r["status"] != "ok" or r.get("ceiling") or m is None or not m > 0:
                continue
            key = (g["model"], g["driver"], r["row"])
            for what, text in zip(("model", "driver", "row"), key):
                problem = baseline_name_problem(what, text)
                if problem:
                    vkbjson.die(f"{who}: its {what} {vkbjson.clean(repr(text)[:80])}: {problem}; a baseline "
                                "cannot hold it (docs/tooling.md, the baseline file)")
            values.setdefault(key, []).append(float(m))
            mine[key] = float(m)
        if mine:
            gpus.append((who, mine))
    if not values:
        vkbjson.die("no passing GPU with a timed row in the verdicts: no baseline to write")
    medians = {key: vkbjson.median(xs) for key, xs in values.items()}     # of 1e308 and 1.5e308: no inf
    middles = {}                          # (model, driver) -> [log of one GPU's median of speed / row median]
    owners = {}                           # (model, driver, row) -> a GPU that has it, for the messages
    for who, mine in gpus:
        logs = [math.log(vkbjson.ratio(m, medians[key])) for key, m in mine.items()]
        middles.setdefault(next(iter(mine))[:2], []).append(vkbjson.median(logs))
        for key in mine:
            owners.setdefault(key, who)
    lines = ["# vkbench baseline 1\n", "# model\tdriver\trow\tmedian\tnoise (from fleet.py --write-baseline; row "
             f"{AGGREGATE_ROW}: a GPU's median of its rows over their medians)\n"]

    def numbers(key, mid, noise):
        texts = baseline_number(mid, False), baseline_number(noise, True)
        if None in texts:
            vkbjson.die(f"{owners[key] if key in owners else 'a GPU'}: row {vkbjson.clean(key[2])}: median "
                        f"{mid:.6g} or noise {noise:.6g} is not a number above 0 and at most "
                        f"{BASELINE_NUMBER_MAX:g}: a baseline cannot hold it (docs/tooling.md, the baseline file)")
        return texts
    for (model, driver, row), xs in sorted(values.items()):
        mid = medians[(model, driver, row)]
        noise = max(SIGMA_PER_MAD * median_abs_dev(xs, mid), MIN_SIGMA * mid)
        m, n = numbers((model, driver, row), mid, noise)
        lines.append(f"{model}\t{driver}\t{row}\t{m}\t{n}\n")
    for (model, driver), logs in sorted(middles.items()):
        mid = vkbjson.median(logs)        # near 0: the rows' medians are the same GPUs'
        noise = max(SIGMA_PER_MAD * median_abs_dev(logs, mid), MIN_SIGMA)
        m, n = numbers((model, driver, AGGREGATE_ROW), math.exp(mid), noise * math.exp(mid))
        lines.append(f"{model}\t{driver}\t{AGGREGATE_ROW}\t{m}\t{n}\n")
    return "".join(lines)


def main():
    ap = vkbjson.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", metavar="FILES | DIR")
    ap.add_argument("--threshold", type=float, default=0.10, help="slowdown that matters (0.10: 10%%)")
    ap.add_argument("--sigmas", type=float, default=5.0, help="noise bound in standard deviations (default 5)")
    ap.add_argument("--rows", type=int, default=5, help="rows listed per flagged device (default 5)")
    ap.add_argument("--html", metavar="PATH", help="write the heat map page")
    ap.add_argument("--write-baseline", metavar="PATH", help="write a baseline for `vkbench health --baseline` "
                    "from health verdicts (--json) of a healthy fleet")
    args = ap.parse_args()
    if not 0 < args.threshold < 1 or not 0 < args.sigmas < math.inf or args.rows < 0:
        vkbjson.die("--threshold must be between 0 and 1, --sigmas a finite number above 0, --rows at least 0")
    outputs = [(o, p) for o, p in (("--html", args.html), ("--write-baseline", args.write_baseline)) if p]
    for option, path in outputs:
        if path == "-":
            vkbjson.die(f"{option} -: the report is on stdout; give {option} a file")
    files = inputs(args.paths)
    vkbjson.claim(outputs, files)
    opened = {o: vkbjson.Output(p, o) for o, p in outputs}   # a path that cannot be written costs no work
    if args.write_baseline:
        if args.html:
            vkbjson.die("--write-baseline reads health verdicts, --html result files: one at a time")
        return write_baseline(files, opened["--write-baseline"])
    devices, order, nodes = {}, [], []
    for p in files:
        read(p, devices, order, nodes)
    summary, ratios = judge([devices[i] for i in order], args.threshold, args.sigmas)
    code = report(order, devices, summary, args, len(files), sys.stdout, nodes)
    if args.html:
        opened["--html"].finish(heat_map(order, devices, ratios, args, nodes))
    return code


if __name__ == "__main__":
    vkbjson.run_main(main)
