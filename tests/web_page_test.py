#!/usr/bin/python3
"""web_page_test.py - the page (`sortnet web`) in a real browser: Debian's
chromium, headless, driven by chromedriver through python3-selenium, the
page loaded from disk (file://) as a teacher would open it.

  - bitonic:8 on 8,7,...,1: three steps show the values `sortnet run
    --trace` prints after layers 1, 2 and 3; every text is painted as wide
    as the layout measured it (the font is DejaVu Sans); the exports parse
    and a download button saves a file;
  - empty:4: a sorting network built by clicks (wire positions read from
    the engine's scene, window.snScene) is "sorts", answered by the Web
    Worker; with one comparator deleted, "does NOT sort" with the
    counterexample `sortnet check` gives, one that the network (by hand
    and `sortnet run`) leaves unsorted;
  - a malformed pasted network: FILE:LINE:COLUMN in #error, the network
    shown stays; a JSON syntax error names its line and column; a JSON
    file opened keeps its n;
  - typed values that do not parse and n over the page's limit: one
    clear line, the network and input shown stay;
  - a lesson played to its last step;
  - on a phone (mobile emulation, 390 x 844 at 3x): no text past the
    canvas with the 0-1 panel, structure labels or edit mode on, the
    controls apart, inside the screen and at least 24 px high, hidden
    values said in the notes line, a lesson's input in the Input control,
    edit mode's rows apart, a pinch zooming.

Every wait is for a condition (WebDriverWait, 60 s), never a fixed sleep.
Exit 77 (skipped) only when chromium, chromedriver or selenium is missing.
Environment: SORTNET (the binary)."""
import json
import os
import re
import sys

from web_driver import WAIT, browser, fail, failures, finish, page, sortnet, state, tmp, until
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_actions import PointerActions
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROLE_WIRE, ROLE_COMPARATOR = 8, 10


def phone():
    """A phone held upright: 390 x 844 CSS pixels at 3 device pixels each."""
    return browser(mobile={"width": 390, "height": 844, "pixelRatio": 3})


def load(d, path):
    d.get("file://" + path)
    WebDriverWait(d, WAIT).until(lambda d: d.execute_script(
        "return window.snReady === true || document.getElementById('error').textContent !== ''"))
    err = d.find_element("id", "error").text
    if err:
        fail("%s: the page opened with an error: %s" % (os.path.basename(path), err))
    if not d.execute_script("return performance.getEntriesByName('sn-first-frame').length"):
        WebDriverWait(d, WAIT).until(lambda d: d.execute_script(
            "return performance.getEntriesByName('sn-first-frame').length > 0"))


def key(d, k):
    d.find_element("id", "canvas").send_keys(k)


def click_at(d, x, y):
    """A click at (x, y) CSS pixels of the canvas (real pointer events)."""
    c = d.find_element("id", "canvas")
    r = d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", c)
    ActionChains(d).move_to_element_with_offset(c, int(x - r[0] / 2), int(y - r[1] / 2)).click().perform()


def test_steps(d):
    """Three steps of bitonic:8 against `sortnet run --trace`."""
    want = json.loads(sortnet("run", "bitonic:8", "--input", "8,7,6,5,4,3,2,1", "--trace",
                              "--json").stdout)["layers"]
    load(d, page("steps", "bitonic:8", "--input", "8,7,6,5,4,3,2,1"))
    s = until(d, "bitonic:8 opens at step 0", lambda s: s.get("step") == 0)
    if s and s["values"] != [8, 7, 6, 5, 4, 3, 2, 1]:
        fail("step 0 shows %s" % s["values"])
    # the text the page paints has the boxes the layout measured: the
    # browser's DejaVu Sans at the primitive's size and weight
    worst = d.execute_script("""
        const c = document.createElement('canvas').getContext('2d');
        let worst = null;
        for (const p of window.snScene()) {
          if (p.kind !== 4 || !p.text) continue;
          c.font = (p.weight ? 'bold ' : '') + p.size + 'px "DejaVu Sans", sans-serif';
          const off = Math.abs(c.measureText(p.text).width - (p.x1 - p.x0)) / (p.x1 - p.x0);
          if (!worst || off > worst.off) worst = {off, text: p.text, box: p.x1 - p.x0};
        }
        return worst;""")
    if not worst or worst["off"] > 0.03:
        fail("painted text is not the width the layout measured: %s" % worst)
    # what the downloads hold: the network in every format, the diagram as SVG
    exp = d.execute_script("return ['bracket', 'json', 'sn', 'svg'].map(window.snExport)")
    if not exp[0] or exp[0].count("\n") != 6:
        fail("bracket export: %r" % exp[0])
    if not exp[1] or json.loads(exp[1]).get("N") != 8:
        fail("JSON export: %r" % exp[1])
    if not exp[2] or not exp[2].startswith("Inputs: 8"):
        fail(".sn export: %r" % exp[2])
    if not exp[3] or "<svg" not in exp[3]:
        fail("SVG export: %r" % (exp[3] or "")[:200])
    # a download button saves that text as a file (a Blob download)
    dl = os.path.join(tmp, "downloads")
    os.makedirs(dl, exist_ok=True)
    d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": dl})
    d.find_element("id", "dl-sn").click()
    saved = os.path.join(dl, "bitonic_8.sn")
    try:
        WebDriverWait(d, WAIT).until(lambda d: os.path.exists(saved) and open(saved).read() == exp[2])
    except Exception:
        fail("the .sn download: %s holds %s" % (os.listdir(dl), [open(os.path.join(dl, f)).read()[:80] for f in os.listdir(dl)]))
    for k in (1, 2, 3):
        key(d, Keys.ARROW_RIGHT)
        s = until(d, "step %d" % k, lambda s, k=k: s.get("step") == k and not s.get("playing"))
        if s and s["values"] != want[k - 1]:
            fail("after layer %d the page shows %s, `sortnet run --trace` %s"
                 % (k, s["values"], want[k - 1]))


def test_bad_input(d):
    """Values that do not parse and n over the page's limit: one clear line, nothing lost."""
    load(d, page("input", "bitonic:8", "--input", "8,7,6,5,4,3,2,1"))
    before = until(d, "bitonic:8 opens", lambda s: s.get("n") == 8)
    if not before:
        return
    d.execute_script("document.getElementById('input-kind').value = 'list';"
                     "document.getElementById('input-value').value = '8,7,x,5,4,3,2,1';"
                     "document.getElementById('input-apply').click()")
    try:
        WebDriverWait(d, WAIT).until(lambda d: "'x'" in d.find_element("id", "error").text)
    except Exception:
        fail("typed values with an x: error line %r" % d.find_element("id", "error").text)
    if state(d)["values"] != before["values"]:
        fail("bad values changed the input shown: %s" % state(d)["values"])
    limit = d.execute_script("return window.snCatalog.max_n")
    d.execute_script("document.getElementById('net-name').value = arguments[0];"
                     "document.getElementById('net-open').click()", "bitonic:%d" % (limit + 1))
    try:
        WebDriverWait(d, WAIT).until(lambda d: str(limit) in d.find_element("id", "error").text)
    except Exception:
        fail("bitonic:%d: error line %r does not say the limit %d"
             % (limit + 1, d.find_element("id", "error").text, limit))
    if state(d)["name"] != "bitonic:8":
        fail("a refused network replaced the one shown: %s" % state(d)["name"])
    d.execute_script("document.getElementById('input-kind').value = 'sorted';"
                     "document.getElementById('input-kind').dispatchEvent(new Event('change'))")
    until(d, "sorted chosen at once", lambda s: s.get("values") == [1, 2, 3, 4, 5, 6, 7, 8])
    if d.find_element("id", "error").text:
        fail("a good input left the error line: %r" % d.find_element("id", "error").text)


def wires(d):
    w = {}
    for p in d.execute_script("return window.snScene(%d)" % ROLE_WIRE):
        if p["kind"] == 0 and p["wire"] >= 0:
            w[int(p["wire"])] = p
    return w


def wires_span(d):
    ys = sorted(p["y0"] for p in wires(d).values())
    return ys[-1] - ys[0] if ys else 0


def pinch(d, fx, fy, d0, d1):
    """Two touch pointers at (fx, fy) of the canvas (fractions), d0 CSS px
    above and below it, moved apart to d1 in five steps, then lifted."""
    c = d.find_element("id", "canvas")
    r = d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]", c)
    x, y = int(r[0] + r[2] * fx), r[1] + r[3] * fy
    ab = ActionBuilder(d, mouse=PointerInput(interaction.POINTER_TOUCH, "finger1"))
    f1, f2 = ab.pointer_action, PointerActions(ab.add_pointer_input(interaction.POINTER_TOUCH, "finger2"))
    f1.move_to_location(x, int(y - d0))
    f2.move_to_location(x, int(y + d0))
    f1.pointer_down()
    f2.pointer_down()
    for k in range(1, 6):
        off = d0 + (d1 - d0) * k / 5
        f1.move_to_location(x, int(y - off))
        f2.move_to_location(x, int(y + off))
    f1.pointer_up()
    f2.pointer_up()
    ab.perform()


def test_edit(d):
    """A sorting network of 4 wires built by clicks, then one comparator deleted."""
    load(d, page("edit", "empty:4"))
    if not until(d, "empty:4 opens", lambda s: s.get("n") == 4):
        return
    if not state(d)["edit"]:
        key(d, "e")
        until(d, "edit mode", lambda s: s.get("edit"))
    for i, (a, b) in enumerate([(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)]):
        w = wires(d)
        if a not in w or b not in w:
            return fail("wires %d and %d are not in the scene: %s" % (a, b, sorted(w)))
        # at the wires' right end: each new comparator goes after the others
        x = w[a]["x0"] + 0.9 * (w[a]["x1"] - w[a]["x0"])
        click_at(d, x, w[a]["y0"])
        click_at(d, x, w[b]["y0"])
        if not until(d, "comparator %d (%d,%d) added" % (i + 1, a, b), lambda s, i=i: s.get("size") == i + 1):
            return
    s = until(d, "the verdict on the built network",
              lambda s: s.get("verdict_kind") not in (None, "none", "checking"))
    if s and (s["verdict_kind"] != "sorts" or not s["verdict"].startswith("sorts")):
        fail("the built network: verdict %r (%s)" % (s["verdict"], s["verdict_kind"]))
    # the verdicts came from the Web Worker (a Blob URL, from file://), not the page's thread
    if not d.execute_script("return window.snVerdictMs.length"):
        fail("no verdict came from the worker")
    # select the last comparator (1,2) by a click on it, then Delete
    cmps = [p for p in d.execute_script("return window.snScene(%d)" % ROLE_COMPARATOR) if p["kind"] == 0]
    last = max(cmps, key=lambda p: p["cmp"]) if cmps else None
    if not last:
        return fail("no comparator lines in the scene")
    click_at(d, last["x0"], (last["y0"] + last["y1"]) / 2)
    key(d, Keys.DELETE)
    s = until(d, "the verdict after a delete",
              lambda s: s.get("size") == 4 and s.get("verdict_kind") in ("fails", "sorts", "unknown"))
    if not s:
        return
    text = d.execute_script("return window.snExport('bracket')")
    path = os.path.join(tmp, "edited.txt")
    with open(path, "w") as f:
        f.write(text)
    if s["verdict_kind"] != "fails" or "does NOT sort" not in s["verdict"]:
        fail("after the delete: verdict %r" % s["verdict"])
    # `sortnet check`: does not sort (exit 1), its counterexample n bits
    r = sortnet("check", path, "--json", check=False)
    got = json.loads(r.stdout) if r.stdout.strip() else {}
    bits = got.get("counterexample") or []
    cex = "".join(str(v) for v in bits)
    if r.returncode != 1 or got.get("sorts") is not False or not re.fullmatch("[01]{4}", cex):
        return fail("sortnet check on the edited network: exit %d, %s" % (r.returncode, r.stdout))
    # the page's is the same one, named in its verdict, and it fails the
    # network: the exported comparators applied to it by hand, and `sortnet
    # run` on it (the CPU's executor), leave it unsorted as check said
    if s.get("cex") != cex or cex not in s["verdict"]:
        fail("counterexample: page %r (%r), sortnet check %r" % (s.get("cex"), s["verdict"], cex))
    out = [int(c) for c in cex]
    for a, b in ((int(a), int(b)) for a, b in re.findall(r"\((\d+),(\d+)\)", text)):
        if out[a] > out[b]:
            out[a], out[b] = out[b], out[a]
    if out == sorted(out) or out != got.get("output"):
        fail("counterexample %s: the network makes %s, sortnet check says %s" % (cex, out, got.get("output")))
    r = sortnet("run", path, "--input", ",".join(cex), "--json", check=False)
    ran = json.loads(r.stdout) if r.stdout.strip() else {}
    if r.returncode != 1 or ran.get("sorted") is not False or ran.get("output") != out:
        fail("sortnet run on counterexample %s: exit %d, %s" % (cex, r.returncode, r.stdout))


def test_paste(d):
    """A malformed pasted network: FILE:LINE:COLUMN, nothing else lost."""
    load(d, page("paste", "bitonic:8"))
    before = until(d, "bitonic:8 opens", lambda s: s.get("n") == 8)
    if before and d.find_element("id", "net-gen").get_property("value") != "bitonic":
        fail("bitonic:8: the generator picker shows %r" % d.find_element("id", "net-gen").get_property("value"))
    d.find_element("id", "paste-toggle").click()
    box = d.find_element("id", "paste")
    box.clear()
    box.send_keys("[(0,1),(2,3)]\n[(1,x)]\n")
    d.find_element("id", "paste-open").click()
    try:
        WebDriverWait(d, WAIT).until(lambda d: d.find_element("id", "error").text)
    except Exception:
        return fail("a malformed paste: no error line")
    err = d.find_element("id", "error").text
    if not re.search(r"pasted:2:\d+", err):
        fail("a malformed paste: %r names no pasted:LINE:COLUMN" % err)
    after = state(d)
    if before and (after["name"], after["n"], after["size"]) != (before["name"], before["n"], before["size"]):
        fail("a malformed paste changed the network shown: %s -> %s" % (before["name"], after["name"]))
    # a JSON syntax error names its line and column too (read by the script)
    box.clear()
    box.send_keys('{"N":4,\n"nw":[[0,1] [2,3]]}')
    d.find_element("id", "paste-open").click()
    try:
        WebDriverWait(d, WAIT).until(lambda d: "2:13" in d.find_element("id", "error").text)
    except Exception:
        fail("a JSON syntax error: %r" % d.find_element("id", "error").text)
    # a JSON file opened from disk: read by the script, n kept (wire 4 idle)
    path = os.path.join(tmp, "five.json")
    with open(path, "w") as f:
        f.write('{"N":5,"nw":[[0,1],[2,3],[0,2],[1,3],[1,2]]}\n')
    d.find_element("id", "file").send_keys(path)
    s = until(d, "a JSON file opens", lambda s: s.get("n") == 5)
    if s and (s["size"], s["depth"]) != (5, 3):
        fail("five.json: size %s depth %s, expected 5 and 3" % (s["size"], s["depth"]))
    if s and d.find_element("id", "error").text:
        fail("five.json: the error line stayed: %r" % d.find_element("id", "error").text)
    # the generator picker says "other" for a file, not the generator shown before it
    gen = d.find_element("id", "net-gen").get_property("value")
    if s and gen != "":
        fail("five.json: the generator picker still shows %r" % gen)


def test_lesson(d):
    """The first shipped lesson, played step by step to its end."""
    load(d, page("lesson", "--lesson", "01"))
    s = until(d, "the lesson opens", lambda s: s.get("lesson"))
    if not s:
        return
    count = s["lesson"]["count"]
    for i in range(1, count):
        d.find_element("id", "lesson-next").click()
        s = until(d, "lesson step %d" % (i + 1), lambda s, i=i: (s.get("lesson") or {}).get("step") == i)
        if not s:
            return
        if not s["lesson"].get("caption"):
            fail("lesson step %d has no caption" % (i + 1))
    err = d.find_element("id", "error").text
    if err:
        fail("the lesson: error %r" % err)
    if not d.find_element("id", "lesson-next").get_property("disabled"):
        fail("the lesson's last step still offers Next")


# every text the last frame painted that reaches past the canvas (CSS pixels)
TEXT_OUTSIDE = """
    const r = document.getElementById('canvas').getBoundingClientRect(), out = [];
    for (const p of window.snScene())
      if (p.kind === 4 && p.text && p.size >= 4 / (window.devicePixelRatio || 1) &&
          (p.x0 < -0.5 || p.x1 > r.width + 0.5 || p.y0 < -0.5 || p.y1 > r.height + 0.5))
        out.push(p.text + ' at ' + [p.x0, p.y0, p.x1, p.y1].map(Math.round).join(','));
    return out;"""

# the page's controls that overlap another or the screen's edge, and touch
# targets too small for a finger
CONTROLS_BAD = """
    const els = [...document.querySelectorAll(
        '#controls button, #controls select, #controls input:not([type=file]), #controls label.file,'
        + ' #controls #step, #controls #lesson-info')]
      .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().width > 0);
    const R = els.map((e) => e.getBoundingClientRect()), bad = [], W = document.documentElement.clientWidth;
    const name = (i) => els[i].id || els[i].tagName;
    for (let i = 0; i < R.length; i++) {
      if (R[i].left < -0.5 || R[i].right > W + 0.5) bad.push(name(i) + ' past the edge');
      if (els[i].tagName !== 'SPAN' && R[i].height < 24) bad.push(name(i) + ' ' + R[i].height + ' px high');
      for (let j = i + 1; j < R.length; j++)
        if (R[i].left < R[j].right - 0.5 && R[j].left < R[i].right - 0.5 &&
            R[i].top < R[j].bottom - 0.5 && R[j].top < R[i].bottom - 0.5)
          bad.push(name(i) + ' overlaps ' + name(j));
    }
    return bad;"""


def test_phone(d):
    """The page on a 390 x 844 phone: no text past the canvas (the 0-1 panel's
    caption once ran off), controls apart and large enough to tap, the
    values' absence said in a line, the Input control showing a lesson's
    given values, edit mode's wires at least 20 px apart, a two-finger
    pinch zooming the drawing."""
    load(d, page("phone", "bitonic:8", "--input", "8,7,6,5,4,3,2,1"))
    if not until(d, "bitonic:8 opens on the phone", lambda s: s.get("n") == 8):
        return
    bad = d.execute_script(CONTROLS_BAD)
    if bad:
        fail("phone: controls: %s" % "; ".join(bad[:8]))
    if d.execute_script("return document.documentElement.scrollWidth") > 390:
        fail("phone: the page is wider than the screen (%d px)"
             % d.execute_script("return document.documentElement.scrollWidth"))
    for what, button, cond in (("the 0-1 panel", "zero-one", lambda s: s.get("zero_one")),
                               ("structure labels", "structure", lambda s: s.get("structure")),
                               ("edit mode", "edit", lambda s: s.get("edit"))):
        d.find_element("id", button).click()
        if not until(d, "phone: %s on" % what, cond):
            continue
        d.execute_script("window.snStepTo(window.snState.layers)")
        out = d.execute_script(TEXT_OUTSIDE)
        if out:
            fail("phone, %s: text past the canvas: %s" % (what, "; ".join(out[:5])))
        if what == "edit mode":
            # rows a finger can tell apart: the width binds on a phone held
            # upright, so the rows spread over the height (they were 2 px with
            # the 0-1 chart and structure labels on, 13 px without)
            ys = sorted(p["y0"] for p in wires(d).values())
            gap = min((b - a for a, b in zip(ys, ys[1:])), default=0)
            if gap < 20:
                fail("phone, edit mode: wires %.1f px apart (at least 20 wanted)" % gap)
    # where the value boxes have no room for digits, the page says so in a line
    hidden = [p["text"] for p in d.execute_script("return window.snScene()")
              if p["kind"] == 7 and p["text"].startswith("values:")]
    notes = d.find_element("id", "notes").text
    if hidden and hidden[0] not in notes:
        fail("phone: the scene hides the values (%r) but the page's line says %r" % (hidden[0], notes))
    # two fingers pinch the drawing larger (the wheel's zoom), the network unchanged
    load(d, page("phone-pinch", "bitonic:8"))
    if until(d, "bitonic:8 opens for the pinch", lambda s: s.get("n") == 8):
        before = wires_span(d)
        pinch(d, 0.3, 0.3, 20, 80)
        after, s = wires_span(d), state(d)
        if not after > 1.3 * before:
            fail("phone: a pinch did not zoom: the wires spanned %.0f px, now %.0f" % (before, after))
        if s["size"] != 24:
            fail("phone: a pinch changed the network: %s comparators" % s["size"])
    # a lesson that gives its input: the Input control shows those values
    load(d, page("phone-lesson", "--lesson", "02"))
    s = until(d, "lesson 02 opens on the phone", lambda s: s.get("lesson"))
    if s:
        kind = d.find_element("id", "input-kind").get_property("value")
        value = d.find_element("id", "input-value").get_property("value")
        if (kind + ":" + value) != s["input_spec"]:
            fail("phone: lesson 02's input is %s, the Input control shows %s:%s"
                 % (s["input_spec"], kind, value))
        out = d.execute_script(TEXT_OUTSIDE)
        if out:
            fail("phone, lesson 02: text past the canvas: %s" % "; ".join(out[:5]))


def main():
    d = browser()
    try:
        for t in (test_steps, test_bad_input, test_edit, test_paste, test_lesson):
            n = len(failures)
            try:
                t(d)
            except Exception as e:  # one broken scenario does not hide the others
                fail("%s: %s: %s" % (t.__name__, type(e).__name__, e))
            print("%s: %s" % (t.__name__, "ok" if len(failures) == n else "FAILED"))
            if len(failures) != n:
                for entry in d.get_log("browser")[-10:]:
                    print("  console:", entry["level"], entry["message"][:300])
        d.quit()
        d = phone()
        n = len(failures)
        try:
            test_phone(d)
        except Exception as e:
            fail("test_phone: %s: %s" % (type(e).__name__, e))
        print("test_phone: %s" % ("ok" if len(failures) == n else "FAILED"))
    finally:
        d.quit()
    return finish("web_page_test")


if __name__ == "__main__":
    sys.exit(main())
