/// The browser session's cookie: `sheetport_session_<store id>=<session id>`, HttpOnly,
/// SameSite=Lax (a share link followed from another site arrives signed in; `CSRFCheck` guards
/// every change), Path=/, Secure when the page is reached over TLS. The store's id in the name
/// keeps the cookies of several servers on one host apart.
struct SessionCookie: Sendable {
    /// `sheetport_session_<store id>`.
    let name: String

    init(storeID: String) { name = "sheetport_session_" + storeID }

    /// The session id the request's `Cookie` field holds under this name, nil when it holds
    /// none or one that is not a session id's form (64 hexadecimal digits).
    func value(in request: Request) -> String? {
        guard let header = request.header("Cookie") else { return nil }
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop(while: { $0 == " " || $0 == "\t" })
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
            let value = trimmed[trimmed.index(after: equals)...]
            guard WebSession.isWellFormed(value) else { return nil }
            return String(value)
        }
        return nil
    }

    /// `Set-Cookie` for session `id`, kept by the browser as long as a session may last.
    func setting(_ id: String, secure: Bool) -> (name: String, value: String) {
        ("Set-Cookie", "\(name)=\(id); Path=/; Max-Age=\(Credential.browserLifetimeSeconds); HttpOnly; SameSite=Lax\(secure ? "; Secure" : "")")
    }

    /// `Set-Cookie` that removes the cookie.
    func clearing(secure: Bool) -> (name: String, value: String) {
        ("Set-Cookie", "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax\(secure ? "; Secure" : "")")
    }
}
