import SheetPortCore
import SheetPortWriter

/// The layout a converted sheet gets (`TextToWorkbook.Options.writesLayout`): column widths
/// fitted to the text the header and the first `fittedRows` data rows show, and with a header,
/// the header bold, frozen above the rows and carrying an autofilter over them.
///
/// Widths go before the first row of the part, so those rows are held until they are measured
/// (at most `maxHeldBytes` of them: rows past that, or past `fittedRows`, change no width),
/// then written in order; memory stays bounded whatever the input's length.
struct SheetLayout {
    /// A held row, its input line and the input, for an error about it.
    typealias Write = (Row, Int, ByteInput) throws -> Void

    private let sheet: WorksheetWriter
    private let writer: WorkbookWriter
    /// Whether a header is still to come: the first row with a cell.
    private var headerPending: Bool
    /// The header's row and last column, once seen.
    private var header: (row: Int, lastColumn: Int)?
    private var boldStyle = 0
    private var fit = ColumnWidthFit()
    private var held: [(row: Row, line: Int, input: ByteInput)] = []
    private var heldBytes = 0
    private var dataRows = 0
    private var isHolding = true

    /// The data rows the widths are fitted to.
    static let fittedRows = 1_000
    /// About the most the rows held for fitting take (a row of many long fields counts its text).
    static let maxHeldBytes = 64 << 20
    /// The autofilter's button beside a header's text, in characters.
    static let filterButton = 2

    init(sheet: WorksheetWriter, writer: WorkbookWriter, hasHeader: Bool) {
        self.sheet = sheet
        self.writer = writer
        self.headerPending = hasHeader
    }

    /// Takes the sheet's next row: held and measured while widths are fitted, else written.
    mutating func append(_ row: Row, line: Int, input: ByteInput, write: Write) throws {
        guard isHolding else { return try write(row, line, input) }
        var row = row
        if headerPending, let last = row.cells.last {
            headerPending = false
            header = (row.index, last.column)
            boldStyle = try writer.style(CellStyle(isBold: true))
            for index in row.cells.indices where row.cells[index].styleIndex == 0 { row.cells[index].styleIndex = boldStyle }
            measure(row, extra: Self.filterButton)
        } else {
            measure(row, extra: 0)
            dataRows += 1
        }
        held.append((row, line, input))
        heldBytes += 64 + row.cells.count * MemoryLayout<Cell>.stride
        if dataRows >= Self.fittedRows || heldBytes > Self.maxHeldBytes { try release(write) }
    }

    /// Ends the sheet's layout: writes the rows still held and puts the autofilter on the header
    /// and the rows below it (the range Excel's Data > Filter takes: its buttons on the header,
    /// its sort and filter over every row written).
    mutating func finish(write: Write) throws {
        if isHolding { try release(write) }
        if let header {
            try sheet.setAutoFilter(CellRange(start: CellReference(row: header.row, column: 1),
                                              end: CellReference(row: max(header.row, sheet.lastWrittenRow), column: header.lastColumn)))
        }
    }

    private mutating func measure(_ row: Row, extra: Int) {
        for cell in row.cells {
            let text: String
            if case .string(let value) = cell.value, cell.styleIndex == 0 || cell.styleIndex == boldStyle {
                text = value // shown as it is: no copy of a long field
            } else if case .number(let number) = cell.value, cell.styleIndex == 0, let shown = Self.generalCharacters(number) {
                fit.measure(characters: shown, column: cell.column) // not rendered: a wide sheet has millions
                continue
            } else {
                text = writer.displayedText(of: cell.value, styleIndex: cell.styleIndex)
            }
            if case .string(let value) = cell.value { heldBytes += value.utf8.count }
            fit.measure(text, column: cell.column, extra: extra)
        }
    }

    /// The characters `General` shows for `number` when it is an integer of at most 11 digits
    /// (all of them, and the sign); nil for any other, which is rendered.
    static func generalCharacters(_ number: Double) -> Int? {
        guard number.magnitude < 1e11, number == number.rounded(.towardZero) else { return nil }
        var digits = 1, rest = Int(number.magnitude)
        while rest >= 10 { rest /= 10; digits += 1 }
        return digits + (number < 0 ? 1 : 0)
    }

    /// Sets the widths and the frozen header, then writes the rows held.
    private mutating func release(_ write: Write) throws {
        isHolding = false
        for run in fit.runs { try sheet.setColumnWidth(run.width, for: run.columns) }
        if let header { try sheet.freezePanes(rows: header.row) }
        let rows = held
        held = []
        for (row, line, input) in rows { try write(row, line, input) }
    }
}
