"""vkbjson.py - the one reader and the one writer of the vkbench tools (compare, plot, report, tune, fleet).

load() accepts every form that was ever written, checks the whole shape of what the tools use (types,
finite numbers, non-negative times, strings where strings belong) and returns one in-memory form
(schema 2), with every string's control characters escaped so that no file text can drive a terminal:
  - schema 2 ("schema_version": "2.x.y"): vkbench's document with "settings" and quartiles;
  - schema 1 ("schema_version": 1): the same without settings (recovered from the recorded command
    line where it says) and without quartiles (q1, q3 are None);
  - a bare list of results: what tools/tune.py wrote before it wrote documents (no devices, no command).
Anything else is refused with one line and exit 2, wherever it is read.

Output is the tools' one output-path rule: "-" is stdout; a device, FIFO, /dev/std* or link is written
in place; a regular file (or a new one) through a unique temporary beside it that takes the old file's
mode and is renamed over it only once written whole. claim() refuses two outputs on one file and an
output that is an input (one line, exit 2). A failed write is one line and exit 6."""
import argparse
import atexit
import errno
import json
import math
import os
import re
import shlex
import signal
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vkbschema  # noqa: E402  the format's one description: docs/vkbench.schema.json

READS = (1, 2)          # schema major versions this module understands
STATUSES = ("ok", "fail", "skip")
USAGE, WRITE = 2, 6     # exit codes: unreadable input or usage; an output that cannot be written


def prog():
    return os.path.basename(sys.argv[0]) or "vkbjson"


def say(line):
    """A line on stderr, if there is a stderr (a closed one is None): never a traceback over a message."""
    try:
        if sys.stderr:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
    except OSError:
        pass


def die(msg, code=USAGE):
    """One line on stderr and exit CODE (2: unreadable input or usage; 6: an output not written)."""
    say(f"{prog()}: error: {msg}")
    sys.exit(code)


def warn(msg):
    say(f"{prog()}: warning: {msg}")


CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def clean(text):
    """TEXT with control characters (C0, DEL, C1: terminal escapes, newlines) written as \\xNN."""
    return CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line and exit 2, like every other error of the tools."""
    def error(self, message):
        die(f"{message} (see {self.prog} --help)")


def schema_major(version):
    """1 for the integer 1, N for a string "N.x.y" of ASCII digits; None for anything else."""
    if isinstance(version, bool):
        return None
    if isinstance(version, int):
        return version
    if isinstance(version, str):
        head = version.split(".")[0]
        return int(head) if re.fullmatch(r"[0-9]{1,6}", head) else None
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
                    value = value if math.isfinite(value) else None
                except (TypeError, ValueError, OverflowError):
                    value = None
            s[key] = value
    return s


# --- the shape of a results file: what the tools use, checked once ---

class BadShape(Exception):
    pass


def number(x):
    """A finite JSON number that fits a double (a 400-digit integer does not)."""
    return type(x) in (int, float) and -LIMIT < x < LIMIT


LIMIT = 1.7e308          # past this a number is no double: infinities, NaN and 400-digit integers fail "<"
KINDS = {   # kind: (the types it takes, whether it is a number, what a wrong value is called)
    "str": ((str,), False, "not a string"),
    "num": ((int, float), True, "not a finite number"),
    "int": ((int,), True, "not an integer"),
    "bool": ((bool,), False, "not true or false"),
    "dict": ((dict,), False, "not an object"),
    "list": ((list,), False, "not a list"),
}
# The tables below come from the schema file (docs/vkbench.schema.json, through tools/vkbschema.py), the one
# description of the format: per object, field -> kind, "!" for a field the tools require in every schema version
# (x-tools-required: present and not null), "+" for a number >= 0 (absent or null: fine). The tools read schema 1
# and 2 alike, so only types are taken, not 2.x's required fields; LEGACY adds schema 1's fields.
TYPE_KINDS = {"string": "str", "number": "num", "integer": "int", "boolean": "bool", "object": "dict",
              "array": "list"}


def kinds_from_schema(name, legacy=()):
    s = vkbschema.definition(name)
    out = {}
    for field, p in s.get("properties", {}).items():
        if "anyOf" in p or "$ref" in p:   # an object of $defs (or null)
            p = {"type": "object"}
        types = p.get("type") or [type_of(v) for v in p.get("enum", []) + ([p["const"]] if "const" in p else [])]
        types = [t for t in (types if isinstance(types, list) else [types]) if t not in ("null", None)]
        if len(set(types)) != 1:
            continue
        out[field] = TYPE_KINDS[types[0]] + ("!" if field in s.get("x-tools-required", []) else "") + (
            "+" if p.get("minimum", -1) >= 0 else "")
    out.update(legacy)
    return out


def type_of(v):
    return {str: "string", bool: "boolean", int: "integer", float: "number"}.get(type(v))


RESULT = kinds_from_schema("result")
del RESULT["predicted"]   # a number in 2.x, an object in schema 1: check_result looks at it
TIME = kinds_from_schema("time_ms")
METRIC = kinds_from_schema("metric", {"predicted_fraction": "num+"})   # schema 1's place for "predicted"
PREDICTED = {"fraction": "num+", "value": "num+"}                      # schema 1's "predicted" object
CHECK = kinds_from_schema("check")
DEVICE = kinds_from_schema("device")
DOCUMENT = kinds_from_schema("document")
for name in ("schema_version", "tool", "plan", "error"):   # read by upgrade(), of any schema version
    DOCUMENT.pop(name, None)
DOCUMENT["results"] = "list!"
SPECS = {id(d): ({k: KINDS[v.rstrip("!+")] + ("+" in v,) for k, v in d.items()}, [k for k, v in d.items() if "!" in v])
         for d in (RESULT, TIME, METRIC, PREDICTED, CHECK, DEVICE, DOCUMENT)}


def check_fields(obj, spec, where):
    """Raise BadShape unless OBJ is an object whose fields follow SPEC (one of the tables above);
    WHERE, a function, names OBJ in the message (made only when one is needed)."""
    if type(obj) is not dict:
        raise BadShape(f"{where()}: not an object")
    kinds, required = SPECS[id(spec)]
    for name, v in obj.items():
        k = kinds.get(name)
        if k is None or v is None:
            continue
        types, numeric, wrong, nonneg = k
        if type(v) not in types or (numeric and not -LIMIT < v < LIMIT):
            raise BadShape(f"{where()}.{name}: {wrong}")
        if nonneg and v < 0:
            raise BadShape(f"{where()}.{name}: negative")
    for name in required:
        if obj.get(name) is None:
            raise BadShape(f"{where()}: " + (f"\"{name}\" is null" if name in obj else f"no \"{name}\""))


def check_result(r, i):
    check_fields(r, RESULT, lambda: f"results[{i}]")

    def where():
        return f"results[{i}] ({r['family']}/{r['variant']} {r['backend']})"
    if r["status"] not in STATUSES:
        raise BadShape(f"{where()}.status: {r['status']!r} is not ok, fail or skip")
    for k, v in (r.get("shape") or {}).items():
        if not number(v):
            raise BadShape(f"{where()}.shape.{k}: not a finite number")
    t, m = r.get("time_ms"), r.get("metric")
    if t:
        check_fields(t, TIME, lambda: f"{where()}.time_ms")
    if m:
        check_fields(m, METRIC, lambda: f"{where()}.metric")
    if r["status"] == "ok" and t and t.get("median") is not None and (not m or m.get("value") is None):
        raise BadShape(f"{where()}: timed, but no metric value")
    p = r.get("predicted")
    if isinstance(p, dict):
        check_fields(p, PREDICTED, lambda: f"{where()}.predicted")
    elif p is not None and not (number(p) and p >= 0):
        raise BadShape(f"{where()}.predicted: not a finite number >= 0")
    if r.get("check"):
        check_fields(r["check"], CHECK, lambda: f"{where()}.check")
    for j, p in enumerate(r.get("pipelines") or []):
        if not isinstance(p, dict) or not isinstance(p.get("statistics", {}), dict) or not all(
                number(v) for v in p.get("statistics", {}).values()):
            raise BadShape(f"{where()}.pipelines[{j}]: not an object whose \"statistics\" are numbers")


def check_document(doc):
    """Raise BadShape naming the first field the tools use that is missing or of the wrong type."""
    check_fields(doc, DOCUMENT, lambda: "document")
    if "devices" in doc and doc["devices"] is None:   # check_fields passes a null; every tool iterates the list
        raise BadShape("document.devices: null, not a list")
    for i, d in enumerate(doc.get("devices") or []):
        check_fields(d, DEVICE, lambda: f"devices[{i}]")
    for i, r in enumerate(doc["results"]):
        check_result(r, i)


def escaped(x):
    """X with every string (keys too) cleaned of control characters."""
    if isinstance(x, str):
        return x if x.isprintable() else clean(x)
    if isinstance(x, list):
        return [escaped(v) for v in x]
    if isinstance(x, dict):
        return {(k if k.isprintable() else clean(k)): escaped(v) for k, v in x.items()}
    return x


def upgrade_result(r):
    """A result of any schema in the schema-2 form (missing fields None)."""
    t = r.get("time_ms")
    if t:
        t.setdefault("q1", None)
        t.setdefault("q3", None)
        if t.get("iqr_over_median") is None and t["q1"] is not None and t["q3"] is not None and t.get("median"):
            t["iqr_over_median"] = bounded((t["q3"] - t["q1"]) / t["median"], SPREAD_CAP)
        t.setdefault("iqr_over_median", None)
    r.setdefault("shape", {})
    r["shape"] = r["shape"] or {}
    r.setdefault("ceiling_row", False)
    r.setdefault("reps", 0)
    r.setdefault("constants", None)
    r.setdefault("skip_reason", None)
    r.setdefault("settled", None)
    r.setdefault("suspect", False)
    r.setdefault("suspect_reason", None)
    r.setdefault("pipelines", [])
    r.setdefault("error", None)
    if "predicted" not in r:
        m = r.get("metric") or {}
        r["predicted"] = m.get("predicted_fraction")
    return r


# The direction of a metric (metric.better) in files written before the field (schema 1, 2.0 and the
# development builds' early 2.1): every unit those files could hold, and which way is better. A metric with
# neither a recorded direction nor one of these units is refused: no tool may guess which way is faster.
LEGACY_BETTER = {"GB/s": "higher", "GFLOP/s": "higher", "GOP/s": "higher", "us": "lower", "ns/load": "lower"}


def direct(r, i):
    """Give R's metric its direction (metric.better): the recorded one, else the unit's from LEGACY_BETTER;
    raise BadShape for a measured metric whose direction cannot be known."""
    m = r.get("metric")
    if not m:
        return
    if m.get("better") is None:
        m["better"] = LEGACY_BETTER.get(m["name"])
    elif m["better"] not in ("higher", "lower"):
        raise BadShape(f"results[{i}] ({r['family']}/{r['variant']} {r['backend']}).metric.better: "
                       f"{m['better']!r} is not higher or lower")
    if m["better"] is None and m.get("value") is not None:
        raise BadShape(f"results[{i}] ({r['family']}/{r['variant']} {r['backend']}).metric: no \"better\" "
                       f"(higher or lower) and the unit {m['name']!r} does not say which way is better")


def device_ranks(results):
    """Give each result its "device_rank": the position of its device_index among the distinct device
    indices of its backend in the file (0 in a file of one device per backend, and where device_index is
    absent: files before 2.1). Rows are matched across files by rank, so an old file's rows meet a new
    file's whatever index the device had on each machine."""
    seen = {}
    for r in results:
        if r.get("device_index") is not None:
            seen.setdefault(r["backend"], set()).add(r["device_index"])
    ranks = {b: {x: n for n, x in enumerate(sorted(xs))} for b, xs in seen.items()}
    for r in results:
        r["device_rank"] = ranks.get(r["backend"], {}).get(r.get("device_index"), 0)


class Refused(Exception):
    """A document the tools cannot read; its text is the one line that says why."""


def upgrade(doc, path, control=True):
    """DOC (parsed JSON of any known form) checked and in the schema-2 form, or die with the reason."""
    try:
        return convert(doc, path, control)
    except Refused as e:
        die(str(e))


def convert(doc, path, control=True):
    """DOC (parsed JSON of any known form) checked and in the schema-2 form; raise Refused with the reason."""
    if isinstance(doc, list):
        if not all(isinstance(r, dict) and "family" in r and "variant" in r for r in doc):
            raise Refused(f"{path}: a JSON list, but not of vkbench results")
        doc = {"schema_version": 1, "tool": "vkbench", "version": None, "date": None, "command": None,
               "devices": [], "results": doc, "bare_list": True}
    if not isinstance(doc, dict) or doc.get("tool") != "vkbench" or not isinstance(doc.get("results"), list):
        raise Refused(f"{path}: not a vkbench results file (no \"tool\": \"vkbench\" with \"results\")")
    major = schema_major(doc.get("schema_version"))
    if major not in READS:
        raise Refused(f"{path}: schema_version {clean(repr(doc.get('schema_version'))[:40])}: this tool reads "
                      "schema 1 and 2.x; update the tools")
    try:
        check_document(doc)
        for i, r in enumerate(doc["results"]):
            direct(r, i)
    except BadShape as e:
        raise Refused(f"{path}: {clean(str(e))[:300]}")
    if control:         # only where the text may hold a control character: a large file costs nothing
        doc = escaped(doc)
    doc["schema_major"] = major
    if major == 1:
        doc["settings"] = settings_from_command(doc.get("command"))
    doc["settings"] = doc.get("settings") or {}
    doc.setdefault("devices", [])
    for r in doc["results"]:
        upgrade_result(r)
    device_ranks(doc["results"])
    return doc


def build_of(doc):
    """DOC's build identity (schema 2.3: "build"): {commit, build_type, cuda_architectures, sanitizer} with
    strings, or None for a file written before it (or with a malformed one)."""
    b = doc.get("build")
    if not isinstance(b, dict) or not isinstance(b.get("commit"), str):
        return None
    return {"commit": clean(b["commit"])[:80], "build_type": clean(str(b.get("build_type")))[:40],
            "cuda_architectures": clean(str(b.get("cuda_architectures")))[:80],
            "sanitizer": "sanitizer" if b.get("sanitizer") is True else "no sanitizer"}


def build_text(b):
    """One build as a phrase: "commit 5504bae (Release, CUDA 90, no sanitizer)"."""
    return f"commit {b['commit']} ({b['build_type']}, CUDA {b['cuda_architectures']}, {b['sanitizer']})"


def refuse_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def may_control(text):
    """Whether JSON TEXT may hold a control character in a string: only as an escape (\\n, \\u001b) or as a
    raw DEL or C1 character. Substring searches: a large file costs little."""
    if any(e in text for e in ("\\n", "\\r", "\\t", "\\b", "\\f", "\\u00", "\x7f")):
        return True
    return not text.isascii() and re.search("[\x80-\x9f]", text) is not None


def load(path):
    """The document at PATH checked and in the schema-2 form, or one line and exit 2."""
    try:
        return parse(path)
    except Refused as e:
        die(str(e))


def parse(path, text=None, hook=None):
    """The document at PATH (or of its TEXT, already read) checked and in the schema-2 form; raise Refused.
    HOOK, where given, is json's object_pairs_hook (a stricter reader: duplicate keys)."""
    shown = clean(path)
    try:
        if text is None:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        doc = json.loads(text, parse_constant=refuse_constant, object_pairs_hook=hook)
    except OSError as e:
        raise Refused(f"cannot read {shown}: {e.strerror}")
    except RecursionError:
        raise Refused(f"{shown}: nested too deeply to be a vkbench results file")
    except ValueError as e:     # also invalid UTF-8, integers too long to convert and what HOOK refuses
        raise Refused(f"{shown} is not JSON ({clean(str(e).splitlines()[0])[:200]})")
    doc = convert(doc, shown, may_control(text))
    doc["path"] = shown
    return doc


def load_all(paths):
    """The documents at PATHS; a folder stands for the *.json files in it, in name order."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            files = sorted(f for f in os.listdir(p) if f.endswith(".json"))
            if not files:
                die(f"{clean(p)}: a folder with no .json file")
            out += [load(os.path.join(p, f)) for f in files]
        else:
            out.append(load(p))
    return out


# --- what the tools ask of the rows ---

def timed(doc):
    """Results that were validated and timed (a median and a non-zero metric: ratios and logs of them)."""
    return [r for r in doc["results"] if r["status"] == "ok" and (r.get("time_ms") or {}).get("median")
            and (r.get("metric") or {}).get("value")]


def speed(r):
    """R's metric turned so that more is better: the value, or its inverse where lower is better (a latency
    in µs): ratios and rankings of speeds read the same way for every metric. The inverse of a value below
    1/1.8e308 is the largest double, not inf."""
    v = r["metric"]["value"]
    return bounded(1 / v) if r["metric"]["better"] == "lower" else v


# Extreme finite inputs (1e-300, 1e308: the reader takes any finite number) must not turn into inf, 0 or NaN
# in the tools' arithmetic: a log(0), an "Infinity" in JSON output, a NaN verdict.
BIG = sys.float_info.max
TINY = sys.float_info.min       # the smallest normal double: a positive quotient never underflows to 0
LOG_BIG = math.log(BIG)
SPREAD_CAP = 1e6                # a relative spread past 10^6 (10^8 %) says only "no measurement": held there


def bounded(x, cap=BIG):
    """X (>= 0) held at CAP: a quotient that overflowed to inf is the largest double (or CAP)."""
    return min(x, cap)


def ratio(a, b):
    """A / B of two positive numbers as a positive finite double: an overflow is the largest double, an
    underflow the smallest normal one, so that its log and its JSON are numbers."""
    return min(max(a / b, TINY), BIG)


def geomean(xs):
    """The geometric mean of the positive ratios XS (from ratio()), itself within the doubles: the mean of
    logs near log(1.8e308) may exceed it by a rounding, and exp() of that overflows."""
    mean = sum(math.log(x) for x in xs) / len(xs)
    return min(max(math.exp(min(mean, LOG_BIG)), TINY), BIG)


def ratio_text(x):
    """A ratio to 3 decimals (1.250); beyond 10^6 or below 10^-3 to 3 significant digits (1.8e+308)."""
    return f"{x:.3f}" if 1e-3 <= x < 1e6 else f"{x:.3g}"


def pct(x, digits=1):
    """X as a percentage with DIGITS decimals (79.2%); 10^6 % and beyond with an exponent, whose 100x is taken
    in the text so that a fraction near the largest double is no "inf%" (1.8e+310%); "-" for inf."""
    if not math.isfinite(x):
        return "-"
    if abs(100 * x) < 1e6:
        return f"{100 * x:.{digits}f}%"
    mantissa, exponent = f"{x:.2e}".split("e")
    return f"{mantissa}e{int(exponent) + 2:+03d}%"


def failed(r):
    """A row that failed validation or recorded an error: never a result to compare, always a finding."""
    return r["status"] == "fail" or bool(r.get("error"))


def key(r, with_backend=True):
    """What makes a row the same row in two runs: family, variant, shape, --spec constants (and backend)."""
    k = (r["family"], r["variant"], r["shape_text"]) + ((r["constants"],) if r.get("constants") else ())
    return k + (r["backend"],) if with_backend else k


def device_key(r, with_backend=True):
    """key(), and the row's device among the file's devices of its backend (device_ranks): what tells the
    rows of two devices of one file (--device all) apart."""
    return key(r, with_backend) + ((r["device_rank"],) if r.get("device_rank") else ())


def shape_numbers(r):
    """The shape's dims as a tuple of numbers, in the file's order: sorts 1024 after 256."""
    return tuple(v for v in (r.get("shape") or {}).values())


def variant_order(rows):
    """{(family, variant): rank} in the order the rows first name them: vkbench runs a family's variants
    in `vkbench list` order, so a file's order is the list's."""
    order = {}
    for r in rows:
        order.setdefault((r["family"], r["variant"]), len(order))
    return order


def sort_key(r, order=None):
    """Family, then variant (in list order where ORDER is given, else by name), shape in numeric order."""
    v = order.get((r["family"], r["variant"]), 0) if order is not None else r["variant"]
    return (r["family"], v, shape_numbers(r), r["shape_text"], r.get("constants") or "", r["backend"])


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
        return bounded((t["q3"] - t["q1"]) / med, SPREAD_CAP), "iqr"
    if t.get("min") is not None and (r.get("reps") or 0) >= 2:
        return bounded(2 * (med - t["min"]) / med, SPREAD_CAP), "min-median"
    return None, None


def predicted_fraction(r):
    """The rule's predicted fraction of the ceiling (memory families), or None."""
    p = r.get("predicted")
    if isinstance(p, dict):
        p = p.get("fraction", p.get("value"))
    return p if isinstance(p, (int, float)) and not isinstance(p, bool) else None


# The number type of a row's inputs, as its variant's name declares it (the JSON has no field for it): the first
# type word of the name (peak's fma_f64, mad_i16, dot_u8x4, coopmat_s8_s32: the inputs' type comes first; a
# vector width "x4" dropped), else fp16 for the matmul rows on half inputs (cooperative matrices, tensor-core
# peaks, cuBLAS hgemm, fp16 accumulators), else fp32.
TYPE_WORDS = {"f64": "fp64", "f32": "fp32", "f16": "fp16", "bf16": "bf16", "e4m3": "fp8", "e5m2": "fp8",
              "s8": "int8", "u8": "int8", "i8": "int8", "i16": "int16", "i32": "int32", "u32": "int32",
              "sgemm": "fp32", "hgemm": "fp16"}
HALF_NAMES = ("coopmat", "tc_peak", "acc16")


def number_type(r):
    """The number type of R's inputs: "fp32", "fp16", "fp64", "bf16", "fp8", "int8", "int16" or "int32" (see
    TYPE_WORDS): a panel, a roof and its ceilings are of one number type."""
    for word in r["variant"].split("_"):
        t = TYPE_WORDS.get(re.sub(r"x[0-9]+$", "", word))
        if t:
            return t
    return "fp16" if any(s in r["variant"] for s in HALF_NAMES) else "fp32"


def device_name(doc, backend=None):
    for d in doc["devices"]:
        if backend is None or d["backend"] == backend:
            return d["name"]
    return "unknown device"


def device_line(d):
    """One device in words: name, driver, API version, type (a CPU implementation said so)."""
    cpu = d.get("cpu_implementation")
    cpu = d.get("type") == "cpu" if cpu is None else cpu
    parts = [d.get("driver"), f"API {d['api_version']}" if d.get("api_version") else None,
             "a CPU implementation, not a GPU" if cpu else d.get("type")]
    return f"{d['name']} ({', '.join(p for p in parts if p)})"


def devices_text(doc):
    """Every device of DOC, per backend; "unknown device" for a file that names none (a bare list)."""
    return "; ".join(f"{d['backend']}: {device_line(d)}" for d in doc["devices"]) or "unknown device"


def label(doc):
    """A short name for DOC's run: its file name without .json."""
    return os.path.splitext(os.path.basename(doc.get("path", "run")))[0]


def fmt(x, digits=1):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def sig(x, digits=3):
    """X to DIGITS significant digits (0.165, 37146), without an exponent from 10^-4 to 10^6 ("-" for None):
    1e-300 is 1.00e-300, not 300 zeros."""
    if x is None or not math.isfinite(x):
        return "-"
    if x == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{x:.{decimals}f}" if 1e-4 <= abs(x) < 1e6 else f"{x:.{digits - 1}e}"


def median(xs):
    """The median; of an even count the midpoint taken as a + (b - a) / 2, which cannot overflow (two values
    near the largest double: (a + b) / 2 is inf)."""
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else s[n // 2 - 1] + (s[n // 2] - s[n // 2 - 1]) / 2


def finite_or_null(x):
    """X with every float that is not finite made None (null), recursively: vkbench's own rule for its files."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: finite_or_null(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite_or_null(v) for v in x]
    return x


def dumps(x):
    """The tools' JSON output: indented, never "Infinity" or "NaN" (not JSON: a strict reader refuses the
    file), a number past the doubles written null as vkbench writes it."""
    return json.dumps(finite_or_null(x), indent=1, allow_nan=False)


# --- the output-path rule ---

def identity(path):
    """What PATH names as a file: (device, inode) of what it resolves to, else its absolute real path
    (a file not yet there); stdout for "-"."""
    try:
        st = os.fstat(sys.stdout.fileno()) if path == "-" else os.stat(path)
        return (st.st_dev, st.st_ino)
    except (OSError, AttributeError, ValueError):
        return os.path.realpath(path)


def claim(outputs, inputs=()):
    """Refuse (one line, exit 2) two OUTPUTS on one file and an output that is one of the INPUTS.
    OUTPUTS: (option, path) pairs."""
    seen = {}
    ins = {identity(p): p for p in inputs if p != "-"}
    for option, path in outputs:
        ident = identity(path)
        if ident in seen:
            die(f"{option} {clean(path)} and {seen[ident][0]} {clean(seen[ident][1])} are one file: "
                "give each output its own")
        if ident in ins:
            die(f"{option} {clean(path)} is the input {clean(ins[ident])}: it would be overwritten")
        seen[ident] = (option, path)


def in_place(path):
    """Written where it is rather than through a temporary: a link, or anything that is not a regular
    file (a device such as /dev/stdout or /dev/full, a FIFO, a socket)."""
    try:
        return os.path.islink(path) or not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False
    except OSError:
        return os.path.lexists(path)


def _end_on_signal(sig, _frame):
    """SIGTERM or SIGHUP: exit 128 + SIG through SystemExit, so that the atexit handlers remove the temporaries
    (the default action would end the process with them left beside the outputs)."""
    sys.exit(128 + sig)


def _remove_temporaries_on_signals():
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) == signal.SIG_DFL:   # an inherited SIG_IGN (nohup) stays ignored
            signal.signal(sig, _end_on_signal)


class Output:
    """One output opened before any work (a bad path costs nothing) and written whole or not at all:
    "-" is stdout; see in_place() for what is written in place; a regular file through a unique temporary
    beside it (tempfile in the same folder, so never shared by two runs) that keeps the file's mode and
    is renamed over it once written, flushed and synced. WHAT names the output in messages."""
    def __init__(self, path, what, binary=False):
        self.path, self.what, self.tmp = path, what, None
        mode = "wb" if binary else "w"
        if path != "-" and os.path.islink(path) and os.path.isfile(path):
            # a link to a regular file: the file is replaced whole (written in place it kept the old file's
            # tail past the new end), the link stays a link, as vkbench's own result files do
            path = self.path = os.path.realpath(path)
        try:
            if path == "-":
                if isinstance(sys.stdout, ClosedStdout) or sys.stdout is None:
                    raise OSError(9, "it is closed")
                self.f = sys.stdout.buffer if binary else sys.stdout
            elif in_place(path):
                # a FIFO with no reader would block for ever: open without blocking, then write normally
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
                os.set_blocking(fd, True)
                self.f = os.fdopen(fd, mode, **({} if binary else {"encoding": "utf-8"}))
            else:
                folder = os.path.dirname(path) or "."
                try:
                    perm = stat.S_IMODE(os.stat(path).st_mode)
                except FileNotFoundError:
                    umask = os.umask(0)
                    os.umask(umask)
                    perm = 0o666 & ~umask
                _remove_temporaries_on_signals()
                fd, self.tmp = tempfile.mkstemp(dir=folder, prefix=".vkb-", suffix=".tmp")
                atexit.register(self.discard)
                os.fchmod(fd, perm)
                self.f = os.fdopen(fd, mode, **({} if binary else {"encoding": "utf-8"}))
        except OSError as e:
            reason = "no reader on the FIFO" if e.errno == errno.ENXIO else e.strerror
            die(f"cannot write stdout: {reason}" if path == "-" else f"cannot write {clean(path)} ({what}): {reason}",
                WRITE)

    def discard(self):
        """No temporary left behind when a tool stops half-way."""
        if self.tmp and os.path.exists(self.tmp):
            os.unlink(self.tmp)

    def finish(self, data=None):
        """Write DATA (if any), then make the output whole: flush, sync and rename a temporary."""
        try:
            if data is not None:
                self.f.write(data)
            self.f.flush()
            if self.tmp:
                os.fsync(self.f.fileno())
                self.f.close()
                os.replace(self.tmp, self.path)
                self.tmp = None
            elif self.path != "-":
                self.f.close()
        except BrokenPipeError:
            raise
        except OSError as e:
            self.discard()
            die(f"cannot write stdout: {e.strerror}" if self.path == "-" else
                f"cannot write {clean(self.path)} ({self.what}): {e.strerror}", WRITE)


class ClosedStdout:
    """Stands for a stdout that was closed when the tool started (Python makes it None and print()
    silently drops everything): the first write is an error, said in one line."""
    def write(self, _):
        raise OSError(9, "it is closed")

    def flush(self):
        pass


def run_main(main):
    """Run MAIN and exit with its code: a closed pipe (`| head`) ends quietly like SIGPIPE (141); a full
    or closed stdout is one line and exit 6; no traceback."""
    real = sys.stdout is not None
    if not real:
        sys.stdout = ClosedStdout()
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # stdout's reader went away: drop what is buffered, exit like a tool killed by SIGPIPE
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
    except OSError as e:
        if real:    # a full or a bad stdout: what is still buffered cannot be written either
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        die(f"cannot write stdout: {e.strerror}", WRITE)
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(code or 0)
