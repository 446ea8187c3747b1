import Foundation
import SheetPortCore

/// The routes outside `/api` (Docs/Reference/HTTP.md, "The web page"): the pages, sign-in and
/// sign-out, share links' addresses and the page's assets. A page route answers its HTML shell
/// (`PageShell`) unless the request prefers JSON (`ContentNegotiation`): it is then answered by
/// its API route, authenticated as any API request.
enum WebRoutes {
    /// What `begin` decided.
    enum Start {
        /// The answer, given at once.
        case reply(Reply)
        /// Read the body, then `finish`.
        case readBody
        /// The request was rewritten to its API route: authenticate and route it as one.
        case api
    }

    /// Answers a GET page, asset or link at once; lets a form's POST read its body; rewrites a
    /// page that prefers JSON to its API route.
    static func begin(_ request: inout Request, _ context: ServerContext) -> Start {
        let path = request.segments
        let method = request.method == "HEAD" ? "GET" : request.method
        let json = ContentNegotiation.prefersJSON(request.header("Accept"))
        if method == "GET", json, let api = apiRoute(path) {
            request.segments = api
            request.path = "/" + api.joined(separator: "/")
            request.isNegotiated = true
            return .api
        }
        switch (method, path.first ?? "", path.count) {
        case ("POST", "session", 1), ("POST", "session", 2) where path.last == "end":
            return .readBody
        case (_, "session", 1), (_, "session", 2) where path.last == "end":
            return .reply(methodNotAllowed(request))
        case ("GET", "assets", _):
            return .reply(WebAssets.shared.reply(path))
        case ("GET", _, _):
            do {
                return .reply(try page(path, request, context, json: json))
            } catch {
                return .reply(SheetServer.internalError(error, request, context))
            }
        default:
            let known = ["session", "l", "sheets"].contains(path.first ?? "") || path.isEmpty
            return .reply(known ? methodNotAllowed(request) : PageShell.notFoundReply(json: json))
        }
    }

    private static func methodNotAllowed(_ request: Request) -> Reply {
        var reply = Reply.error(405, .methodNotAllowed, "\(request.method) is not allowed on \(request.path)")
        reply.headers.append(("Vary", "Accept"))
        return reply
    }

    /// The API route a page route answers JSON from.
    private static func apiRoute(_ path: [String]) -> [String]? {
        switch (path.first, path.count) {
        case (nil, _): return ["api", "sheets"]
        case ("sheets", 2): return ["api", "sheets", path[1]]
        case ("sheets", 3) where path[2] == "table": return ["api", "sheets", path[1], "view"]
        default: return nil
        }
    }

    /// The HTML pages and `GET /l/{token}`.
    private static func page(_ path: [String], _ request: Request, _ context: ServerContext, json: Bool) throws -> Reply {
        if path.count == 2, path[0] == "l" { return try followLink(path[1], request, context, json: json) }
        let signedIn = try browserSession(request, context)
        switch (path.first, path.count) {
        case (nil, _):
            guard let signedIn else { return signIn(request, context) }
            var shell = try shell(.sheets, signedIn, context)
            shell.title = "Sheets"
            return shell.reply()
        case ("sheets", 2), ("sheets", 3) where path[2] == "table":
            guard let signedIn else { return signIn(request, context, status: 401, next: SignInReturn.asked(request)) }
            guard let sheet = try context.database({ try $0.sheet(path[1], for: signedIn.subject) }) else {
                return PageShell.notFoundReply(json: false)
            }
            var shell = try shell(path.count == 2 ? .grid : .table, signedIn, context)
            shell.title = sheet.name
            shell.sheetID = sheet.id
            shell.role = sheet.role
            shell.version = sheet.version
            return shell.reply()
        default:
            return PageShell.notFoundReply(json: false)
        }
    }

    /// A signed-in page's shell: the person, their theme, the session's CSRF value.
    private static func shell(_ page: PageShell.Page, _ signedIn: (session: WebSession, subject: String), _ context: ServerContext) throws -> PageShell {
        let preferences = try Preferences.load(subject: signedIn.subject, sessionHash: signedIn.session.idHash, context)
        return PageShell(page: page, theme: preferences.theme, csrf: signedIn.session.csrf, subject: signedIn.subject)
    }

    /// The sign-in page, whose form returns to `next` once signed in; a request that sent a
    /// session cookie that no longer resolves gets 401 and the cookie removed.
    private static func signIn(_ request: Request, _ context: ServerContext, status: Int = 200, error: String? = nil, next: String = "/") -> Reply {
        let web = context.web
        let stale = web.cookie.value(in: request) != nil || request.header("Cookie")?.contains(web.cookie.name + "=") == true
        var shell = PageShell(page: .signin)
        shell.title = "Sign in"
        shell.signInError = error
        shell.signInNext = SignInReturn.path(next)
        return shell.reply(status: stale ? 401 : status, headers: stale ? [web.cookie.clearing(secure: web.isSecure(request))] : [])
    }

    /// The request's live browser session and its subject, nil when it has none.
    static func browserSession(_ request: Request, _ context: ServerContext) throws -> (session: WebSession, subject: String)? {
        guard let id = context.web.cookie.value(in: request) else { return nil }
        let session = WebSession(id: id)
        return try session.resolve(context).map { (session, $0) }
    }

    /// `GET /l/{token}`: a live share link's token starts a browser session for the link and
    /// sends the browser on to its sheet, so the token leaves the address bar; else 404.
    private static func followLink(_ token: String, _ request: Request, _ context: ServerContext, json: Bool) throws -> Reply {
        guard WebSession.isWellFormed(token),
              let subject = try context.database({ try Tokens.subject(of: token, in: $0) }), subject.hasPrefix(LinkRecord.subjectPrefix),
              let link = try context.database({ try $0.link(String(subject.dropFirst(LinkRecord.subjectPrefix.count))) }) else {
            return PageShell.notFoundReply(json: json)
        }
        let session = try WebSession.start(tokenHash: Tokens.hash(token), context)
        return Reply(status: 303, headers: [("Location", "/sheets/" + link.sheet), ("Vary", "Accept"), ("Referrer-Policy", "no-referrer"),
                                            context.web.cookie.setting(session.id, secure: context.web.isSecure(request))])
    }

    /// `POST /session` and `POST /session/end`, once their bodies are in.
    static func finish(_ request: inout Request, _ context: ServerContext) throws -> Reply {
        let json = ContentNegotiation.prefersJSON(request.header("Accept"))
        return request.segments.count == 1 ? try signIn(request, context, json: json) : try signOut(request, context, json: json)
    }

    /// `POST /session` (form field `token`, or JSON `{"token"}`; optional `next`, the page asked
    /// for): a live token starts a browser session; 303 to `next` when it is a path of this site
    /// (`SignInReturn`), else to `/` (JSON: 204 with that `Location`), with its cookie. A wrong
    /// token: 401 and the sign-in page, still returning to `next`.
    private static func signIn(_ request: Request, _ context: ServerContext, json: Bool) throws -> Reply {
        if let refusal = CSRFCheck.sameOrigin(request, context.web) { return refusal }
        let token = formField("token", request) ?? ""
        let next = SignInReturn.path(formField("next", request))
        guard !token.isEmpty, token.utf8.count <= 256,
              try context.database({ try Tokens.subject(of: token, in: $0) }) != nil else {
            let message = "that token is not a live one; ask the server's operator for a new token"
            return json ? .error(401, .unauthorized, message) : signIn(request, context, status: 401, error: message, next: next)
        }
        let session = try WebSession.start(tokenHash: Tokens.hash(token), context)
        let cookie = context.web.cookie.setting(session.id, secure: context.web.isSecure(request))
        return home(json: json, cookie: cookie, location: next)
    }

    /// `POST /session/end`: ends the browser session (a change: same origin and the CSRF
    /// value), clears its cookie; 303 to `/` (JSON: 204).
    private static func signOut(_ request: Request, _ context: ServerContext, json: Bool) throws -> Reply {
        if let id = context.web.cookie.value(in: request) {
            let session = WebSession(id: id)
            if let refusal = CSRFCheck.check(request, session, context.web) { return refusal }
            try session.end(context)
        }
        let cookie = context.web.cookie.clearing(secure: context.web.isSecure(request))
        return home(json: json, cookie: cookie)
    }

    /// The answer of a sign-in or sign-out: 303 to `location` (JSON: 204 naming it), setting or
    /// clearing the cookie.
    private static func home(json: Bool, cookie: (name: String, value: String), location: String = "/") -> Reply {
        json ? Reply(status: 204, headers: [cookie, ("Location", location), ("Vary", "Accept")])
            : Reply(status: 303, headers: [("Location", location), ("Vary", "Accept"), cookie])
    }

    /// A field of an `application/x-www-form-urlencoded` body, or a string member of a JSON one.
    static func formField(_ name: String, _ request: Request) -> String? {
        if request.header("Content-Type")?.lowercased().hasPrefix("application/json") == true {
            return JSON.parseObject(request.body)?[name] as? String
        }
        let body = String(decoding: request.body, as: UTF8.self)
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, decoded(parts[0]) == name else { continue }
            return decoded(parts[1])
        }
        return nil
    }

    private static func decoded(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
