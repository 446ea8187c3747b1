import SheetPortCore
/// How much a finding matters for importing the workbook (Docs/Reference/Formats.md, "Findings").
public enum Severity: String, Sendable, Comparable {
    /// The workbook cannot be imported.
    case error
    /// It can be imported, but something will be lost or look different.
    case warning
    /// Worth knowing; nothing is lost.
    case info

    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .info: 2
        }
    }

    /// Errors first, then warnings, then information.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One thing `check` found in a workbook, with a stable code, a severity and where it is.
public struct Finding: Sendable, Equatable {
    /// The stable finding codes of Docs/Reference/Formats.md that are not reader errors.
    public enum Code: String, Sendable, CaseIterable {
        case extraWorksheets = "extra-worksheets"
        case macrosDropped = "macros-dropped"
        case unsupportedFeature = "unsupported-feature"
        case formattingDropped = "formatting-dropped"
        case authoredColours = "authored-colours"
        case formulaNoCachedValue = "formula-no-cached-value"
        case date1904 = "date-1904"
        case strictOOXML = "strict-ooxml"
        case sheetNameChanged = "sheet-name-changed"
        /// The sheet an import takes (the first worksheet) is hidden or very hidden.
        case firstWorksheetHidden = "first-worksheet-hidden"
        /// `check --recalc`: cached values that differ from the recomputed ones.
        case staleCachedValue = "stale-cached-value"
        /// `check --recalc`: a function the engine does not implement (named once).
        case unsupportedFunction = "unsupported-function"
        /// `check --recalc`: cells in a circular reference (evaluated to 0).
        case circularReference = "circular-reference"
        /// `check --recalc`: a formula the engine cannot parse, or one referring to another workbook.
        case unsupportedFormula = "unsupported-formula"
        /// An import: formulas of the imported sheet refer to other sheets of the workbook (evaluated, then kept as values).
        case crossSheetReference = "cross-sheet-reference"
        /// Cells whose number format is not one Excel takes (its grammar, at most 255 characters):
        /// they keep their values, shown in General.
        case badNumberFormat = "bad-number-format"
    }

    /// The stable code (`zip-bomb`, `extra-worksheets`, ...).
    public var code: String
    /// Error, warning or info.
    public var severity: Severity
    /// A sentence for a person.
    public var message: String
    /// The package part it concerns, when there is one.
    public var part: String?
    /// How many things it counts (cells, ranges, parts), when it counts.
    public var count: Int?

    /// Creates a finding with one of the non-error codes.
    public init(_ code: Code, _ severity: Severity, _ message: String, part: String? = nil, count: Int? = nil) {
        self.code = code.rawValue
        self.severity = severity
        self.message = message
        self.part = part
        self.count = count
    }

    /// The error finding of a reader error: the reader's codes are the contract's.
    public init(_ error: ReaderError) {
        code = error.code.rawValue
        severity = .error
        message = error.message
        part = error.part
    }
}
