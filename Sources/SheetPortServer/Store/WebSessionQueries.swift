/// Browser sessions (`web_sessions`) and people's sealed preferences (`preferences`). Times are
/// milliseconds since 1970; every lookup joins `sessions`, so a revoked token or a deleted link
/// ends its browser sessions at once.
extension Database {
    /// Records a browser session of the token whose hash is `tokenHash`, then ends that token's
    /// oldest sessions beyond `cap`. Runs in the caller's transaction.
    package func insertWebSession(idHash: [UInt8], tokenHash: [UInt8], at time: Int64, cap: Int) throws {
        try query("INSERT INTO web_sessions (id_hash, token_hash, created, last_used) VALUES (?, ?, ?, ?)",
                  [.blob(idHash), .blob(tokenHash), .integer(time), .integer(time)])
        try query("""
            DELETE FROM web_sessions WHERE token_hash = ?1 AND id_hash NOT IN (
                SELECT id_hash FROM web_sessions WHERE token_hash = ?1 ORDER BY created DESC, \(insertionOrder) DESC LIMIT ?2)
            """, [.blob(tokenHash), .integer(Int64(cap))])
    }

    /// The subject of a live browser session, nil when there is none: never made, ended, unused
    /// since `idleSince` or made before `createdSince`, or its token revoked.
    package func webSessionSubject(idHash: [UInt8], idleSince: Int64, createdSince: Int64) throws -> String? {
        try query("""
            SELECT s.subject FROM web_sessions w JOIN sessions s ON s.token_hash = w.token_hash
            WHERE w.id_hash = ? AND w.last_used >= ? AND w.created >= ?
            """, [.blob(idHash), .integer(idleSince), .integer(createdSince)]).first?.first?.string
    }

    /// Marks a session used at `time`, unless it was marked at `since` or later (a session in
    /// steady use is written about once a minute, not on every request).
    package func touchWebSession(idHash: [UInt8], at time: Int64, unlessSince since: Int64) throws {
        try query("UPDATE web_sessions SET last_used = ? WHERE id_hash = ? AND last_used < ?", [.integer(time), .blob(idHash), .integer(since)])
    }

    /// Ends a browser session; returns whether there was one.
    @discardableResult
    package func deleteWebSession(idHash: [UInt8]) throws -> Bool {
        try query("DELETE FROM web_sessions WHERE id_hash = ?", [.blob(idHash)])
        return changes > 0
    }

    /// Ends the sessions unused since `idleSince`, made before `createdSince`, or whose token is gone; returns how many.
    @discardableResult
    package func deleteEndedWebSessions(idleSince: Int64, createdSince: Int64) throws -> Int {
        try query("""
            DELETE FROM web_sessions WHERE last_used < ? OR created < ?
            OR NOT EXISTS (SELECT 1 FROM sessions s WHERE s.token_hash = web_sessions.token_hash)
            """, [.integer(idleSince), .integer(createdSince)])
        return changes
    }

    /// How many browser sessions the token whose hash is `tokenHash` holds.
    package func webSessionCount(tokenHash: [UInt8]) throws -> Int {
        try query("SELECT COUNT(*) FROM web_sessions WHERE token_hash = ?", [.blob(tokenHash)]).first?.first?.int ?? 0
    }

    /// A browser session's sealed preferences (a share link's session keeps its own), nil when none were set.
    package func webSessionPreferences(idHash: [UInt8]) throws -> [UInt8]? {
        try query("SELECT preferences FROM web_sessions WHERE id_hash = ?", [.blob(idHash)]).first?.first?.bytes
    }

    /// Replaces a browser session's sealed preferences.
    package func setWebSessionPreferences(_ sealed: [UInt8], idHash: [UInt8]) throws {
        try query("UPDATE web_sessions SET preferences = ? WHERE id_hash = ?", [.blob(sealed), .blob(idHash)])
    }

    /// A subject's sealed preferences, nil when none were set.
    package func preferences(of subject: String) throws -> [UInt8]? {
        try query("SELECT data FROM preferences WHERE subject = ?", [.text(subject)]).first?.first?.bytes
    }

    /// Replaces a subject's sealed preferences.
    package func setPreferences(_ sealed: [UInt8], of subject: String) throws {
        try query("INSERT INTO preferences (subject, data) VALUES (?, ?) ON CONFLICT (subject) DO UPDATE SET data = excluded.data",
                  [.text(subject), .blob(sealed)])
    }

    /// The store's random id (`web-store-id` in `meta`), made by the first server that asks.
    package func storeIdentifier(making candidate: [UInt8]) throws -> [UInt8] {
        try addMetaValue(candidate, for: "web-store-id")
        return try metaValue("web-store-id") ?? candidate
    }

    /// Records the address people reach the last started server at (`sheetport token issue` prints it).
    package func recordWebAddress(_ address: String) throws {
        try setMetaValue(Array(address.utf8), for: "web-address")
    }

    /// The address recorded by `recordWebAddress`, nil before any server started.
    package func webAddress() throws -> String? {
        try metaValue("web-address").map { String(decoding: $0, as: UTF8.self) }
    }

    /// The share link `id` (any sheet's), or nil.
    package func link(_ id: String) throws -> LinkRecord? {
        try query("SELECT id, sheet_id, role FROM links WHERE id = ?", [.text(id)]).first.flatMap(linkRecord)
    }
}
