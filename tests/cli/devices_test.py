#!/usr/bin/python3
"""devices_test.py VKBENCH CASE: --device all|LIST on lavapipe. Two devices come from two driver manifests that
name the same lavapipe library (VK_DRIVER_FILES): the loader lists two devices, each run on its own thread with
its own Vulkan context. Only `validate` (no timing) is judged, so no verdict depends on the machine's load.
Exit 77: skipped (no lavapipe manifest, no device)."""
import json
import os
import re
import subprocess
import sys
import tempfile

from testcheck import check

LVP = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
WORK = ["validate", "copy", "transpose", "--n", "1000,4097", "--size", "33"]


def run(args, env=None, two=False):
    """(exit code, stdout, stderr, JSON document or None, CSV lines) of vkbench ARGS with --json and --csv."""
    tmp = tempfile.mkdtemp()
    e = dict(os.environ, **(env or {}))
    if two:
        a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
        for p in (a, b):
            with open(LVP) as src, open(p, "w") as dst:
                dst.write(src.read())
        e["VK_DRIVER_FILES"] = f"{a}:{b}"
        e.pop("VK_ICD_FILENAMES", None)
    js, csv = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.csv")
    p = subprocess.run([VKBENCH, *args, "--json", js, "--csv", csv], capture_output=True, text=True, env=e,
                       timeout=600)
    if p.returncode == 3 and "no Vulkan" in p.stderr:
        print("no Vulkan device")
        sys.exit(77)
    doc = json.load(open(js)) if os.path.exists(js) else None
    lines = open(csv).read().splitlines() if os.path.exists(csv) else []
    return p.returncode, p.stdout, p.stderr, doc, lines


def outcome(r):
    """What a validate result says, device aside: row, verdict, error and tolerance."""
    c = r.get("check") or {}
    return (r["family"], r["variant"], r["shape_text"], r["backend"], r["status"], r.get("max_error"),
            r.get("tolerance"), c.get("checked"), c.get("wrong"))


def by_device(doc):
    out = {}
    for r in doc["results"]:
        out.setdefault(r["device_index"], []).append(outcome(r))
    return out


def case_all_equals_one():
    """--device all on lavapipe alone is --device 0: the same results, the same identity."""
    one = run(WORK + ["--device", "0"])
    every = run(WORK + ["--device", "all"])
    check(one[0] == 0 and every[0] == 0, "both pass", one[2], every[2])
    check(by_device(one[3]) == by_device(every[3]) and list(by_device(every[3])) == [0],
          "the same results on device 0", by_device(one[3]), by_device(every[3]))
    d = every[3]["devices"][0]
    check(d["index"] == 0 and re.fullmatch(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", d["uuid"]) and d["host"]
          and "pci_bus" in d and re.fullmatch(r"2\.([1-9]|[1-9][0-9])\.[0-9]+", every[3]["schema_version"]), "device identity in the JSON", d)
    check("-- device 0: llvmpipe" in every[1], "the table names the device", every[1])


def case_two_devices():
    """Two devices at once, under the validation layer (synchronization validation included): each device's
    results are those of a one-device run; the JSON is one valid document
    whatever the interleaving; every CSV line whole; each device's tables under its name."""
    one = run(WORK + ["--device", "0"])
    code, out, err, doc, lines = run(WORK + ["--device", "all", "--validation"], two=True)
    check(code == 0, "two devices pass, no validation-layer message", err)
    per = by_device(doc)
    check(sorted(per) == [0, 1] and per[0] == per[1] == by_device(one[3])[0], "each device's results are a "
          "one-device run's", per)
    check([d["index"] for d in doc["devices"]] == [0, 1], "two devices listed", doc["devices"])
    header = lines[0].split(",")
    check(len(lines) == 1 + len(doc["results"]) and header[-7:] == ["device_index", "uuid", "pci_bus", "driver",
          "host", "robustness", "values"], "a CSV line per result, identity columns, robustness, values",
          lines[:2])
    # each table printed whole under its device's line: a family's table never interleaves with another's
    chunks = re.split(r"^-- device (\d+): ", out, flags=re.M)[1:]
    tables = sorted(dev for dev, body in zip(chunks[0::2], chunks[1::2]) if "== " in body)
    check(tables == ["0", "0", "1", "1"], "a table per family per device", out[:3000])
    for body in chunks[1::2]:
        check(body.count("== ") <= 1, "at most one family per chunk", body)


def case_wrong_device():
    """VKB_FAULT_INJECT=wrong-device:1: device 1's rows fail, device 0's do not; exit 1."""
    code, out, err, doc, _ = run(WORK + ["--device", "all"], env={"VKB_FAULT_INJECT": "wrong-device:1"}, two=True)
    st = {}
    for r in doc["results"]:
        st.setdefault(r["device_index"], set()).add(r["status"])
    check(code == 1 and st == {0: {"ok"}, 1: {"fail"}}, "only device 1 fails", code, st, err)


def case_device_lost():
    """A device lost in the middle of the run (VKB_FAULT_INJECT=device-lost:1, after its first case): its other
    rows fail with the reason, device 0 finishes every row, the JSON is whole, marked interrupted and names the
    error, exit 5 (an API error)."""
    code, out, err, doc, _ = run(WORK + ["--device", "all"], env={"VKB_FAULT_INJECT": "device-lost:1"}, two=True)
    rows = {0: [], 1: []}
    for r in doc["results"]:
        rows[r["device_index"]].append(r)
    check(code == 5, f"exit 5, got {code}", err)
    check(len(rows[0]) == len(rows[1]) and all(r["status"] == "ok" for r in rows[0]), "device 0 finished", rows[0])
    lost = rows[1][1:]
    check(rows[1][0]["status"] == "ok" and lost and all(
        r["status"] == "fail" and "device failed: vkQueueSubmit: VK_ERROR_DEVICE_LOST" in r["check"]["reason"]
        for r in lost), "device 1: its first row ok, the others failed with the reason", rows[1][:3])
    check(re.search(r"^vkbench: error: device 1 \(llvmpipe.*\): vkQueueSubmit: VK_ERROR_DEVICE_LOST", err, re.M),
          "one line names the device and the error", err)
    # the run did not do all its work: the document says so and names the error, as one device's does
    check(doc["interrupted"] is True and re.match(r"device 1 \(llvmpipe.*\): vkQueueSubmit: VK_ERROR_DEVICE_LOST",
                                                  doc["error"] or ""), "the document marked interrupted with the error",
          doc.get("interrupted"), doc.get("error"))
    check(all("VK_ERROR_DEVICE_LOST" in (r["error"] or "") for r in lost), "each lost row carries the error", lost[:2])


if __name__ == "__main__":
    cases = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}
    if len(sys.argv) != 3 or sys.argv[2] not in cases:
        sys.exit(f"usage: devices_test.py VKBENCH {'|'.join(cases)}")
    VKBENCH = sys.argv[1]
    if not os.path.exists(LVP):
        print(f"no lavapipe manifest at {LVP}")
        sys.exit(77)
    cases[sys.argv[2]]()
    print(f"{sys.argv[2]} ok")
