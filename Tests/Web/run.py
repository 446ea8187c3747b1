"""Runs the page's browser flows against a real `sheetport serve` in headless Chromium.

    .venv/bin/python Tests/Web/run.py --sheetport .build/debug/sheetport \\
        --corpus ../shared/corpus/files [--artifacts .build/web-artifacts] [--only flow,flow]

Every flow runs (a failure does not stop the others) and leaves a screenshot of its end in the
artifacts folder as <flow>.png (named with dashes). Prints one line a flow and closes with
`N passed, N failed`; exits 1 when any flow failed. The Swift test WebBrowserTests runs it."""

import argparse
import os
import shutil
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from flows import FLOWS, sign_out   # noqa: E402
from harness import API, Browser, OtherSite, Server   # noqa: E402
from hostile import HOSTILE   # noqa: E402

SUBJECTS = ("ann", "bob", "cat")   # the owner, a commenter, a third person writing through the API
BUDGET = 170.0   # seconds: the whole run stays under CI's three minutes; flows past it are failed


class Context:
    """What flows share: the server, one API client and one signed-in browser per subject, fresh
    browsers for links, the other site; and the browser whose screen ends the current flow."""

    def __init__(self, server, folder, corpus, artifacts):
        self.server = server
        self.folder = folder
        self.corpus = corpus
        self.artifacts = artifacts
        self.tokens = {subject: server.token(subject) for subject in SUBJECTS}
        self.browsers = {}
        self.refused = {}
        self.site = None
        self.shot = None
        self.notes = []

    def api(self, subject):
        return API(self.server.base, self.tokens[subject])

    def browser(self, subject, sign_in=True):
        """The browser of `subject`, started on first use and signed in through the form."""
        browser = self.browsers.get(subject)
        if browser is None:
            browser = Browser(self.server.base, os.path.join(self.folder, f"downloads-{subject}"), self.artifacts)
            self.browsers[subject] = browser
        if sign_in and browser.page() not in ("sheets", "grid", "table"):
            if subject in self.refused:   # one wait for a sign-in that cannot work is enough
                raise RuntimeError(f"{subject} could not sign in earlier: {self.refused[subject]}")
            try:
                browser.sign_in(self.tokens[subject])
            except Exception as error:
                self.refused[subject] = error
                raise
        if self.shot is None:
            self.shot = browser
        return browser

    def fresh_browser(self, name, script=True):
        """A new browser with no session (a person following a link), its pages' script off
        unless `script`."""
        old = self.browsers.pop(name, None)
        if old:
            old.quit()
        browser = Browser(self.server.base, os.path.join(self.folder, f"downloads-{name}"), self.artifacts, script)
        self.browsers[name] = browser
        return browser

    def other_site(self):
        if self.site is None:
            self.site = OtherSite()
        return self.site

    def note(self, text):
        self.notes.append(text)

    def close(self):
        for browser in self.browsers.values():
            browser.quit()
        if self.site:
            self.site.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sheetport", required=True, help="the built sheetport executable")
    parser.add_argument("--corpus", required=True, help="the corpus folder (../shared/corpus/files)")
    parser.add_argument("--artifacts", default=".build/web-artifacts", help="where the screenshots go")
    parser.add_argument("--only", help="comma-separated flow names (dashes), the others skipped")
    arguments = parser.parse_args()
    flows = FLOWS + HOSTILE + [sign_out]   # signing out last: the flows before use ann's session
    if arguments.only:
        wanted = set(arguments.only.split(","))
        flows = [flow for flow in flows if flow.__name__.replace("_", "-") in wanted]
    artifacts = os.path.abspath(arguments.artifacts)
    os.makedirs(artifacts, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="sheetport-web-")
    began = time.monotonic()
    server = Server(os.path.abspath(arguments.sheetport), folder)
    context = Context(server, folder, os.path.abspath(arguments.corpus), artifacts)
    passed, failed = 0, 0
    try:
        for flow in flows:
            name = flow.__name__.replace("_", "-")
            if time.monotonic() - began > BUDGET:
                print(f"FAIL {name}: not run, the run passed its {BUDGET:g} s budget", flush=True)
                failed += 1
                continue
            context.shot, context.notes = None, []
            start = time.monotonic()
            try:
                flow(context)
                passed += 1
                outcome = "ok  "
            except Exception as error:   # any failure of one flow: reported, the next flow runs
                failed += 1
                outcome = "FAIL"
                detail = "".join(traceback.format_exception_only(type(error), error)).strip()
                where = traceback.extract_tb(error.__traceback__)
                line = next((f"{os.path.basename(f.filename)}:{f.lineno}" for f in reversed(where)
                             if f.filename.endswith(("flows.py", "hostile.py"))), "")
                context.note(f"at {line}: {detail}")
            if context.shot:
                context.shot.screenshot(name)
            notes = f"\n     {'; '.join(context.notes)}" if context.notes else ""
            print(f"{outcome} {name} {time.monotonic() - start:.1f} s{notes}", flush=True)
    finally:
        context.close()
        server.stop()
        if failed:
            print("server log (last lines):\n" + server.log_tail(), flush=True)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"screenshots in {artifacts}; {time.monotonic() - began:.0f} s in all")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
