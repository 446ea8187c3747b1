import SheetPortCore
/// The rule for requests a browser session authenticates (`SessionCookie`): a change (any
/// method but GET and HEAD), and `POST /session` itself, must come from the server's own
/// origin (`Origin`, or `Sec-Fetch-Site: same-origin` when a browser sends no `Origin`), and a
/// change must carry `X-SheetPort-CSRF` equal to the session's CSRF value. Otherwise 403
/// `csrf` and nothing is done. Bearer-token requests are not browser requests and pass as before.
enum CSRFCheck {
    /// The header field a change carries.
    static let header = "X-SheetPort-CSRF"

    /// Whether `method` changes anything.
    static func changes(_ method: String) -> Bool { method != "GET" && method != "HEAD" }

    /// 403 `csrf` unless the request comes from the server's own origin.
    /// `Origin: null` counts as absent: the page's own `Referrer-Policy: no-referrer` makes a
    /// browser send it on a plain form POST (the sign-in form without script), and an opaque origin
    /// names no site; `Sec-Fetch-Site` then decides (a sandboxed frame elsewhere is `cross-site`).
    static func sameOrigin(_ request: Request, _ web: WebState) -> Reply? {
        if let origin = request.header("Origin"), origin != "null" {
            return web.isOwnOrigin(origin, host: request.header("Host")) ? nil : refusal("the request comes from another origin (\(origin.visibleControlCharacters))")
        }
        return request.header("Sec-Fetch-Site") == "same-origin" ? nil : refusal("the request names no origin of this server (Origin or Sec-Fetch-Site)")
    }

    /// 403 `csrf` unless a change that `session` authenticates is same-origin and carries its CSRF value.
    static func check(_ request: Request, _ session: WebSession, _ web: WebState) -> Reply? {
        guard changes(request.method) else { return nil }
        if let refusal = sameOrigin(request, web) { return refusal }
        guard let sent = request.header(header), constantTimeEqual(sent, session.csrf) else {
            return refusal("a change needs the page's \(header) value")
        }
        return nil
    }

    private static func refusal(_ message: String) -> Reply { .error(403, .csrf, message + "; nothing was done") }

    /// Equal, in a time that does not depend on where they differ.
    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
