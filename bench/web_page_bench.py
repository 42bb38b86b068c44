#!/usr/bin/python3
"""web_page_bench.py - the page's figures (a benchmark, not a test: the
targets are checked by eye in the table, never by CTest), measured in
Debian's headless chromium through chromedriver and python3-selenium:

  size     the HTML file `sortnet web` writes (and gzipped)
  first    first frame after opening the file from disk: the page's
           'sn-first-frame' performance mark (ms from navigation start),
           over fresh loads
  verdict  edit mode's verdict for networks of n <= 16: from the request to
           the worker's answer in the page (total), and the check alone
           inside the worker
  best:32  the same proof in the page against native `sortnet check
           best:32` (its own "seconds"), as a ratio
  fps      bitonic:64 playing (frames counted over the whole play) and
           stepped (a synchronous frame per step: frames the page could
           draw per second), with the slowest frame's build + paint time

Usage (from the repository root, after a build with -DSORTNET_WEB=ON):

    /usr/bin/python3 bench/web_page_bench.py [build/src/cli/sortnet]

Debian's python3 (/usr/bin/python3) has selenium; a pyenv one may not."""
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

S = sys.argv[1] if len(sys.argv) > 1 else "build/src/cli/sortnet"
WAIT = 120
tmp = tempfile.mkdtemp()


def browser():
    o = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False})
    return d


def web(name, *args):
    path = os.path.join(tmp, name + ".html")
    subprocess.run([S, "web", *args, "-o", path], check=True)
    return path


def load(d, path):
    d.get("file://" + path)
    WebDriverWait(d, WAIT).until(lambda d: d.execute_script(
        "return performance.getEntriesByName('sn-first-frame').length > 0 && window.snReady"))
    return d.execute_script("return performance.getEntriesByName('sn-first-frame')[0].startTime")


def open_net(d, name):
    d.execute_script("document.getElementById('net-name').value = arguments[0];"
                     "document.getElementById('net-open').click()", name)
    WebDriverWait(d, WAIT).until(lambda d: d.execute_script(
        "return window.snState && window.snState.name === arguments[0]", name))


def verdict(d, name):
    """Open name, enter edit mode, wait for the worker's answer: (total, check) ms."""
    open_net(d, name)
    n = d.execute_script("return window.snVerdictMs.length")
    d.execute_script("document.getElementById('edit').click()")
    WebDriverWait(d, WAIT).until(lambda d: d.execute_script(
        "return window.snVerdictMs.length > arguments[0] && window.snState.edit &&"
        " window.snState.verdict_kind !== 'checking'", n))
    v = d.execute_script("return window.snVerdictMs[window.snVerdictMs.length - 1]")
    kind = d.execute_script("return window.snState.verdict_kind")
    d.execute_script("document.getElementById('edit').click()")  # leave edit mode
    return v["total"], v["check"], kind


def main():
    rows = []
    page = web("page")
    size = os.path.getsize(page)
    with open(page, "rb") as f:
        gz = len(gzip.compress(f.read(), 9))
    rows.append(("size", "%.0f KB (%.0f KB gzipped)" % (size / 1024, gz / 1024), "< 1.5 MB"))

    d = browser()
    try:
        firsts = [load(d, page) for _ in range(7)]
        rows.append(("first frame", "median %.0f ms (min %.0f, max %.0f, 7 loads)"
                     % (statistics.median(firsts), min(firsts), max(firsts)), "< 1000 ms"))

        cold = verdict(d, "best:4")  # the first request starts the worker
        rows.append(("verdict best:4, cold", "%.1f ms (the worker started, then checked in %.1f ms)"
                     % (cold[0], cold[1]), "< 100 ms"))
        worst = 0
        for name in ("best:8", "best:12", "best:16", "bitonic:16", "oddeven-merge:16",
                     "pairwise:16", "insertion:16", "bubble:13"):
            runs = [verdict(d, name) for _ in range(3)]
            total = statistics.median(r[0] for r in runs)
            check = statistics.median(r[1] for r in runs)
            worst = max(worst, total)
            rows.append(("verdict " + name, "%.1f ms (check %.1f ms in the worker; %s)"
                         % (total, check, runs[0][2]), "< 100 ms"))

        runs = [verdict(d, "best:32") for _ in range(5)]
        page32 = statistics.median(r[1] for r in runs)
        total32 = statistics.median(r[0] for r in runs)
        native = {}
        for threads in ("all", "1"):  # all cores (the default), one thread (as the page)
            ms = []
            for _ in range(5):
                opt = ["--threads", threads] if threads != "all" else []
                r = subprocess.run([S, "check", "best:32", "--json", *opt],
                                   capture_output=True, text=True, check=True)
                ms.append(json.loads(r.stdout)["seconds"] * 1000)
            native[threads] = statistics.median(ms)
        rows.append(("best:32 proof", "page %.2f ms in the worker (%.1f ms from the request); "
                     "native %.2f ms all cores, %.2f ms one thread: page/native %.1fx, %.1fx"
                     % (page32, total32, native["all"], native["1"], page32 / native["all"],
                        page32 / native["1"]), "< 5000 ms"))

        open_net(d, "bitonic:64")
        layers = d.execute_script("return window.snState.layers")
        # stepping: one synchronous frame per step, every step, 5 times over
        ms = d.execute_script("""
            const t0 = performance.now();
            for (let r = 0; r < 5; r++) for (let k = 0; k <= arguments[0]; k++) window.snStepTo(k);
            return performance.now() - t0;""", layers)
        frames = 5 * (layers + 1)
        slow = d.execute_script("return Math.max(...window.snDrawMs.slice(-%d))" % frames)
        rows.append(("bitonic:64 stepped", "%.0f frames/s possible (%.1f ms a frame, slowest %.1f)"
                     % (1000 * frames / ms, ms / frames, slow), ">= 60"))
        # playing: frames counted in the page from the click to the play's end
        d.set_script_timeout(WAIT)
        d.execute_script("document.getElementById('home').click()")
        f, el = d.execute_async_script("""
            const done = arguments[arguments.length - 1], f0 = window.snFrames, t0 = performance.now();
            let started = false;
            document.getElementById('play').click();
            (function poll() {
              if (window.snState.playing) started = true;
              if (started && !window.snState.playing) done([window.snFrames - f0, performance.now() - t0]);
              else requestAnimationFrame(poll);
            })();""")
        slow = d.execute_script("return Math.max(...window.snDrawMs.slice(-%d))" % min(600, f))
        # the browser's own ceiling: animation frames of an idle page
        idle = d.execute_async_script("""
            const done = arguments[arguments.length - 1], t0 = performance.now();
            let n = 0;
            (function tick(t) { if (t - t0 < 2000) { n++; requestAnimationFrame(tick); } else done(n / 2); })(t0);""")
        rows.append(("bitonic:64 playing", "%.0f frames/s over %.1f s (slowest frame %.1f ms); "
                     "this browser's ceiling %.0f frames/s" % (f * 1000 / el, el / 1000, slow, idle), ">= 60"))
    finally:
        d.quit()

    w = max(len(r[0]) for r in rows)
    print("%-*s  %s  [target]" % (w, "what", "measured"))
    for what, got, target in rows:
        print("%-*s  %s  [%s]" % (w, what, got, target))


if __name__ == "__main__":
    main()
