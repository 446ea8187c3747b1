import Foundation

/// What the web page's routes share: the session cookie's name (from the store's id), and the
/// address people reach the server at (`--public-url`, else the listening address once bound).
final class WebState: @unchecked Sendable {
    /// The session cookie.
    let cookie: SessionCookie
    private let configuredBase: String?
    private var boundBase: String?
    private let lock = NSLock()

    /// Reads (or records, on the first start) the store's random id.
    init(publicURL: String?, _ database: Database) throws {
        let candidate = Sodium.hex(Sodium.randomBytes(16))
        let stored = try database.storeIdentifier(making: Array(candidate.utf8))
        cookie = SessionCookie(storeID: String(decoding: stored, as: UTF8.self))
        configuredBase = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    /// Records the listening address, the base when no public URL is configured, and records
    /// the base in the store for `sheetport token issue` to print.
    func bound(host: String, port: UInt16, _ database: Database) throws {
        lock.withLock { boundBase = "http://\(host):\(port)" }
        try database.recordWebAddress(base)
    }

    /// `https://sheets.example` or `http://127.0.0.1:8080`, without a trailing slash.
    var base: String { configuredBase ?? lock.withLock { boundBase } ?? "http://127.0.0.1" }

    /// The address of a share link's token.
    func linkURL(token: String) -> String { base + "/l/" + token }

    /// Whether `origin` is this server's: the public URL's origin, or the `Host` the request was sent to (over HTTP or HTTPS).
    func isOwnOrigin(_ origin: String, host: String?) -> Bool {
        if let configuredBase, Self.origin(of: configuredBase) == origin.lowercased() { return true }
        guard let host, !host.isEmpty else { return false }
        let lowered = origin.lowercased()
        return lowered == "http://" + host.lowercased() || lowered == "https://" + host.lowercased()
    }

    /// Whether the request reached the server over TLS (a public URL of `https`, or a proxy
    /// that says so): the cookie is then Secure.
    func isSecure(_ request: Request) -> Bool {
        configuredBase?.lowercased().hasPrefix("https://") == true || request.header("X-Forwarded-Proto")?.lowercased() == "https"
    }

    /// `scheme://host[:port]` of a URL, lower-cased.
    private static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else { return nil }
        return (scheme + "://" + host + (components.port.map { ":\($0)" } ?? "")).lowercased()
    }
}
