
/// The share links' table (Docs/Reference/HTTP.md, "Share links"), created on either store when missing. A link's
/// token is kept as a session is (its BLAKE2b hash in `sessions`, subject `link:<id>`) and its
/// role as a grant to that subject, so every route's access check and every stream's recheck
/// treat it as any other session; this table says which sheet and role the link stands for.
enum LinksSchema {
    /// Creates the table when missing; `Schema.create` and `PostgresSchema.prepare` call it.
    static func prepare(_ database: Database) throws {
        let integer = database.kind == .postgres ? "BIGINT" : "INTEGER"
        try database.execute("""
        CREATE TABLE IF NOT EXISTS links (
            id TEXT PRIMARY KEY,
            sheet_id TEXT NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
            role TEXT NOT NULL,
            created_by TEXT NOT NULL,
            created \(integer) NOT NULL
        );
        CREATE INDEX IF NOT EXISTS links_sheet ON links(sheet_id);
        """)
    }
}

/// One share link as stored.
package struct LinkRecord: Sendable, Equatable {
    /// 32 hexadecimal digits.
    package var id: String
    /// The sheet it opens.
    package var sheet: String
    /// `viewer` or `commenter`.
    package var role: Role
    /// The subject its token resolves to.
    package var subject: String { LinkRecord.subjectPrefix + id }

    /// What every link's subject starts with; no person's subject may.
    package static let subjectPrefix = "link:"
}

extension Database {
    /// Stores a link to `sheet` with `role`, its token's hash as a session of `link:<id>`, and
    /// that subject's grant. Runs in the caller's transaction.
    package func insertLink(_ link: LinkRecord, tokenHash: [UInt8], createdBy owner: String, at time: Int64) throws {
        try query("INSERT INTO links (id, sheet_id, role, created_by, created) VALUES (?, ?, ?, ?, ?)",
                  [.text(link.id), .text(link.sheet), .text(link.role.rawValue), .text(owner), .integer(time)])
        try insertSession(tokenHash: tokenHash, subject: link.subject, created: time)
        try grant(link.role, on: link.sheet, to: link.subject)
    }

    /// The link `id` of `sheet`, or nil.
    package func link(_ id: String, of sheet: String) throws -> LinkRecord? {
        try query("SELECT id, sheet_id, role FROM links WHERE id = ? AND sheet_id = ?", [.text(id), .text(sheet)]).first.flatMap(linkRecord)
    }

    /// The subject who made the link whose subject is `subject` (`link:<id>`), or nil when it is
    /// not a link's subject or the link is gone.
    package func linkCreator(of subject: String) throws -> String? {
        guard subject.hasPrefix(LinkRecord.subjectPrefix) else { return nil }
        let id = String(subject.dropFirst(LinkRecord.subjectPrefix.count))
        return try query("SELECT created_by FROM links WHERE id = ?", [.text(id)]).first?[0].string
    }

    /// The links of `sheet`, oldest first.
    package func links(of sheet: String) throws -> [LinkRecord] {
        try query("SELECT id, sheet_id, role FROM links WHERE sheet_id = ? ORDER BY created, id", [.text(sheet)]).compactMap(linkRecord)
    }

    /// Deletes a link with its sessions and its grant: its token fails at once, as a revoked one.
    package func deleteLink(_ link: LinkRecord) throws {
        try deleteSessions(of: link.subject)
        try query("DELETE FROM grants WHERE subject = ?", [.text(link.subject)])
        try query("DELETE FROM links WHERE id = ?", [.text(link.id)])
    }

    func linkRecord(_ row: [SQLValue]) -> LinkRecord? {
        guard let id = row[0].string, let sheet = row[1].string, let role = row[2].string.flatMap(Role.init(rawValue:)) else { return nil }
        return LinkRecord(id: id, sheet: sheet, role: role)
    }
}
