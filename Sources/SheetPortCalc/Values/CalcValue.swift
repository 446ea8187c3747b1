/// A value a cell holds or a formula computes, with Excel's kinds.
public enum CalcValue: Sendable, Hashable {
    /// A number (dates and times are serials of the workbook's date system).
    case number(Double)
    /// A text.
    case text(String)
    /// A boolean (`TRUE`, `FALSE`).
    case boolean(Bool)
    /// An error value.
    case error(ExcelError)
    /// No value: an empty cell (0, `""` or `FALSE` by context).
    case empty
    /// A two-dimensional array (array constants, array results).
    indirect case array(CalcArray)

    /// True for `.error`.
    public var isError: Bool {
        if case .error = self { return true }
        return false
    }

    /// The error this value holds, if any.
    public var error: ExcelError? {
        if case .error(let e) = self { return e }
        return nil
    }
}

/// A rectangular array of values, stored row by row.
public struct CalcArray: Sendable, Hashable {
    /// The number of rows (at least 1).
    public let rows: Int
    /// The number of columns (at least 1).
    public let columns: Int
    /// The elements, row by row (`rows * columns` of them).
    public var values: [CalcValue]

    /// An array of the given shape; `values` must hold `rows * columns` elements.
    public init(rows: Int, columns: Int, values: [CalcValue]) {
        precondition(rows * columns == values.count, "CalcArray shape mismatch")
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    /// The element at a zero-based row and column.
    public subscript(row: Int, column: Int) -> CalcValue {
        get { values[row * columns + column] }
        set { values[row * columns + column] = newValue }
    }

    /// Broadcast read as Excel does for arrays of different shapes: a single row or column repeats;
    /// an element outside the array is `#N/A`.
    func broadcast(_ row: Int, _ column: Int) -> CalcValue {
        let r = rows == 1 ? 0 : row
        let c = columns == 1 ? 0 : column
        guard r < rows, c < columns else { return .error(.notAvailable) }
        return values[r * columns + c]
    }
}
