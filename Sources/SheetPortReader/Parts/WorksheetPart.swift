import SheetPortCore
/// Column settings from `<cols>`.
public struct ColumnInfo: Sendable, Equatable {
    /// First column (1-based) the setting applies to.
    public var first: Int
    /// Last column it applies to.
    public var last: Int
    /// Width in characters of the default font, when set.
    public var width: Double?
    /// Whether the columns are hidden.
    public var isHidden: Bool

    /// Settings for the columns `first...last`.
    public init(first: Int, last: Int, width: Double? = nil, isHidden: Bool = false) {
        self.first = first
        self.last = last
        self.width = width
        self.isHidden = isHidden
    }
}

/// What a worksheet holds besides its cells; complete once all rows are read
/// (`<cols>` comes before the rows, merged cells and hyperlinks after them).
public struct WorksheetMetadata: Sendable, Equatable {
    /// `<dimension ref>` as written. Never trusted for allocation.
    public var dimension: String?
    /// `<cols>` entries.
    public var columns: [ColumnInfo] = []
    /// `sheetFormatPr defaultRowHeight`.
    public var defaultRowHeight: Double?
    /// `sheetFormatPr defaultColWidth`.
    public var defaultColumnWidth: Double?
    /// `sheetFormatPr baseColWidth`: the default width in characters, padding excluded.
    public var baseColumnWidth: Double?
    /// The active cell of the sheet's first view (`sheetView/selection activeCell` of its active
    /// pane) as written; nil when the file records none.
    public var activeCell: String?
    /// Whether the sheet's first view is selected (`sheetView tabSelected`).
    public var isTabSelected = false
    /// Merged ranges (`mergeCell ref`), the first `WorksheetMetadata.listLimit` of them.
    public var mergedRanges: [String] = []
    /// How many merged ranges there are.
    public var mergedRangeCount = 0
    /// Cells with hyperlinks (`hyperlink ref`), the first `WorksheetMetadata.listLimit` of them.
    public var hyperlinks: [String] = []
    /// How many hyperlinks there are.
    public var hyperlinkCount = 0

    /// How many references the lists keep: they grow with the sheet, memory must not.
    public static let listLimit = 1_000

    /// Metadata with nothing read yet.
    public init() {}
    /// `<conditionalFormatting>` blocks.
    public var conditionalFormatCount = 0
    /// `<dataValidation>` rules.
    public var dataValidationCount = 0
    /// `<tablePart>` references.
    public var tableCount = 0
    /// `r:id` of `<drawing>` (charts, images, shapes), when present.
    public var drawingID: String?
    /// `r:id` of `<legacyDrawing>` (the VML of comments), when present.
    public var legacyDrawingID: String?
    /// Whether the sheet is protected.
    public var isProtected = false
    /// Sparklines (`x14:sparkline` in the sheet's extension list).
    public var sparklineCount = 0
    /// Cells showing a shared string that has rich-text runs.
    public var richTextCellCount = 0
    /// `t="s"` cells whose index is not in the shared-string table (or there is no table):
    /// their text is lost.
    public var missingSharedStringCount = 0
}

/// Reads a worksheet part as events arrive: rows go to `completedRows` as each `</row>`
/// is seen, so memory holds one chunk's rows, never the sheet. Their values are decoded
/// afterwards by a `CellDecoder` (on another thread on the fast path).
final class WorksheetPart: XMLHandler {
    private typealias CellType = UndecodedRows.ValueType
    private enum FormulaType { case normal, shared, array, dataTable }

    // The parse state is touched several times per cell; this class is used by one thread
    // and never re-entered, so dynamic exclusivity checks buy nothing here.
    /// Rows read and not yet taken, their values undecoded.
    @exclusivity(unchecked) var completedRows = UndecodedRows(reservingRows: 256)
    @exclusivity(unchecked) private(set) var metadata = WorksheetMetadata()

    private let file: String
    private let part: String
    /// Whether the workbook's cell metadata gives `vm` (an error's rich value) or `cm` (a dynamic
    /// array) a meaning; when not, the attributes are not looked up on each cell.
    private let readsValueMetadata: Bool
    private let readsCellMetadata: Bool

    @exclusivity(unchecked) private var inSheetData = false
    /// `sheetView`s seen: only the first (the workbook's first window) gives the active cell.
    private var sheetViews = 0
    private var activePane = "topLeft"
    @exclusivity(unchecked) private var previousRow = 0
    @exclusivity(unchecked) private var previousColumn = 0
    @exclusivity(unchecked) private var rowIndexIsImplicit = false

    @exclusivity(unchecked) private var column = 0
    @exclusivity(unchecked) private var cellType = CellType.number
    @exclusivity(unchecked) private var styleIndex = 0
    @exclusivity(unchecked) private var hasValue = false
    /// An error cell's `vm` (Excel 365 stores `#CALC!` and its kin as `#VALUE!` and a rich value).
    @exclusivity(unchecked) private var valueMetadata: Int?
    /// The cell's `cm` (an array formula marked dynamic there is a dynamic array).
    @exclusivity(unchecked) private var cellMetadata: Int?
    @exclusivity(unchecked) private var formula = TextCollector()
    @exclusivity(unchecked) private var hasFormula = false
    @exclusivity(unchecked) private var formulaType = FormulaType.normal
    @exclusivity(unchecked) private var formulaRange: String?
    @exclusivity(unchecked) private var sharedIndex: Int?
    @exclusivity(unchecked) private var inlineString = StringItemReader()
    @exclusivity(unchecked) private var inInlineString = false
    @exclusivity(unchecked) private var hasInlineString = false
    @exclusivity(unchecked) private var sharedFormulas: [Int: SharedFormula] = [:]
    @exclusivity(unchecked) private var sharedFormulaSweep = 256

    /// The master of a shared formula, kept while rows of its range are still to come.
    private struct SharedFormula {
        var text: String
        var row: Int
        var column: Int
        var lastRow: Int
    }

    init(file: String, part: String, cellMetadata: CellMetadata = CellMetadata()) {
        self.file = file
        self.part = part
        readsValueMetadata = cellMetadata.hasRichErrors
        readsCellMetadata = cellMetadata.hasDynamicArrays
    }

    // MARK: events

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        guard name.namespace == .spreadsheet || name.namespace == .none else {
            if name.namespace == .other, !inSheetData, name.is("sparkline") { metadata.sparklineCount += 1 }
            return
        }
        if inSheetData {
            if inInlineString { inlineString.start(name) }
            else if name.is("c") { try startCell(attributes) }
            else if name.is("v") { completedRows.beginValue(); hasValue = true }
            else if name.is("f") { startFormula(attributes) }
            else if name.is("row") { try startRow(attributes) }
            else if name.is("is") { inlineString.begin(); inInlineString = true; hasInlineString = true }
            return
        }
        switch true {
        case name.is("sheetData"): inSheetData = true
        case name.is("dimension"): metadata.dimension = attributes.string("ref")
        case name.is("sheetFormatPr"):
            metadata.defaultRowHeight = attributes.double("defaultRowHeight")
            metadata.defaultColumnWidth = attributes.double("defaultColWidth")
            metadata.baseColumnWidth = attributes.double("baseColWidth")
        case name.is("sheetView"):
            sheetViews += 1
            if sheetViews == 1 { metadata.isTabSelected = attributes.bool("tabSelected") }
        case name.is("pane") where sheetViews == 1:
            activePane = attributes.string("activePane") ?? "topLeft"
        case name.is("selection") where sheetViews == 1:
            // One selection per pane; the active pane's is the active cell (topLeft without panes).
            if (attributes.string("pane") ?? "topLeft") == activePane || metadata.activeCell == nil {
                metadata.activeCell = attributes.string("activeCell")
            }
        case name.is("col"):
            // One entry per column at most: more than the grid has columns is not a real sheet.
            if metadata.columns.count < CellReference.maxColumn, let first = attributes.int("min") {
                metadata.columns.append(ColumnInfo(first: first, last: attributes.int("max") ?? first,
                                                   width: attributes.double("width"), isHidden: attributes.bool("hidden")))
            }
        case name.is("mergeCell"):
            metadata.mergedRangeCount += 1
            if metadata.mergedRanges.count < WorksheetMetadata.listLimit, let ref = attributes.string("ref") {
                metadata.mergedRanges.append(ref)
            }
        case name.is("hyperlink"):
            metadata.hyperlinkCount += 1
            if metadata.hyperlinks.count < WorksheetMetadata.listLimit, let ref = attributes.string("ref") {
                metadata.hyperlinks.append(ref)
            }
        case name.is("conditionalFormatting"): metadata.conditionalFormatCount += 1
        case name.is("dataValidation"): metadata.dataValidationCount += 1
        case name.is("tablePart"): metadata.tableCount += 1
        case name.is("drawing"): metadata.drawingID = attributes.string("id", in: .relationships)
        case name.is("legacyDrawing"): metadata.legacyDrawingID = attributes.string("id", in: .relationships)
        case name.is("sheetProtection"): metadata.isProtected = attributes.bool("sheet", default: true)
        default: break
        }
    }

    func endElement(_ name: XMLName) throws {
        guard inSheetData, name.namespace == .spreadsheet || name.namespace == .none else { return }
        if inInlineString {
            if name.is("is") { inInlineString = false; try inlineString.finish() } else { try inlineString.end(name) }
        }
        else if name.is("v") { try completedRows.endValue() }
        else if name.is("c") { try endCell() }
        else if name.is("f") { try formula.end() }
        else if name.is("row") { endRow() }
        else if name.is("sheetData") { inSheetData = false }
    }

    @inline(__always)
    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        if completedRows.isCollectingValue { completedRows.appendValue(text) }
        else if formula.isActive { formula.append(text) }
        else if inInlineString { inlineString.characters(text) }
    }

    // MARK: rows

    private func startRow(_ attributes: XMLAttributes) throws {
        if completedRows.hasOpenRow { endRow() } // an unclosed row cannot happen in well-formed XML; be safe
        var index = previousRow + 1
        rowIndexIsImplicit = true
        if let bytes = attributes.bytes("r") {
            guard let number = ASCII.parseInt(bytes) else {
                throw ReaderError(.malformedXML, file: file, part: part, "row number \"\(String(decoding: bytes, as: UTF8.self))\" is not a number")
            }
            guard number >= 1, number <= CellReference.maxRow else {
                throw ReaderError(.exceedsLimit, file: file, part: part, "row \(number) is outside Excel's grid of \(CellReference.maxRow) rows")
            }
            index = number
            rowIndexIsImplicit = false
        }
        completedRows.openRow(index: index, height: attributes.double("ht"), isHidden: attributes.bool("hidden"))
        previousColumn = 0
    }

    private func endRow() {
        guard completedRows.hasOpenRow else { return }
        let index = completedRows.lastRowIndex
        completedRows.closeRow()
        previousRow = index
        // Masters whose range is behind us are done: memory stays flat when every row has its own.
        if sharedFormulas.count > sharedFormulaSweep {
            sharedFormulas = sharedFormulas.filter { $0.value.lastRow >= index }
            sharedFormulaSweep = max(256, sharedFormulas.count * 2) // amortised: no sweep per row
        }
    }

    // MARK: cells

    private func startCell(_ attributes: XMLAttributes) throws {
        if !completedRows.hasOpenRow { // a cell outside any row: give it the next row
            completedRows.openRow(index: previousRow + 1, height: nil, isHidden: false)
            previousColumn = 0
            rowIndexIsImplicit = true
        }
        column = previousColumn + 1
        if let bytes = attributes.bytes("r"), !bytes.isEmpty {
            let (parsedColumn, parsedRow) = try reference(bytes)
            column = parsedColumn
            if rowIndexIsImplicit {
                completedRows.lastRowIndex = parsedRow // a row without `r` takes its cells' row
                rowIndexIsImplicit = false
            }
        }
        guard column <= CellReference.maxColumn else {
            throw ReaderError(.exceedsLimit, file: file, part: part, "a cell past column XFD in row \(completedRows.lastRowIndex)")
        }
        previousColumn = column
        styleIndex = attributes.int("s") ?? 0
        cellType = Self.cellType(attributes.bytes("t"))
        valueMetadata = readsValueMetadata && cellType == .error ? attributes.int("vm") : nil
        cellMetadata = readsCellMetadata ? attributes.int("cm") : nil
        hasValue = false
        hasFormula = false
        hasInlineString = false
        completedRows.beginCell()
        formula.clear()
    }

    private func reference(_ bytes: UnsafeBufferPointer<UInt8>) throws -> (column: Int, row: Int) {
        guard let (column, row) = CellReference.parseUnchecked(bytes) else {
            throw ReaderError(.malformedXML, file: file, part: part, "\"\(String(decoding: bytes, as: UTF8.self))\" is not a cell reference")
        }
        guard column <= CellReference.maxColumn, row <= CellReference.maxRow else {
            throw ReaderError(.exceedsLimit, file: file, part: part,
                              "cell \(String(decoding: bytes, as: UTF8.self)) is outside Excel's grid (XFD1048576)")
        }
        return (column, row)
    }

    private static func cellType(_ bytes: UnsafeBufferPointer<UInt8>?) -> CellType {
        guard let bytes, let first = bytes.first else { return .number }
        switch first {
        case UInt8(ascii: "s"): return bytes.count == 1 ? .sharedString : .formulaString
        case UInt8(ascii: "i"): return .inlineString
        case UInt8(ascii: "b"): return .boolean
        case UInt8(ascii: "e"): return .error
        case UInt8(ascii: "d"): return .isoDate
        default: return .number
        }
    }

    private func endCell() throws {
        guard completedRows.hasOpenRow else { return }
        var extra = -1
        if hasFormula || hasInlineString || valueMetadata != nil, let extraOfCell = extraOfCell() {
            extra = completedRows.appendExtra(extraOfCell)
        }
        completedRows.appendCell(column: column, styleIndex: styleIndex, type: cellType, hasValue: hasValue, extra: extra)
    }

    /// The formula, inline string or value metadata of the cell that ends; nil when none.
    private func extraOfCell() -> UndecodedRows.Extra? {
        var formulaText: String?
        var kind = FormulaKind.normal
        if hasFormula {
            (formulaText, kind) = resolveFormula()
        }
        guard formulaText != nil || hasInlineString || valueMetadata != nil else { return nil }
        return UndecodedRows.Extra(formula: formulaText, formulaKind: kind, inlineString: hasInlineString ? inlineString.string : nil,
                                   valueMetadata: valueMetadata, cellMetadata: kind == .normal ? nil : cellMetadata)
    }

    // MARK: formulas

    private func startFormula(_ attributes: XMLAttributes) {
        hasFormula = true
        formula.begin()
        switch attributes.string("t") {
        case "shared": formulaType = .shared
        case "array": formulaType = .array
        case "dataTable": formulaType = .dataTable
        default: formulaType = .normal
        }
        formulaRange = attributes.string("ref")
        sharedIndex = attributes.int("si")
    }

    /// The formula of the current cell: its own text, or the shared master's moved here.
    private func resolveFormula() -> (String?, FormulaKind) {
        let text = formula.string
        let rowIndex = completedRows.lastRowIndex
        switch formulaType {
        case .dataTable:
            return (nil, .normal)
        case .array:
            let range = formulaRange ?? CellReference(row: rowIndex, column: column).description
            return (text.isEmpty ? nil : text, .array(range: range))
        case .shared:
            guard let index = sharedIndex else { return (text.isEmpty ? nil : text, .normal) }
            if !text.isEmpty {
                let lastRow = formulaRange.flatMap(CellRange.init)?.end.row ?? CellReference.maxRow
                sharedFormulas[index] = SharedFormula(text: text, row: rowIndex, column: column, lastRow: lastRow)
                return (text, .normal)
            }
            guard let master = sharedFormulas[index] else { return (nil, .normal) }
            return (FormulaTranslator.translate(master.text, rows: rowIndex - master.row, columns: column - master.column), .normal)
        case .normal:
            return (text.isEmpty ? nil : text, .normal)
        }
    }
}
