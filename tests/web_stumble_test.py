#!/usr/bin/python3
"""web_stumble_test.py - the page where a student stumbled (tried as a new
student would, in chromium, headless, the page opened from disk). Each
check below failed on the page before its fix:

  - another n while typed values fix the input's length: the input follows
    n (random, seed 1) and the line says so; a name that opens nothing
    leaves the controls showing what the picture shows; a file opened
    while a lesson's values were the input opens;
  - a lesson left by choosing none in the list, and by Esc;
  - keys reach the picture after picking from a list (arrows step) and
    after clicking Set (Space plays), not the list or the button;
  - a phone (390 x 844): the controls take at most a third of the height,
    help opens from a control, a speed slider (on the desktop too); edit
    mode on 16 wires has rows and comparators a finger can hit (a larger
    picture that scrolls), and two taps add a comparator;
  - a title, a one-line intro and the colour code explained;
  - a download of Sort_12.json as JSON is Sort_12.json, not .json.json;
  - a PNG opened as a network says it is an image;
  - typed values with ';' between them name the ';';
  - one bracket line of a whole network says how to write layers;
  - the dark theme (T) darkens the controls too;
  - the canvas has a label for a screen reader; the lesson list shows
    whole titles; a pasted network leaves no GPU n box to misuse.

Exit 77 (skipped) only when chromium, chromedriver or selenium is missing.
Environment: SORTNET (the binary)."""
import json
import os
import sys

from web_driver import WAIT, browser, fail, finish, page, sortnet, state, tmp
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait


def load(d, url):
    d.get("about:blank")
    d.get(url)
    WebDriverWait(d, WAIT).until(lambda d: d.execute_script(
        "return window.snReady === true && performance.getEntriesByName('sn-first-frame').length > 0"))


def until(d, what, cond):
    try:
        return WebDriverWait(d, 20).until(lambda d: cond(state(d) or {}) and (state(d) or True))
    except Exception:
        fail("%s: timed out; state %s; error line %r" % (
            what, json.dumps({k: (state(d) or {}).get(k) for k in ("name", "n", "step", "playing", "lesson",
                                                                   "input_spec", "theme")}),
            d.find_element("id", "error").text))
        return None


def wait_js(d, what, js):
    try:
        WebDriverWait(d, 20).until(lambda d: d.execute_script(js))
    except Exception:
        fail("%s: timed out" % what)


def error(d):
    return d.find_element("id", "error").text


def has(d, ident):
    return d.execute_script("return !!document.getElementById(arguments[0])", ident)


def main():
    path = page("stumble")
    url = "file://" + path
    d = browser()
    try:
        # ---- another n while the input is 8 typed values
        load(d, url)
        d.execute_script("""
            const $ = (id) => document.getElementById(id);
            $('net-name').value = 'bitonic:8'; $('net-open').click();""")
        until(d, "bitonic:8", lambda s: s.get("name") == "bitonic:8")
        Select(d.find_element("id", "input-kind")).select_by_value("list")
        box = d.find_element("id", "input-value")
        box.clear()
        box.send_keys("8,7,6,5,4,3,2,1")
        d.find_element("id", "input-apply").click()
        until(d, "the typed values", lambda s: s.get("input_spec") == "list:8,7,6,5,4,3,2,1")
        Select(d.find_element("id", "net-gen")).select_by_value("bitonic")
        d.execute_script("const n = document.getElementById('net-n'); n.value = '16';"
                         "n.dispatchEvent(new Event('change'))")
        until(d, "another n opens", lambda s: s.get("n") == 16)
        s = state(d)
        shown = d.execute_script("return [document.getElementById('net-n').value,"
                                 "document.getElementById('net-name').value,"
                                 "document.getElementById('input-kind').value,"
                                 "document.getElementById('input-value').value]")
        info = d.find_element("id", "info").text if has(d, "info") else ""
        if s.get("input_spec") != "random:1" or shown != ["16", "bitonic:16", "random", "1"] \
                or "16 wires" not in info or error(d):
            fail("the input follows n: the picture has %s on %s, the controls show %r, the line says %r / %r"
                 % (s.get("name"), s.get("input_spec"), shown, info, error(d)))
        # a name that opens nothing: the controls go back to what is shown
        d.execute_script("const n = document.getElementById('net-name'); n.value = 'nosuch:8';"
                         "document.getElementById('net-open').click()")
        WebDriverWait(d, WAIT).until(lambda d: error(d) != "")
        if d.find_element("id", "net-name").get_attribute("value") != "bitonic:16":
            fail("a name that opens nothing is left in the name box: the controls disagree with the picture")

        # ---- keys reach the picture after a list and after Set
        load(d, url)
        Select(d.find_element("id", "net-gen")).select_by_value("oddeven-merge")
        until(d, "a generator picked", lambda s: s.get("name", "").startswith("oddeven-merge:"))
        ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()
        until(d, "Right after picking from a list steps", lambda s: s.get("step") == 1)
        Select(d.find_element("id", "input-kind")).select_by_value("random")
        d.find_element("id", "input-value").clear()
        d.find_element("id", "input-value").send_keys("5")
        d.find_element("id", "input-apply").click()
        until(d, "seed 5", lambda s: s.get("input_spec") == "random:5")
        ActionChains(d).send_keys(" ").perform()
        until(d, "Space after Set plays", lambda s: s.get("playing") is True)
        d.find_element("id", "play").click()

        # ---- a lesson can be left: none in the list, and Esc
        lessons = d.execute_script("return window.snCatalog.lessons.map(l => l.name)")
        for how in ("none", "esc"):
            Select(d.find_element("id", "lesson")).select_by_value(lessons[0])
            until(d, "a lesson opens", lambda s: s.get("lesson") is not None)
            if how == "none":
                Select(d.find_element("id", "lesson")).select_by_value("")
            else:
                d.find_element("id", "canvas").send_keys(Keys.ESCAPE)
            until(d, "the lesson left (%s)" % how, lambda s: s.get("lesson") is None)
        # whole lesson titles in the list
        titles = d.execute_script("return window.snCatalog.lessons.map(l => l.title)")
        width = d.execute_script("""
            const s = document.getElementById('lesson'), c = document.createElement('canvas').getContext('2d');
            c.font = getComputedStyle(s).font;
            return [s.getBoundingClientRect().width, Math.max(...arguments[0].map(t => c.measureText(t).width))]""",
                                 titles)
        if width[0] < width[1]:
            fail("the lesson list is %.0f px wide, its longest title %.0f px: cut" % tuple(width))

        # ---- title, intro, colour code, a label for the canvas
        if d.execute_script("return (document.querySelector('h1') || {}).textContent") != "sortnet":
            fail("no title on the page")
        intro = d.execute_script("return (document.getElementById('intro-line') || {}).textContent || ''")
        if "sort" not in intro.lower():
            fail("no one-line intro: %r" % intro)
        legend = d.execute_script("return (document.getElementById('legend') || {}).textContent || ''")
        if "orange" not in legend or "blue" not in legend or "swap" not in legend:
            fail("the colour code is explained nowhere: %r" % legend)
        if not d.execute_script("return document.getElementById('canvas').getAttribute('aria-label')"):
            fail("the canvas has no label for a screen reader")

        # ---- a speed slider moves the speed as + and - do
        if not has(d, "speed"):
            fail("no speed slider")
        else:
            before = state(d).get("speed")
            d.execute_script("const r = document.getElementById('speed'); r.value = String(+r.max);"
                             "r.dispatchEvent(new Event('input'))")
            until(d, "the slider at its end", lambda s: s.get("speed") == s.get("speeds", 0) - 1 != before)

        # ---- the dark theme darkens the controls
        d.find_element("id", "canvas").send_keys("t")
        until(d, "the dark theme", lambda s: s.get("theme") == "dark")
        bg = d.execute_script("return [getComputedStyle(document.body).backgroundColor,"
                              "getComputedStyle(document.getElementById('net-open')).backgroundColor]")
        lum = [sum(float(x) for x in c[c.index("(") + 1:c.index(")")].split(",")[:3]) for c in bg]
        if max(lum) > 3 * 90:
            fail("the dark theme leaves the controls light: %r" % bg)

        # ---- downloads keep one extension
        name = os.path.join(tmp, "Sort_12.json")
        with open(name, "w") as f:
            f.write('{"N":4,"nw":[[[0,1],[2,3]],[[0,2],[1,3]],[[1,2]]]}')
        d.find_element("id", "file").send_keys(name)
        until(d, "Sort_12.json opens", lambda s: s.get("n") == 4)
        d.execute_script("window.__dl = []; HTMLAnchorElement.prototype.click = function () { window.__dl.push(this.download); };")
        d.find_element("id", "dl-json").click()
        d.find_element("id", "dl-bracket").click()
        got = d.execute_script("return window.__dl")
        if got != ["Sort_12.json", "Sort_12.txt"]:
            fail("downloads of Sort_12.json are named %r" % got)

        # ---- a PNG opened as a network
        png = os.path.join(tmp, "net.png")
        sortnet("draw", "bitonic:4", "-o", png)
        d.find_element("id", "file").send_keys(png)
        WebDriverWait(d, WAIT).until(lambda d: error(d) != "")
        if "image" not in error(d) or "0xef" in error(d):
            fail("a PNG opened as a network says %r" % error(d))

        # ---- typed values with ';' name it; one bracket line of a whole network
        Select(d.find_element("id", "input-kind")).select_by_value("list")
        d.find_element("id", "input-value").clear()
        d.find_element("id", "input-value").send_keys("1;2;3;4" + Keys.ENTER)
        WebDriverWait(d, WAIT).until(lambda d: "';'" in error(d) or "got 1" in error(d))
        if "';'" not in error(d):
            fail("values 1;2;3;4 say %r" % error(d))
        d.find_element("id", "paste-toggle").click()
        d.find_element("id", "paste").send_keys("[(0,1),(2,3),(0,2),(1,3),(1,2)]")
        d.find_element("id", "paste-open").click()
        WebDriverWait(d, WAIT).until(lambda d: "twice" in error(d))
        if "one layer a line" not in error(d):
            fail("one bracket line of a whole network says %r" % error(d))
        # a pasted network: the GPU's n (a generator's size) is not offered
        d.find_element("id", "paste").clear()
        d.find_element("id", "paste").send_keys("[(0,1),(2,3)]\n[(0,2),(1,3)]\n[(1,2)]")
        d.find_element("id", "paste-open").click()
        until(d, "the pasted network", lambda s: s.get("name") == "pasted")
        if has(d, "gpu-n") and d.find_element("id", "gpu-n").is_enabled():
            fail("a pasted network leaves the GPU's n box open (it would run ':N')")
    finally:
        d.quit()

    # ---- a phone: the controls take less of the screen, help from a control
    d = browser(mobile={"width": 390, "height": 844, "pixelRatio": 3})
    try:
        load(d, url)
        top = d.execute_script("return document.getElementById('canvas').getBoundingClientRect().top")
        if top > 844 / 3:
            fail("on a phone the controls take %.0f of 844 px" % top)
        if not has(d, "help"):
            fail("on a phone help has no control")
        else:
            d.find_element("id", "help").click()
            until(d, "help from its control", lambda s: s.get("help") is True)
            cut = d.execute_script("""
                const r = document.getElementById('canvas').getBoundingClientRect(), out = [];
                for (const p of window.snScene())
                  if (p.kind === 4 && p.text && p.size >= 4 / devicePixelRatio &&
                      (p.x0 < -0.5 || p.x1 > r.width + 0.5 || p.y0 < -0.5 || p.y1 > r.height + 0.5))
                    out.push(p.text);
                return out""")
            if cut:
                fail("on a phone the help is cut off: %r" % cut[:5])
            d.find_element("id", "help").click()
            until(d, "help closed by its control", lambda s: s.get("help") is False)
        if not has(d, "speed") or not d.find_element("id", "speed").is_displayed():
            fail("on a phone no speed slider")
        # edit mode on 16 wires: rows and columns a finger can hit, and two taps add
        load(d, url + "#v1&net=bitonic:16&end")
        d.find_element("id", "edit").click()
        until(d, "edit mode on the phone", lambda s: s.get("edit") is True)
        wait_js(d, "a larger picture while editing on a phone",
                "return document.getElementById('canvas').getBoundingClientRect().height > 500")
        gaps = d.execute_script("""
            const ys = [...new Set(window.snScene(8).filter(p => p.kind === 0).map(p => Math.round(p.y0)))].sort((a, b) => a - b);
            const first = {}; // each layer's first comparator: where a tap on that layer lands
            for (const p of window.snScene(10)) if (p.kind === 0 && Math.abs(p.x0 - p.x1) < 0.5)
              first[p.layer] = Math.min(first[p.layer] ?? 1e9, p.x0);
            const xs = Object.values(first).sort((a, b) => a - b);
            const gap = (v) => Math.min(...v.slice(1).map((x, i) => x - v[i]));
            return [gap(ys), gap(xs)]""")
        if gaps[0] < 24 or gaps[1] < 24:
            fail("phone, edit mode on 16 wires: rows %.0f px and layers %.0f px apart" % tuple(gaps))
        load(d, url + "#v1&cmp=16&end")
        if not (state(d) or {}).get("edit"):
            d.find_element("id", "edit").click()
        until(d, "edit mode on 16 empty wires", lambda s: s.get("edit") is True)
        wait_js(d, "a larger picture while editing on a phone",
                "return document.getElementById('canvas').getBoundingClientRect().height > 500")
        wires = d.execute_script("return window.snScene(8).filter(p => p.kind === 0).map(p => [p.wire, p.x0, p.y0])")
        y = {int(w): yy for w, x0, yy in wires}
        x = min(x0 for w, x0, yy in wires) + 120
        rect = d.execute_script("return document.getElementById('canvas').getBoundingClientRect().toJSON()")
        for w in (2, 3):
            a = ActionChains(d)
            a.w3c_actions.pointer_action.move_to_location(int(rect["left"] + x), int(rect["top"] + y[w]))
            a.w3c_actions.pointer_action.click()
            a.perform()
        until(d, "two taps add a comparator on the phone", lambda s: s.get("size") == 1)
        if has(d, "more"):
            d.find_element("id", "more").click()
            if not d.find_element("id", "dl-json").is_displayed():
                fail("More… does not show the downloads")
            d.find_element("id", "more").click()
    finally:
        d.quit()
    return finish("web_stumble")


if __name__ == "__main__":
    sys.exit(main())
