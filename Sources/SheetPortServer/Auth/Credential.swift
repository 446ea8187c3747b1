import Foundation

/// What authenticates a request: a bearer token, or a browser session's id from its cookie.
/// Either resolves to its subject on every request and at every delivery of a stream or an
/// export, so revoking the token (or deleting the share link, or ending the browser session)
/// takes effect at once.
package enum Credential: Sendable, Equatable {
    /// `Authorization: Bearer TOKEN`.
    case bearer(String)
    /// A browser session (`WebSession`): the BLAKE2b hash of its id, which is all the store keeps.
    case browser(idHash: [UInt8])

    /// Seconds a browser session may go unused.
    package static let browserIdleSeconds: Int64 = 12 * 3600
    /// Seconds a browser session lasts in all.
    package static let browserLifetimeSeconds: Int64 = 7 * 24 * 3600

    /// The subject this credential stands for now, nil when it no longer does (revoked,
    /// deleted, ended, expired).
    package func subject(in database: Database, now: Date = Date()) throws -> String? {
        switch self {
        case .bearer(let token): return try Tokens.subject(of: token, in: database)
        case .browser(let idHash):
            let milliseconds = Int64(now.timeIntervalSince1970 * 1000)
            return try database.webSessionSubject(idHash: idHash, idleSince: milliseconds - Self.browserIdleSeconds * 1000,
                                                  createdSince: milliseconds - Self.browserLifetimeSeconds * 1000)
        }
    }
}
