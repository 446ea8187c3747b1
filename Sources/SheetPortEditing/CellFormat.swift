import SheetPortCore

/// A cell's horizontal alignment as `POST /api/sheets/{id}/format` sets it (`align`) and rows
/// windows carry it (`style.horizontal`).
public enum CellAlignment: String, Sendable, Equatable, CaseIterable {
    case left, center, right
}

/// One member of a format's `set`: a value sets it, `false` or nil removes it.
public enum FormatMember: Sendable, Equatable {
    case bold(Bool)
    case italic(Bool)
    /// nil: the alignment of the value's kind (numbers right, text left).
    case align(CellAlignment?)
    /// A format code of Excel's grammar; nil or `General` removes it.
    case numberFormat(String?)
    /// The fill colour `#RRGGBB`; nil removes it.
    case fill(String?)
    /// The text colour `#RRGGBB`; nil removes it.
    case color(String?)
}

/// What `POST /api/sheets/{id}/format` does to a range.
public enum FormatChange: Sendable, Equatable {
    /// Merges the members into every cell of the range.
    case set([FormatMember])
    /// Removes the formats of the cells stored in the range.
    case clear
}

extension CellSnapshot {
    /// Whether the cell carries a format of its own (a cell with one and no value still shows).
    public var hasFormat: Bool {
        bold || italic || alignment != nil || numberFormat != nil || fill != nil || color != nil
    }

    /// Where the text sits inside its column: the cell's alignment, else Excel's for the value's
    /// kind (numbers and dates right, booleans and errors centered, text left).
    public var effectiveAlignment: CellAlignment {
        if let alignment { return alignment }
        switch type {
        case "number", "date": return .right
        case "boolean", "error": return .center
        default: return .left
        }
    }
}
