import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortServer

/// Browser sessions, the CSRF rule, negotiation, share links' addresses and preferences, on
/// the real server with its real store, hostile values included.
@Suite struct WebSessionTests {
    private static let evil = "https://evil.example"

    /// A signed-in browser for `subject` on `fixture`'s server.
    private func signedIn(_ fixture: ServerFixture, _ subject: String = "ann") throws -> (browser: WebBrowser, token: String, csrf: String) {
        let token = try fixture.server.token(subject)
        let browser = WebBrowser(base: fixture.server.base)
        let answer = try browser.signIn(token)
        try #require(answer.status == 303, "\(answer.text)")
        return (browser, token, try #require(try browser.csrf()))
    }

    private func firstInput(_ api: API, _ sheet: String) throws -> String? {
        let rows = try api.object("/api/sheets/\(sheet)/rows?start=1&count=1")
        return ((rows["rows"] as? [[String: Any]])?.first?["cells"] as? [[String: Any]])?.first?["input"] as? String
    }

    /// A form posted from another site changes nothing: not the session (`POST /session` with
    /// a live token), not a sheet (`/api/.../cells` with the victim's cookie, with or without
    /// the CSRF value); a same-origin request without `Origin` passes on `Sec-Fetch-Site`
    /// only; bearer-token requests are unchanged whatever their origin.
    @Test func crossSiteRequestsChangeNothing() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 3))
        let before = try firstInput(fixture.api, sheet)
        let (browser, token, csrf) = try signedIn(fixture)

        let attacker = WebBrowser(base: fixture.server.base)
        attacker.origin = Self.evil
        let forged = try attacker.signIn(token)
        #expect(forged.status == 403 && forged.text.contains("\"csrf\"") && forged.header("Set-Cookie") == nil, "\(forged.text)")
        attacker.origin = "null"
        #expect(try attacker.signIn(token).status == 403)
        // An opaque origin decides nothing: a sandboxed frame on another site says cross-site.
        #expect(try attacker.call("POST", "/session", body: Array("token=\(token)".utf8), contentType: "application/x-www-form-urlencoded",
                                  headers: [("Sec-Fetch-Site", "cross-site")]).status == 403)
        attacker.origin = nil
        #expect(try attacker.signIn(token).status == 403, "no Origin and no Sec-Fetch-Site")
        #expect(try attacker.call("POST", "/session", body: Array("token=\(token)".utf8), contentType: "application/x-www-form-urlencoded",
                                  headers: [("Sec-Fetch-Site", "cross-site")]).status == 403)
        #expect(attacker.cookie == nil)

        let version = try fixture.api.object("/api/sheets/\(sheet)")["version"] as? Int
        browser.origin = Self.evil
        for sent in [csrf, nil] {
            let form = try browser.call("POST", "/api/sheets/\(sheet)/cells", body: Array(#"{"cells":[{"ref":"A1","input":"pwned"}]}"#.utf8),
                                        contentType: "application/json", headers: sent.map { [("X-SheetPort-CSRF", $0)] } ?? [])
            #expect(form.status == 403 && form.text.contains("\"csrf\""), "\(form.text)")
        }
        #expect(try browser.api("PATCH", "/api/sheets/\(sheet)", json: ["name": "Pwned"], csrf: csrf).status == 403)
        #expect(try browser.api("DELETE", "/api/sheets/\(sheet)", csrf: csrf).status == 403)
        #expect(try browser.api("PUT", "/api/me/preferences", json: ["theme": "dark"], csrf: csrf).status == 403)
        // A look-alike of the server's origin is another origin.
        browser.origin = fixture.server.base + ".evil.example"
        #expect(try browser.api("POST", "/api/sheets/\(sheet)/cells", json: ["cells": [["ref": "A1", "input": "x"]]], csrf: csrf).status == 403)
        #expect(try firstInput(fixture.api, sheet) == before)
        #expect(try fixture.api.object("/api/sheets/\(sheet)")["version"] as? Int == version, "nothing was done")

        // The sign-in form without script: the page's no-referrer policy makes the browser send
        // `Origin: null` with `Sec-Fetch-Site: same-origin`, which is the server's own page.
        let form = WebBrowser(base: fixture.server.base)
        form.origin = "null"
        let signedInByForm = try form.call("POST", "/session", body: Array("token=\(token)".utf8), contentType: "application/x-www-form-urlencoded",
                                           headers: [("Sec-Fetch-Site", "same-origin")])
        #expect(signedInByForm.status == 303 && form.cookie != nil, "\(signedInByForm.status) \(signedInByForm.text)")

        // Same origin by Sec-Fetch-Site when Origin is absent.
        browser.origin = nil
        let fetched = try browser.call("POST", "/api/sheets/\(sheet)/cells", accept: "application/json",
                                       body: Array(#"{"cells":[{"ref":"A1","input":"ok"}]}"#.utf8), contentType: "application/json",
                                       headers: [("X-SheetPort-CSRF", csrf), ("Sec-Fetch-Site", "same-origin")])
        #expect(fetched.status == 200, "\(fetched.text)")
        // Bearer requests are unchanged whatever their origin.
        let bearer = try fixture.api.call("POST", "/api/sheets/\(sheet)/cells", json: ["cells": [["ref": "A1", "input": "bearer"]]],
                                          headers: [("Origin", Self.evil)])
        #expect(bearer.status == 200)
        #expect(try firstInput(fixture.api, sheet) == "bearer")
    }

    /// A cookie that is random, malformed, expired (idle or in all), of a revoked token or of
    /// an ended session is no session: 401 on the API, the sign-in page (401, the cookie
    /// cleared) on a page. Revoking the token ends its sessions' event streams too.
    @Test func deadSessionsAreRefused() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 3))
        let cookieName = try #require(try signedIn(fixture).browser.cookie?.split(separator: "=").first.map(String.init))
        let stranger = WebBrowser(base: fixture.server.base)
        for value in [Sodium.hex(Sodium.randomBytes(32)), "", "x", String(repeating: "A", count: 64), String(repeating: "a", count: 10_000),
                      "'; DROP TABLE web_sessions; --", "%00" + String(repeating: "a", count: 61), "<script>alert(1)</script>"] {
            stranger.cookie = cookieName + "=" + value
            #expect(try stranger.api("GET", "/api/sheets", csrf: nil).status == 401, "\(value.prefix(20))")
            let page = try stranger.call("GET", "/")
            #expect(page.status == 401 && page.text.contains("data-page=\"signin\"") && !page.text.contains("<script>alert"), "\(value.prefix(20))")
            stranger.cookie = cookieName + "=" + value
            #expect(try stranger.call("GET", "/sheets/\(sheet)").status == 401)
        }

        let store = try fixture.server.store()
        // Unused for more than 12 hours, or made more than 7 days ago.
        let idle = try signedIn(fixture), old = try signedIn(fixture)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let hashOf = { (browser: WebBrowser) in Sodium.hash(Array(browser.cookie!.split(separator: "=")[1].utf8)) }
        try store.query("UPDATE web_sessions SET last_used = ? WHERE id_hash = ?", [.integer(now - 12 * 3600 * 1000 - 1000), .blob(hashOf(idle.browser))])
        try store.query("UPDATE web_sessions SET created = ? WHERE id_hash = ?", [.integer(now - 7 * 24 * 3600 * 1000 - 1000), .blob(hashOf(old.browser))])
        // A session in use is kept alive: one unused for 11 hours is marked used again.
        let refreshed = try signedIn(fixture)
        try store.query("UPDATE web_sessions SET last_used = ? WHERE id_hash = ?", [.integer(now - 11 * 3600 * 1000), .blob(hashOf(refreshed.browser))])
        #expect(try refreshed.browser.api("GET", "/api/sheets", csrf: nil).status == 200)
        let marked = try store.query("SELECT last_used FROM web_sessions WHERE id_hash = ?", [.blob(hashOf(refreshed.browser))]).first?.first?.int
        #expect((marked ?? 0) >= Int(now) - 1000, "marked used")
        for expired in [idle.browser, old.browser] {
            #expect(try expired.api("GET", "/api/sheets", csrf: nil).status == 401)
            #expect(try expired.call("GET", "/").status == 401)
            #expect(expired.cookie == nil, "the page clears a dead cookie")
        }

        // Revoking the token ends its sessions and their streams at once.
        let live = try signedIn(fixture, "bob")
        #expect(try fixture.api.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": "bob", "role": "viewer"]).status == 201)
        let reader = try EventReader(port: RawConnection.port(of: fixture.server.base), path: "/api/sheets/\(sheet)/events", token: nil,
                                     headers: [("Cookie", live.browser.cookie!)])
        defer { reader.close() }
        #expect(reader.status == 200)
        #expect(try fixture.server.revoke(token: live.token))
        let (ended, events) = reader.end(within: 5)
        #expect(ended && events.isEmpty)
        #expect(try live.browser.api("GET", "/api/sheets", csrf: nil).status == 401)

        // Signing out ends the session (a change: it needs the CSRF value too).
        let leaving = try signedIn(fixture)
        #expect(try leaving.browser.call("POST", "/session/end").status == 403)
        let kept = leaving.browser.cookie
        #expect(try leaving.browser.api("GET", "/api/sheets", csrf: nil).status == 200)
        let out = try leaving.browser.call("POST", "/session/end", headers: [("X-SheetPort-CSRF", leaving.csrf)])
        #expect(out.status == 303 && out.header("Location") == "/" && out.header("Set-Cookie")?.contains("Max-Age=0") == true)
        leaving.browser.cookie = kept
        #expect(try leaving.browser.api("GET", "/api/sheets", csrf: nil).status == 401)
    }

    /// One token holds at most 100 sessions: the 101st ends the oldest.
    @Test func aTokenHoldsAtMost100Sessions() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let token = try fixture.server.token("ann")
        var cookies: [String] = []
        for _ in 0..<101 {
            let browser = WebBrowser(base: fixture.server.base)
            #expect(try browser.signIn(token).status == 303)
            cookies.append(try #require(browser.cookie))
        }
        #expect(Set(cookies).count == 101)
        #expect(try fixture.server.store().webSessionCount(tokenHash: Tokens.hash(token)) == 100)
        let browser = WebBrowser(base: fixture.server.base)
        browser.cookie = cookies[0]
        #expect(try browser.api("GET", "/api/sheets", csrf: nil).status == 401, "the oldest ended")
        for cookie in [cookies[1], cookies[100]] {
            browser.cookie = cookie
            #expect(try browser.api("GET", "/api/sheets", csrf: nil).status == 200)
        }
        // Another token's sessions are not counted with these.
        let other = try signedIn(fixture, "bob")
        #expect(try other.browser.api("GET", "/api/sheets", csrf: nil).status == 200)
    }

    /// Wrong tokens on the sign-in form: 401 with the page and its error, the value never
    /// echoed; JSON callers get 401 `unauthorized`.
    @Test func wrongTokensGetTheSignInPageAgain() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let browser = WebBrowser(base: fixture.server.base)
        for token in ["", "nope", "<script>alert(1)</script>", String(repeating: "f", count: 64), String(repeating: "9", count: 100_000 / 2),
                      "%00", "a\"b'c&d"] {
            let answer = try browser.signIn(token)
            #expect(answer.status == 401 || answer.status == 413, "\(token.prefix(10)): \(answer.status)")
            if answer.status == 401 {
                #expect(answer.text.contains("id=\"sign-in-error\"") && answer.text.contains("role=\"alert\""))
                #expect(!answer.text.contains("<script>alert") && !answer.text.contains("a\"b'c"))
            }
            #expect(answer.header("Set-Cookie") == nil && browser.cookie == nil)
        }
        let json = try browser.signIn("nope", accept: "application/json")
        #expect(json.status == 401 && json.text.contains("\"unauthorized\""))
        let token = try fixture.server.token("ann")
        let ok = try browser.signIn(token, accept: "application/json")
        #expect(ok.status == 204 && browser.cookie != nil)
        #expect(try browser.call("GET", "/session").status == 405)
    }

    /// `Accept` decides: JSON when `application/json` is preferred by q-value, else HTML; both
    /// carry `Vary: Accept` and `no-store`. The JSON of a page is its API route's.
    @Test func negotiation() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 5))
        let (browser, _, _) = try signedIn(fixture)
        let cases: [(String, Bool)] = [
            ("application/json", true), ("text/html", false), ("*/*", false), ("", false),
            ("text/html;q=0.9, application/json", true), ("application/json;q=0.5, text/html", false),
            ("application/*", true), ("application/json;q=0", false), ("application/json;q=2", false),
            ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", false),
            ("application/json, text/html;q=1", false), ("APPLICATION/JSON", true), ("garbage/;;;q=x, ,", false),
        ]
        for (accept, json) in cases {
            let answer = try browser.call("GET", "/sheets/\(sheet)", accept: accept)
            #expect(answer.status == 200 && answer.header("Vary") == "Accept" && answer.header("Cache-Control") == "no-store", "\(accept)")
            #expect(answer.header("Content-Type")?.hasPrefix(json ? "application/json" : "text/html") == true, "\(accept)")
            if json { #expect(answer.object["id"] as? String == sheet) }
        }
        let list = try browser.call("GET", "/", accept: "application/json")
        #expect((list.object["sheets"] as? [[String: Any]])?.count == 1 && list.header("Vary") == "Accept")
        let view = try browser.call("GET", "/sheets/\(sheet)/table?sort=B:desc&count=2", accept: "application/json")
        #expect(view.status == 200 && (view.object["rows"] as? [[String: Any]])?.count == 2 && view.header("Vary") == "Accept", "\(view.text)")
        let table = try browser.call("GET", "/sheets/\(sheet)/table?sort=B:desc")
        #expect(table.status == 200 && table.text.contains("data-page=\"table\""))
        // Without a session: 401 JSON, or the sign-in page.
        let anonymous = WebBrowser(base: fixture.server.base)
        let refused = try anonymous.call("GET", "/", accept: "application/json")
        #expect(refused.status == 401 && refused.header("Vary") == "Accept")
        // A sheet the person may not read is the 404 page, as one that does not exist.
        let other = try signedIn(fixture, "bob").browser
        for path in ["/sheets/\(sheet)", "/sheets/\(Sodium.identifier())", "/sheets/%3Cscript%3E", "/nowhere", "/sheets/\(sheet)/nowhere"] {
            let page = try other.call("GET", path)
            #expect(page.status == 404 && page.text.contains("data-page=\"notfound\"") && !page.text.contains("<script>"), "\(path)")
            #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        }
        #expect(try other.call("GET", "/sheets/\(sheet)", accept: "application/json").status == 404)
    }

    /// Hostile names land escaped: a sheet named `"><svg onload=alert(1)>` in the title, a
    /// subject holding `<script>` in `data-subject`.
    @Test func hostileNamesAreEscapedInTheShell() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let subject = "<script>alert('x')</script>&\"'"
        let (browser, _, csrf) = try signedIn(fixture, subject)
        let name = "\"><svg onload=alert(1)>"
        let created = try browser.api("POST", "/api/sheets", json: ["name": name], csrf: csrf)
        try #require(created.status == 201, "\(created.text)")
        let id = try #require((created.object["sheet"] as? [String: Any])?["id"] as? String ?? created.object["id"] as? String)
        for path in ["/", "/sheets/\(id)", "/sheets/\(id)/table"] {
            let page = try browser.call("GET", path).text
            #expect(!page.contains("<svg") && !page.contains("<script>alert") && !page.contains("'x'"), "\(path)")
            #expect(page.contains("data-subject=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;&#39;\""), "\(path)")
            if path != "/" { #expect(page.contains("<title>&quot;&gt;&lt;svg onload=alert(1)&gt; - SheetPort</title>"), "\(path)") }
        }
    }

    /// `GET /l/{token}` makes a session for the link and sends the browser to its sheet; the
    /// link's role holds (a viewer cannot write); deleting the link ends the session; an
    /// unknown, revoked or person's token is 404. Links answer their `url`.
    @Test func shareLinksOpenInTheBrowser() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 3))
        let created = try fixture.api.call("POST", "/api/sheets/\(sheet)/links", json: ["role": "viewer"])
        let link = try #require(created.object["link"] as? [String: Any])
        let token = try #require(link["token"] as? String)
        #expect(link["url"] as? String == fixture.server.base + "/l/" + token)

        let visitor = WebBrowser(base: fixture.server.base)
        let followed = try visitor.call("GET", "/l/\(token)", headers: [("Referer", "https://elsewhere.example/")])
        #expect(followed.status == 303 && followed.header("Location") == "/sheets/\(sheet)" && visitor.cookie != nil)
        let grid = try visitor.call("GET", "/sheets/\(sheet)")
        #expect(grid.status == 200 && grid.text.contains("data-role=\"viewer\""))
        let csrf = try #require(try visitor.csrf("/sheets/\(sheet)"))
        let write = try visitor.api("POST", "/api/sheets/\(sheet)/cells", json: ["cells": [["ref": "A1", "input": "x"]]], csrf: csrf)
        #expect(write.status == 403 && write.text.contains("\"forbidden\""))
        #expect(try visitor.api("GET", "/api/imports", csrf: nil).status == 403, "a link opens its sheet only")

        // Two sessions of one link keep their own preferences; neither touches the owner's.
        let second = WebBrowser(base: fixture.server.base)
        #expect(try second.call("GET", "/l/\(token)").status == 303)
        #expect(try visitor.api("PUT", "/api/me/preferences", json: ["theme": "dark"], csrf: csrf).status == 200)
        #expect(try visitor.api("GET", "/api/me/preferences", csrf: nil).object["theme"] as? String == "dark")
        #expect(try second.api("GET", "/api/me/preferences", csrf: nil).object["theme"] as? String == "system")
        #expect(try visitor.call("GET", "/sheets/\(sheet)").text.contains("data-theme=\"dark\""))
        #expect(try fixture.api.object("/api/me/preferences")["theme"] as? String == "system")
        // The link's bearer token has no session to keep them in.
        #expect(try fixture.server.api(token).call("PUT", "/api/me/preferences", json: ["theme": "dark"]).status == 403)

        // Unknown, malformed, a person's token: 404 (JSON too), no cookie.
        let stranger = WebBrowser(base: fixture.server.base)
        for path in ["/l/" + Sodium.hex(Sodium.randomBytes(32)), "/l/" + fixture.api.token!, "/l/%3Cscript%3E", "/l/" + String(repeating: "a", count: 5000), "/l/"] {
            let answer = try stranger.call("GET", path)
            #expect(answer.status == 404 && stranger.cookie == nil, "\(path.prefix(30))")
            #expect(try stranger.call("GET", path, accept: "application/json").status == 404)
        }
        // Deleting the link ends its sessions and their event streams.
        let reader = try EventReader(port: RawConnection.port(of: fixture.server.base), path: "/api/sheets/\(sheet)/events", token: nil,
                                     headers: [("Cookie", visitor.cookie!)])
        defer { reader.close() }
        #expect(reader.status == 200)
        #expect(try fixture.api.call("DELETE", "/api/sheets/\(sheet)/links/\(link["id"] as? String ?? "")").status == 204)
        let (ended, events) = reader.end(within: 5)
        #expect(ended && events.isEmpty, "\(events)")
        #expect(try visitor.api("GET", "/api/sheets/\(sheet)", csrf: nil).status == 401)
        #expect(try visitor.call("GET", "/sheets/\(sheet)").status == 401)
        let revoked = WebBrowser(base: fixture.server.base)
        #expect(try revoked.call("GET", "/l/\(token)").status == 404 && revoked.cookie == nil)
    }

    /// Preferences: sealed at rest, one per subject, hostile bodies refused.
    @Test func preferencesAreSealedAndChecked() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let (browser, _, csrf) = try signedIn(fixture)
        #expect(try browser.api("GET", "/api/me/preferences", csrf: nil).object["theme"] as? String == "system")
        for body in [#"{"theme":"<script>"}"#, #"{"theme":"dark","x":1}"#, #"{"theme":1}"#, "[]", "not json", #"{"theme":"DARK"}"#] {
            let answer = try browser.call("PUT", "/api/me/preferences", accept: "application/json", body: Array(body.utf8),
                                          contentType: "application/json", headers: [("X-SheetPort-CSRF", csrf)])
            #expect(answer.status == 400, "\(body)")
        }
        #expect(try browser.api("PUT", "/api/me/preferences", json: ["theme": "dark"], csrf: csrf).object["theme"] as? String == "dark")
        #expect(try fixture.api.object("/api/me/preferences")["theme"] as? String == "dark", "the subject's, whichever way it signs in")
        #expect(try browser.call("GET", "/").text.contains("<html lang=\"en\" data-theme=\"dark\">"))
        let stored = try fixture.server.store().query("SELECT data FROM preferences")
        #expect(stored.count == 1 && !String(decoding: stored[0][0].bytes ?? [], as: UTF8.self).contains("dark"), "sealed at rest")
        // Another person's are their own.
        #expect(try fixture.server.api(try fixture.server.token("bob")).object("/api/me/preferences")["theme"] as? String == "system")
        // The terminal grid's client reads the same choice (`sheetport open` without --theme).
        let connection = try ServerConnection(url: fixture.server.base, token: fixture.api.token!)
        #expect(connection.preferredTheme(client: HTTPClient(timeout: 30)) == "dark")
        let gone = try ServerConnection(url: fixture.server.base, token: Sodium.hex(Sodium.randomBytes(32)), retry: RetryPolicy(attempts: 1))
        #expect(gone.preferredTheme(client: HTTPClient(timeout: 30)) == nil)
    }

    /// The cookie is named after the store's id: the same after a restart, another for another
    /// store; `--public-url https://...` makes it Secure and sets share links' base and an origin.
    @Test func theCookieIsTheStoresAndPublicURLsAreHonoured() throws {
        let first = try ServerFixture()
        defer { first.close() }
        let name = { (fixture: ServerFixture) throws -> String in
            try #require(try self.signedIn(fixture).browser.cookie?.split(separator: "=").first.map(String.init))
        }
        let before = try name(first)
        #expect(before.hasPrefix("sheetport_session_") && before.count == "sheetport_session_".count + 32)
        try first.server.restart()
        #expect(try name(first) == before)
        let second = try ServerFixture { $0.publicURL = "https://sheets.example/" }
        defer { second.close() }
        #expect(try name(second) != before)

        let token = try second.server.token("ann")
        let browser = WebBrowser(base: second.server.base)
        browser.origin = "https://sheets.example"
        let signed = try browser.signIn(token)
        #expect(signed.status == 303 && signed.header("Set-Cookie")?.hasSuffix("; Secure") == true)
        let sheet = try second.api.importSheet(try makeStyledWorkbook(in: second.folder, rows: 2))
        let link = try second.api.call("POST", "/api/sheets/\(sheet)/links", json: ["role": "commenter"]).object["link"] as? [String: Any]
        #expect((link?["url"] as? String)?.hasPrefix("https://sheets.example/l/") == true)
        // Behind a TLS proxy without a public URL, the cookie is Secure too.
        let proxied = WebBrowser(base: first.server.base)
        let answer = try proxied.call("POST", "/session", body: Array("token=\(try first.server.token("ann"))".utf8),
                                      contentType: "application/x-www-form-urlencoded", headers: [("X-Forwarded-Proto", "https")])
        #expect(answer.status == 303 && answer.header("Set-Cookie")?.hasSuffix("; Secure") == true)
    }

    /// Paths that climb out of /assets, encoded or not, sent raw (no client normalizes them): 404.
    @Test func assetPathsDoNotClimb() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let port = RawConnection.port(of: fixture.server.base)
        for path in ["/assets/../../etc/passwd", "/assets/..%2f..%2fetc%2fpasswd", "/assets/%2e%2e/%2e%2e/etc/passwd", "/assets/./app.js",
                     "/assets/app.js", "/assets//app.js", "/assets/app.js%00.css", "/assets/.."] {
            let connection = try RawConnection(port: port, timeout: 5)
            defer { connection.close() }
            connection.send("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            let answer = RawAnswer(bytes: connection.receiveAll())
            #expect(answer.status == 404 || answer.status == 400, "\(path): \(answer.status)")
            #expect(!answer.text.contains("root:"))
        }
    }
}
