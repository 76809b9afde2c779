"""vkbschema: the results file's JSON Schema (docs/vkbench.schema.json), loaded once, and a validator of the
subset of JSON Schema it uses (type, const, enum, required, properties, additionalProperties (a schema or false),
items, minItems, minimum, minLength, pattern, anyOf, $ref), in python3's standard library alone. The schema is the one
description of the format; tests/check_json.py and tools/vkbjson.py both read it through this module. Another
format's schema in the same subset (docs/vkbench-health.schema.json) is read with load() and checked with
errors(..., root=THAT)."""
import json
import math
import os
import re
import sys

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "vkbench.schema.json")
with open(PATH, encoding="utf-8") as _f:
    SCHEMA = json.load(_f)


def load(name):
    """The schema docs/NAME, parsed."""
    with open(os.path.join(os.path.dirname(PATH), name), encoding="utf-8") as f:
        return json.load(f)


def definition(name):
    """The schema of one object of the format: "document" or one of $defs (result, device, time_ms, ...)."""
    return SCHEMA if name == "document" else SCHEMA["$defs"][name]


def _is(kind, x):
    # a number is what a double holds: no infinity or NaN, no 400-digit integer (Python's int has no bound)
    number = type(x) in (int, float) and (math.isfinite(x) if type(x) is float else abs(x) <= sys.float_info.max)
    return {"null": x is None, "boolean": type(x) is bool, "string": isinstance(x, str),
            "object": isinstance(x, dict), "array": isinstance(x, list), "number": number,
            "integer": number and (type(x) is int or x.is_integer())}[kind]


def _resolve(s, root):
    while "$ref" in s:
        s = root["$defs"][s["$ref"].rsplit("/", 1)[-1]]
    return s


def errors(x, s=None, where="document", skip_since=(), root=None):
    """Every way X breaks schema S (default: the whole document of ROOT), as "where: what" strings, first found
    first. SKIP_SINCE: minor versions ("2.1") whose required additions (x-since) are not required here. ROOT: the
    schema whose $defs a $ref names (default: the results file's)."""
    root = SCHEMA if root is None else root
    s = _resolve(root if s is None else s, root)
    if "anyOf" in s:
        alts = [errors(x, a, where, skip_since, root) for a in s["anyOf"]]
        return [] if any(not a for a in alts) else min(alts, key=len)
    if "const" in s and x != s["const"]:
        return [f"{where}: {x!r} is not {s['const']!r}"]
    if "enum" in s and x not in s["enum"]:
        return [f"{where}: {x!r} is not one of {', '.join(map(str, s['enum']))}"]
    if "type" in s:
        kinds = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(_is(k, x) for k in kinds):
            return [f"{where}: not {' or '.join(kinds)}" + (" (not finite)" if isinstance(x, float) else "")]
    out = []
    if isinstance(x, (int, float)) and not isinstance(x, bool) and "minimum" in s and x < s["minimum"]:
        out.append(f"{where}: {x} is below {s['minimum']}")
    if isinstance(x, str):
        if len(x) < s.get("minLength", 0):
            out.append(f"{where}: empty")
        if "pattern" in s and not re.search(s["pattern"], x):
            out.append(f"{where}: {x!r} does not match {s['pattern']}")
    if isinstance(x, list):
        if len(x) < s.get("minItems", 0):
            out.append(f"{where}: fewer than {s['minItems']} items")
        if "items" in s:
            for i, v in enumerate(x):
                out += errors(v, s["items"], f"{where}[{i}]", skip_since, root)
    if isinstance(x, dict):
        skipped = {k for v in skip_since for k in s.get("x-since", {}).get(v, [])}
        out += [f"{where}: no {k}" for k in s.get("required", []) if k not in x and k not in skipped]
        props = s.get("properties", {})
        for k, v in x.items():
            if k in props:
                out += errors(v, props[k], f"{where}.{k}", skip_since, root)
            elif isinstance(s.get("additionalProperties"), dict):
                out += errors(v, s["additionalProperties"], f"{where}.{k}", skip_since, root)
            elif s.get("additionalProperties") is False:
                out.append(f"{where}: {k} is not a field of this format")
    return out
