#!/usr/bin/python3
"""web_link_test.py - links that carry the state (session/link.h) in a real
browser (chromium, headless, the page opened from disk as file://):

  - the address follows the state: a generated network at a step on an
    input, an edited network (its comparators, cmp=) and a lesson step
    each give an address that, opened afresh, shows the same picture
    (window.snState: name or comparators, input, step, lesson step);
  - `sortnet web --link NET --random S --step K` opened in the page shows
    that network, input and step;
  - a truncated and a malformed link: one line saying what is wrong
    (#error) over the default page;
  - the Copy link control is there and puts the address on the clipboard.

Exit 77 (skipped) only when chromium, chromedriver or selenium is missing.
Environment: SORTNET (the binary)."""
import json
import os
import sys

from web_driver import WAIT, browser, fail, finish, page, sortnet, state
from selenium.webdriver.support.ui import WebDriverWait


def ready(d, url, want_error=False):
    d.get("about:blank")
    d.get(url)
    WebDriverWait(d, WAIT).until(lambda d: d.execute_script(
        "return window.snReady === true && performance.getEntriesByName('sn-first-frame').length > 0"))
    err = d.find_element("id", "error").text
    if err and not want_error:
        fail("%s: the page opened with an error: %s" % (url[-80:], err))
    return err


def until(d, what, cond):
    try:
        return WebDriverWait(d, WAIT).until(lambda d: cond(state(d) or {}, d) and (state(d) or True))
    except Exception:
        fail("%s: timed out; state %s; address %s; error %r" % (
            what, json.dumps(state(d))[:400], d.current_url[-120:], d.find_element("id", "error").text))
        return None


def link_of(d):
    return d.execute_script("return decodeURIComponent(location.hash)")


def main():
    path = page("links")
    url = "file://" + path
    d = browser()
    try:
        # ---- a generated network, an input, a step
        ready(d, url)
        d.execute_script("""
            document.getElementById('input-kind').value = 'random';
            document.getElementById('input-value').value = '7';
            document.getElementById('net-name').value = 'oddeven-merge:8';
            document.getElementById('net-open').click();""")
        until(d, "oddeven-merge:8 opens", lambda s, d: s.get("name") == "oddeven-merge:8")
        d.execute_script("window.snStepTo(4)")
        until(d, "the address follows", lambda s, d: "step=4" in link_of(d) and "net=oddeven-merge:8" in link_of(d))
        first = state(d)
        link = link_of(d)
        if link != "#v1&net=oddeven-merge:8&in=random:7&step=4&end":
            fail("the link of oddeven-merge:8 random 7 step 4 is %r" % link)
        ready(d, url + link)
        s = state(d)
        for k in ("name", "input_spec", "step", "values", "layers"):
            if s.get(k) != first.get(k):
                fail("opened from its link, %s is %r, was %r" % (k, s.get(k), first.get(k)))

        # ---- an edited network: its comparators travel
        ready(d, url + "#v1&net=bitonic:8&in=reverse&end")
        d.find_element("id", "edit").click()
        d.find_element("id", "canvas").send_keys("\t")  # select the first comparator
        until(d, "a comparator selected", lambda s, d: s.get("selected") is not None)
        d.find_element("id", "delete").click()
        until(d, "one comparator fewer", lambda s, d: s.get("can_undo") and "cmp=8/" in link_of(d))
        d.find_element("id", "end").click()
        until(d, "at the end", lambda s, d: s.get("step") == s.get("layers") and "step=" in link_of(d))
        edited = state(d)
        link = link_of(d)
        ready(d, url + link)
        s = state(d)
        for k in ("size", "layers", "step", "values", "input_spec", "sorted"):
            if s.get(k) != edited.get(k):
                fail("an edited network from its link: %s is %r, was %r" % (k, s.get(k), edited.get(k)))
        if s.get("name") == "bitonic:8":
            fail("an edited network came back under its generator's name")

        # ---- a lesson step
        ready(d, url)
        lessons = d.execute_script("return window.snCatalog.lessons.map(l => l.name)")
        name = lessons[1] if len(lessons) > 1 else lessons[0]
        d.execute_script("const s = document.getElementById('lesson'); s.value = arguments[0];"
                         "s.dispatchEvent(new Event('change'))", name)
        until(d, "the lesson opens", lambda s, d: s.get("lesson") is not None)
        d.find_element("id", "lesson-next").click()
        d.find_element("id", "lesson-next").click()
        until(d, "lesson step 2 in the address", lambda s, d: (s.get("lesson") or {}).get("step") == 2
              and "&ls=2&" in link_of(d))
        lesson = state(d)
        link = link_of(d)
        if "lesson=" + name not in link:
            fail("the lesson's link %r does not name %s" % (link, name))
        ready(d, url + link)
        s = state(d)
        if (s.get("lesson") or {}).get("step") != 2 or s.get("name") != lesson.get("name") \
                or s.get("values") != lesson.get("values"):
            fail("a lesson step from its link: %s" % json.dumps(s.get("lesson")))

        # ---- `sortnet web --link` opened in the page
        out = sortnet("web", "--link", "bitonic:16", "--random", "9", "--step", "5").stdout.strip()
        ready(d, url + "#" + out)
        s = state(d)
        if (s.get("name"), s.get("input_spec"), s.get("step")) != ("bitonic:16", "random:9", 5):
            fail("sortnet web --link %s opened %r" % (out, (s.get("name"), s.get("input_spec"), s.get("step"))))
        out = sortnet("web", "--link", "best:6", "--input", "6,5,4,3,2,1", "--step", "2").stdout.strip()
        ready(d, url + "#" + out)
        s = state(d)
        if (s.get("name"), s.get("input_spec"), s.get("step")) != ("best:6", "list:6,5,4,3,2,1", 2):
            fail("sortnet web --link %s opened %r" % (out, (s.get("name"), s.get("input_spec"), s.get("step"))))

        # ---- bad links: one line, the default page
        for bad, want in (("#v1&net=bitonic:8&in=random:7&step=3", "truncated"),
                          ("#v1&net=bitonic:8&step=99&end", "step=99"),
                          ("#v1&cmp=4/0-1,1-2&end", "uses a wire twice"),
                          ("#v9&net=bitonic:8&end", "version 9")):
            err = ready(d, url + bad, want_error=True)
            s = state(d)
            if not err.startswith("link: ") or want not in err or "\n" in err:
                fail("%s: the error line is %r (wanted %r)" % (bad, err, want))
            if s.get("name") != "bitonic:16" or s.get("step") != 0:
                fail("%s: not the default page: %s at %s" % (bad, s.get("name"), s.get("step")))

        # ---- Copy link
        ready(d, url + "#v1&net=bitonic:4&end")
        d.execute_script("window.__copied = null; navigator.clipboard.writeText = async (t) => { window.__copied = t; };")
        d.find_element("id", "copy-link").click()
        WebDriverWait(d, WAIT).until(lambda d: d.execute_script("return window.__copied !== null"))
        copied = d.execute_script("return window.__copied")
        if not copied or not copied.endswith("#v1&net=bitonic:4&in=random:1&end"):
            fail("Copy link copied %r" % copied)
    finally:
        d.quit()
    return finish("web_link")


if __name__ == "__main__":
    sys.exit(main())
