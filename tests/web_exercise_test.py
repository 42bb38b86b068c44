#!/usr/bin/python3
"""web_exercise_test.py - a lesson's exercises in the page (`sortnet web
--lesson`), in Debian's headless chromium through python3-selenium, the
page loaded from disk as a student opens the one a teacher hands out:

  - the shipped exercise lesson (04) played through with the page's own
    controls, every exercise answered right (score 6/6), then again
    answered wrong (0/6): the answer box and Answer button (predict,
    counterexample, redundant, depth), Yes / No (merger), comparators
    added by clicks on the wires in edit mode and "Check my network"
    (complete); each answer worked out by tests/exercise_solve.py from
    what the page shows (window.snState and its bracket export), never
    stored; window.snState.exercise's kind, asked, right and answered;
  - the exercise is the one `sortnet view --dump-state` makes from the
    same lesson (the same network and input in the page and natively);
  - the hint, a malformed answer (one line in #error, the score kept),
    the hand-in line;
  - a teacher's own lesson file baked in with --lesson FILE;
  - the hand-in link: the lesson answered wrong, the address (which the
    hand-in line ends with) opened in a fresh browser shows score 0/6, and
    going back through the steps each shows the student's answer graded
    wrong with the explanation the student saw.

Every wait is for a condition (WebDriverWait, 60 s), never a fixed sleep.
Exit 77 (skipped) only when chromium, chromedriver or selenium is missing.
Environment: SORTNET (the binary), SN_SOURCE_DIR."""
import os
import re
import sys

from web_driver import WAIT, browser, fail, finish, page, sortnet, state, tmp, until
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exercise_solve import layers_of, solve  # noqa: E402

ROLE_WIRE = 8
LESSON = os.path.join(os.environ.get("SN_SOURCE_DIR", "."), "assets", "lessons", "04-exercises.lesson")


def load(d, path):
    d.get("file://" + path)
    WebDriverWait(d, WAIT).until(lambda d: d.execute_script(
        "return window.snReady === true || document.getElementById('error').textContent !== ''"))
    err = d.find_element("id", "error").text
    if err:
        fail("%s: the page opened with an error: %s" % (os.path.basename(path), err))


def click_at(d, x, y):
    c = d.find_element("id", "canvas")
    r = d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", c)
    ActionChains(d).move_to_element_with_offset(c, int(x - r[0] / 2), int(y - r[1] / 2)).click().perform()


def wires(d):
    return {int(p["wire"]): p for p in d.execute_script("return window.snScene(%d)" % ROLE_WIRE)
            if p["kind"] == 0 and p["wire"] >= 0}


def shown(d, s):
    """What the page shows, as the fields exercise_solve reads."""
    x = s["exercise"]
    return {"exercise": x["kind"], "n": s["n"], "step": s["step"],
            "values": ",".join(str(v) for v in s["values"]),
            "net": d.execute_script("return window.snExport('bracket')"),
            "exercise_question": x["question"]}


def answer(d, s, mode):
    """Answer the exercise shown through the page's controls; the state after."""
    x = s["exercise"]
    got = solve(shown(d, s), mode)
    asked = x["asked"]
    if x["kind"] == "merger":
        d.find_element("id", "exercise-yes" if got["answer"] == "yes" else "exercise-no").click()
    elif x["kind"] == "complete":
        if not s["edit"]:
            fail("complete: the step does not open in edit mode")
        size = s["size"]
        for a, b in got["add"]:
            w = wires(d)
            xpos = w[a]["x0"] + 0.93 * (w[a]["x1"] - w[a]["x0"])
            click_at(d, xpos, w[a]["y0"])
            click_at(d, xpos, w[b]["y0"])
            size += 1
            if not until(d, "complete: comparator (%d,%d) added" % (a, b),
                         lambda t, size=size: t.get("size") == size):
                return None
        d.find_element("id", "exercise-check").click()
    else:
        box = d.find_element("id", "exercise-answer")
        if x["kind"] == "predict" and box.get_property("value") != shown(d, s)["values"]:
            fail("predict: the answer box starts at %r, not the values shown %r"
                 % (box.get_property("value"), shown(d, s)["values"]))
        box.clear()
        box.send_keys(got["answer"])
        d.find_element("id", "exercise-submit").click()
    return until(d, "%s answered (%s)" % (x["kind"], mode),
                 lambda t: t["exercise"] and t["exercise"]["asked"] == asked + 1)


def native(k):
    """`sortnet view` at step k of the shipped lesson: its dumped fields."""
    script = " ".join(["right"] * k)
    path = os.path.join(tmp, "native.state")
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    r = sortnet("view", "--lesson", "04", "--script", script, "--dump-state", path, check=False)
    if r.returncode != 0:
        print("sortnet view: exit %d: %s" % (r.returncode, r.stderr[:300]))
        return None
    out = {}
    for line in open(path, encoding="utf-8"):
        key, _, v = line.rstrip("\n").partition(": ")
        out.setdefault(key, v)
    return out


def play(d, mode, path, captions=None):
    load(d, path)
    s = until(d, "the lesson opens", lambda s: s.get("lesson"))
    if not s:
        return None
    if s["exercise"] is None or s["exercise"]["kind"] is not None:
        fail("step 1: exercise %r, expected a score but no exercise" % s["exercise"])
    count, kinds = s["lesson"]["count"], []
    for i in range(1, count):
        d.find_element("id", "lesson-next").click()
        s = until(d, "lesson step %d" % (i + 1), lambda s, i=i: s["lesson"]["step"] == i)
        if not s:
            return None
        x = s["exercise"]
        if x["kind"] is None:
            continue
        kinds.append(x["kind"])
        if not d.find_element("id", "exercise").is_displayed():
            fail("step %d: the exercise panel is hidden" % (i + 1))
        if mode == "right":
            # the page makes the exercise the window makes (network and input)
            n = native(i)
            if not layers_of(shown(d, s)["net"]):
                fail("step %d: no network in the page's bracket export" % (i + 1))
            if n is None:
                fail("step %d: sortnet view could not play the lesson" % (i + 1))
            elif (n.get("exercise") != x["kind"] or n.get("values") != shown(d, s)["values"]
                  or layers_of(n.get("net", "")) != layers_of(shown(d, s)["net"])):
                fail("step %d: the page's %s differs from sortnet view's: %s vs %s"
                     % (i + 1, x["kind"], shown(d, s), n))
        t = answer(d, s, mode)
        if not t:
            return None
        if t["exercise"]["answered"] is not True or t["exercise"]["correct"] is not (mode == "right"):
            fail("step %d %s answered %s: state %s" % (i + 1, x["kind"], mode, t["exercise"]))
        result = d.find_element("id", "exercise-result").text
        if result != mode:
            fail("step %d %s: the panel says %r, expected %r" % (i + 1, x["kind"], result, mode))
        if captions is not None:
            captions[i] = t["exercise"]["caption"]
            # the address follows each first answer (ex= gains the step)
            try:
                WebDriverWait(d, WAIT).until(lambda d, i=i: re.search(r"[=/]%d:[^/&]" % i, d.current_url))
            except Exception:
                fail("step %d %s: the address lacks its answer: %s" % (i + 1, x["kind"], d.current_url))
        if mode == "wrong" and not t["exercise"]["caption"].startswith(("Not", "It does not")):
            fail("step %d %s: no explanation after a wrong answer: %r"
                 % (i + 1, x["kind"], t["exercise"]["caption"]))
    if sorted(kinds) != sorted(["predict", "counterexample", "redundant", "depth", "merger", "complete"]):
        fail("the lesson's exercises: %s" % kinds)
    return state(d)


def test_shipped():
    d = browser()
    try:
        path = page("exercises", "--lesson", "04")
        s = play(d, "right", path)
        if s:
            x = s["exercise"]
            if (x["asked"], x["right"]) != (6, 6):
                fail("all right: score %d/%d" % (x["right"], x["asked"]))
            if d.find_element("id", "exercise-score").text != "score 6/6":
                fail("score line %r" % d.find_element("id", "exercise-score").text)
            handin = d.find_element("id", "exercise-handin").get_property("value")
            if not handin.startswith("lesson 04-exercises score 6/6:") or handin.count(" right") != 6:
                fail("hand-in line %r" % handin)
        s = play(d, "wrong", path)
        if s and (s["exercise"]["asked"], s["exercise"]["right"]) != (6, 0):
            fail("all wrong: score %d/%d" % (s["exercise"]["right"], s["exercise"]["asked"]))
        # a hint and a malformed answer on the first exercise
        load(d, path)
        until(d, "the lesson opens", lambda s: s.get("lesson"))
        d.find_element("id", "lesson-next").click()
        s = until(d, "step 2", lambda s: s["lesson"]["step"] == 1)
        d.find_element("id", "exercise-hint").click()
        s = until(d, "the hint", lambda s: s["exercise"]["hint"])
        if s and "Hint:" not in s["exercise"]["caption"]:
            fail("hint: caption %r" % s["exercise"]["caption"])
        box = d.find_element("id", "exercise-answer")
        box.clear()
        box.send_keys("1,2")
        d.find_element("id", "exercise-submit").click()
        try:
            WebDriverWait(d, WAIT).until(lambda d: "expected 6 whole numbers" in d.find_element("id", "error").text)
        except Exception:
            fail("a malformed answer: error line %r" % d.find_element("id", "error").text)
        if state(d)["exercise"]["asked"] != 0:
            fail("a malformed answer counted: %s" % state(d)["exercise"])
    finally:
        d.quit()


def test_teacher_file():
    path = os.path.join(tmp, "mine.lesson")
    with open(path, "w") as f:
        f.write("title: Homework\nstep: one\nexercise: depth seed=21 n=7\n"
                "step: two\nexercise: merger seed=22 n=9\n")
    d = browser()
    try:
        load(d, page("mine", "--lesson", path))
        s = until(d, "the teacher's lesson opens", lambda s: s.get("lesson"))
        if not s or s["exercise"]["kind"] != "depth" or s["n"] != 7:
            return fail("the teacher's lesson: %s" % (s and s["exercise"]))
        s = answer(d, s, "right")
        d.find_element("id", "lesson-next").click()
        s = until(d, "step two", lambda s: s["lesson"]["step"] == 1)
        if s and (s["exercise"]["kind"], s["n"]) != ("merger", 9):
            fail("step two: %s n %s" % (s["exercise"], s["n"]))
        s = s and answer(d, s, "wrong")
        if s and not s["exercise"]["handin"].startswith("lesson mine score 1/2: 1 depth seed=21 n=7 right, "
                                                          "2 merger seed=22 n=9 wrong"):
            fail("hand-in line %r" % s["exercise"]["handin"])
    finally:
        d.quit()


def test_handin_link():
    """The hand-in line ends with the page's address, which carries the
    answers: opened in a fresh browser it shows the same score, and each
    answered step shows the student's answer graded and explained."""
    path = page("handin", "--lesson", "04")
    d = browser()
    try:
        captions = {}
        s = play(d, "wrong", path, captions)
        if not s:
            return
        address = d.current_url
        if "&ex=1:" not in address or not address.endswith("&end"):
            return fail("the address carries no answers: %s" % address)
        handin = d.find_element("id", "exercise-handin").get_property("value")
        if not handin.endswith(" link " + address) or not s["exercise"]["handin"].endswith(
                " link #" + address.split("#", 1)[1]):
            fail("the hand-in line does not end with the address %s: %r / %r"
                 % (address, handin, s["exercise"]["handin"]))
    finally:
        d.quit()
    t = browser()
    try:
        load(t, path + "#" + address.split("#", 1)[1])
        u = until(t, "the handed-in link opens", lambda u: u.get("lesson") and u.get("exercise"))
        if not u:
            return
        x = u["exercise"]
        if (x["asked"], x["right"], u["lesson"]["step"]) != (6, 0, s["lesson"]["step"]):
            fail("opened: score %d/%d at step %d, the student's 0/6 at %d"
                 % (x["right"], x["asked"], u["lesson"]["step"], s["lesson"]["step"]))
        if t.find_element("id", "exercise-score").text != "score 0/6":
            fail("opened: score line %r" % t.find_element("id", "exercise-score").text)
        for i in sorted(captions, reverse=True):  # back through each answered step
            while u and u["lesson"]["step"] > i:
                t.find_element("id", "lesson-prev").click()
                u = until(t, "back to step %d" % (i + 1), lambda u, k=u["lesson"]["step"] - 1: u["lesson"]["step"] == k)
            if not u:
                return
            x = u["exercise"]
            if x["answered"] is not True or x["correct"] is not False or x["caption"] != captions[i]:
                fail("step %d (%s) opened: answered %r correct %r caption %r; the student saw %r"
                     % (i + 1, x["kind"], x["answered"], x["correct"], x["caption"], captions[i]))
            if t.find_element("id", "exercise-result").text != "wrong":
                fail("step %d: the panel says %r" % (i + 1, t.find_element("id", "exercise-result").text))
    finally:
        t.quit()


test_shipped()
test_teacher_file()
test_handin_link()
sys.exit(finish("web_exercise_test"))
