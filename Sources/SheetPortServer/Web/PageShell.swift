import SheetPortCore

/// The HTML every page route answers: a small shell naming the page, the sheet and the
/// person, whose script (`WebAssets`) fills `#app` through the JSON API. Every value placed in
/// it is escaped for where it lands; the headers forbid inline script, outside origins and
/// framing.
struct PageShell {
    /// Which page: `data-page` on the body.
    enum Page: String {
        case signin, sheets, grid, table, notfound
    }

    var page: Page
    /// `light`, `dark` or `system`.
    var theme = Preferences.Theme.system
    /// The browser session's CSRF value (`<meta name="csrf-token">`), nil on the sign-in page.
    var csrf: String?
    /// The title's first part (a sheet's name), before " - SheetPort".
    var title: String?
    var sheetID: String?
    var role: Role?
    var subject: String?
    var version: Int?
    /// The sign-in form's error (a wrong token).
    var signInError: String?
    /// Where the sign-in form returns (`SignInReturn`): the page asked for, or `/`.
    var signInNext = "/"

    /// The headers of every page.
    static let headers: [(name: String, value: String)] = [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Vary", "Accept"),
    ]

    /// The page as HTML.
    var html: String {
        let assets = WebAssets.shared
        var head = "<!doctype html>\n<html lang=\"en\" data-theme=\"\(theme.rawValue)\">\n<head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
        if let csrf { head += "<meta name=\"csrf-token\" content=\"\(Self.escaped(csrf))\">\n" }
        head += "<title>\(title.map { Self.escaped($0) + " - " } ?? "")SheetPort</title>\n"
            + "<link rel=\"stylesheet\" href=\"\(assets.path(of: "app.css"))\">\n"
            + "<script type=\"module\" src=\"\(assets.path(of: "app.js"))\"></script></head>\n"
        var body = "<body data-page=\"\(page.rawValue)\""
        if let sheetID { body += " data-sheet-id=\"\(Self.escaped(sheetID))\"" }
        if let role { body += " data-role=\"\(role.rawValue)\"" }
        if let subject { body += " data-subject=\"\(Self.escaped(subject))\"" }
        if let version { body += " data-version=\"\(version)\"" }
        body += ">\n<main id=\"app\">\(fallback)</main>\n</body></html>\n"
        return head + body
    }

    /// What shows before the script runs: the sign-in form (which works without it), else one line.
    private var fallback: String {
        switch page {
        case .signin:
            var form = "<h1>Sign in to SheetPort</h1>\n"
            if let signInError { form += "<p role=\"alert\" id=\"sign-in-error\">\(Self.escaped(signInError))</p>\n" }
            return form + "<form method=\"post\" action=\"/session\">\n"
                + "<label for=\"token\">Token</label>\n"
                + "<input type=\"hidden\" name=\"next\" id=\"sign-in-next\" value=\"\(Self.escaped(signInNext))\">\n"
                + "<input type=\"password\" name=\"token\" id=\"token\" autocomplete=\"current-password\" required>\n"
                + "<button type=\"submit\" id=\"sign-in\">Sign in</button>\n</form>\n"
        case .notfound: return "<h1>Not found</h1>\n<p>There is no such page, or it is not yours to see. <a href=\"/\">Your sheets</a></p>\n"
        default: return "<p>Loading\u{2026}</p>"
        }
    }

    /// This page as a reply.
    func reply(status: Int = 200, headers extra: [(name: String, value: String)] = []) -> Reply {
        Reply(status: status, headers: Self.headers + extra, body: .bytes(Array(html.utf8)))
    }

    /// 404: the not-found page, or JSON `not-found` when the request prefers JSON.
    static func notFoundReply(json: Bool) -> Reply {
        guard json else { return PageShell(page: .notfound).reply(status: 404) }
        var reply = Reply.notFound
        reply.headers.append(("Vary", "Accept"))
        return reply
    }

    /// `text` with `& < > " '` escaped, safe in an element's text and in a quoted attribute.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
