"""vkbbaseline.py - a `vkbench health --baseline` file from the results store's healthy history: the GPU verdicts of
the stored health runs (a failed GPU sets no baseline) in the form `vkbench health --json` writes them, turned into
the file by tools/fleet.py's own rule (fleet.baseline_text), so that both paths write the same baseline."""
import fleet
import vkbstore


def verdicts(db, last=None):
    """The stored GPU verdicts of the LAST health runs per device (all where None), as (who, verdict) pairs for
    fleet.baseline_text: model, driver, verdict, rows."""
    gpus = vkbstore.select(db, "SELECT h.run_id, h.device_id, h.verdict, d.model, d.driver FROM health h JOIN device d "
                           "ON d.id = h.device_id JOIN run u ON u.id = h.run_id ORDER BY u.started DESC, u.id DESC")
    kept, count = [], {}
    for g in gpus:
        count[g["device_id"]] = count.get(g["device_id"], 0) + 1
        if last is not None and count[g["device_id"]] > last:
            continue
        rows = vkbstore.select(db, "SELECT family, variant, backend, status, value FROM result WHERE run_id = ? AND "
                               "device_id = ? ORDER BY ordinal", (g["run_id"], g["device_id"]))
        kept.append((f"the store's health run {g['run_id']}, device {g['device_id']}", {"model": g["model"], "driver": g["driver"], "verdict": g["verdict"],
                     "rows": [{"row": f"{r['family']}/{r['variant']}" + ("" if r["backend"] == "vulkan" else
                                                                        f"@{r['backend']}"),
                               "status": r["status"], "metric": r["value"]} for r in rows]}))
    return kept


def text(db, last=None):
    return fleet.baseline_text(verdicts(db, last))
