import Foundation

/// A browser's session: a random id (32 bytes from libsodium, in hexadecimal) held only in the
/// cookie; the store keeps its BLAKE2b hash beside the hash of the token or share link it
/// stands for (`web_sessions`), so it resolves to that token's subject on every request and
/// ends when the token is revoked or the link deleted. It ends after 12 hours unused and 7 days
/// in all; a token or link holds at most `cap` sessions (the oldest ends first). Its CSRF value
/// is derived from the id, so it needs no storage and does not reveal the id.
struct WebSession: Sendable {
    /// The most sessions one token or link holds.
    static let cap = 100

    /// The id, as in the cookie.
    let id: String

    /// The hash the store keeps.
    var idHash: [UInt8] { Sodium.hash(Array(id.utf8)) }

    /// The value a change must carry in `X-SheetPort-CSRF` (`<meta name="csrf-token">` in the page).
    var csrf: String { Sodium.hex(Sodium.hash(Array(("sheetport-csrf:" + id).utf8))) }

    /// The credential this session is.
    var credential: Credential { .browser(idHash: idHash) }

    /// Whether `text` has a session id's form: 64 lower-case hexadecimal digits.
    static func isWellFormed<Text: StringProtocol>(_ text: Text) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Starts a session for the token whose hash is `tokenHash`, ending that token's oldest
    /// beyond `cap` and every ended session of the store.
    static func start(tokenHash: [UInt8], _ context: ServerContext) throws -> WebSession {
        let session = WebSession(id: Sodium.hex(Sodium.randomBytes(32)))
        let now = milliseconds()
        try context.database { database in
            try database.transaction {
                try database.deleteEndedWebSessions(idleSince: now - Credential.browserIdleSeconds * 1000,
                                                    createdSince: now - Credential.browserLifetimeSeconds * 1000)
                try database.insertWebSession(idHash: session.idHash, tokenHash: tokenHash, at: now, cap: cap)
            }
        }
        return session
    }

    /// The subject this session stands for now (nil: ended, expired, revoked), marking it used.
    func resolve(_ context: ServerContext) throws -> String? {
        let now = Self.milliseconds()
        return try context.database { database in
            guard let subject = try credential.subject(in: database) else { return nil }
            try database.touchWebSession(idHash: idHash, at: now, unlessSince: now - 60_000)
            return subject
        }
    }

    /// Ends this session.
    func end(_ context: ServerContext) throws {
        try context.database { try $0.deleteWebSession(idHash: idHash) }
    }

    private static func milliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
