"""vkbjson.py - reading the results files of vkbench and its tools (shared by compare, plot, report, tune).

load() accepts every form that was ever written and returns one in-memory form (schema 2):
  - schema 2 ("schema_version": "2.x.y"): vkbench's document with "settings" and quartiles;
  - schema 1 ("schema_version": 1): the same without settings (recovered from the recorded command
    line where it says) and without quartiles (q1, q3 are None);
  - a bare list of results: what tools/tune.py wrote before it wrote documents (no devices, no command).
Anything else is refused with one line and exit 2."""
import json
import math
import os
import shlex
import sys

READS = (1, 2)          # schema major versions this module understands


def prog():
    return os.path.basename(sys.argv[0]) or "vkbjson"


def die(msg, code=2):
    """One line on stderr and exit CODE (2: unreadable input or usage)."""
    sys.stderr.write(f"{prog()}: error: {msg}\n")
    sys.exit(code)


def warn(msg):
    sys.stderr.write(f"{prog()}: warning: {msg}\n")


def schema_major(version):
    """1 for the integer 1, N for a string "N.x.y"; None for anything else."""
    if isinstance(version, bool):
        return None
    if isinstance(version, int):
        return version
    if isinstance(version, str):
        head = version.split(".")[0]
        return int(head) if head.isdigit() else None
    return None


def settings_from_command(command):
    """Schema 1 has no settings object: recover what the command line states; the rest is unknown (None)."""
    s = {"command": command, "seed": None, "mode": "hot", "warmup_ms": None, "first_warmup_ms": None,
         "budget_ms": None, "reps": None, "spec": None, "from_command": True}
    try:
        argv = shlex.split(command or "")
    except ValueError:
        argv = (command or "").split()
    flags = {"--seed": "seed", "--warmup-ms": "warmup_ms", "--budget-ms": "budget_ms", "--reps": "reps",
             "--spec": "spec"}
    for i, a in enumerate(argv):
        name, eq, value = a.partition("=")
        if name == "--cold":
            s["mode"] = "cold"
        elif name in flags:
            if not eq:
                value = argv[i + 1] if i + 1 < len(argv) else None
            key = flags[name]
            if key != "spec":
                try:
                    value = float(value) if "." in str(value) else int(value)
                except (TypeError, ValueError):
                    pass
            s[key] = value
    return s


def upgrade_result(r):
    """A result of any schema in the schema-2 form (missing fields None)."""
    t = r.get("time_ms")
    if t:
        t.setdefault("q1", None)
        t.setdefault("q3", None)
        if t.get("iqr_over_median") is None and t["q1"] is not None and t["q3"] is not None and t.get("median"):
            t["iqr_over_median"] = (t["q3"] - t["q1"]) / t["median"]
        t.setdefault("iqr_over_median", None)
    r.setdefault("constants", None)
    r.setdefault("skip_reason", None)
    r.setdefault("settled", None)
    r.setdefault("suspect", False)
    r.setdefault("suspect_reason", None)
    r.setdefault("pipelines", [])
    if "predicted" not in r:
        m = r.get("metric") or {}
        r["predicted"] = m.get("predicted_fraction")
    return r


def upgrade(doc, path):
    """DOC (parsed JSON of any known form) in the schema-2 form, or die with the reason."""
    if isinstance(doc, list):
        if not all(isinstance(r, dict) and "family" in r and "variant" in r for r in doc):
            die(f"{path}: a JSON list, but not of vkbench results")
        doc = {"schema_version": 1, "tool": "vkbench", "version": None, "date": None, "command": None,
               "devices": [], "results": doc, "bare_list": True}
    if not isinstance(doc, dict) or doc.get("tool") != "vkbench" or not isinstance(doc.get("results"), list):
        die(f"{path}: not a vkbench results file (no \"tool\": \"vkbench\" with \"results\")")
    major = schema_major(doc.get("schema_version"))
    if major not in READS:
        die(f"{path}: schema_version {doc.get('schema_version')!r}: this tool reads schema 1 and 2.x; "
            "update the tools")
    doc["schema_major"] = major
    if major == 1:
        doc["settings"] = settings_from_command(doc.get("command"))
    doc.setdefault("settings", {})
    doc.setdefault("devices", [])
    for r in doc["results"]:
        if not isinstance(r, dict) or not {"family", "variant", "backend", "status"} <= r.keys():
            die(f"{path}: a result lacks family, variant, backend or status")
        upgrade_result(r)
    return doc


def load(path):
    """The document at PATH in the schema-2 form, or one line and exit 2."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}")
    except ValueError as e:
        die(f"{path} is not JSON ({str(e).splitlines()[0]})")
    doc = upgrade(doc, path)
    doc["path"] = path
    return doc


def timed(doc):
    """Results that were validated and timed (a median and a non-zero metric: ratios and logs of them)."""
    return [r for r in doc["results"] if r["status"] == "ok" and (r.get("time_ms") or {}).get("median")
            and (r.get("metric") or {}).get("value")]


def key(r, with_backend=True):
    """What makes a row the same row in two runs: family, variant, shape, --spec constants (and backend)."""
    k = (r["family"], r["variant"], r["shape_text"]) + ((r["constants"],) if r.get("constants") else ())
    return k + (r["backend"],) if with_backend else k


def shape_numbers(r):
    """The shape's dims as a tuple of numbers, in the file's order: sorts 1024 after 256."""
    return tuple(v for v in (r.get("shape") or {}).values())


def sort_key(r):
    return (r["family"], r["variant"], shape_numbers(r), r["shape_text"], r["backend"])


def spread(r):
    """(relative spread of one timing sample, how it was estimated), robust to a few slow outliers:
    the IQR over the median where the file has quartiles (schema 2); else twice the distance from the
    fastest repetition to the median (schema 1: min, median and max only; never the max, never the
    standard deviation, which one slow repetition inflates); (None, None) when neither can be had."""
    t = r.get("time_ms") or {}
    med = t.get("median")
    if not med:
        return None, None
    if t.get("q1") is not None and t.get("q3") is not None:
        return (t["q3"] - t["q1"]) / med, "iqr"
    if t.get("min") is not None and (r.get("reps") or 0) >= 2:
        return 2 * (med - t["min"]) / med, "min-median"
    return None, None


def predicted_fraction(r):
    """The rule's predicted fraction of the ceiling (memory families), or None."""
    p = r.get("predicted")
    if isinstance(p, dict):
        p = p.get("fraction", p.get("value"))
    return p if isinstance(p, (int, float)) and not isinstance(p, bool) else None


def device_name(doc, backend=None):
    for d in doc["devices"]:
        if backend is None or d["backend"] == backend:
            return d["name"]
    return "unknown device"


def label(doc):
    """A short name for DOC's run: its file name without .json."""
    return os.path.splitext(os.path.basename(doc.get("path", "run")))[0]


def fmt(x, digits=1):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def run_main(main):
    """Run MAIN and exit with its code; a closed pipe (`| head`) ends quietly, no traceback."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # stdout's reader went away: drop what is buffered, exit like a tool killed by SIGPIPE
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(141)
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(code or 0)
