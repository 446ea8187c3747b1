"""What the browser flows stand on: the real `sheetport serve` on a loopback ephemeral port with
its own SQLite data directory, its JSON API with bearer tokens from `sheetport token issue`,
headless Chromium through Debian's chromedriver, and a second local HTTP server on another port
playing another site. Every wait is an explicit condition with a deadline, never a sleep."""

import http.server
import json
import os
import re
import subprocess
import threading
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import (NoAlertPresentException, NoSuchElementException,
                                        StaleElementReferenceException, TimeoutException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT = 10.0   # seconds any one expected state may take to appear


class FlowFailure(AssertionError):
    """A flow's expectation that did not hold, with what the page showed."""


def check(condition, message):
    if not condition:
        raise FlowFailure(message)


class Server:
    """A `sheetport serve` process in `folder/data`, its standard error in `folder/server.log`."""

    def __init__(self, sheetport, folder):
        self.sheetport = sheetport
        self.data = os.path.join(folder, "data")
        self.log_path = os.path.join(folder, "server.log")
        self.log = open(self.log_path, "wb")
        # The flows open ~30 pages as ann within a minute; a closed page's event stream is only
        # found closed at its next heartbeat, so the per-subject cap (16) would refuse live pages
        # that a person, opening far fewer, never meets.
        self.process = subprocess.Popen(
            [sheetport, "serve", "--data", self.data, "--listen", "127.0.0.1:0", "--event-streams-per-subject", "128"],
            stdout=subprocess.PIPE, stderr=self.log)
        line = self.process.stdout.readline().decode("utf-8", "replace").strip()
        if not line.startswith("listening on "):
            self.stop()
            raise RuntimeError(f"sheetport serve did not start: {line!r}\n{self.log_tail()}")
        self.base = line[len("listening on "):].rstrip("/")

    def token(self, subject):
        """A bearer token for `subject` from `sheetport token issue` (64 hex digits on stdout)."""
        result = subprocess.run([self.sheetport, "token", "issue", "--data", self.data, "--subject", subject],
                                capture_output=True, text=True, timeout=30)
        found = re.search(r"\b[0-9a-f]{64}\b", result.stdout)
        if result.returncode != 0 or not found:
            raise RuntimeError(f"token issue {subject!r}: {result.returncode} {result.stdout!r} {result.stderr!r}")
        return found.group(0)

    def log_tail(self, lines=20):
        try:
            with open(self.log_path, "rb") as handle:
                return b"\n".join(handle.read().splitlines()[-lines:]).decode("utf-8", "replace")
        except OSError:
            return ""

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class API:
    """The JSON API as one subject, with its bearer token."""

    def __init__(self, base, token):
        self.base = base
        self.token = token

    def call(self, method, path, body=None, headers=None, raw=None):
        """(status, parsed JSON or bytes, response headers) of one request."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        if body is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, payload, heads = response.status, response.read(), response.headers
        except urllib.error.HTTPError as error:
            status, payload, heads = error.code, error.read(), error.headers
        if "json" in (heads.get("Content-Type") or ""):
            try:
                return status, json.loads(payload), heads
            except ValueError:
                pass
        return status, payload, heads

    def ok(self, method, path, body=None, **kwargs):
        """The JSON answer of a request that must succeed (2xx)."""
        status, payload, _ = self.call(method, path, body, **kwargs)
        check(200 <= status < 300, f"{method} {path}: {status} {payload!r}")
        return payload

    def new_sheet(self, name, cells=None):
        """Creates a sheet, writes `cells` ({ref: input}) into it; returns its id."""
        sheet = self.ok("POST", "/api/sheets", {"name": name})
        sheet_id = sheet.get("id") or sheet.get("sheet", {}).get("id")
        if cells:
            self.write(sheet_id, cells)
        return sheet_id

    def write(self, sheet_id, cells):
        return self.ok("POST", f"/api/sheets/{sheet_id}/cells",
                       {"cells": [{"ref": ref, "input": text} for ref, text in cells.items()]})

    def cells(self, sheet_id):
        """{ref: cell object} of the sheet's first rows window."""
        window = self.ok("GET", f"/api/sheets/{sheet_id}/rows?start=1&count=500")
        return {cell["ref"]: cell for row in window["rows"] for cell in row["cells"]}

    def version(self, sheet_id):
        return self.ok("GET", f"/api/sheets/{sheet_id}")["version"]

    def grant(self, sheet_id, subject, role):
        self.ok("POST", f"/api/sheets/{sheet_id}/grants", {"subject": subject, "role": role})


class Browser:
    """One headless Chromium (its own profile: its own cookies), downloads into `downloads`;
    `script=False` turns the pages' JavaScript off."""

    def __init__(self, base, downloads, artifacts, script=True):
        self.base = base
        self.artifacts = artifacts
        self.downloads = downloads
        os.makedirs(downloads, exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                         "--disable-gpu", "--no-first-run", "--disable-extensions", "--lang=en-US"):
            options.add_argument(argument)
        prefs = {"download.default_directory": downloads, "download.prompt_for_download": False}
        if not script:   # the page's own script off: what works without it
            prefs["profile.managed_default_content_settings.javascript"] = 2
        options.add_experimental_option("prefs", prefs)
        options.set_capability("unhandledPromptBehavior", "ignore")   # an alert stays to be seen
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_page_load_timeout(30)
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})

    # Waiting and finding

    def wait(self, condition, what, timeout=WAIT):
        """Polls `condition()` until it is truthy (returns it) or fails naming `what`."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.03,
                                 ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
                                 ).until(lambda _: condition())
        except TimeoutException:
            raise FlowFailure(f"waited {timeout:g} s for {what}; at {self.driver.current_url} "
                              f"page={self.page()!r} status={self.status_text()!r}") from None

    def find(self, selector, within=None):
        return (within or self.driver).find_element(By.CSS_SELECTOR, selector)

    def find_all(self, selector, within=None):
        return (within or self.driver).find_elements(By.CSS_SELECTOR, selector)

    def element(self, selector, what=None, visible=False):
        """The element for `selector`, once it is there (and displayed when `visible`)."""
        def found():
            element = self.find(selector)
            return element if (not visible or element.is_displayed()) else None
        return self.wait(found, what or selector)

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def page(self):
        try:
            return self.js("return document.body ? document.body.dataset.page || null : null")
        except Exception:   # an open alert or a page in the middle of loading
            return None

    def status_text(self):
        try:
            return self.find("#status").text
        except Exception:
            return None

    # Pages

    def open(self, path, page):
        """Navigates to `path` and waits for `body[data-page=page]` with its script started."""
        self.driver.get(self.base + path)
        self.wait_page(page)

    def wait_page(self, page):
        self.wait(lambda: self.page() == page and self.js("return document.readyState") == "complete",
                  f"body[data-page={page}]")
        if page == "grid" or page == "table":
            self.element("#grid [role=gridcell]", "the grid's first cells")

    def sign_in(self, token):
        """Signs in through the sign-in form (a real form POST) and lands on the sheet list; a
        browser whose session is still live is on the sheet list already."""
        self.driver.get(self.base + "/")
        self.wait(lambda: self.page() in ("signin", "sheets"), "the sign-in page or the sheet list")
        if self.page() == "sheets":
            return
        self.wait_page("signin")
        field = self.element("#token")
        field.clear()
        field.send_keys(token)
        self.find("#sign-in").click()
        self.wait_page("sheets")

    def subject(self):
        return self.js("return document.body.dataset.subject || null")

    # The grid

    def cell(self, ref):
        return self.find(f'#grid [role=gridcell][data-ref="{ref}"]')

    def cell_text(self, ref):
        return self.cell(ref).text

    def wait_cell(self, ref, text, timeout=WAIT):
        """Waits until the grid shows `text` in `ref` (the server's display)."""
        self.wait(lambda: self.cell_text(ref) == text, f"{ref} to show {text!r}", timeout)

    def select(self, ref):
        """Clicks `ref` and waits until it is the active cell."""
        self.wait(lambda: self.cell(ref).is_displayed(), f"cell {ref} on screen")
        self.cell(ref).click()
        self.wait(lambda: "active" in (self.cell(ref).get_attribute("class") or "").split(), f"{ref} active")

    def type_into(self, ref, text):
        """Selects `ref`, types `text` on the grid (opening #cell-editor) and commits with Enter."""
        self.select(ref)
        ActionChains(self.driver).send_keys(text[0]).perform()
        editor = self.element("#cell-editor", "the in-cell editor after typing", visible=True)
        self.wait(lambda: editor.get_attribute("value") == text[0], f"#cell-editor holding {text[0]!r}")
        editor.send_keys(text[1:] + Keys.ENTER)

    def keys(self, *keys):
        ActionChains(self.driver).send_keys(*keys).perform()

    def chord(self, modifier, key):
        ActionChains(self.driver).key_down(modifier).send_keys(key).key_up(modifier).perform()

    def extend(self, *keys):
        """Shift held over `keys` (extending the selection)."""
        ActionChains(self.driver).key_down(Keys.SHIFT).send_keys(*keys).key_up(Keys.SHIFT).perform()

    def commit_formula_bar(self, ref, text):
        """Selects `ref`, replaces the formula bar's input with `text` and commits with Enter."""
        self.select(ref)
        bar = self.element("#formula-bar")
        bar.click()
        bar.send_keys(Keys.CONTROL, "a")
        bar.send_keys(Keys.DELETE)
        bar.send_keys(text + Keys.ENTER)

    def open_panel(self, action, panel):
        self.find(f"button[data-action={action}]").click()
        return self.element(panel, f"{panel} open", visible=True)

    # Safety checks

    def no_alert(self):
        """Fails when a dialog (alert, confirm, prompt) is open: injected script ran."""
        try:
            alert = self.driver.switch_to.alert
        except NoAlertPresentException:
            return
        text = alert.text
        alert.dismiss()
        raise FlowFailure(f"a dialog opened: {text!r} (injected script ran)")

    def injected(self):
        """Elements that only injected markup would make: with an inline handler, or img/svg in data."""
        return self.js("""
            const found = [];
            for (const e of document.querySelectorAll('*')) {
                for (const a of e.attributes) if (a.name.startsWith('on')) found.push(e.outerHTML.slice(0, 120));
            }
            for (const e of document.querySelectorAll('#app img[src=x], #app svg[onload], #grid img, #grid svg, .comment-text *'))
                found.push(e.outerHTML.slice(0, 120));
            return found;""")

    def cookie_header(self):
        return "; ".join(f"{c['name']}={c['value']}" for c in self.driver.get_cookies())

    def screenshot(self, name):
        os.makedirs(self.artifacts, exist_ok=True)
        path = os.path.join(self.artifacts, f"{name}.png")
        try:
            self.driver.save_screenshot(path)
        except Exception as error:   # an open alert blocks screenshots; dismiss it and try once more
            try:
                self.driver.switch_to.alert.dismiss()
                self.driver.save_screenshot(path)
            except Exception:
                print(f"  (no screenshot for {name}: {error})")
        return path

    def wait_download(self, before, timeout=20):
        """The path of the first finished .xlsx download that was not in `before`."""
        def finished():
            names = set(os.listdir(self.downloads)) - before
            if any(name.endswith(".crdownload") for name in names):
                return None
            done = [name for name in names if name.endswith(".xlsx")]
            return os.path.join(self.downloads, done[0]) if done else None
        return self.wait(finished, "the export's download", timeout)

    def quit(self):
        try:
            self.driver.quit()
        except Exception:
            pass


class OtherSite:
    """A second local HTTP server on another port (another origin): serves the pages in `pages`
    ({path: html}) so the browser can be sent from it to SheetPort (forms, frames)."""

    def __init__(self):
        self.pages = {}
        pages = self.pages

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = pages.get(self.path.split("?")[0])
                if body is None:
                    self.send_error(404)
                    return
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *arguments):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def elapsed_since(start):
    return time.monotonic() - start
