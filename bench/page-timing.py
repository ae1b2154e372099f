#!/usr/bin/env python3
"""Loads an HTML view in headless chromium on real time and prints what its page recorded once drawn.

Usage: page-timing.py CHROMIUM PAGE.html PROFILE_DIR
Prints one line: drawn MS painted MS elements N. Drives chromium over --remote-debugging-pipe (the DevTools protocol,
JSON messages ended by NUL on fds 3 and 4): navigate, wait for the load event, then evaluate a promise that resolves
once the page has set data-painted-ms (after the frame that follows its drawing). No virtual time: with
--virtual-time-budget, performance.now() runs on virtual time while the page waits for a frame or a timer, so a
figure that spans a frame is not wall-clock time.
"""
import fcntl
import json
import os
import subprocess
import sys


def main():
    browser, page, profile = sys.argv[1:4]
    to_chrome_r, to_chrome_w = os.pipe()
    from_chrome_r, from_chrome_w = os.pipe()

    def child_fds():
        # via fds above 4, so that neither dup2 is onto itself (which would keep the pipe's close-on-exec flag)
        r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
        w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
        os.dup2(r, 3)
        os.dup2(w, 4)

    proc = subprocess.Popen(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000", "--remote-debugging-pipe",
         "--disable-breakpad", "--disable-crash-reporter", "--no-first-run",
         "--user-data-dir=" + profile, "about:blank"],
        close_fds=False, preexec_fn=child_fds, stdout=subprocess.DEVNULL,
        stderr=None if os.environ.get("PAGE_TIMING_DEBUG") else subprocess.DEVNULL)
    os.close(to_chrome_r)
    os.close(from_chrome_w)
    out = os.fdopen(to_chrome_w, "wb")
    inp = os.fdopen(from_chrome_r, "rb")
    buf = b""
    next_id = [0]

    def read_message():
        nonlocal buf
        while b"\0" not in buf:
            chunk = inp.read1(65536)
            if not chunk:
                raise SystemExit("page-timing.py: chromium closed the pipe")
            buf += chunk
        msg, buf = buf.split(b"\0", 1)
        return json.loads(msg)

    def send(method, params=None, session=None):
        next_id[0] += 1
        m = {"id": next_id[0], "method": method, "params": params or {}}
        if session:
            m["sessionId"] = session
        out.write(json.dumps(m).encode() + b"\0")
        out.flush()
        return next_id[0]

    def call(method, params=None, session=None):
        i = send(method, params, session)
        while True:
            m = read_message()
            if m.get("id") == i:
                if "error" in m:
                    raise SystemExit("page-timing.py: %s: %s" % (method, m["error"]))
                return m["result"]

    try:
        target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        call("Page.enable", session=session)
        call("Page.navigate", {"url": "file://" + os.path.abspath(page)}, session)
        while True:
            m = read_message()
            if m.get("method") == "Page.loadEventFired" and m.get("sessionId") == session:
                break
        # resolves when the page has recorded its painted time; polls the attribute on the page's own timer
        expr = """new Promise(function (done) {
          var polls = 0;
          (function poll() {
            var b = document.body, p = b && b.getAttribute('data-painted-ms');
            if (p) {
              done([b.getAttribute('data-rendered-ms'), p,
                    document.querySelectorAll('svg rect, svg path, svg text, svg line, svg image').length,
                    document.querySelectorAll('canvas').length]);
            } else if (++polls > 3000) { done(null); } else { setTimeout(poll, 20); }
          })();
        })"""
        r = call("Runtime.evaluate", {"expression": expr, "awaitPromise": True, "returnByValue": True}, session)
        if r["result"].get("value") is None:
            raise SystemExit("page-timing.py: the page set no data-painted-ms within 60 s of its load event")
        drawn, painted, elements, canvases = r["result"]["value"]
        print("drawn %s painted %s elements %d canvases %d" % (drawn, painted, elements, canvases))
        send("Browser.close")
        # the browser closes its end of the pipe as it exits: then its profile folder is no longer written
        while inp.read1(65536):
            pass
    finally:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
