"""web_driver.py - what the page's browser tests share (web_page_test.py,
web_gpu_test.py): finding Debian's chromium, chromedriver and
python3-selenium (exit 77, skipped, only when one is missing), running the
sortnet binary, writing a page with `sortnet web`, starting a headless
browser, and the list of failures a test collects instead of stopping at
the first. Environment: SORTNET (the binary)."""
import atexit
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

# Skipped only when selenium is not there at all; a selenium that is
# installed but fails to import (a broken package) is a failure.
if importlib.util.find_spec("selenium") is None:
    print("SKIP: python3-selenium is not installed (apt-get install python3-selenium)")
    sys.exit(77)
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

S = os.environ["SORTNET"]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not CHROMIUM or not os.path.exists(DRIVER):
    print("SKIP: chromium and chromium-driver are needed (apt-get install chromium chromium-driver)")
    sys.exit(77)

WAIT = 60  # seconds for one condition on a busy machine
failures = []
tmp = tempfile.mkdtemp()
# chromium leaves a folder in TMPDIR for each browser (its singleton
# socket, org.chromium.Chromium.*) when chromedriver ends it: its TMPDIR is
# a folder of tmp, removed with it, so that no run leaves them behind
browser_tmp = os.path.join(tmp, "browser")
os.mkdir(browser_tmp)
# removed by finish(), and here too when a test ends on an exception
atexit.register(shutil.rmtree, tmp, True)


def fail(msg):
    print("FAIL:", msg)
    failures.append(msg)


def state(d):
    """The page's state (window.snState), or None before the page set it."""
    return d.execute_script("return window.snState || null")


def until(d, what, cond):
    """Wait for cond(state) to hold; on a timeout record what was seen."""
    try:
        return WebDriverWait(d, WAIT).until(lambda d: cond(state(d) or {}) and (state(d) or True))
    except Exception:
        fail("%s: timed out; state %s; error line %r" % (what, json.dumps(state(d)),
                                                        d.find_element("id", "error").text))
        return None


def sortnet(*args, check=True):
    r = subprocess.run([S, *args], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError("sortnet %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr))
    return r


def page(name, *args):
    """`sortnet web ARGS -o TMP/NAME.html`; returns the file's path."""
    path = os.path.join(tmp, name + ".html")
    sortnet("web", *args, "-o", path)
    return path


def browser(flags=("--disable-gpu",), mobile=None, script_timeout=None):
    """Headless chromium. mobile: chromedriver's mobileEmulation device
    metrics (a headless window cannot be narrower than 500 px, so a phone
    needs emulation); otherwise a 1280 x 720 desktop at 1 pixel per pixel."""
    o = Options()
    o.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", *flags):
        o.add_argument(a)
    if mobile:
        o.add_experimental_option("mobileEmulation", {"deviceMetrics": mobile})
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(DRIVER, env=dict(os.environ, TMPDIR=browser_tmp)), options=o)
    if script_timeout:
        d.set_script_timeout(script_timeout)
    if not mobile:
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False})
    return d


def finish(name):
    """Remove the pages written and return the exit status."""
    shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("%s: %d failure(s)" % (name, len(failures)))
        return 1
    print("%s: all checks passed" % name)
    return 0
