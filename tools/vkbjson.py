"""vkbjson.py - reading vkbench JSON files (shared by compare.py, plot.py and report.py)."""
import json
import math
import sys


def load(path):
    """The document at PATH, with a readable error instead of a traceback."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{sys.argv[0]}: cannot read {path}: {e}")
    if doc.get("tool") != "vkbench" or doc.get("schema_version") != 1:
        sys.exit(f"{sys.argv[0]}: {path} is not a vkbench JSON file (schema 1)")
    return doc


def timed(doc):
    """Results that were validated and timed."""
    return [r for r in doc["results"] if r["status"] == "ok" and r.get("time_ms")]


def key(r, with_backend=True):
    k = (r["family"], r["variant"], r["shape_text"])
    return k + (r["backend"],) if with_backend else k


def rel_spread(r):
    """Relative standard deviation of the timing samples (0 when unknown)."""
    t = r["time_ms"]
    return t["stddev"] / t["median"] if t["median"] else 0.0


def device_name(doc, backend=None):
    for d in doc["devices"]:
        if backend is None or d["backend"] == backend:
            return d["name"]
    return "?"


def fmt(x, digits=1):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"
