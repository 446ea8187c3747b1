/// What moved a sheet to a new version, as its `version` event names it (Docs/Reference/HTTP.md,
/// "Event streams"): the server records and sends these; a client reads them.
///
/// A change the server sends that this list does not name (a newer server's) reads as itself,
/// so a client still follows the version; a missing `change` reads as `""`.
public struct SheetChangeKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The change as sent (`cells`).
    public let rawValue: String

    /// The change spelled `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The change as sent.
    public var description: String { rawValue }

    /// Renamed.
    public static let rename = Self(rawValue: "rename")
    /// A comment added.
    public static let comment = Self(rawValue: "comment")
    /// A grant given, changed or revoked.
    public static let grant = Self(rawValue: "grant")
    /// The import that created it completed.
    public static let `import` = Self(rawValue: "import")
    /// Created empty (`POST /api/sheets`).
    public static let create = Self(rawValue: "create")
    /// Cell inputs written (`POST .../cells`).
    public static let cells = Self(rawValue: "cells")
    /// A range cleared.
    public static let clear = Self(rawValue: "clear")
    /// Cells copied (paste or fill).
    public static let copy = Self(rawValue: "copy")
    /// Formats set or cleared.
    public static let format = Self(rawValue: "format")
    /// Row heights or column widths set.
    public static let sizes = Self(rawValue: "sizes")
    /// A cell's earlier input restored.
    public static let restore = Self(rawValue: "restore")
    /// A subject's last write undone.
    public static let undo = Self(rawValue: "undo")
}

/// A sheet's `version` event (`{"version":N,"change":"cells","refs":[..]}`): one type for the
/// server's store and stream and for the editing client that follows it.
public struct SheetEvent: Sendable, Equatable {
    /// The version the change moved the sheet to (the event's `id:`).
    public var version: Int
    /// What changed.
    public var change: SheetChangeKind
    /// The cells that changed (at most `maxRefs`); nil when unknown or more: refetch the window.
    public var refs: [CellReference]?

    /// An event.
    public init(version: Int, change: SheetChangeKind, refs: [CellReference]? = nil) {
        self.version = version
        self.change = change
        self.refs = refs
    }

    /// Refs an event names at most.
    public static let maxRefs = 1_000
}
