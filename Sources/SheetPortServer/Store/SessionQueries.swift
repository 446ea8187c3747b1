/// Sessions: each live token's BLAKE2b hash (never the token) and its subject (`Tokens`); a
/// share link's token is one too, of subject `link:<id>`.
extension Database {
    /// Records a token's hash for `subject`.
    package func insertSession(tokenHash: [UInt8], subject: String, created: Int64) throws {
        try query("INSERT INTO sessions (token_hash, subject, created) VALUES (?, ?, ?)", [.blob(tokenHash), .text(subject), .integer(created)])
    }

    /// The subject of the session of a token's hash, nil when there is none (revoked, or never issued).
    package func sessionSubject(tokenHash: [UInt8]) throws -> String? {
        try query("SELECT subject FROM sessions WHERE token_hash = ?", [.blob(tokenHash)]).first?.first?.string
    }

    /// Deletes every session of `subject`; returns how many there were.
    @discardableResult
    package func deleteSessions(of subject: String) throws -> Int {
        try query("DELETE FROM sessions WHERE subject = ?", [.text(subject)])
        return changes
    }

    /// Deletes the session of a token's hash; returns whether there was one.
    @discardableResult
    package func deleteSession(tokenHash: [UInt8]) throws -> Bool {
        try query("DELETE FROM sessions WHERE token_hash = ?", [.blob(tokenHash)])
        return changes > 0
    }
}
