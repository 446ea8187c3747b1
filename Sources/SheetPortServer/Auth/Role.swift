/// What a subject may do with a sheet, weakest first: each role may do everything the ones
/// before it may (Docs/Reference/HTTP.md, "Roles").
package enum Role: String, Sendable, Comparable, CaseIterable {
    /// Reads the sheet: list, metadata, row windows, comments, export.
    case viewer
    /// Also adds comments.
    case commenter
    /// Also renames the sheet (a new version).
    case editor
    /// Also shares and unshares (grants), and deletes the sheet. The importer; never granted.
    case owner

    private var rank: Int { Role.allCases.firstIndex(of: self)! }

    /// Weaker roles first.
    package static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }

    /// The roles an owner may grant.
    package static let grantable: [Role] = [.viewer, .commenter, .editor]
}
