import Foundation
import SheetPortCore

/// Session tokens: 32 random bytes shown once (hexadecimal), of which the store keeps only a
/// BLAKE2b hash. Every request resolves its token again, so a revocation takes effect on the
/// next request.
package enum Tokens {
    /// Issues a token for `subject` and returns it (the only time it exists in full); a subject
    /// that breaks `Subject`'s rules (empty, control characters, too long) is refused.
    package static func issue(subject: String, in database: Database) throws -> String {
        if let violation = Subject.violation(of: subject) ?? reservedViolation(of: subject) {
            throw ServerError.configuration("cannot issue a token: \(violation)")
        }
        let (token, tokenHash) = make()
        try database.insertSession(tokenHash: tokenHash, subject: subject, created: Int64(Date().timeIntervalSince1970))
        return token
    }

    /// A new token and the hash the store keeps of it (share links store theirs with the link).
    package static func make() -> (token: String, hash: [UInt8]) {
        let token = Sodium.hex(Sodium.randomBytes(32))
        return (token, hash(token))
    }

    /// Why `subject` cannot be a person's (it is a share link's, `link:<id>`), or nil.
    package static func reservedViolation(of subject: String) -> String? {
        subject.hasPrefix(LinkRecord.subjectPrefix) ? "subjects starting with \(LinkRecord.subjectPrefix) are share links'" : nil
    }

    /// The subject of a live token, or nil.
    package static func subject(of token: String, in database: Database) throws -> String? {
        try database.sessionSubject(tokenHash: hash(token))
    }

    /// Revokes every token of `subject`; returns how many.
    @discardableResult
    package static func revoke(subject: String, in database: Database) throws -> Int {
        try database.deleteSessions(of: subject)
    }

    /// Revokes one token; returns whether it existed.
    @discardableResult
    package static func revoke(token: String, in database: Database) throws -> Bool {
        try database.deleteSession(tokenHash: hash(token))
    }

    /// The hash the store keeps of `token`.
    package static func hash(_ token: String) -> [UInt8] { Sodium.hash(Array(token.utf8)) }

    /// The token of an `Authorization: Bearer TOKEN` header.
    package static func bearer(_ header: String?) -> String? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
