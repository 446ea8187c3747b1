"""Hostile input in a real browser: markup in a cell, a comment closing the script element, a
sheet name breaking out of an attribute, a form posted from another origin while the browser holds
a session, and the page framed by another site. Each checks that no injected element exists and
no dialog opened (the payloads would alert), and that the server changed nothing it should not."""

import html
import re
import urllib.request

from harness import check

CELL = '<img src=x onerror=alert("cell")>'
COMMENT = '</script><script>alert("comment")</script><img src=x onerror=alert(2)>'
SHEET = '"><svg onload=alert(1)>'


def hostile_cell_markup(context):
    """Markup typed into a cell, and written by another person through the API (arriving live), is
    drawn as text: no element made, no script run."""
    api = context.api("ann")
    sheet = api.new_sheet("Markup", {"A1": "plain"})
    api.grant(sheet, "cat", "editor")
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.type_into("A2", CELL)
    ann.wait_cell("A2", CELL)
    context.api("cat").write(sheet, {"B2": CELL, "C2": '=A2&"<b>x</b>"'})
    ann.wait_cell("B2", CELL)
    ann.wait_cell("C2", CELL + "<b>x</b>")
    ann.select("A2")
    check(ann.find("#formula-bar").get_attribute("value") == CELL, "the formula bar holds the text as typed")
    ann.no_alert()
    check(not ann.injected(), f"injected elements: {ann.injected()}")
    ann.wait(lambda: api.cells(sheet)["A2"]["input"] == CELL, "the server storing the typed text")


def hostile_comment_script(context):
    """A commenter's comment holding `</script>` and markup shows as its text to the owner."""
    api = context.api("ann")
    sheet = api.new_sheet("Comments", {"A1": "x"})
    api.grant(sheet, "bob", "commenter")
    bob = context.browser("bob")
    bob.open(f"/sheets/{sheet}", "grid")
    bob.select("A1")
    bob.open_panel("comments", "#panel-comments")
    bob.element("textarea#comment-text").send_keys(COMMENT)
    bob.find("#panel-comments button[data-action=comment]").click()
    bob.wait(lambda: any(t.text == COMMENT for t in bob.find_all("#panel-comments .comment-text")), "bob's comment as text")
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.open_panel("comments", "#panel-comments")
    ann.wait(lambda: any(t.text == COMMENT for t in ann.find_all("#panel-comments .comment-text")), "the comment as text for ann")
    for browser in (ann, bob):
        browser.no_alert()
        check(not browser.injected(), f"injected elements: {browser.injected()}")
    comments = api.ok("GET", f"/api/sheets/{sheet}/comments")["comments"]
    check([c["text"] for c in comments] == [COMMENT], f"server: {comments}")


def hostile_sheet_name(context):
    """A sheet named to break out of an attribute is text in the list, the grid and the title, and
    escaped in the HTML the server renders."""
    ann = context.browser("ann")
    api = context.api("ann")
    ann.open("/", "sheets")
    ann.element("#new-sheet-name").send_keys(SHEET)
    ann.find("#new-sheet").click()
    link = ann.wait(lambda: next((a for a in ann.find_all("#sheet-list a.sheet-name") if a.text == SHEET), None),
                    "the new sheet's name as text in the list")
    sheet = next(s["id"] for s in api.ok("GET", "/api/sheets")["sheets"] if s["name"] == SHEET)
    ann.no_alert()
    check(not ann.injected(), f"injected elements on the list: {ann.injected()}")
    request = urllib.request.Request(f"{ann.base}/sheets/{sheet}", headers={"Accept": "text/html",
                                                                            "Cookie": ann.cookie_header()})
    with urllib.request.urlopen(request, timeout=30) as response:
        page = response.read().decode()
    title = re.search(r"<title>([^<]*)</title>", page)
    check("<svg" not in page and title and html.unescape(title.group(1)) == f"{SHEET} - SheetPort",
          f"the shell escapes the name: {page[:600]!r}")
    link.click()
    ann.wait_page("grid")
    check(ann.driver.title == f"{SHEET} - SheetPort", f"the title {ann.driver.title!r}")
    ann.no_alert()
    check(not ann.injected(), f"injected elements on the grid: {ann.injected()}")


def form(action, fields, enctype="application/x-www-form-urlencoded", opaque=False):
    """A page of another site that posts a form to `action` as soon as it loads; `opaque` posts
    it from a sandboxed frame (an opaque origin: the browser sends `Origin: null`) to the top."""
    inputs = "".join(f"<input type=hidden name='{html.escape(name)}' value='{html.escape(value)}'>"
                     for name, value in fields)
    page = (f"<!doctype html><form method=post action='{html.escape(action)}' enctype='{enctype}' target=_top>"
            f"{inputs}</form><script>document.forms[0].submit()</script>")
    if not opaque:
        return page
    return (f"<!doctype html><iframe sandbox='allow-forms allow-scripts allow-top-navigation' "
            f"srcdoc='{html.escape(page)}'></iframe>")


def hostile_cross_site_post(context):
    """Pages of another origin (another port of 127.0.0.1: same site, so the Lax cookie goes along)
    post forms to SheetPort while ann is signed in: a JSON-looking text/plain write, a new sheet,
    a sign-in as bob and a sign-out, with their origin and from an opaque one (`Origin: null`). Nothing changes;
    ann stays signed in as herself."""
    api = context.api("ann")
    sheet = api.new_sheet("Target", {"A1": "safe"})
    version = api.version(sheet)
    sheets = len(api.ok("GET", "/api/sheets")["sheets"])
    ann = context.browser("ann")
    site = context.other_site()
    base = ann.base
    site.pages.update({
        "/cells": form(f"{base}/api/sheets/{sheet}/cells",
                       [('{"cells":[{"ref":"A1","input":"pwned","pad":"', '"}]}')], "text/plain"),
        "/create": form(f"{base}/api/sheets", [('{"name":"pwned","pad":"', '"}')], "text/plain"),
        "/cells-no-origin": form(f"{base}/api/sheets/{sheet}/cells",
                                 [('{"cells":[{"ref":"A1","input":"pwned","pad":"', '"}]}')], "text/plain", opaque=True),
        "/session": form(f"{base}/session", [("token", context.tokens["bob"])]),
        "/session-no-origin": form(f"{base}/session", [("token", context.tokens["bob"])], opaque=True),
        "/end": form(f"{base}/session/end", []),
    })
    for path in ("/cells", "/cells-no-origin", "/create", "/session", "/session-no-origin", "/end"):
        ann.driver.get(site.base + path)
        ann.wait(lambda: ann.driver.current_url.startswith(base), f"the form of {path} posted to SheetPort")
        ann.wait(lambda: ann.js("return document.readyState") == "complete", "the answer loaded")
    check(api.version(sheet) == version and api.cells(sheet)["A1"]["input"] == "safe", "the sheet unchanged")
    check(len(api.ok("GET", "/api/sheets")["sheets"]) == sheets, "no sheet created")
    ann.driver.get(ann.base + "/")
    ann.wait(lambda: ann.page() in ("sheets", "signin"), "the sheet list or the sign-in page")
    check(ann.page() == "sheets" and ann.subject() == "ann",
          f"still signed in as ann: the page is {ann.page()!r} of {ann.subject()!r}")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.wait_cell("A1", "safe")


def hostile_framed_page(context):
    """Another site framing the grid or the sign-in page gets nothing drawn in the frame."""
    api = context.api("ann")
    sheet = api.new_sheet("Framed", {"A1": "secret"})
    ann = context.browser("ann")
    site = context.other_site()
    site.pages["/frame"] = (f"<!doctype html><iframe id=grid-frame src='{ann.base}/sheets/{sheet}' "
                            "onload='window.gridLoaded=true'></iframe>"
                            f"<iframe id=signin-frame src='{ann.base}/' onload='window.signinLoaded=true'></iframe>")
    ann.driver.get(site.base + "/frame")
    ann.wait(lambda: ann.js("return !!(window.gridLoaded && window.signinLoaded)"), "both frames settled")
    for frame in ("grid-frame", "signin-frame"):
        ann.driver.switch_to.frame(ann.find(f"#{frame}"))
        try:
            page = ann.js("return document.body ? (document.body.dataset.page || null) : null")
            text = ann.js("return document.body ? document.body.innerText : ''")
            where = ann.js("return location.href")
        finally:
            ann.driver.switch_to.default_content()
        check(page is None and "secret" not in text, f"{frame} drew SheetPort's page ({where}, {page!r})")
    ann.no_alert()
    for path in ("/", f"/sheets/{sheet}"):
        status, _, heads = api.call("GET", path, headers={"Accept": "text/html"})
        policy = heads.get("Content-Security-Policy") or ""
        check("frame-ancestors 'none'" in policy and "script-src 'self'" in policy and "unsafe-inline" not in policy,
              f"{path} ({status}) CSP {policy!r}")
        check(heads.get("Referrer-Policy") == "no-referrer" and heads.get("X-Content-Type-Options") == "nosniff"
              and "no-store" in (heads.get("Cache-Control") or ""), f"{path} headers {dict(heads)}")


HOSTILE = [hostile_cell_markup, hostile_comment_script, hostile_sheet_name, hostile_cross_site_post,
           hostile_framed_page]
