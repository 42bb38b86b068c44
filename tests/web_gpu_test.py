#!/usr/bin/python3
"""web_gpu_test.py - the page's "Run on this GPU" (issue 35) in a real
browser: Debian's chromium, headless, with --enable-unsafe-webgpu (a WebGPU
adapter backed by SwiftShader, a CPU implementation of the GPU API), driven
by chromedriver through python3-selenium, the page loaded from disk.

  - identical, layer by layer and in the final array, to the WebAssembly
    reference: bitonic:8 (the button; the GPU's keys against `sortnet run`),
    oddeven-merge:1000 with payload, best:64 (opened in the page, u32),
    transposition:100, a random network from a file (opened through the
    page's file control), 2^16 f32 keys with NaNs and signed zeros with
    payload;
  - an injected fault is found at its layer, in a fused (workgroup-tile)
    pass, in a one-layer pass and through the page's fault control;
  - a kernel that does not compile, a buffer over the limit, an unknown
    network, keys that do not fit, the device lost: one clear line, the
    page keeps working and the next run works;
  - without the flag: the "not available" line, and the page steps and
    opens networks as before.

Every wait is for a condition, never a fixed time. Exit 77 (skipped) only
when chromium, chromedriver or selenium is missing. If chromium offers no
WebGPU adapter even with the flag, the test FAILS saying so (set
SN_WEBGPU_OPTIONAL=1 to skip instead). Environment: SORTNET (the binary)."""
import json
import os
import random
import sys

from web_driver import WAIT, browser, fail, finish, page, sortnet, tmp
from selenium.webdriver.support.ui import WebDriverWait

RUN_WAIT = 600  # one GPU run on SwiftShader on a busy machine


def gpu_browser(webgpu):
    return browser(flags=("--enable-unsafe-webgpu",) if webgpu else (), script_timeout=RUN_WAIT)


def load(d, path):
    d.get("file://" + path)
    WebDriverWait(d, WAIT).until(lambda d: d.execute_script(
        "return (window.snReady === true && window.snGpu && window.snGpu.available !== null)"
        " || document.getElementById('error').textContent !== ''"))
    err = d.find_element("id", "error").text
    if err:
        fail("%s: the page opened with an error: %s" % (os.path.basename(path), err))


def gpu(d):
    return d.execute_script("return window.snGpu")


def run(d, what, opts):
    """window.snGpuRun(opts) (opts: a JS object literal); its snGpu."""
    r = d.execute_async_script(
        "const cb = arguments[arguments.length - 1]; window.snGpuRun(%s).then(cb)" % opts)
    line = d.find_element("id", "gpu-line").text
    if r.get("message") and r["message"] not in line:
        fail("%s: the page's line %r does not say %r" % (what, line, r["message"]))
    return r


def identical(d, what, opts, n=None, layers=None):
    r = run(d, what, opts)
    if not r.get("identical"):
        fail("%s: not identical: %s" % (what, json.dumps(r)))
        return r
    if not r.get("adapter") or "identical on " + r["adapter"] not in r["message"]:
        fail("%s: the message does not name the adapter: %r" % (what, r["message"]))
    if n is not None and r.get("n") != n:
        fail("%s: %s keys, expected %d" % (what, r.get("n"), n))
    if layers is not None and r.get("layers") != layers:
        fail("%s: %s layers, expected %d" % (what, r.get("layers"), layers))
    print("ok: %s: %s" % (what, r["message"]))
    return r


def faulted(d, what, opts, layer):
    r = run(d, what, opts)
    if r.get("identical") is not False or r.get("first_layer") != layer:
        fail("%s: the fault after layer %d was not found there: %s" % (what, layer, json.dumps(r)))
    elif "layer %d" % layer not in d.find_element("id", "gpu-line").text:
        fail("%s: the line does not name layer %d" % (what, layer))
    else:
        print("ok: %s: %s" % (what, r["message"]))
    return r


def cli_layers(net):
    return json.loads(sortnet("info", net, "--json").stdout)["depth"]


def test_with_webgpu(d):
    load(d, page("gpu", "bitonic:8", "--reverse"))
    g = gpu(d)
    if not g.get("available"):
        print("FAIL: chromium offers no WebGPU adapter even with --enable-unsafe-webgpu "
              "(SwiftShader WebGPU did not start here): %s" % g.get("reason"))
        if os.environ.get("SN_WEBGPU_OPTIONAL") == "1":
            sys.exit(77)
        sys.exit(1)
    print("adapter:", g.get("adapter"))

    # the button, on the shown network and input; the GPU's keys are `sortnet run`'s
    d.find_element("id", "gpu-run").click()
    WebDriverWait(d, RUN_WAIT).until(lambda d: (gpu(d) or {}).get("status") not in ("running", "idle"))
    g = gpu(d)
    if not g.get("identical") or g.get("name") != "bitonic:8" or g.get("layers") != 6:
        fail("bitonic:8 by the button: %s" % json.dumps(g))
    out = sortnet("run", "bitonic:8", "--reverse").stdout
    want = [l.split()[1] for l in out.splitlines() if l.startswith("output:")][0].split(",")
    if g.get("final", [])[:8] != want:
        fail("bitonic:8: the GPU's keys %s, `sortnet run` %s" % (g.get("final"), want))
    for k in ("ratio", "gpu_ms", "wasm_ms"):
        if not isinstance(g.get(k), (int, float)) or g[k] <= 0:
            fail("bitonic:8: no timing %s: %s" % (k, json.dumps(g)))
    if "WebAssembly" not in g.get("message", "") or "GPU" not in g.get("message", ""):
        fail("bitonic:8: the timing is not in the message: %r" % g.get("message"))
    if not g.get("fused_passes"):
        fail("bitonic:8: no fused pass in the plan: %s" % json.dumps(g))
    print("ok: bitonic:8 (button):", g["message"])

    identical(d, "oddeven-merge:1000 with payload",
              '{net: "oddeven-merge:1000", payload: true, time: false}', 1000,
              cli_layers("oddeven-merge:1000"))
    identical(d, "transposition:100", '{net: "transposition:100", time: false}', 100, 100)

    # best:64 opened in the page, run as shown (u32 keys, payload) through the controls
    name = d.find_element("id", "net-name")
    name.clear()
    name.send_keys("best:64")
    d.find_element("id", "net-open").click()
    WebDriverWait(d, WAIT).until(lambda d: (d.execute_script("return window.snState") or {}).get("n") == 64)
    d.execute_script("document.getElementById('gpu-type').value = 'u32';"
                     "document.getElementById('gpu-payload').checked = true;")
    before = gpu(d).get("runs")
    d.find_element("id", "gpu-run").click()
    WebDriverWait(d, RUN_WAIT).until(lambda d: (gpu(d) or {}).get("runs") != before
                                     and gpu(d).get("status") not in ("running", "idle"))
    g = gpu(d)
    if not g.get("identical") or g.get("n") != 64 or g.get("type") != "u32" or not g.get("payload"):
        fail("best:64 shown, u32 with payload: %s" % json.dumps(g))
    else:
        print("ok: best:64 (shown, u32, payload):", g["message"])

    # a chosen n through the controls: the generator shown (bitonic) on 4096
    # keys, the f32 keys with NaNs and signed zeros
    d.execute_script("document.getElementById('net-gen').value = 'bitonic';"
                     "document.getElementById('gpu-type').value = 'f32s';"
                     "document.getElementById('gpu-payload').checked = false;"
                     "document.getElementById('gpu-n').value = '4096';")
    before = gpu(d).get("runs")
    d.find_element("id", "gpu-run").click()
    WebDriverWait(d, RUN_WAIT).until(lambda d: (gpu(d) or {}).get("runs") != before
                                     and gpu(d).get("status") not in ("running", "idle"))
    g = gpu(d)
    if not g.get("identical") or g.get("n") != 4096 or g.get("type") != "f32" or g.get("name") != "bitonic:4096":
        fail("n = 4096 through the controls, f32 with NaNs: %s" % json.dumps(g))
    else:
        print("ok: n = 4096 through the controls (f32, NaNs, +-0):", g["message"])
    d.execute_script("document.getElementById('gpu-n').value = '';")

    # a random network from a file, opened through the page's file control
    rnd = random.Random(35)
    n = 37
    layers = []
    for _ in range(60):
        wires = list(range(n))
        rnd.shuffle(wires)
        m = rnd.randint(1, n // 2)
        layers.append([sorted(wires[2 * i:2 * i + 2]) for i in range(m)])
    path = os.path.join(tmp, "random.json")
    with open(path, "w") as f:
        json.dump({"N": n, "nw": layers}, f)
    d.find_element("id", "file").send_keys(path)
    WebDriverWait(d, WAIT).until(lambda d: (d.execute_script("return window.snState") or {}).get("n") == n)
    identical(d, "a random network from a file", '{input: "random:9", payload: true, time: false}', n, 60)

    # 2^16 f32 keys with NaNs of both signs, -0 and +0, infinities; payload
    identical(d, "2^16 f32 with NaNs and signed zeros",
              '{net: "bitonic:65536", type: "f32", input: "special:3", payload: true, time: false}',
              65536, cli_layers("bitonic:65536"))

    # faults: in a fused pass, in a one-layer pass (bitonic:4096 with tiles of
    # 1024: layer 56 is the mirror over 2048), the last layer, and f32
    faulted(d, "a fault in a fused pass", '{net: "bitonic:4096", inject: {layer: 20, index: 1000}, time: false}', 20)
    faulted(d, "a fault in a one-layer pass", '{net: "bitonic:4096", inject: {layer: 56, index: 9}, time: false}', 56)
    faulted(d, "a fault after the last layer", '{net: "bitonic:4096", inject: {layer: 78, index: 4095}, time: false}', 78)
    faulted(d, "a fault in f32 keys", '{net: "bitonic:1024", type: "f32", input: "special:1", inject: {layer: 7, index: 3}, time: false}', 7)
    r = faulted(d, "a fault with payload", '{net: "oddeven-merge:1000", payload: true, inject: {layer: 30, index: 999}, time: false}', 30)
    if r.get("index") != 999 or r.get("expected") is None or r.get("actual") == r.get("expected"):
        fail("the fault's index and values: %s" % json.dumps(r))
    # through the page's control: the shown network (bitonic:8 again), after layer 3
    name.clear()
    name.send_keys("bitonic:8")
    d.find_element("id", "net-open").click()
    WebDriverWait(d, WAIT).until(lambda d: (d.execute_script("return window.snState") or {}).get("n") == 8)
    d.execute_script("document.getElementById('gpu-type').value = 'i32';"
                     "document.getElementById('gpu-fault').value = '3';")
    before = gpu(d).get("runs")
    d.find_element("id", "gpu-run").click()
    WebDriverWait(d, RUN_WAIT).until(lambda d: (gpu(d) or {}).get("runs") != before
                                     and gpu(d).get("status") not in ("running", "idle"))
    line = d.find_element("id", "gpu-line").text
    if gpu(d).get("first_layer") != 3 or "first at layer 3" not in line:
        fail("the page's fault control: %r %s" % (line, json.dumps(gpu(d))))
    else:
        print("ok: the fault control:", line)
    d.execute_script("document.getElementById('gpu-fault').value = '';")

    # errors: one line naming the cause; the shown network stays and the page works
    shown = d.execute_script("return window.snState.name")
    for what, opts, want in (
            ("a kernel that does not compile", '{net: "bitonic:64", kernels: {fused: "fn broken( {"}}',
             "kernels/fused.wgsl:1:"),
            ("a buffer over the limit", '{net: "bitonic:4096", max_buffer: 4096}', "over this adapter's limit"),
            ("an unknown network", '{net: "nosuch:4"}', "unknown generator"),
            ("keys that do not fit", '{net: "bitonic:16", input: "bits:01"}', "input:"),
            ("too many keys", '{net: "bitonic:33554432"}', "at most 2^24"),
            ("a fault after no layer", '{net: "bitonic:8", inject: {layer: 7, index: 0}}', "layers 1 to 6"),
            ("the device lost", '{net: "bitonic:4096", lose: true}', "the GPU device was lost")):
        r = run(d, what, opts)
        if r.get("status") != "error" or want not in r.get("message", ""):
            fail("%s: expected an error saying %r: %s" % (what, want, json.dumps(r)))
        else:
            print("ok: %s: %s" % (what, r["message"]))
    if d.execute_script("return window.snState.name") != shown or d.find_element("id", "error").text:
        fail("after the GPU's errors the page changed: %s" % d.execute_script("return window.snState"))
    identical(d, "a run after the errors", '{net: "bitonic:64", time: false}', 64)


def test_without_webgpu(d):
    load(d, page("nogpu", "bitonic:8", "--reverse"))
    g = gpu(d)
    line = d.find_element("id", "gpu-line").text
    if g.get("available") is not False or "WebGPU is not available" not in line:
        fail("without the flag: %r %s" % (line, json.dumps(g)))
    if line.count("\n"):
        fail("without the flag: more than one line: %r" % line)
    if d.find_element("id", "gpu-run").is_enabled():
        fail("without the flag: the GPU button is enabled")
    # the rest of the page: stepping and opening a network
    d.find_element("id", "fwd").click()
    WebDriverWait(d, WAIT).until(lambda d: d.execute_script("return window.snState.step") == 1)
    name = d.find_element("id", "net-name")
    name.clear()
    name.send_keys("best:9")
    d.find_element("id", "net-open").click()
    WebDriverWait(d, WAIT).until(lambda d: d.execute_script("return window.snState.n") == 9)
    if d.find_element("id", "error").text:
        fail("without the flag: the page shows an error: %s" % d.find_element("id", "error").text)
    print("ok: without the flag:", line)


def main():
    d = gpu_browser(True)
    try:
        test_with_webgpu(d)
    finally:
        d.quit()
    d = gpu_browser(False)
    try:
        test_without_webgpu(d)
    finally:
        d.quit()
    return finish("web_gpu")


if __name__ == "__main__":
    sys.exit(main())
