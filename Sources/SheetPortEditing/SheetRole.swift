/// A person's role on a sheet, weakest first (Docs/Reference/HTTP.md, "Roles"): each may do what
/// the ones before it may.
public enum SheetRole: String, Sendable, Equatable, Comparable, CaseIterable {
    /// Reads the sheet, its history and comments.
    case viewer
    /// Also comments, replies and resolves the threads it started.
    case commenter
    /// Also writes cells, formats and sizes, restores and resolves any thread.
    case editor
    /// Also grants, revokes and makes share links.
    case owner

    public static func < (lhs: SheetRole, rhs: SheetRole) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Whether the role writes cells (editor or owner).
    public var writes: Bool { self >= .editor }
}
