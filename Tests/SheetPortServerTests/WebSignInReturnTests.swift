import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortServer

/// Signing in from a sheet's 401 page returns to that sheet; a `next` that is not a path of
/// this site (another host, a backslash, a scheme, encoded slashes, CR/LF) returns to `/`.
@Suite struct WebSignInReturnTests {
    /// The sign-in form's `next` value in `page`, unescaped.
    private func next(in page: String) throws -> String {
        let start = try #require(page.range(of: "name=\"next\" id=\"sign-in-next\" value=\""), "no next field: \(page)")
        return String(page[start.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func signingInReturnsToTheSheetAsked() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try EditingClient.create(fixture.api, name: "Asked")
        let token = try fixture.server.token("ann")
        let browser = WebBrowser(base: fixture.server.base)
        // The table view with its sort and filter: 401, the form carrying the page asked for.
        let asked = try browser.call("GET", "/sheets/\(sheet)/table?sort=B:desc&filter=C:%3E100")
        #expect(asked.status == 401 && asked.text.contains("data-page=\"signin\""), "\(asked.text)")
        let carried = try next(in: asked.text)
        #expect(carried == "/sheets/\(sheet)/table?sort=B%3Adesc&filter=C%3A%3E100", "\(carried)")
        let signed = try browser.signIn(token, next: carried)
        #expect(signed.status == 303 && signed.header("Location") == carried, "\(signed.status) \(signed.header("Location") ?? "-")")
        let landed = try browser.call("GET", try #require(signed.header("Location")))
        #expect(landed.status == 200 && landed.text.contains("data-page=\"table\"") && landed.text.contains("data-sheet-id=\"\(sheet)\""))
        // The page's script signs in with JSON: 204 naming the same place.
        let scripted = WebBrowser(base: fixture.server.base)
        let json = try scripted.signIn(token, accept: "application/json", next: "/sheets/\(sheet)")
        #expect(json.status == 204 && json.header("Location") == "/sheets/\(sheet)" && scripted.cookie != nil)
        // No next (the sign-in page of `/`) and a wrong token keep the place asked for.
        #expect(try WebBrowser(base: fixture.server.base).signIn(token).header("Location") == "/")
        let wrong = try WebBrowser(base: fixture.server.base).signIn("nope", next: "/sheets/\(sheet)")
        let kept = try next(in: wrong.text)
        #expect(wrong.status == 401 && kept == "/sheets/\(sheet)")
    }

    @Test func hostileReturnsGoHome() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let token = try fixture.server.token("ann")
        let hostile = ["//evil.example", "/\\evil.example", "https://evil.example", "/%2F%2Fevil.example", "/%2f%5cevil.example",
                       "/sheets/x\r\nSet-Cookie: a=b", "/sheets/x\nLocation: //evil", "/a\u{0}b", "/a\tb", "/a b", "evil.example",
                       "javascript:alert(1)", "/%0d%0aX: y", "/%E0%A4%A", "/é", "///evil.example", "/sheets//evil.example",
                       "/" + String(repeating: "a", count: SignInReturn.maxLength), ""]
        for next in hostile {
            for accept in [nil, "application/json"] {
                let browser = WebBrowser(base: fixture.server.base)
                let answer = try browser.signIn(token, accept: accept, next: next)
                #expect(answer.status == (accept == nil ? 303 : 204) && answer.header("Location") == "/",
                        "\(next.debugDescription): \(answer.status) \(answer.header("Location") ?? "-")")
                #expect(browser.cookie != nil)
            }
        }
        // The page asked for is re-encoded: a hostile sheet id never reaches the page raw.
        let page = try WebBrowser(base: fixture.server.base).call("GET", "/sheets/%22%3E%3Cscript%3Ealert(1)/table")
        #expect(page.status == 401 && !page.text.contains("<script>alert"))
        #expect(try next(in: page.text) == "/sheets/%22%3E%3Cscript%3Ealert%281%29/table")
    }
}
