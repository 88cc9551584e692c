#!/usr/bin/env python3
"""Opens an HTML report in headless Chromium and checks that it is self-contained and renders.

    browser_check.py REPORT.html --screenshot OUT.png [--expect-chart ID]... [--expect-series CHART:NAME]...
                     [--expect-text TEXT]... [--expect-failure SUBSTRING] [--timeout SECONDS]
                     [--readable | --check-answer --check-labels --check-series --check-tables --check-titles]
                     [--screenshots DIR]

Fails when the page throws, logs an error or a warning to the console, or makes any request other than
for the report's own file (data: URLs included: a report we generate has no reason to embed one, and a
data: frame could carry script that the DOM check below cannot see); when a chart (svg[data-chart=ID]) is
missing or has no size, a series (g.series[data-series=NAME] in that chart) is missing or draws nothing,
an expected text is not on the page, or the page holds script (<script> or an on* handler). Writes a
full-page screenshot, prints one line per check, exits 0 only if all pass.

The readability checks (the report's HTML contract, stated in readable_checks.py), each on its own switch,
all with --readable, at a 1280 × 800 viewport:
  --check-answer   one section#answer, not empty, lies fully within the first screen;
  --check-labels   no two non-empty <text> of an svg[data-chart] overlap (by more than 0.5 px either way),
                   no text.point-label or text.end-label overlaps a .point of its chart;
  --check-series   every g.series of a chart differs from every other in colour, marker or dash as DRAWN
                   (the line's computed stroke and stroke-dasharray, the points' data-shape and fill), and
                   its data-color, data-marker and data-dash say what it draws;
  --check-tables   every table[data-table="ladder"] ends within the viewport's width, and the page needs
                   no horizontal scroll;
  --check-titles   every .point has a <title> child with text.
None of them passes for want of something to check: a page without charts, series, points, a ladder
table or an answer fails the check that needs it. --screenshots DIR writes first-screen.png (1280 × 800)
and chart-ID.png for each chart, clipped to its box.

--expect-failure SUBSTRING turns it into a test of the check itself: exit 0 only if some check fails
with a message that contains SUBSTRING (with --expect-only: and no check fails without it). Exit 77
(CTest's SKIP_RETURN_CODE) when Chromium is not installed. Standard library only: Chromium is driven over
the DevTools protocol on a pipe (--remote-debugging-pipe: commands in on fd 3, replies out on fd 4, each
JSON message ends in a NUL).
"""
import argparse
import base64
import fcntl
import json
import os
import pathlib
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from readable_checks import (READABLE, READABLE_FACTS, TOLERANCE, VIEWPORT, readable_checks,
                             screenshots)

SKIP = 77
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
         "--window-size=1280,900", "--remote-debugging-pipe"]


class CheckError(Exception):
    """The check could not be carried out (a timeout, Chromium gone, a protocol error)."""


class DevTools:
    """The DevTools protocol over Chromium's pipe: commands with replies, and the events that came."""

    def __init__(self, process, commands, replies, deadline, log_path):
        self.process, self.commands, self.replies = process, commands, replies
        self.deadline, self.log_path = deadline, log_path
        self.buffer, self.events, self.next_id = b"", [], 0

    def call(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read(f"the reply to {method}")
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise CheckError(f"{method} failed: {reply['error'].get('message')}")
                return reply.get("result", {})

    def wait_for_event(self, method, what):
        while not any(event["method"] == method for event in self.events):
            self._read(what)

    def settle(self, seconds):
        """Collect the events of the next `seconds` (late console messages and requests)."""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            self._read("events", until)

    def _read(self, what, until=None):
        while b"\0" not in self.buffer:
            left = (until or self.deadline) - time.monotonic()
            if left <= 0:
                if until:
                    return {}
                raise CheckError(f"timed out waiting for {what}")
            ready, _, _ = select.select([self.replies], [], [], left)
            if ready:
                chunk = os.read(self.replies, 1 << 20)
                if not chunk:
                    raise CheckError(f"Chromium exited (code {self.process.poll()}) before {what}; "
                                     f"its last output:\n{tail(self.log_path)}")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        parsed = json.loads(message)
        if "method" in parsed:
            self.events.append(parsed)
        return parsed


def tail(path, lines=15):
    try:
        return "\n".join(pathlib.Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(none)"


def start_chromium(chromium, profile, log_path):
    """Chromium with fds 3 and 4 as its ends of two pipes; returns it and our ends. Nothing of ours may
    be open on 3 or 4 when this is called (the log is opened here, after they are taken)."""
    commands_read, commands_write = os.pipe()  # we write commands, Chromium reads them on its fd 3
    replies_read, replies_write = os.pipe()  # Chromium writes replies and events on its fd 4, we read
    # Moved out of the way of 3 and 4 (close-on-exec), so that placing Chromium's ends there clobbers none.
    pipes = [commands_read, commands_write, replies_read, replies_write]
    commands_read, commands_write, replies_read, replies_write = [
        fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in pipes]
    for fd in pipes:
        os.close(fd)
    os.dup2(commands_read, 3)
    os.dup2(replies_write, 4)
    try:
        with open(log_path, "wb") as log:
            process = subprocess.Popen([chromium, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                       stdin=subprocess.DEVNULL, stdout=log, stderr=log, pass_fds=(3, 4),
                                       start_new_session=True)
    finally:
        for fd in (3, 4, commands_read, replies_write):
            os.close(fd)
    return process, commands_write, replies_read


def stop_chromium(process, devtools):
    if process.poll() is None and devtools:
        try:
            devtools.deadline = time.monotonic() + 3
            devtools.call("Browser.close")
            process.wait(timeout=5)
        except (CheckError, OSError, subprocess.TimeoutExpired):
            pass
    # Its renderer and helper processes share its process group (a session of its own).
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


# Runs in the page: what the report holds. Names are compared as attribute values, never built into a
# CSS selector, so that any name (quotes, brackets) works.
PAGE_CHECKS = """(() => {
  const expected = %s;
  const charts = [...document.querySelectorAll('svg[data-chart]')];
  const chart = id => charts.find(svg => svg.getAttribute('data-chart') === id);
  const result = {charts: {}, series: [], texts: {}};
  for (const id of expected.charts) {
    const svg = chart(id);
    const box = svg ? svg.getBoundingClientRect() : null;
    result.charts[id] = box ? [box.width, box.height] : null;
  }
  for (const [id, name] of expected.series) {
    const svg = chart(id);
    const groups = svg ? [...svg.querySelectorAll('g.series')] : [];
    const group = groups.find(g => g.getAttribute('data-series') === name);
    const box = group ? group.getBBox() : null;
    result.series.push(group ? {drawn: box.width + box.height > 0, elements: group.childElementCount}
                             : {missing: svg ? 'no such series' : 'no such chart'});
  }
  const text = document.body.innerText;  // SVG <text> included, <title> tooltips not
  for (const wanted of expected.texts) result.texts[wanted] = text.includes(wanted);
  result.scripts = document.querySelectorAll('script').length;
  result.handlers = [...document.querySelectorAll('*')].flatMap(element =>
      [...element.attributes].map(attribute => attribute.name).filter(name => /^on/i.test(name)));
  result.charts_on_page = charts.map(svg => svg.getAttribute('data-chart'));
  return result;
})()"""


class Report:
    def __init__(self):
        self.failures = []

    def check(self, passed, message):
        print(("PASS " if passed else "FAIL ") + message, flush=True)
        if not passed:
            self.failures.append(message)


def problems_in_events(events, report_url):
    """The failure messages for errors, warnings and requests the page caused."""
    problems = []
    for event in events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            description = details.get("exception", {}).get("description", details.get("text", ""))
            problems.append(f"uncaught exception: {description}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
            args = params.get("args", [])
            text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in args)
            problems.append(f"console {params['type']}: {text}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            problems.append(f"log error: {entry.get('text')} {entry.get('url', '')}".rstrip())
        elif method == "Network.requestWillBeSent":
            url = params.get("request", {}).get("url", "")
            if url.split("#")[0] != report_url:
                problems.append(f"request to another URL: {url[:200]}")
    return problems


def run_checks(args, devtools, report):
    report_url = pathlib.Path(args.report).resolve().as_uri()
    target = devtools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = devtools.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Network", "Runtime", "Log", "Page"):
        devtools.call(f"{domain}.enable", session=session)
    if args.readable_viewport:
        devtools.call("Emulation.setDeviceMetricsOverride", {**VIEWPORT, "deviceScaleFactor": 1, "mobile": False},
                      session=session)
    devtools.events.clear()  # what about:blank did is not the report's
    navigation = devtools.call("Page.navigate", {"url": report_url}, session=session)
    if navigation.get("errorText"):
        raise CheckError(f"could not load {report_url}: {navigation['errorText']}")
    report.check(True, f"loaded {report_url}")
    devtools.wait_for_event("Page.loadEventFired", "the page to load")
    devtools.settle(0.3)

    page_events = [event for event in devtools.events if event.get("sessionId") == session]
    problems = problems_in_events(page_events, report_url)
    requests = [problem for problem in problems if problem.startswith("request")]
    errors = [problem for problem in problems if problem not in requests]
    for failure in errors:
        report.check(False, failure)
    for failure in requests:
        report.check(False, failure)
    if not errors:
        report.check(True, "no exceptions, console errors or warnings")
    if not requests:
        report.check(True, "no requests but for the report itself")

    expected = {"charts": args.expect_chart, "series": [s.split(":", 1) for s in args.expect_series],
                "texts": args.expect_text}
    evaluation = devtools.call("Runtime.evaluate", {"expression": PAGE_CHECKS % json.dumps(expected),
                                                    "returnByValue": True}, session=session)
    if "exceptionDetails" in evaluation:
        raise CheckError(f"the checks in the page threw: {json.dumps(evaluation['exceptionDetails'])[:300]}")
    found = evaluation["result"]["value"]
    report.check(found["scripts"] == 0 and not found["handlers"],
                 f"no script in the page ({found['scripts']} <script> elements, "
                 f"handlers: {found['handlers'] or 'none'})")
    for chart_id, size in found["charts"].items():
        if size is None:
            report.check(False, f"missing chart {chart_id} (charts on the page: {found['charts_on_page']})")
        else:
            report.check(size[0] > 0 and size[1] > 0,
                         f"chart {chart_id} rendered at {size[0]:.0f}×{size[1]:.0f} px")
    for (chart_id, name), series in zip(expected["series"], found["series"]):
        if "missing" in series:
            report.check(False, f"missing series {chart_id}:{name} ({series['missing']})")
        else:
            report.check(series["drawn"], f"series {chart_id}:{name} drawn ({series['elements']} elements)")
    for text, present in found["texts"].items():
        report.check(present, f"text {text!r} on the page")

    if args.readable_viewport:
        evaluation = devtools.call("Runtime.evaluate", {"expression": READABLE_FACTS % TOLERANCE,
                                                        "returnByValue": True, "awaitPromise": True},
                                   session=session)
        if "exceptionDetails" in evaluation:
            raise CheckError("the readability checks in the page threw: "
                             f"{json.dumps(evaluation['exceptionDetails'])[:300]}")
        facts = evaluation["result"]["value"]
        readable_checks(args, facts, report)
        if args.screenshots:
            screenshots(args, devtools, session, facts, report)

    metrics = devtools.call("Page.getLayoutMetrics", session=session)
    content = metrics.get("cssContentSize") or metrics["contentSize"]
    shot = devtools.call("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": content["width"], "height": content["height"], "scale": 1}},
        session=session)
    png = base64.b64decode(shot["data"])
    pathlib.Path(args.screenshot).write_bytes(png)
    report.check(png.startswith(b"\x89PNG"), f"screenshot {args.screenshot} "
                 f"({content['width']:.0f}×{content['height']:.0f} px, {len(png)} bytes)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--expect-chart", action="append", default=[], metavar="ID")
    parser.add_argument("--expect-series", action="append", default=[], metavar="CHART:NAME")
    parser.add_argument("--expect-text", action="append", default=[], metavar="TEXT")
    parser.add_argument("--expect-failure", metavar="SUBSTRING")
    parser.add_argument("--expect-only", action="store_true",
                        help="with --expect-failure: every failure must contain SUBSTRING (the page fails for "
                             "that reason alone)")
    parser.add_argument("--timeout", type=float, default=60, metavar="SECONDS")
    parser.add_argument("--readable", action="store_true",
                        help="all the readability checks: " + ", ".join(f"--check-{name}" for name in READABLE))
    for name in READABLE:
        parser.add_argument(f"--check-{name}", action="store_true")
    parser.add_argument("--screenshots", metavar="DIR",
                        help="first-screen.png and chart-ID.png for each chart, at the 1280×800 viewport")
    args = parser.parse_args()
    args.check = {name: args.readable or getattr(args, f"check_{name}") for name in READABLE}
    args.readable_viewport = any(args.check.values()) or bool(args.screenshots)
    if args.expect_only and args.expect_failure is None:
        parser.error("--expect-only goes with --expect-failure SUBSTRING")
    for series in args.expect_series:
        if ":" not in series:
            parser.error(f"--expect-series takes CHART:NAME, got {series!r}")
    if not os.path.isfile(args.report):
        parser.error(f"no such report: {args.report}")

    chromium = shutil.which("chromium") or shutil.which("/usr/bin/chromium")
    if not chromium:
        print("chromium not installed", flush=True)
        return SKIP
    # A test runner's timeout ends us with SIGTERM: leave through `finally`, which stops Chromium.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("browser check: terminated"))

    started = time.monotonic()
    report, process, devtools = Report(), None, None
    profile = tempfile.mkdtemp(prefix="browser-check-")
    try:
        log_path = os.path.join(profile, "chromium.log")
        process, commands, replies = start_chromium(chromium, profile, log_path)
        devtools = DevTools(process, commands, replies, started + args.timeout, log_path)
        run_checks(args, devtools, report)
    except CheckError as error:
        limit = f" (limit {args.timeout:g} s)" if "timed out" in str(error) else ""
        report.check(False, f"{error}{limit}")
    finally:
        if process:
            stop_chromium(process, devtools)
            os.close(commands), os.close(replies)
        shutil.rmtree(profile, ignore_errors=True)

    elapsed = time.monotonic() - started
    if args.expect_failure is not None:
        matching = [failure for failure in report.failures if args.expect_failure in failure]
        others = [failure for failure in report.failures if args.expect_failure not in failure]
        unexpected = f", and {len(others)} other failure(s)" if args.expect_only and others else ""
        print(f"browser check: expected a failure with {args.expect_failure!r}: "
              f"{'seen' if matching else 'not seen'}{unexpected} ({elapsed:.1f} s)")
        return 0 if matching and not unexpected else 1
    print(f"browser check: {'all passed' if not report.failures else f'{len(report.failures)} failed'} "
          f"({elapsed:.1f} s)")
    return 0 if not report.failures else 1


if __name__ == "__main__":
    sys.exit(main())
