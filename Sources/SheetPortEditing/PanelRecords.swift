import SheetPortCore

/// One entry of a cell's history (`GET .../cells/{ref}/history`).
public struct CellHistoryEntry: Sendable, Equatable {
    /// The version the write made.
    public var version: Int
    /// Who wrote it (`bob`, `link:3`).
    public var subject: String
    /// The cell's input after the write (`""`: cleared).
    public var input: String
    /// When, ISO 8601 UTC (`2026-03-01T12:00:00Z`).
    public var at: String
    /// The write's kind: `cells`, `copy`, `restore`, `imported`, ...
    public var change: String

    /// An entry.
    public init(version: Int, subject: String, input: String, at: String, change: String) {
        self.version = version
        self.subject = subject
        self.input = input
        self.at = at
        self.change = change
    }
}

/// A comment (`GET .../comments`): a thread's first comment, or a reply naming it.
public struct CellComment: Sendable, Equatable {
    /// The comment's id.
    public var id: Int
    /// The cell (a reply takes its thread's).
    public var ref: CellReference
    /// Who wrote it.
    public var author: String
    /// The text, at most 32,767 characters.
    public var text: String
    /// The thread's first comment, for a reply.
    public var replyTo: Int?
    /// Whether the thread is resolved.
    public var resolved: Bool

    /// A comment.
    public init(id: Int, ref: CellReference, author: String, text: String, replyTo: Int? = nil, resolved: Bool = false) {
        self.id = id
        self.ref = ref
        self.author = author
        self.text = text
        self.replyTo = replyTo
        self.resolved = resolved
    }
}

/// A grant of a role to a subject (`GET .../grants`).
public struct SheetGrant: Sendable, Equatable {
    /// Who (`bob`).
    public var subject: String
    /// The role granted.
    public var role: SheetRole

    /// A grant.
    public init(subject: String, role: SheetRole) {
        self.subject = subject
        self.role = role
    }
}

/// A share link (`GET .../links`; `url` only in the answer that made it).
public struct ShareLink: Sendable, Equatable {
    /// The link's id (its subject is `link:<id>`).
    public var id: String
    /// The role its token holds.
    public var role: SheetRole
    /// The page's address of the link, `<base>/l/<token>`: shown once, when made.
    public var url: String?

    /// A link.
    public init(id: String, role: SheetRole, url: String? = nil) {
        self.id = id
        self.role = role
        self.url = url
    }
}

/// A table view's sort and filters, as `GET .../view` takes them.
public struct TableViewQuery: Sendable, Equatable {
    /// `B:desc,A:asc`; empty for storage order.
    public var sort: String
    /// `C:>100`, `A:contains:x`; all are applied.
    public var filters: [String]

    /// A query.
    public init(sort: String = "", filters: [String] = []) {
        self.sort = sort
        self.filters = filters
    }
}

/// A view's answer: rows in view order (`WindowRow.row` is the source row) and how many rows the
/// view has.
public struct ViewWindow: Sendable, Equatable {
    /// The sheet's version the view shows.
    public var version: Int
    /// The rows in the view.
    public var total: Int
    /// The rows answered, in view order.
    public var rows: [WindowRow]

    /// A view window.
    public init(version: Int, total: Int, rows: [WindowRow]) {
        self.version = version
        self.total = total
        self.rows = rows
    }
}
