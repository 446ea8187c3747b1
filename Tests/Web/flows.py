"""The product's flows in a real browser (issue 37's list), each on a sheet of its own seeded
through the JSON API, each checked both on screen and in the server's own answers. Each flow
leaves `context.shot` naming the browser whose screen ends it (the runner saves its screenshot)."""

import os
import re
import time
import urllib.error
import urllib.request

import openpyxl
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from harness import check, elapsed_since

IMPORTED = "poi__SimpleMacro.xlsm"   # three worksheets and a VBA project: the first is imported


def sign_in(context):
    """A wrong token is refused on the page; the right one lands on the sheet list, the session in an
    HttpOnly cookie the page's script cannot read."""
    ann = context.browser("ann", sign_in=False)
    ann.driver.get(ann.base + "/")
    ann.wait_page("signin")
    ann.element("#token").send_keys("0" * 64)
    ann.find("#sign-in").click()
    ann.wait_page("signin")
    error = ann.element("#sign-in-error", "the sign-in error", visible=True)
    check(error.get_attribute("role") == "alert", "the sign-in error is role=alert")
    ann.sign_in(context.tokens["ann"])
    check(ann.subject() == "ann", f"signed in as ann, page says {ann.subject()!r}")
    cookies = [c for c in ann.driver.get_cookies() if c["name"].startswith("sheetport_session_")]
    check(len(cookies) == 1, f"one sheetport_session_ cookie: {ann.driver.get_cookies()}")
    check(cookies[0].get("httpOnly") and cookies[0].get("sameSite") == "Lax", f"HttpOnly, SameSite=Lax: {cookies[0]}")
    check(context.tokens["ann"] not in cookies[0]["value"], "the cookie holds a session id, not the token")
    check("sheetport_session" not in ann.js("return document.cookie"), "the page's script cannot read the session")
    check(context.tokens["ann"] not in ann.driver.current_url, "no token in the address")


def sign_in_without_script(context):
    """With the page's script off, the sign-in form still signs in (a plain form POST from the
    sign-in page, whose no-referrer policy makes the browser send `Origin: null`)."""
    plain = context.fresh_browser("plain", script=False)
    context.shot = plain
    plain.driver.get(plain.base + "/")
    plain.wait_page("signin")
    plain.element("#token").send_keys(context.tokens["bob"])
    plain.find("#sign-in").click()
    plain.wait(lambda: plain.page() == "sheets" or "csrf" in plain.js("return document.body.innerText"),
               "the sheet list (or a refusal)")
    check(plain.page() == "sheets" and plain.subject() == "bob",
          f"signed in without script: {plain.js('return document.body.innerText')[:200]!r}")


def import_xlsm(context):
    """Upload an .xlsm on the sheet list: the findings show, with the first-worksheet statement and
    the macros dropped, and the imported sheet opens with the first worksheet's cell."""
    path = os.path.join(context.corpus, IMPORTED)
    check(os.path.exists(path), f"the corpus file {path} (../shared/corpus)")
    ann = context.browser("ann")
    ann.open("/", "sheets")
    ann.element("#import-file").send_keys(path)
    ann.find("#import").click()
    ann.wait(lambda: ann.find('#import-findings li[data-code="extra-worksheets"]'), "the extra-worksheets finding", 30)
    findings = ann.find("#import-findings").text
    check(re.search(r"first worksheet", findings, re.I), f"the first-worksheet statement in {findings!r}")
    check(ann.find_all('#import-findings li[data-code="macros-dropped"]'), f"macros-dropped listed: {findings!r}")
    ann.screenshot("import-xlsm-findings")
    jobs = context.api("ann").ok("GET", "/api/imports")["jobs"]
    job = next((j for j in jobs if j["filename"] == IMPORTED and j["status"] == "succeeded"), None)
    check(job, f"the import job succeeded: {jobs}")
    sheet_id = job["result"]["sheet"]["id"]
    row = ann.element(f'#sheet-list tr[data-sheet-id="{sheet_id}"] a.sheet-name', "the imported sheet in the list")
    row.click()
    ann.wait_page("grid")
    ann.wait_cell("A1", "This is a macro workbook")


def type_values_and_formulas(context):
    """Typed values and formulas (in the cell and in the formula bar) show the server's results."""
    api = context.api("ann")
    sheet = api.new_sheet("Typed")
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.type_into("A1", "12")
    ann.wait_cell("A1", "12")
    ann.type_into("A2", "30.5")
    ann.wait_cell("A2", "30.5")
    ann.type_into("A3", "=A1+A2")
    ann.wait_cell("A3", "42.5")
    ann.type_into("B1", "12%")
    ann.wait_cell("B1", "12%")
    ann.commit_formula_bar("B2", "=SUM(A1:A3)*2")
    ann.wait_cell("B2", "170")
    ann.select("A3")
    ann.wait(lambda: ann.find("#formula-bar").get_attribute("value") == "=A1+A2", "the formula bar showing =A1+A2")
    ann.type_into("A1", "13")
    ann.wait_cell("A3", "43.5")   # a dependent recalculated by the server
    cells = api.cells(sheet)
    check(cells["A3"]["value"] == 43.5 and cells["B2"]["input"] == "=SUM(A1:A3)*2", f"server: {cells}")


def fill_down(context):
    """Ctrl-D over C1:C4 copies a mixed-reference formula down through the server's translation."""
    api = context.api("ann")
    sheet = api.new_sheet("Fill", {"A1": "1", "A2": "2", "A3": "3", "A4": "4", "B1": "10", "C1": "=$A1*B$1"})
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.wait_cell("C1", "10")
    ann.select("C1")
    ann.extend(Keys.DOWN, Keys.DOWN, Keys.DOWN)
    ann.wait(lambda: ann.cell("C4").get_attribute("aria-selected") == "true", "C1:C4 selected")
    ann.chord(Keys.CONTROL, "d")
    for ref, text in (("C2", "20"), ("C3", "30"), ("C4", "40")):
        ann.wait_cell(ref, text)
    ann.select("C4")
    ann.wait(lambda: ann.find("#formula-bar").get_attribute("value") == "=$A4*B$1", "C4's formula =$A4*B$1")
    cells = api.cells(sheet)
    check([cells[r]["input"] for r in ("C2", "C3", "C4")] == ["=$A2*B$1", "=$A3*B$1", "=$A4*B$1"], f"server: {cells}")


def bold_header(context):
    """Selecting a header row and pressing the toolbar's bold draws it bold and stores it."""
    api = context.api("ann")
    sheet = api.new_sheet("Header", {"A1": "Item", "B1": "Qty", "C1": "Price", "A2": "Pen", "B2": "3", "C2": "1.5"})
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.select("A1")
    ann.extend(Keys.RIGHT, Keys.RIGHT)
    ann.find("#toolbar button[data-action=bold]").click()
    weight = lambda ref: int(ann.js("return getComputedStyle(arguments[0]).fontWeight", ann.cell(ref)))
    ann.wait(lambda: all(weight(ref) >= 600 for ref in ("A1", "B1", "C1")), "A1:C1 drawn bold")
    check(weight("A2") < 600, "A2 stays regular")
    cells = api.cells(sheet)
    check(all(cells[ref].get("style", {}).get("bold") for ref in ("A1", "B1", "C1")), f"server styles: {cells}")
    ann.select("A2")
    ann.chord(Keys.CONTROL, "b")   # Ctrl-B too
    ann.wait(lambda: weight("A2") >= 600, "A2 bold after Ctrl-B")


def undo(context):
    """Ctrl-Z takes back the person's own last write, on screen and on the server."""
    api = context.api("ann")
    sheet = api.new_sheet("Undo", {"A1": "5", "B1": "=A1*2"})
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.type_into("A1", "50")
    ann.wait_cell("B1", "100")
    ann.select("C3")
    ann.chord(Keys.CONTROL, "z")
    ann.wait_cell("A1", "5")
    ann.wait_cell("B1", "10")
    check(api.cells(sheet)["A1"]["input"] == "5", "server: A1 back to 5")


def restore_from_history(context):
    """The history panel lists a cell's versions; restoring an earlier one brings its input back."""
    api = context.api("ann")
    sheet = api.new_sheet("Versions", {"A1": "first"})
    api.write(sheet, {"A1": "second"})
    api.write(sheet, {"A1": "third"})
    history = api.ok("GET", f"/api/sheets/{sheet}/cells/A1/history")["history"]
    first = next(entry["version"] for entry in history if entry["input"] == "first")
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.wait_cell("A1", "third")
    ann.select("A1")
    panel = ann.open_panel("history", "#panel-history")
    ann.wait(lambda: len(ann.find_all("li[data-version]", panel)) >= 3, "three versions of A1 listed")
    ann.find(f'#panel-history li[data-version="{first}"] button[data-action=restore]').click()
    ann.wait_cell("A1", "first")
    check(api.cells(sheet)["A1"]["input"] == "first", "server: A1 restored")


ORDERS = {"A1": "Item", "B1": "Qty", "C1": "Price",
          "A2": "Pen", "B2": "3", "C2": "1.5", "A3": "Book", "B3": "12", "C3": "20",
          "A4": "Lamp", "B4": "7", "C4": "35", "A5": "Cup", "B5": "9", "C5": "4",
          "A6": "Desk", "B6": "1", "C6": "150", "A7": "Ink", "B7": "20", "C7": "2"}


def table_view(context):
    """Sort and filter in the table view show rows in view order by their source rows, each cell
    the server's display (a price formatted 0.00 shows 35.00, not 35); an edit through the view
    lands in its source row, and storage never moves."""
    api = context.api("ann")
    sheet = api.new_sheet("Orders", ORDERS)
    api.ok("POST", f"/api/sheets/{sheet}/format", {"range": "C2:C7", "set": {"numberFormat": "0.00"}})
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}/table", "table")
    for selector, text in (("#view-sort", "C:desc"), ("#view-filter", "B:>5")):
        field = ann.element(selector)
        field.clear()
        field.send_keys(text)
    ann.find("#apply-view").click()
    order = lambda: [r.get_attribute("data-source-row") for r in ann.find_all("#grid [data-source-row]")
                     if r.get_attribute("data-source-row") != "1"]
    ann.wait(lambda: order() == ["4", "3", "5", "7"], "rows 4, 3, 5, 7 (Price desc, Qty > 5)")
    displays = {ref: cell["display"] for ref, cell in api.cells(sheet).items()}
    check(displays["C4"] == "35.00", f"the server formats C4 as 35.00: {displays}")
    shown = {c.get_attribute("data-ref"): c.text for c in ann.find_all("#grid [data-source-row] [role=gridcell][data-ref]")}
    check(all(shown.get(f"C{r}") == displays[f"C{r}"] for r in (4, 3, 5, 7)),
          f"the view shows the server's display: {shown} vs {displays}")
    row = ann.find('#grid [data-source-row="5"]')
    target = (ann.find_all('[role=gridcell][data-ref="B5"]', row) or ann.find_all("[role=gridcell]", row)[1:2])
    check(target, "Cup's Qty cell in the view")
    target[0].click()
    ann.keys("5")
    editor = ann.element("#cell-editor", visible=True)
    editor.send_keys("0" + Keys.ENTER)
    ann.wait(lambda: "50" in [c.text for c in ann.find_all('#grid [data-source-row="5"] [role=gridcell]')],
             "Cup's Qty 50 in the view")
    cells = ann.wait(lambda: (lambda c: c if c["B5"]["input"] == "50" else None)(api.cells(sheet)),
                     "the server storing 50 in B5 (source row 5)")
    check(cells["A5"]["input"] == "Cup", f"the edit in source row 5: {cells}")
    check([cells[f"A{r}"]["input"] for r in range(2, 8)] == ["Pen", "Book", "Lamp", "Cup", "Desk", "Ink"],
          "storage order unchanged")


def comments_two_people(context):
    """ann starts a thread, bob (a commenter, read-only grid) sees it and replies, ann sees the reply
    live and resolves the thread."""
    api = context.api("ann")
    sheet = api.new_sheet("Review", {"A1": "Total", "B1": "100"})
    api.grant(sheet, "bob", "commenter")
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.select("B1")
    ann.open_panel("comments", "#panel-comments")
    ann.element("textarea#comment-text").send_keys("Is 100 right?")
    ann.find("#panel-comments button[data-action=comment]").click()
    ann.wait(lambda: any(t.text == "Is 100 right?" for t in ann.find_all("#panel-comments .thread .comment-text")),
             "ann's comment in the panel")
    comments = api.ok("GET", f"/api/sheets/{sheet}/comments")["comments"]
    check(len(comments) == 1 and comments[0]["ref"] == "B1" and comments[0]["author"] == "ann", f"server: {comments}")
    thread = comments[0]["id"]

    bob = context.browser("bob")
    bob.open(f"/sheets/{sheet}", "grid")
    check(bob.js("return document.body.dataset.role") == "commenter", "bob is a commenter")
    check(bob.find("#grid").get_attribute("aria-readonly") == "true", "bob's grid is read-only")
    bob.open_panel("comments", "#panel-comments")
    bob.wait(lambda: bob.find(f'#panel-comments .thread[data-comment-id="{thread}"]'), "ann's thread for bob")
    bob.element("textarea#comment-text").send_keys("Yes, checked")
    reply = bob.find_all(f'.thread[data-comment-id="{thread}"] button[data-action=reply]') \
        or bob.find_all("#panel-comments button[data-action=reply]")
    check(reply, "a reply button")
    reply[0].click()
    ann.wait(lambda: any(t.text == "Yes, checked" for t in ann.find_all("#panel-comments .comment-text")),
             "bob's reply shown live to ann")
    ann.find(f'.thread[data-comment-id="{thread}"] button[data-action=resolve]').click()
    def resolved():
        first = next(c for c in api.ok("GET", f"/api/sheets/{sheet}/comments")["comments"] if c["id"] == thread)
        return first if first.get("resolved") else None
    first = ann.wait(resolved, "the thread resolved on the server")
    check(first.get("resolvedBy") == "ann", f"resolved by ann: {first}")
    replies = [c for c in api.ok("GET", f"/api/sheets/{sheet}/comments")["comments"] if c.get("replyTo") == thread]
    check(len(replies) == 1 and replies[0]["author"] == "bob", f"bob's reply on the server: {replies}")
    bob.screenshot("comments-two-people-bob")


def viewer_link(context):
    """A viewer link made in the share panel is a real URL; a second browser following it arrives on
    the grid signed in as the link (the token gone from the address), read-only, and cannot write."""
    api = context.api("ann")
    sheet = api.new_sheet("Shared", {"A1": "hello"})
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.open_panel("share", "#panel-share")
    ann.find("button[data-action=create-link][data-role=viewer]").click()
    url = ann.wait(lambda: next((f.get_attribute("value") for f in ann.find_all("#panel-share input.link-url")
                                 if f.get_attribute("value")), None), "the viewer link's URL")
    check(re.fullmatch(re.escape(ann.base) + r"/l/[0-9a-f]{64}", url), f"a link URL on this server: {url!r}")
    check(ann.find("#panel-share input.link-url").get_attribute("readonly") is not None, "the URL field is read-only")

    guest = context.fresh_browser("guest")
    guest.driver.get(url)
    guest.wait_page("grid")
    check(guest.driver.current_url == f"{guest.base}/sheets/{sheet}", f"redirected off the token: {guest.driver.current_url}")
    check(guest.js("return document.body.dataset.role") == "viewer", "the link's role is viewer")
    check(guest.find("#grid").get_attribute("aria-readonly") == "true", "the viewer's grid is read-only")
    guest.wait(lambda: "read-only" in guest.find("#status").text, "#status saying read-only")
    version = api.version(sheet)
    guest.select("A1")
    guest.keys("x", Keys.ENTER)
    guest.keys(Keys.DELETE)
    answer = guest.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(location.pathname.replace('/sheets/', '/api/sheets/') + '/cells', {method: 'POST',
              credentials: 'same-origin', headers: {'Accept': 'application/json', 'Content-Type': 'application/json',
              'X-SheetPort-CSRF': document.querySelector('meta[name=csrf-token]').content},
              body: JSON.stringify({cells: [{ref: 'A1', input: 'viewer wrote'}]})})
          .then(r => done(r.status), e => done(String(e)));""")
    check(answer == 403, f"the server refuses the viewer's write: {answer}")
    api.write(sheet, {"B1": "owner wrote"})   # the next version is the owner's: nothing came between
    guest.wait_cell("B1", "owner wrote")
    check(api.version(sheet) == version + 1, "no write of the viewer's was stored")
    check(guest.cell_text("A1") == "hello" and api.cells(sheet)["A1"]["input"] == "hello", "A1 unchanged")
    context.shot = guest


def live_edit(context):
    """A third person's edit through the JSON API (bearer token) shows on ann's grid within 1 s."""
    api = context.api("ann")
    sheet = api.new_sheet("Live", {"A1": "2", "A2": "=A1*10"})
    api.grant(sheet, "cat", "editor")
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.wait(lambda: "live" in ann.find("#status").text.lower(), "#status saying live (events connected)")
    cat = context.api("cat")
    for value, shown in (("7", "70"), ("-3", "-30")):
        cat.write(sheet, {"A1": value})
        began = time.monotonic()
        ann.wait_cell("A2", shown, timeout=1.0)
        context.note(f"cat's edit shown in {elapsed_since(began) * 1000:.0f} ms")


def export_openpyxl(context):
    """The export link downloads the sheet; openpyxl reads the values, formulas and bold."""
    api = context.api("ann")
    sheet = api.new_sheet("Exported", {"A1": "Name", "B1": "Amount", "A2": "x", "B2": "1.25", "B3": "=B2*4"})
    api.ok("POST", f"/api/sheets/{sheet}/format", {"range": "A1:B1", "set": {"bold": True}})
    ann = context.browser("ann")
    ann.open("/", "sheets")
    before = set(os.listdir(ann.downloads))
    link = ann.element(f'#sheet-list tr[data-sheet-id="{sheet}"] a[data-action=export]')
    check(link.get_attribute("href").endswith(f"/api/sheets/{sheet}/export.xlsx"), f"export href {link.get_attribute('href')}")
    link.click()
    path = ann.wait_download(before)
    formulas = openpyxl.load_workbook(path).active
    values = openpyxl.load_workbook(path, data_only=True).active
    check(formulas["A1"].value == "Name" and formulas["A1"].font.b and formulas["B1"].font.b, "A1:B1 bold headers")
    check(formulas["B3"].value == "=B2*4" and values["B3"].value == 5 and values["B2"].value == 1.25,
          f"B3 {formulas['B3'].value!r} = {values['B3'].value!r}")
    check(formulas.title == "Exported", f"sheet title {formulas.title!r}")


def luminance(browser):
    """The relative luminance (0 dark to 1 light) of the page's background."""
    return browser.js("""
        for (const e of [document.body, document.documentElement]) {
            const m = getComputedStyle(e).backgroundColor.match(/[\\d.]+/g);
            if (m && (m.length < 4 || +m[3] > 0)) return (0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2]) / 255;
        }
        return 1;""")


def theme(context):
    """Dark is applied at once, stored for the subject on the server (it survives a reload), and
    light again after."""
    ann = context.browser("ann")
    api = context.api("ann")
    ann.open("/", "sheets")
    for choice, dark in (("dark", True), ("light", False)):
        Select(ann.element("select#theme")).select_by_value(choice)
        ann.wait(lambda: ann.js("return document.documentElement.dataset.theme") == choice, f"html[data-theme={choice}]")
        ann.wait(lambda: (luminance(ann) < 0.35) if dark else (luminance(ann) > 0.65), f"a {choice} background")
        ann.wait(lambda: api.ok("GET", "/api/me/preferences").get("theme") == choice, f"the server storing {choice}")
        ann.open("/", "sheets")
        check(ann.js("return document.documentElement.dataset.theme") == choice, f"{choice} after a reload")
        if dark:
            ann.screenshot("theme-dark")


def keyboard(context):
    """Keyboard only: Tab commits and moves right, Escape abandons a draft, Delete clears, Ctrl-I
    makes italic, arrows move the active cell."""
    api = context.api("ann")
    sheet = api.new_sheet("Keys", {"A1": "keep", "C1": "gone"})
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.select("A2")
    ann.keys("a")
    editor = ann.element("#cell-editor", visible=True)
    editor.send_keys("b" + Keys.TAB)
    ann.wait(lambda: "active" in ann.cell("B2").get_attribute("class").split(), "B2 active after Tab")
    ann.wait_cell("A2", "ab")
    ann.select("A1")
    ann.keys("x")
    ann.element("#cell-editor", visible=True).send_keys("yz" + Keys.ESCAPE)
    ann.wait(lambda: not ann.find("#cell-editor").is_displayed(), "the editor closed by Escape")
    check(ann.cell_text("A1") == "keep", f"A1 after Escape: {ann.cell_text('A1')!r}")
    ann.keys(Keys.RIGHT, Keys.RIGHT)
    ann.wait(lambda: "active" in ann.cell("C1").get_attribute("class").split(), "C1 active after two right arrows")
    ann.keys(Keys.DELETE)
    ann.wait_cell("C1", "")
    ann.select("A1")
    ann.chord(Keys.CONTROL, "i")
    ann.wait(lambda: ann.js("return getComputedStyle(arguments[0]).fontStyle", ann.cell("A1")) == "italic", "A1 italic")
    def stored(cells):
        return (cells.get("A2", {}).get("input") == "ab" and cells.get("A1", {}).get("input") == "keep"
                and cells.get("C1", {}).get("input", "") == "" and cells["A1"].get("style", {}).get("italic"))
    ann.wait(lambda: stored(api.cells(sheet)), "the server holding A2 ab, A1 keep in italic, C1 cleared")


def link_from_another_site(context):
    """A link to a sheet followed from another site (localhost is another site than 127.0.0.1)
    arrives signed in: the session cookie is SameSite=Lax, not Strict."""
    api = context.api("ann")
    sheet = api.new_sheet("Linked", {"A1": "arrived"})
    ann = context.browser("ann")
    site = context.other_site()
    site.pages["/link"] = f"<!doctype html><a id=go href='{ann.base}/sheets/{sheet}'>the sheet</a>"
    ann.driver.get(site.base.replace("127.0.0.1", "localhost") + "/link")
    ann.element("#go").click()
    ann.wait_page("grid")
    check(ann.subject() == "ann", f"signed in as ann, the page says {ann.subject()!r}")
    ann.wait_cell("A1", "arrived")


def return_after_sign_in(context):
    """A sheet's address opened without a session shows the sign-in page (401); signing in there
    lands on that sheet, with the page's script and without it."""
    api = context.api("ann")
    sheet = api.new_sheet("Asked for", {"A1": "here"})
    for name, script in (("returning", True), ("returning-plain", False)):
        person = context.fresh_browser(name, script=script)
        context.shot = person
        person.driver.get(f"{person.base}/sheets/{sheet}/table?sort=A:asc")
        person.wait_page("signin")
        person.element("#token").send_keys(context.tokens["ann"])
        person.find("#sign-in").click()
        person.wait(lambda: person.page() == "table", f"the table view asked for ({name}), not {person.page()!r}")
        check(person.driver.current_url == f"{person.base}/sheets/{sheet}/table?sort=A%3Aasc",
              f"back at the address asked for: {person.driver.current_url}")
        check(person.js("return document.body.dataset.sheetId") == sheet, "the sheet asked for")


def clipboard(context):
    """Copy, cut and paste through the page's clipboard events (TSV): a copy holds the displays,
    a paste writes TSV, a cut pasted elsewhere moves the cells; a paste over the server's
    maxBatchCells is refused whole with the reason in #status and nothing written."""
    api = context.api("ann")
    sheet = api.new_sheet("Clipboard", {"A1": "1", "B1": "=A1*2", "A2": "tab\tin", "B2": "x"})
    cap = api.ok("GET", "/api/limits")["maxBatchCells"]
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.wait_cell("B1", "2")
    fire = """
        const [kind, text] = [arguments[0], arguments[1]];
        const data = new DataTransfer();
        if (text !== null) data.setData('text/plain', text);
        document.getElementById('grid').focus();
        document.getElementById('grid').dispatchEvent(new ClipboardEvent(kind, {clipboardData: data, bubbles: true, cancelable: true}));
        return data.getData('text/plain');"""
    ann.select("A1")
    ann.extend(Keys.RIGHT, Keys.DOWN)
    copied = ann.js(fire, "copy", None)
    check(copied.replace("\r\n", "\n").rstrip("\n") == '1\t2\n"tab\tin"\tx', f"the copy's TSV: {copied!r}")
    ann.select("D1")
    ann.js(fire, "paste", "7\t=D1+1\n\"a\nb\"\t")
    ann.wait_cell("E1", "8")
    cells = ann.wait(lambda: (lambda c: c if c.get("D2", {}).get("input") == "a\nb" else None)(api.cells(sheet)),
                     "the pasted TSV stored (a quoted line break kept)")
    check(cells["D1"]["input"] == "7" and cells["E1"]["input"] == "=D1+1", f"pasted: {cells}")
    version = api.version(sheet)
    over = "\n".join(["1"] * (cap + 1))
    ann.select("G1")
    ann.js(fire, "paste", over)
    ann.wait(lambda: "paste refused" in (ann.status_text() or "") and str(cap) in ann.status_text(), "the refusal in #status")
    check(api.version(sheet) == version and "G1" not in api.cells(sheet), "nothing of the refused paste written")
    ann.select("B2")
    ann.js(fire, "cut", None)
    ann.select("B5")
    ann.js(fire, "paste", "x")
    ann.wait(lambda: (lambda c: c.get("B5", {}).get("input") == "x" and "B2" not in c)(api.cells(sheet)), "the cut moved B2 to B5")


def insert_menu(context):
    """The insert menu writes the function under a selected column of numbers and shows its result."""
    api = context.api("ann")
    sheet = api.new_sheet("Insert", {"A1": "4", "A2": "6", "A3": "11"})
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.select("A1")
    ann.extend(Keys.DOWN, Keys.DOWN)
    ann.find("button[data-action=insert-sum]").click()
    ann.wait_cell("A4", "21")
    ann.select("A1")
    ann.extend(Keys.DOWN, Keys.DOWN)
    ann.find("button[data-action=insert-max]").click()
    ann.wait(lambda: api.cells(sheet).get("A4", {}).get("input") == "=MAX(A1:A3)", "the server holding =MAX(A1:A3) in A4")
    ann.wait_cell("A4", "11")


def column_drag(context):
    """Dragging column B's header edge widens it on screen and in the server's column widths."""
    api = context.api("ann")
    sheet = api.new_sheet("Widths", {"B1": "wide"})
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    header = ann.find('#grid [role=columnheader][data-col="2"]')
    before = header.rect["width"]
    handle = ann.find(".col-resize", header)
    ActionChains(ann.driver).click_and_hold(handle).move_by_offset(40, 0).move_by_offset(40, 0).release().perform()
    ann.wait(lambda: ann.find('#grid [role=columnheader][data-col="2"]').rect["width"] >= before + 60, "column B wider on screen")
    def width():
        spans = api.ok("GET", f"/api/sheets/{sheet}").get("columnWidths") or []
        return next((span["width"] for span in spans if span["first"] <= 2 <= span["last"]), None)
    stored = ann.wait(width, "the server storing column B's width")
    check(stored > 12, f"column B's stored width {stored} is wider than the default")


def readability(context):
    """A cell whose text colour is hard to read on its fill is marked and explained in its title."""
    api = context.api("ann")
    sheet = api.new_sheet("Colours", {"A1": "faint", "A2": "plain"})
    api.ok("POST", f"/api/sheets/{sheet}/format", {"range": "A1", "set": {"fill": "#FFFF00", "color": "#FFFFCC"}})
    ann = context.browser("ann")
    ann.open(f"/sheets/{sheet}", "grid")
    ann.wait_cell("A1", "faint")
    ann.wait(lambda: "hard-to-read" in (ann.cell("A1").get_attribute("class") or "").split(), "A1 marked hard to read")
    check("contrast" in (ann.cell("A1").get_attribute("title") or ""), f"A1's title explains: {ann.cell('A1').get_attribute('title')!r}")
    check("hard-to-read" not in (ann.cell("A2").get_attribute("class") or "").split(), "A2 not marked")


def sign_out(context):
    """Sign out ends the session: the sign-in page, and the old cookie no longer reads anything."""
    ann = context.browser("ann")
    ann.open("/", "sheets")
    cookie = ann.cookie_header()
    ann.find("#sign-out").click()
    ann.wait_page("signin")
    request = urllib.request.Request(f"{ann.base}/api/sheets", headers={"Accept": "application/json", "Cookie": cookie})
    try:
        status = urllib.request.urlopen(request, timeout=30).status
    except urllib.error.HTTPError as error:
        status = error.code
    check(status == 401, f"the old session's cookie answers {status}, not 401")


FLOWS = [sign_in, sign_in_without_script, import_xlsm, type_values_and_formulas, fill_down, bold_header, undo, restore_from_history,
         table_view, comments_two_people, viewer_link, live_edit, export_openpyxl, theme, keyboard,
         link_from_another_site, return_after_sign_in, clipboard, insert_menu, column_drag, readability]
