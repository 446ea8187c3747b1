import SheetPortCore

/// Column widths and row heights as xlsx keeps them (characters and points), from the sheet's
/// metadata (`columnWidths`, `defaultRowHeight`) and its rows windows (`height`).
public struct CellSizes: Sendable, Equatable {
    /// A run of columns of one width (`{"first","last","width"}`).
    public struct ColumnRun: Sendable, Equatable {
        public var first: Int, last: Int
        /// Characters of the default font.
        public var width: Double

        /// A run of columns `first...last`.
        public init(first: Int, last: Int, width: Double) {
            self.first = first
            self.last = last
            self.width = width
        }
    }

    /// Excel's default column width (characters) and row height (points).
    public static let defaultColumnWidth = 8.43, defaultRowHeight = 15.0

    /// The columns whose width differs from the default.
    public var columnRuns: [ColumnRun]
    /// The sheet's default row height, nil for Excel's.
    public var defaultRowHeight: Double?

    /// A layout.
    public init(columnRuns: [ColumnRun] = [], defaultRowHeight: Double? = nil) {
        self.columnRuns = columnRuns
        self.defaultRowHeight = defaultRowHeight
    }

    /// The width of `column` in characters.
    public func width(ofColumn column: Int) -> Double {
        columnRuns.last { $0.first <= column && column <= $0.last }?.width ?? Self.defaultColumnWidth
    }

    /// Terminal columns for a width in characters: the characters rounded, at least 1 (a hidden
    /// column, width 0, still shows a sliver rather than vanishing from a terminal).
    public static func terminalColumns(forWidth width: Double) -> Int {
        guard width.isFinite else { return 1 }
        return max(1, Int(min(width, 255).rounded()))
    }

    /// Terminal lines for a row height in points: one line per default row height, rounded, at
    /// least 1.
    public static func terminalLines(forHeight points: Double) -> Int {
        guard points.isFinite else { return 1 }
        return max(1, Int((min(points, 409) / defaultRowHeight).rounded()))
    }
}
