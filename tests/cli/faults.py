#!/usr/bin/env python3
"""faults.py --vkbench CMD... --exe BINARY --tmp DIR CASE: one fault that a line of the bad-input battery
cannot express (descriptors closed, a reader gone, a signal at a moment, a FIFO, links, a file-size limit, a
stuck device), run against vkbench; exit 0 when vkbench kept its promise (README: exit codes, result files),
1 when not, 3 (ctest's skip) where there is no Vulkan device. `faults.py --list` names the cases."""
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time

RUN = ["--reps", "1", "--warmup-ms", "0", "--quiet"]
NO_DEVICE = ("no Vulkan loader", "no Vulkan driver", "no Vulkan device")
SANITIZER = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "runtime error:")


class Skip(Exception):
    pass


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def vk(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=None,
       preexec=None, pass_fds=(), timeout=300):
    """Run vkbench; returns (code, stdout text or None, stderr text)."""
    e = dict(os.environ, **(env or {}))
    p = subprocess.run(VKBENCH + args, stdin=stdin, stdout=stdout, stderr=stderr, env=e, preexec_fn=preexec,
                       pass_fds=pass_fds, timeout=timeout)
    err = (p.stderr or b"").decode(errors="replace")
    check(not any(s in err for s in SANITIZER), f"a sanitizer report: {err}")
    if p.returncode == 3 and any(s in err for s in NO_DEVICE):
        raise Skip(err.strip())
    out = p.stdout.decode(errors="replace") if isinstance(p.stdout, bytes) else None
    return p.returncode, out, err


def one_error_line(err, code):
    lines = [l for l in err.splitlines() if l.startswith("vkbench: error: ")]
    check(len(lines) == 1 and err.rstrip("\n").splitlines()[-1] == lines[0],
          f"exit {code} wants exactly one error line, the last: {err!r}")
    return lines[0]


def leftovers():
    """Temporary files a run left in the scratch folder (result files are named *.json / *.csv)."""
    return [n for n in os.listdir(TMP) if ".json." in n or ".csv." in n or n.startswith(".vkb.")]


def fresh(name, text=None):
    path = os.path.join(TMP, name)
    if os.path.lexists(path):
        os.unlink(path)
    if text is not None:
        with open(path, "w") as f:
            f.write(text)
    return path


def load(path):
    with open(path) as f:
        return json.load(f)


def closed_fd(fd):
    return lambda: os.close(fd)


# --- descriptors closed (item 1) ---
def case_stdout_closed():
    """stdout closed: the table never lands in the result file; the JSON is the JSON, exit 0."""
    path = fresh("closed1.json")
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", path] + RUN, stdout=None, preexec=closed_fd(1))
    check(code == 0, f"exit {code}: {err}")
    check(load(path)["results"], "no results in the JSON")


def case_stderr_closed():
    """stderr closed, progress on: the progress lines never land in the result file."""
    path = fresh("closed2.csv")
    code, _, _ = vk(["run", "copy", "--n", "1000", "--reps", "1", "--warmup-ms", "0", "--csv", path], stderr=None,
                    preexec=closed_fd(2))
    check(code == 0, f"exit {code}")
    with open(path) as f:
        check(f.readline().startswith("family,variant,"), "the CSV does not start with its header")


def case_stdout_closed_json_dash():
    """--json - on a closed stdout: the results are lost, so it is an error (exit 6), not silence."""
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", "-"] + RUN, stdout=None, preexec=closed_fd(1))
    check(code == 6, f"exit {code}, not 6: {err}")
    check("standard output" in one_error_line(err, code), err)


# --- one file, two outputs; links; descriptor names (items 2, 7) ---
def case_same_file_link():
    """--json FILE --csv LINK-TO-FILE: one file named twice through a link: exit 2, nothing written."""
    target = fresh("same.json", "GOOD")
    link = fresh("same_link.csv")
    os.symlink(target, link)
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", target, "--csv", link] + RUN)
    check(code == 2 and "one file" in one_error_line(err, code), f"exit {code}: {err}")
    check(open(target).read() == "GOOD", "the file was written")


def case_dev_stdout_pipe():
    """--json /dev/stdout (and /proc/self/fd/1) into a pipe: the JSON on stdout, the table on stderr."""
    for name in ("/dev/stdout", "/proc/self/fd/1"):
        code, out, err = vk(["run", "copy", "--n", "1000", "--json", name] + RUN, stdout=subprocess.PIPE)
        check(code == 0, f"{name}: exit {code}: {err}")
        check(json.loads(out)["results"], f"{name}: stdout is not the JSON document")
        check("== copy" in err, f"{name}: the table did not move to stderr")


def case_stdout_is_the_file():
    """--json out.json > out.json: one stream, written in place; the table moves to stderr."""
    path = fresh("redirected.json")
    with open(path, "w") as f:
        code, _, err = vk(["run", "copy", "--n", "1000", "--json", path] + RUN, stdout=f)
    check(code == 0, f"exit {code}: {err}")
    check(load(path)["results"], "the file is not the JSON document")
    check("== copy" in err, "the table did not move to stderr")


def case_link_followed():
    """A link to a file: the file is replaced, the link stays a link; mode and a long name kept."""
    target = fresh("target.json", "OLD")
    os.chmod(target, 0o640)
    link = fresh("link.json")
    os.symlink(os.path.basename(target), link)
    long_name = fresh("y" * 250 + ".json")   # 255 bytes: the temporary's name must still fit NAME_MAX
    for path in (link, long_name):
        code, _, err = vk(["run", "copy", "--n", "1000", "--json", path] + RUN)
        check(code == 0, f"{path}: exit {code}: {err}")
        check(load(path)["results"], f"{path}: not the JSON document")
    check(os.path.islink(link), "the link was replaced by a file")
    check(stat.S_IMODE(os.stat(target).st_mode) == 0o640, "the file's mode was not kept")
    check(not leftovers(), f"temporary files left: {leftovers()}")
    os.unlink(long_name)


def case_dangling_link():
    """A link to a missing file: refused with the reason (exit 6), the link untouched."""
    link = fresh("dangling.json")
    os.symlink("missing-target.json", link)
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", link] + RUN)
    check(code == 6 and "missing" in one_error_line(err, code), f"exit {code}: {err}")
    check(os.path.islink(link) and not os.path.exists(os.path.join(TMP, "missing-target.json")), "link changed")


def case_executable():
    """--json naming the vkbench executable: refused (exit 2), the binary untouched."""
    before = os.stat(EXE)
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", EXE] + RUN)
    check(code == 2 and "executable" in one_error_line(err, code), f"exit {code}: {err}")
    check(os.stat(EXE).st_ino == before.st_ino, "the executable was replaced")


# --- FIFOs (item 11) ---
def case_fifo_no_reader():
    """A FIFO no process reads: one line and exit 6 at once, before any work (never a wait for ever)."""
    fifo = fresh("noreader.fifo")
    os.mkfifo(fifo)
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", fifo] + RUN, timeout=60)
    check(code == 6 and "FIFO" in one_error_line(err, code), f"exit {code}: {err}")


def case_fifo_with_reader():
    """A FIFO with a reader: written in place, the reader gets the whole document."""
    fifo = fresh("reader.fifo")
    os.mkfifo(fifo)
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)   # the reader is there before vkbench opens it
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", fifo] + RUN)
    text = os.read(fd, 1 << 16).decode()   # a small document: whole in the FIFO's buffer once vkbench ends
    os.close(fd)
    check(code == 0, f"exit {code}: {err}")
    check(json.loads(text)["results"], "the reader did not get the document")
    check(stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO was replaced")


# --- signals (items 5, 6) ---
def case_signal_before_device():
    """SIGTERM after the files are opened, before the device: exit 143, the last good file kept."""
    path = fresh("early.json", "GOOD")
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", path] + RUN,
                      env={"VKB_FAULT_INJECT": "signal-early:15"})
    check(code == 143, f"exit {code}, not 143: {err}")
    check(open(path).read() == "GOOD" and not leftovers(), "the last good file was not kept as it was")


def case_signal_at_close():
    """SIGHUP after the last case, while the files are closed: the files are whole, exit 129."""
    path = fresh("late.json", "OLD")
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", path] + RUN, env={"VKB_FAULT_INJECT": "signal-late:1"})
    check(code == 129, f"exit {code}, not 129: {err}")
    check(len(load(path)["results"]) == 3 and not leftovers(), "the file is not whole")   # api, stream, vec4


def case_second_signal():
    """A second SIGINT while the files are still open: exit 130 at once, the temporaries removed, the last
    good file kept (two raises in the process: both delivered, whatever the timing)."""
    path = fresh("twice.json", "GOOD")
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", path] + RUN, env={"VKB_FAULT_INJECT": "signal-twice:2"})
    check(code == 130, f"exit {code}, not 130: {err}")
    check(open(path).read() == "GOOD" and not leftovers(), "the last good file was not kept as it was")


def case_descriptor_append():
    """--json /dev/fd/3 with descriptor 3 open for appending to a file: written through the descriptor, after
    what the file held (never a temporary renamed over the file)."""
    path = fresh("appended.log", "HEAD\n")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        code, _, err = vk(["run", "copy", "--n", "1000", "--json", "/dev/fd/%d" % fd] + RUN, pass_fds=(fd,))
    finally:
        os.close(fd)
    check(code == 0, f"exit {code}: {err}")
    text = open(path).read()
    check(text.startswith("HEAD\n") and json.loads(text[5:])["results"], "not HEAD then the JSON document")


def default_signals():
    """In the child: the signals a test sends at their defaults (a CI job started in the background has
    SIGINT ignored, and vkbench rightly keeps an inherited SIG_IGN)."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


def signal_run(args, sigs, want, n="1000"):
    """Start a run that would take 10 minutes, send SIGS once its first case has begun (-v names the case's
    pipelines on stderr, after the files are open and the device made): exit WANT well within the limit (a
    timing-free verdict: the run alone would take 600 s), no temporary left, the file an interrupted document."""
    path = fresh("signalled.json", "GOOD")
    p = subprocess.Popen(VKBENCH + ["run", "copy", "--n", n, "--json", path, "-v"] + args,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=default_signals)
    seen = []
    for line in p.stderr:
        seen.append(line.decode(errors="replace"))
        if "pipeline" in seen[-1]:
            break
    else:
        p.wait()
        if p.returncode == 3 and any(s in "".join(seen) for s in NO_DEVICE):
            raise Skip("".join(seen))
        fail(f"the run ended (exit {p.returncode}) before its first case: {''.join(seen)}")
    for s in sigs:
        p.send_signal(s)
    try:
        err = p.communicate(timeout=120)[1].decode()
    except subprocess.TimeoutExpired:
        p.kill()
        fail(f"{[signal.Signals(s).name for s in sigs]} did not end the run within 120 s")
    check(p.returncode == want, f"exit {p.returncode}, not {want}: {err}")
    check(not any(s in err for s in SANITIZER), f"a sanitizer report: {err}")
    check(not leftovers(), f"temporary files left: {leftovers()}")
    text = open(path).read()
    check(text == "GOOD" or json.loads(text)["interrupted"] is True, "the file is neither the last good one nor "
          "an interrupted document")


def case_sigterm_in_warmup():
    """SIGTERM during a 600 s warm-up: the case ends (exit 143), the file says interrupted."""
    signal_run(["--warmup-ms", "600000", "--reps", "1"], [signal.SIGTERM], 143)


def case_sigint_in_repetitions():
    """SIGINT during 10^6 repetitions of a 4 MiB copy (about 1000 s on lavapipe): the case ends (exit 130)."""
    signal_run(["--warmup-ms", "0", "--reps", "1000000"], [signal.SIGINT], 130, n="1M")


def case_sigint_twice():
    """Two SIGINTs: exit 130 at once, no temporary file left."""
    signal_run(["--warmup-ms", "600000", "--reps", "1"], [signal.SIGINT, signal.SIGINT], 130)


def case_sighup():
    """SIGHUP (a closed terminal): as SIGTERM, exit 129."""
    signal_run(["--warmup-ms", "600000", "--reps", "1"], [signal.SIGHUP], 129)


LVP = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"


def lavapipe_times(n):
    """The environment that lists lavapipe N times (N driver manifests naming the one library: the loader gives
    N devices, each run on its own thread with its own context)."""
    if not os.path.exists(LVP):
        raise Skip("no lavapipe manifest")
    files = []
    for i in range(n):
        files.append(os.path.join(TMP, f"lvp{i}.json"))
        shutil.copyfile(LVP, files[-1])
    return {"VK_DRIVER_FILES": ":".join(files), "VK_ICD_FILENAMES": ""}


def several_signal_run(ndev, sigs, want, fault="stuck-fence", preexec=default_signals, stdout=subprocess.DEVNULL,
                       timing=("--warmup-ms", "600000", "--reps", "1")):
    """--device all on NDEV lavapipes, SIGS sent once every device has begun its first case. With the planted
    stuck fence every device waits on a fence that never signals (the case of a kernel running for minutes):
    each one is past the stop grace at the same moment, and one coordinated stop must end the process with
    an exit code in WANT, never a crash (SIGSEGV, SIGABRT "double free"). Deterministic: the run alone would wait 600 s.
    The JSON and CSV are either the last good files (a second signal) or whole documents marked interrupted."""
    jpath, cpath = fresh("several.json", "GOOD"), fresh("several.csv", "GOOD")
    # a stop waits for a device's work until its timeout: the stuck fence never signals, so 5 s after it
    # began each device is left busy (its work and resources as they are) and the process ends
    env = dict(os.environ, **lavapipe_times(ndev), VKB_DEVICE_TIMEOUT_S="5")
    if fault:
        env["VKB_FAULT_INJECT"] = fault
    if SANITIZED:   # a device thread still stuck in its case at the signal's exit is left, with that case's memory,
        # to the OS (by design: nothing it holds is safe to free from another thread); every other sanitizer
        # finding still fails the case, and every other run is checked for leaks
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    p = subprocess.Popen(VKBENCH + ["run", "copy", "--n", "1000", "--device", "all", "--json", jpath, "--csv", cpath,
                                    "-v", *timing],
                         stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE, env=env, preexec_fn=preexec)
    seen = []
    for line in p.stderr if sigs else ():   # no signal to send: the run stops by itself
        seen.append(line.decode(errors="replace"))
        if "".join(seen).count("pipeline") >= ndev:   # -v: each device names its first case's pipelines
            break
    else:
        if sigs:
            p.wait()
            if p.returncode == 3 and any(s in "".join(seen) for s in NO_DEVICE):
                raise Skip("".join(seen))
            fail(f"the run ended (exit {p.returncode}) before every device began: {''.join(seen)[-3000:]}")
    for s in sigs:
        p.send_signal(s)
    try:
        err = p.communicate(timeout=120)[1].decode(errors="replace")
    except subprocess.TimeoutExpired:
        p.kill()
        fail(f"{[signal.Signals(s).name for s in sigs]} did not end {ndev} devices' run within 120 s")
    check(p.returncode in want, f"{ndev} devices, {[signal.Signals(s).name for s in sigs]}: exit {p.returncode}, "
          f"not {want}: {err[-3000:]}")
    check(not any(s in err for s in SANITIZER), f"a sanitizer report: {err}")
    check(not leftovers(), f"temporary files left: {leftovers()}")
    text = open(jpath).read()
    check(text == "GOOD" or json.loads(text)["interrupted"] is True, "the JSON is neither the last good file nor "
          "an interrupted document")
    csv = open(cpath).read()
    check(csv == "GOOD" or (csv.startswith("family,") and csv.endswith("\n")), "the CSV is not whole")
    return text, csv


def case_devices_sigterm():
    """SIGTERM while 2, 3 and 8 devices are each stuck in a submission: exit 143, the files whole."""
    for ndev in (2, 3, 8):
        text, _ = several_signal_run(ndev, [signal.SIGTERM], {143})
        check(text != "GOOD", f"{ndev} devices: one signal, yet the files were not written")


def mid_dispatch_stop(ndev, sig, k, delay=0.3):
    """--device all on NDEV lavapipes running matmul naive at 256x256xK, SIG sent once every device has reached
    the row (its last progress line before it) and a moment more: each device is then inside one dispatch of about
    2 s (the work is split between the devices). With --validation, freeing a buffer or pipeline the device still
    runs is a validation message, and Mesa 26's lavapipe crashes (SIGSEGV in the shader code) when it is freed
    or the process ends under it. 1 when the stop came while a device was busy, 0 when it came before, -1 when the
    run had ended before it (a dispatch shorter than DELAY)."""
    jpath = fresh("mid.json", "GOOD")
    env = dict(os.environ, **lavapipe_times(ndev), VKB_DEVICE_TIMEOUT_S="120", VKB_CACHE_PROBE="0")
    if SANITIZED:   # the shape's inputs stay with the stopped device (runner.c): not a leak
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    p = subprocess.Popen(VKBENCH + ["run", "matmul", "--variant", "naive", "--m", "256", "--n", "256", "--k",
                                    str(k), "--reps", "1", "--warmup-ms", "0", "--device", "all", "--validation",
                                    "--json", jpath],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                         preexec_fn=default_signals)
    seen = []
    for line in p.stderr:
        seen.append(line.decode(errors="replace"))
        if "".join(seen).count("matmul/tc_peak_acc16") >= ndev:
            break
    else:
        p.wait()
        if p.returncode == 3 and any(s in "".join(seen) for s in NO_DEVICE):
            raise Skip("".join(seen))
        fail(f"the run ended (exit {p.returncode}) before every device began: {''.join(seen)[-3000:]}")
    time.sleep(delay)   # inputs and the checked run's submission: the dispatch is under way
    p.send_signal(sig)
    try:
        err = "".join(seen) + p.communicate(timeout=200)[1].decode(errors="replace")
    except subprocess.TimeoutExpired:
        p.kill()
        fail(f"{signal.Signals(sig).name} did not end {ndev} devices' run within 200 s")
    if p.returncode == 0 and '"interrupted": false' in open(jpath).read():
        return -1   # the run was over before the signal came: the dispatch was shorter than the wait
    check(p.returncode == 128 + sig, f"{ndev} devices, {signal.Signals(sig).name} mid-dispatch: exit "
          f"{p.returncode}, not {128 + sig}: {err[-3000:]}")
    check("validation error" not in err, f"{ndev} devices: what a busy device ran was freed: {err[-3000:]}")
    check(not any(s in err for s in SANITIZER), f"a sanitizer report: {err}")
    check("vkbench: error:" not in err, f"a stop is not a device's failure, yet an error line: {err[-2000:]}")
    doc = load(jpath)
    check(doc["interrupted"] is True and not doc.get("error"), f"the JSON of a stop: interrupted {doc['interrupted']}"
          f", error {doc.get('error')!r} (a stop is no device's error)")
    return int("a device was still busy" in err)


def case_devices_stop_mid_dispatch():
    """SIGTERM, SIGINT and SIGHUP while 2, 3 and 8 devices each run a real dispatch of seconds: the stop waits
    for the work before anything it uses is freed (exit 128 + the signal, no validation message, the JSON
    interrupted without an error), 5 times each; at least one stop of each count came mid-dispatch (the wait
    after the last progress line and the dispatch grow after a stop that found no device busy)."""
    sigs = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGINT]
    for ndev in (2, 3, 8):
        # a loaded machine makes the inputs slower than the wait after the last progress line: a stop that came
        # before the dispatch waits longer the next time, so that the stops land inside it however busy the host
        # a machine faster than the dispatch was sized for ends the run before the signal (the next dispatch 4
        # times longer) or the dispatch within the stop's grace (twice as long, the signal later); every stop that
        # came is judged, and 5 must come
        busy, stops, delay, k, tries = 0, 0, 0.3, 4096 // ndev, 0
        while stops < len(sigs) and tries < 3 * len(sigs):
            hit = mid_dispatch_stop(ndev, sigs[stops], k, delay)
            tries += 1
            if hit < 0:
                k *= 4
                continue
            stops += 1
            busy += hit
            if not hit:   # before the dispatch, or a dispatch that ended within the stop's grace: longer, later
                k, delay = 2 * k, min(2 * delay, 2.4)
        check(stops == len(sigs), f"{ndev} devices: only {stops} of {len(sigs)} stops came before the run ended")
        print(f"{ndev} devices: {busy} of {stops} stops came while a device was busy (k {k})")
        check(busy > 0, f"{ndev} devices: no stop came while a device was busy: the dispatch is too short to test")


def case_devices_mixed_signals():
    """Mixed sequences while 3 devices are busy: SIGINT and SIGTERM end at once with the second one handled (130
    or 143: two signals sent together are handled in either order); SIGPIPE and SIGINT stop with SIGINT (130,
    SIGPIPE only asks); SIGTERM and SIGPIPE with SIGTERM (143)."""
    for sigs, want in (([signal.SIGINT, signal.SIGTERM], {130, 143}), ([signal.SIGPIPE, signal.SIGINT], {130}),
                       ([signal.SIGTERM, signal.SIGPIPE], {143})):
        several_signal_run(3, sigs, want)


def case_devices_sigpipe_ignored():
    """SIGPIPE inherited as ignored, stdout a pipe nobody reads, 2 devices: vkbench still stops (141), no crash."""
    def ignore_sigpipe():
        default_signals()
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    r, w = os.pipe()
    os.close(r)
    try:
        several_signal_run(2, [], {141}, fault=None, preexec=ignore_sigpipe, stdout=w, timing=RUN[:4])
    finally:
        os.close(w)


def case_devices_output_unwritable():
    """--device all (2 devices) with --json on a full disk: exit 6 and one line that names the file and why."""
    code, _, err = vk(["run", "copy", "--n", "1000", "--device", "all", "--json", "/dev/full"] + RUN,
                      env=lavapipe_times(2))
    line = one_error_line(err, code)
    check(code == 6 and "/dev/full" in line and "No space left" in line, f"exit {code}: {err}")


def case_devices_lost():
    """--device all (2 devices), each stuck (VKB_DEVICE_TIMEOUT_S=1): exit 5; the JSON names the error and is
    marked interrupted, every failed case carries it, the CSV ends with its `# error` line."""
    jpath, cpath = fresh("lost.json"), fresh("lost.csv")
    code, _, err = vk(["run", "copy", "--n", "1000", "--device", "all", "--json", jpath, "--csv", cpath] + RUN,
                      env=dict(lavapipe_times(2), VKB_FAULT_INJECT="stuck-fence", VKB_DEVICE_TIMEOUT_S="1"),
                      timeout=120)
    check(code == 5, f"exit {code}, not 5: {err}")
    doc = load(jpath)
    check(doc["interrupted"] is True and "did not finish" in (doc["error"] or ""), "the JSON does not carry the "
          f"error: error {doc['error']!r}, interrupted {doc['interrupted']!r}")
    failed = [r for r in doc["results"] if r["status"] == "fail"]
    check(failed and all("did not finish" in (r["error"] or "") for r in failed), "a failed case has no error")
    check(open(cpath).read().splitlines()[-1].startswith("# error: "), "the CSV has no error line")


def case_host_control():
    """VKB_HOST with an escape sequence and a newline: the table and the CSV show '?' for each control character,
    never the raw bytes (they would reach the terminal, or split a CSV row)."""
    cpath = fresh("host.csv")
    code, out, err = vk(["run", "copy", "--n", "1000", "--device", "all", "--csv", cpath] + RUN[:4],
                        stdout=subprocess.PIPE, env={"VKB_HOST": "node\x1b[31m1\nx"})
    check(code == 0, f"exit {code}: {err}")
    check("node?[31m1?x" in out and "\x1b" not in out, f"the table: {out!r}")
    csv = open(cpath).read()
    check("node?[31m1?x" in csv and "\x1b" not in csv, f"the CSV: {csv!r}")


def case_nohup():
    """SIGHUP ignored by whoever started vkbench (nohup): it stays ignored, the run ends normally (exit 0)."""
    path = fresh("nohup.json")
    p = subprocess.Popen(VKBENCH + ["run", "copy", "--n", "1000", "--json", path, "-v"] + RUN[:4],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    for line in p.stderr:
        if b"pipeline" in line:
            p.send_signal(signal.SIGHUP)
            break
    err = p.communicate(timeout=300)[1].decode()
    if p.returncode == 3 and any(s in err for s in NO_DEVICE):
        raise Skip(err)
    check(p.returncode == 0, f"exit {p.returncode}, not 0: {err}")
    check(not load(path)["interrupted"], "the run was interrupted")


def case_sigpipe():
    """The reader of stdout gone: exit 141 without an error line, for --json - and for the table; the JSON file
    whole. A SIGPIPE after the cases keeps every result in the file."""
    path = fresh("pipe.json")
    for args in (["--json", "-"], ["--json", path]):
        r, w = os.pipe()
        os.close(r)   # no reader at all: every write fails, whatever the timing
        try:
            code, _, err = vk(["run", "copy", "--n", "1000,2000"] + RUN + args, stdout=w)
        finally:
            os.close(w)
        check(code == 141, f"{args}: exit {code}, not 141: {err}")
        check("vkbench: error:" not in err, f"{args}: an error line for a reader that went away: {err}")
    # the table's first line (the device) precedes the first case: the run stops before measuring, and the
    # file is a whole document that says so
    check(load(path)["interrupted"] and not leftovers(), "the JSON file was not written whole")
    r, w = os.pipe()
    os.close(r)
    try:   # the reader of the progress lines (stderr) gone
        code, _, _ = vk(["run", "copy", "--n", "1000,2000", "--reps", "1", "--warmup-ms", "0"], stderr=w)
    finally:
        os.close(w)
    check(code == 141, f"progress to a closed pipe: exit {code}, not 141")
    # SIGPIPE after the last case, while the files are closed: the results measured are all in the file
    path = fresh("pipe-late.json", "OLD")
    code, _, err = vk(["run", "copy", "--n", "1000,2000", "--json", path] + RUN,
                      env={"VKB_FAULT_INJECT": "signal-late:13"})
    check(code == 141 and "vkbench: error:" not in err, f"SIGPIPE after the cases: exit {code}, not 141: {err}")
    check(len(load(path)["results"]) == 6 and not leftovers(), "the JSON file was not written whole")


def case_stuck_fence():
    """A fence no submission signals: the case fails with the error after VKB_DEVICE_TIMEOUT_S (exit 5), the
    files record it ("error" on the case and the document, a comment line in the CSV)."""
    jpath, cpath = fresh("stuck.json"), fresh("stuck.csv")
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", jpath, "--csv", cpath] + RUN, timeout=120,
                      env={"VKB_FAULT_INJECT": "stuck-fence", "VKB_DEVICE_TIMEOUT_S": "1"})
    check(code == 5 and "VKB_DEVICE_TIMEOUT_S" in one_error_line(err, code), f"exit {code}: {err}")
    doc = load(jpath)
    check(doc["interrupted"] and "did not finish" in (doc["error"] or ""), "the JSON does not carry the error")
    check(doc["results"] and doc["results"][-1]["status"] == "fail" and doc["results"][-1]["error"],
          "the case in progress does not carry the error")
    check(open(cpath).read().splitlines()[-1].startswith("# error: "), "the CSV has no error line")


# --- limits (items 9, 14) ---
def case_file_size_limit():
    """ulimit -f: a write fails with EFBIG (SIGXFSZ ignored): exit 6, one line, the last good file kept."""
    path = fresh("fsize.json", "GOOD")
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", path] + RUN,
                      preexec=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000)))
    check(code == 6 and "too large" in one_error_line(err, code).lower(), f"exit {code}: {err}")
    check(open(path).read() == "GOOD" and not leftovers(), "the last good file was not kept")


def case_both_files_fail():
    """--json and --csv both failing: one error line naming both, exit 6."""
    path = fresh("both.csv")
    code, _, err = vk(["run", "copy", "--n", "1000", "--json", "/dev/full", "--csv", path] + RUN,
                      preexec=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200)))
    line = one_error_line(err, code)
    check(code == 6 and "/dev/full" in line and "both.csv" in line, f"exit {code}: {err}")


def case_stdout_full():
    """stdout on a full disk: exit 6 with one line (the table would be lost)."""
    with open("/dev/full", "w") as full:
        code, _, err = vk(["list"], stdout=full)
    check(code == 6 and "standard output" in one_error_line(err, code), f"exit {code}: {err}")


def case_address_space():
    """ulimit -v 1000000 (about 1 GB): a small run fits (the results are sized from the work list)."""
    if SANITIZED:
        raise Skip("the sanitizers reserve terabytes of address space")
    code, _, err = vk(["run", "copy", "--n", "1000"] + RUN,
                      preexec=lambda: resource.setrlimit(resource.RLIMIT_AS, (1000000 << 10, 1000000 << 10)))
    check(code == 0, f"exit {code}: {err}")


def case_address_space_tiny():
    """ulimit -v 100000 (about 100 MB, too little for a driver): the line says what failed and names the
    limit, not "install a driver", and holds no source path."""
    if SANITIZED:
        raise Skip("the sanitizers reserve terabytes of address space")
    code, _, err = vk(["run", "copy", "--n", "1000"] + RUN,
                      preexec=lambda: resource.setrlimit(resource.RLIMIT_AS, (100000 << 10, 100000 << 10)))
    if code == 0:
        raise Skip("this driver loads within 100 MB of address space")
    line = one_error_line(err, code)
    check(code in (3, 4, 5) and "ulimit -v" in line and "install" not in line and ".c:" not in line,
          f"exit {code}: {err}")


def case_dry_run_creates_nothing():
    """--dry-run with --json, --csv and --sass: checks the paths, creates nothing."""
    sass = fresh("sass_dry")
    code, _, err = vk(["run", "copy", "--n", "1000", "--dry-run", "--quiet", "--json", fresh("dry.json"), "--csv",
                       fresh("dry.csv"), "--sass", sass], stdout=subprocess.PIPE)
    check(code == 0, f"exit {code}: {err}")
    check(not os.path.exists(sass) and not os.path.exists(os.path.join(TMP, "dry.json")), "the dry run created files")


def case_refused_creates_no_sass():
    """A request the device refuses (a copy of 10^15 floats: exit 4) with --sass DIR/SUB: the folders are not
    created; a request that runs creates them."""
    sass = os.path.join(fresh("sass_refused"), "sub")
    code, _, err = vk(["run", "copy", "--n", "1e15", "--sass", sass] + RUN)
    check(code == 4, f"exit {code}, not 4: {err}")
    check(not os.path.exists(os.path.dirname(sass)), "a refused request created the --sass folder")
    code, _, err = vk(["run", "copy", "--n", "1000", "--sass", sass] + RUN)
    check(code == 0 and os.path.isdir(sass), f"a run did not create the --sass folder: exit {code}: {err}")


def case_columns_minimum():
    """COLUMNS below the documented minimum (80) is taken as 80: the table is laid out as at 80."""
    heads = []
    for cols in ("40", "80"):
        code, out, err = vk(["run", "memory.stride", "--n", "1000", "--stride", "2"] + RUN, stdout=subprocess.PIPE,
                            env={"COLUMNS": cols})
        check(code == 0, f"COLUMNS={cols}: exit {code}: {err}")
        lines = out.splitlines()
        heads.append(lines[:next(i for i, l in enumerate(lines) if l.startswith("variant")) + 1])
        check(max(len(l) for l in lines) <= 80, f"COLUMNS={cols}: a line longer than 80")
    check(heads[0] == heads[1], f"COLUMNS=40 is not laid out as 80: {heads}")


CASES = {n[5:]: f for n, f in sorted(globals().items()) if n.startswith("case_")}

if __name__ == "__main__":
    a = sys.argv[1:]
    if a == ["--list"]:
        print(" ".join(CASES))
        sys.exit(0)
    VKBENCH = a[a.index("--vkbench") + 1].split()
    EXE = a[a.index("--exe") + 1]
    name = a[-1]
    TMP = os.path.join(a[a.index("--tmp") + 1], name)   # a folder per case: cases run side by side
    SANITIZED = "--sanitized" in a
    shutil.rmtree(TMP, ignore_errors=True)   # what an earlier, killed run left is not this run's
    os.makedirs(TMP)
    try:
        CASES[name]()
    except Skip as s:
        print(f"skip: {s}")
        sys.exit(3)
    print(f"ok: {name}")
