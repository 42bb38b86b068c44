#!/usr/bin/python3
"""web_gpu_bench.py - the page's "Run on this GPU" (issue 35) against the
page's WebAssembly reference on the same keys: bitonic:2^k, random i32 keys
(seed 1), in Debian's headless chromium with --enable-unsafe-webgpu (on
this machine a SwiftShader adapter: the GPU API on the CPU). A benchmark,
not a test: nothing here is checked by CTest; docs/web.md has the figures.

Per size, through window.snGpuRun({net, verify: false}) (the final array is
still compared with the reference's):
  gpu   ms of the whole GPU run: keys uploaded, every pass (fused tile-local
        runs + one-layer passes), keys read back (median of the repeats)
  wasm  ms of sn_exec_run in the page's WebAssembly module (the reference
        executor, one thread), on a copy of the same keys (median)
  ratio wasm / gpu (above 1: the GPU is faster)
  gpu/unfused  the GPU run with every layer a pass of its own (fuse: false),
        up to --unfused-max (default 2^16)

Usage (from the repository root, after a build with -DSORTNET_WEB=ON):

    /usr/bin/python3 bench/web_gpu_bench.py [build/sortnet.html] [--from 12] [--to 20]
        [--repeat 3] [--unfused-max 16]"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ap = argparse.ArgumentParser()
ap.add_argument("page", nargs="?", default="build/sortnet.html")
ap.add_argument("--from", dest="lo", type=int, default=12)
ap.add_argument("--to", dest="hi", type=int, default=20)
ap.add_argument("--repeat", type=int, default=3, help="runs per size up to 2^16 (1 above)")
ap.add_argument("--unfused-max", type=int, default=16)
a = ap.parse_args()

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
o = Options()
o.binary_location = CHROMIUM
for f in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--enable-unsafe-webgpu"):
    o.add_argument(f)
d = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=o)
d.set_script_timeout(3600)
d.get("file://" + os.path.abspath(a.page))
WebDriverWait(d, 120).until(lambda d: d.execute_script(
    "return window.snReady && window.snGpu && window.snGpu.available !== null"))
g = d.execute_script("return window.snGpu")
if not g.get("available"):
    sys.exit("no WebGPU adapter: %s" % g.get("reason"))
version = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip()
print("adapter: %s; %s; %d CPUs (load %.1f)" % (g["adapter"], version, os.cpu_count(), os.getloadavg()[0]))


def run(opts):
    r = d.execute_async_script(
        "const cb = arguments[arguments.length - 1]; window.snGpuRun(%s).then(cb)" % json.dumps(opts))
    if r.get("status") != "identical":
        sys.exit("%s: %s" % (opts, r.get("message")))
    return r


rows = []
print("| keys | layers | passes (fused) | GPU ms | WebAssembly ms | ratio | GPU ms, unfused |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for k in range(a.lo, a.hi + 1):
    net = "bitonic:%d" % (1 << k)
    reps = a.repeat if k <= 16 else 1
    t0 = time.time()
    rs = [run({"net": net, "input": "random:1", "verify": False}) for _ in range(reps)]
    gpu = statistics.median(r["gpu_ms"] for r in rs)
    wasm = statistics.median(r["wasm_ms"] for r in rs)
    unf = ""
    if k <= a.unfused_max:
        us = [run({"net": net, "input": "random:1", "verify": False, "fuse": False})["gpu_ms"]
              for _ in range(reps)]
        unf = "%.1f" % statistics.median(us)
    r = rs[0]
    print("| 2^%d | %d | %d (%d) | %.1f | %.2f | %.4f | %s |" % (
        k, r["layers"], r["passes"], r["fused_passes"], gpu, wasm, wasm / gpu, unf), flush=True)
    print("  (%.0f s for this size)" % (time.time() - t0), file=sys.stderr, flush=True)
d.quit()
