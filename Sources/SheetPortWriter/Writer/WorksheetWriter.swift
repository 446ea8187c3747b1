import SheetPortCore
/// Streams one worksheet part (`xl/worksheets/sheetN.xml`): rows are appended top to
/// bottom and go straight into the package, so memory does not grow with the row count.
///
/// Get one from `WorkbookWriter.addWorksheet(named:)`. Column widths are set before the
/// first row; comments may be added at any time before the workbook is closed.
public final class WorksheetWriter {
    /// The sheet name.
    public let name: String
    /// The 1-based position of the sheet in the workbook.
    let number: Int
    // The workbook owns its sheets and outlives them: no reference counting per cell.
    unowned(unsafe) let workbook: WorkbookWriter
    private let stream: any EntrySink
    // Appended to per cell by one thread: dynamic exclusivity checks buy nothing here.
    @exclusivity(unchecked) private var xml = XMLWriter(capacity: WorksheetWriter.chunkSize + 64 * 1024)
    private var columns: [(first: Int, last: Int, width: Double)] = []
    private(set) var comments: [Comment] = []
    private(set) var threads: [CommentThread] = []
    /// The tables, in the order they were added (`addTable(_:)`).
    var tables: [WorksheetTable] = []
    private var threadedComments = 0
    private var commentCells: Set<Int> = []
    private var lastRow = 0
    /// The last row written so far (0 before the first).
    package var lastWrittenRow: Int { lastRow }
    /// Whether the part's head (views, columns) is written: the first row, or the end, came.
    private(set) var started = false
    /// The rows and columns frozen at the top left (`freezePanes(rows:columns:)`).
    var frozenPane: (rows: Int, columns: Int)?
    /// The sheet's autofilter range (`setAutoFilter(_:)`).
    var autoFilter: CellRange?
    private(set) var isFinished = false
    /// Whether the package stream failed (a full disk, say): the workbook cannot be completed.
    private(set) var hasFailed = false
    /// Whether a formula was written without a cached value.
    private(set) var hasUncachedFormula = false
    /// Whether a cell holds a dynamic-array formula (its `cm` names the workbook's metadata part).
    private(set) var hasDynamicArray = false

    /// Bytes of XML handed to the packager at a time.
    static let chunkSize = 256 * 1024

    init(name: String, number: Int, workbook: WorkbookWriter, stream: any EntrySink) {
        self.name = name
        self.number = number
        self.workbook = workbook
        self.stream = stream
    }

    /// Sets the width of `columns` (1-based) in characters of the default font, as Excel
    /// measures it (0 to 255). Allowed only before the first row.
    public func setColumnWidth(_ width: Double, for columns: ClosedRange<Int>) throws {
        guard !isFinished else { throw WriterError.finished }
        guard !started else {
            throw WriterError.invalidArgument("\(name): column widths must be set before the first row")
        }
        guard width.isFinite, (0...255).contains(width) else {
            throw WriterError.invalidArgument("\(name): column width \(width) is outside 0 to 255")
        }
        guard columns.lowerBound >= 1, columns.upperBound <= CellReference.maxColumn else {
            throw WriterError.outsideGrid(sheet: name, row: 1, column: columns.lowerBound < 1 ? columns.lowerBound : columns.upperBound)
        }
        if let last = self.columns.last, columns.lowerBound <= last.last {
            throw WriterError.invalidArgument("\(name): column widths must be set left to right without overlap")
        }
        self.columns.append((columns.lowerBound, columns.upperBound, width))
    }

    /// Adds a comment (a note) on a cell, shown by Excel and LibreOffice.
    public func addComment(_ text: String, author: String = "SheetPort", row: Int, column: Int) throws {
        guard !workbook.isClosed else { throw WriterError.finished }
        let reference = try checkedReference(row: row, column: column)
        guard text.utf16.count <= 32_767 else {
            throw WriterError.textTooLong(sheet: name, reference: reference, length: text.utf16.count)
        }
        guard commentCells.insert((row - 1) * CellReference.maxColumn + column).inserted else {
            throw WriterError.invalidArgument("\(name)!\(reference) already has a comment")
        }
        comments.append(Comment(reference: reference, author: author, text: text))
    }

    /// Adds a comment thread on a cell (its first comment, then the replies, each with its
    /// author), written as Excel's threaded comments with the legacy note older readers show.
    public func addThread(_ entries: [(author: String, text: String)], row: Int, column: Int) throws {
        guard let first = entries.first else { throw WriterError.invalidArgument("\(name): a comment thread needs a comment") }
        guard entries.count > 1 else { return try addComment(first.text, author: first.author, row: row, column: column) }
        for entry in entries where entry.text.utf16.count > 32_767 {
            throw WriterError.textTooLong(sheet: name, reference: CellReference(row: row, column: column).description,
                                          length: entry.text.utf16.count)
        }
        let firstID = threadedComments + 1
        try addComment(ThreadedCommentsWriter.legacyText(entries), author: "tc=" + ThreadedCommentsWriter.identifier(scope: number, firstID),
                       row: row, column: column)
        threads.append(CommentThread(reference: comments[comments.count - 1].reference, entries: entries, firstID: firstID))
        threadedComments += entries.count
    }

    /// Appends a row below the rows written so far. The row's `height` (points, 0 to 409)
    /// and `isHidden` are written with it; cells must be ordered by column and use style
    /// indexes from `WorkbookWriter.style(_:)`. A row that throws writes nothing.
    public func append(_ row: Row) throws {
        guard !hasFailed else { throw WriterError.io(file: workbook.path, message: "writing \(name) failed earlier") }
        guard !isFinished else { throw WriterError.finished }
        guard row.index >= 1, row.index <= CellReference.maxRow else {
            throw WriterError.outsideGrid(sheet: name, row: row.index, column: row.cells.first?.column ?? 1)
        }
        guard row.index > lastRow else {
            throw WriterError.outOfOrder(sheet: name, reference: "row \(row.index)", after: "row \(lastRow)")
        }
        if let height = row.height, !(height.isFinite && (0...409).contains(height)) {
            throw WriterError.invalidArgument("\(name): row \(row.index) height \(height) is outside 0 to 409 points")
        }
        if !started { writeHeader() }
        guard !row.cells.isEmpty || row.height != nil || row.isHidden else { lastRow = row.index; return }
        let rowStart = xml.bytes.count
        do {
            try writeRow(row)
        } catch {
            xml.bytes.removeSubrange(rowStart...)
            throw error
        }
        lastRow = row.index
        if xml.bytes.count >= Self.chunkSize { try flush() }
    }

    private func writeRow(_ row: Row) throws {
        xml.compose(capacity: 32) { markup in markup.raw("<row r=\""); markup.int(row.index); markup.raw("\"") }
        if let height = row.height { xml.raw(" ht=\""); xml.double(height); xml.raw("\" customHeight=\"1\"") }
        if row.isHidden { xml.raw(" hidden=\"1\"") }
        guard !row.cells.isEmpty else { xml.raw("/>"); return }
        xml.raw(">")
        var previous = 0
        for cell in row.cells {
            guard cell.column >= 1, cell.column <= CellReference.maxColumn else {
                throw WriterError.outsideGrid(sheet: name, row: row.index, column: cell.column)
            }
            guard cell.column > previous else {
                throw WriterError.outOfOrder(sheet: name, reference: reference(row.index, cell.column),
                                             after: reference(row.index, previous))
            }
            previous = cell.column
            try writeCell(cell, row: row.index)
        }
        xml.raw("</row>")
    }

    private func writeCell(_ cell: Cell, row: Int) throws {
        var style = cell.styleIndex
        guard style >= 0, style < workbook.styles.count else { throw WriterError.unknownStyle(style) }
        var number: Double?
        var type: StaticString?
        var text: String?
        var textKind = TextKind.value
        var sharedIndex = 0
        switch cell.value {
        case .empty: break
        case .number(let value): number = value
        case .boolean(let flag): type = "b"; number = flag ? 1 : 0
        case .error(let code): type = "e"; text = code
        case .string(let value):
            text = value
            if cell.formula != nil {
                type = "str"
            } else if workbook.options.sharedStrings,
                      let index = workbook.sharedStrings.index(of: value, budget: workbook.options.sharedStringBudget) {
                type = "s"; textKind = .shared; sharedIndex = index
            } else {
                type = "inlineStr"; textKind = .inline
            }
        case .date(let serial):
            number = serial
            style = try workbook.styles.dateFormat(for: style, duration: false, hasTime: serial != serial.rounded(.down))
        case .duration(let days):
            number = days
            style = try workbook.styles.dateFormat(for: style, duration: true, hasTime: true)
        case .isoDate(let iso):
            guard let dateTime = ExcelDateTime(iso: iso) else {
                throw WriterError.invalidArgument("\(name)!\(reference(row, cell.column)): \"\(iso)\" is not an ISO 8601 date")
            }
            number = dateTime.serial(in: .excel1900)
            style = try workbook.styles.dateFormat(for: style, duration: false, hasTime: dateTime.hasTime)
        }
        if let value = number, !value.isFinite {
            throw WriterError.invalidNumber(sheet: name, reference: reference(row, cell.column))
        }
        if let value = text, value.utf8.count > 32_767, value.utf16.count > 32_767 {
            throw WriterError.textTooLong(sheet: name, reference: reference(row, cell.column), length: value.utf16.count)
        }
        if let formula = cell.formula, formula.utf8.count > 8_192, formula.utf16.count > 8_192 {
            throw WriterError.formulaTooLong(sheet: name, reference: reference(row, cell.column), length: formula.utf16.count)
        }

        // Excel 365 spells a spill as an array formula whose cell metadata says dynamic (`MetadataPartWriter`).
        var isDynamic = false
        if cell.formula != nil, case .dynamicArray = cell.formulaKind { isDynamic = true; hasDynamicArray = true }
        xml.compose(capacity: 72) { markup in
            markup.raw("<c r=\"")
            markup.reference(column: cell.column, row: row)
            markup.raw("\"")
            if style != 0 { markup.raw(" s=\""); markup.int(style); markup.raw("\"") }
            if let type { markup.raw(" t=\""); markup.raw(type); markup.raw("\"") }
            if isDynamic { markup.raw(" cm=\""); markup.int(MetadataPartWriter.dynamicArrayIndex); markup.raw("\"") }
            markup.raw(">")
        }
        if let formula = cell.formula {
            if let range = cell.formulaKind.arrayRange {
                xml.raw("<f t=\"array\" ref=\""); xml.attribute(range); xml.raw("\">")
            } else {
                xml.raw("<f>")
            }
            xml.text(formula)
            xml.raw("</f>")
            if case .empty = cell.value { hasUncachedFormula = true }
        }
        if let number {
            if let integer = XMLWriter.integer(number) { // as `XMLWriter.double` writes it
                xml.compose(capacity: 40) { markup in
                    markup.raw(integer < 0 ? "<v>-" : "<v>"); markup.int(Int(integer.magnitude)); markup.raw("</v></c>")
                }
                return
            }
            xml.raw("<v>"); xml.double(number); xml.raw("</v>")
        } else if let text {
            switch textKind {
            case .shared:
                let index = sharedIndex
                xml.compose(capacity: 40) { markup in markup.raw("<v>"); markup.int(index); markup.raw("</v></c>") }
                return
            case .inline: xml.raw("<is>"); xml.textElement(text); xml.raw("</is>")
            case .value: xml.raw("<v>"); xml.text(text); xml.raw("</v>")
            }
        }
        xml.raw("</c>")
    }

    /// Where a cell's text goes: the shared-string table, an inline string, or `<v>`.
    private enum TextKind { case shared, inline, value }

    private func writeHeader() {
        started = true
        xml.declaration()
        xml.raw("<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"")
        xml.raw(" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">")
        xml.raw(number == 1 ? "<sheetViews><sheetView tabSelected=\"1\" workbookViewId=\"0\"" : "<sheetViews><sheetView workbookViewId=\"0\"")
        if let frozenPane { xml.raw(">"); Self.writePane(frozenPane, into: &xml); xml.raw("</sheetView></sheetViews>") } else { xml.raw("/></sheetViews>") }
        xml.raw("<sheetFormatPr defaultRowHeight=\"15\"/>")
        if !columns.isEmpty {
            xml.raw("<cols>")
            for column in columns {
                xml.raw("<col min=\""); xml.int(column.first); xml.raw("\" max=\""); xml.int(column.last)
                xml.raw("\" width=\""); xml.double(column.width); xml.raw("\" customWidth=\"1\"/>")
            }
            xml.raw("</cols>")
        }
        xml.raw("<sheetData>")
    }

    /// Ends the sheet part: closes the XML and waits until libzip has written it.
    func finish() throws {
        guard !hasFailed else { throw WriterError.io(file: workbook.path, message: "writing \(name) failed earlier") }
        guard !isFinished else { return }
        isFinished = true
        if !started { writeHeader() }
        xml.raw("</sheetData>")
        if let autoFilter { xml.raw("<autoFilter ref=\""); xml.attribute("\(autoFilter.start):\(autoFilter.end)"); xml.raw("\"/>") }
        xml.raw("<pageMargins left=\"0.7\" right=\"0.7\" top=\"0.75\" bottom=\"0.75\" header=\"0.3\" footer=\"0.3\"/>")
        if !comments.isEmpty { xml.raw("<legacyDrawing r:id=\"rId2\"/>") } // rId1 is the comments part
        TablePartWriter.tableParts(count: tables.count, into: &xml)
        xml.raw("</worksheet>")
        do {
            try flush()
            try stream.finish()
        } catch {
            hasFailed = true
            stream.abort()
            throw error
        }
    }

    /// Abandons the sheet; nothing of it is published.
    func abort() {
        guard !isFinished else { return }
        isFinished = true
        stream.abort()
    }

    private func flush() throws {
        do {
            try stream.pipe.send(&xml.bytes)
        } catch {
            isFinished = true
            hasFailed = true
            stream.abort()
            try stream.finish() // reports libzip's reason
            throw WriterError.io(file: workbook.path, message: "writing \(name) failed")
        }
    }

    private func checkedReference(row: Int, column: Int) throws -> String {
        guard (1...CellReference.maxRow).contains(row), (1...CellReference.maxColumn).contains(column) else {
            throw WriterError.outsideGrid(sheet: name, row: row, column: column)
        }
        return reference(row, column)
    }

    private func reference(_ row: Int, _ column: Int) -> String {
        column < 1 ? "row \(row)" : CellReference.columnName(column) + String(row)
    }
}
