import SheetPortCore
import SheetPortReader
/// Reads cell JSON Lines (Docs/Reference/Formats.md, "Cell JSONL") back into rows: the objects that
/// `convert --to jsonl` writes, with their optional `style` key.
///
/// Rows must come top to bottom and cells left to right, as the reader writes them: the
/// input is streamed, never sorted in memory. Each line is parsed by `CellObjectParser`,
/// straight into the members a cell uses.
public struct CellJSONLReader {
    private let input: ByteInput
    private var line = 0
    /// The line of the first cell of the last row returned.
    public private(set) var rowLine = 0
    private var pendingLine = 0
    private var lineBytes: [UInt8] = []
    private var pending: (row: Int, cell: Cell, style: CellStyle?)?
    private var previous: (row: Int, column: Int) = (0, 0)
    private var lastFormat: (format: String, isElapsed: Bool)?

    /// A reader of `input`.
    public init(input: ByteInput) throws {
        self.input = input
        try input.skipByteOrderMark()
    }

    /// The next row with its cells and each cell's style (nil for the plain one), or nil at the end.
    public mutating func nextRow() throws -> (row: Row, styles: [CellStyle?])? {
        if pending == nil { pending = try nextCell(); pendingLine = line }
        guard let first = pending else { return nil }
        rowLine = pendingLine
        var row = Row(index: first.row, cells: [first.cell])
        var styles = [first.style]
        pending = nil
        while let next = try nextCell() {
            guard next.row == row.index else { pending = next; pendingLine = line; break }
            row.cells.append(next.cell)
            styles.append(next.style)
        }
        return (row, styles)
    }

    private mutating func nextCell() throws -> (row: Int, cell: Cell, style: CellStyle?)? {
        while try readLine() {
            guard lineBytes.contains(where: { !ASCII.isSpace($0) }) else { continue }
            guard let object = lineBytes.withUnsafeBufferPointer(CellObjectParser.parse) else {
                throw failure("not a JSON object")
            }
            return try cell(object)
        }
        return nil
    }

    private mutating func readLine() throws -> Bool {
        lineBytes.removeAll(keepingCapacity: true)
        guard try input.appendLine(to: &lineBytes) else { return false }
        line += 1
        if lineBytes.last == 0x0D { lineBytes.removeLast() }
        return true
    }

    private mutating func cell(_ fields: CellObject) throws -> (row: Int, cell: Cell, style: CellStyle?) {
        guard let referenceText = fields.ref.string, let reference = CellReference(referenceText) else {
            throw failure("\"ref\" must be a cell reference such as \"B2\"")
        }
        guard reference.row > previous.row || (reference.row == previous.row && reference.column > previous.column) else {
            throw failure("\(referenceText) comes after \(CellReference.columnName(previous.column))\(previous.row); "
                          + "cells must be ordered by row, then column, each once")
        }
        previous = (reference.row, reference.column)
        let style = try self.style(fields)
        let formula = fields.formula.string
        if fields.formula.isPresent && formula == nil {
            throw failure("\"formula\" must be a string")
        }
        var kind = FormulaKind.normal
        if fields.arrayRange.isPresent {
            guard formula != nil, let text = fields.arrayRange.string, let range = CellRange(text),
                  range.start == reference else {
                throw failure("\"arrayRange\" must be a range such as \"B2:B4\" starting at the cell of a formula")
            }
            // An array formula whose cell names itself as a spill's anchor is a dynamic array.
            kind = fields.spill.string == reference.description ? .dynamicArray(range: range.description) : .array(range: range.description)
        }
        let raw = fields.value
        let value: CellValue
        switch fields.type.string {
        case "number":
            // The parser reads numbers exactly; true and false count as 1 and 0, as they did
            // when this reader took its values from JSONSerialization.
            guard let number = raw.number else { throw failure("a number cell needs a numeric \"value\"") }
            value = .number(number)
        case "string":
            guard let text = raw.string else { throw failure("a string cell needs a string \"value\"") }
            value = .string(text)
        case "boolean":
            guard let flag = raw.bool else { throw failure("a boolean cell needs true or false") }
            value = .boolean(flag)
        case "error":
            guard let code = raw.string, code.hasPrefix("#") else { throw failure("an error cell needs a value such as \"#N/A\"") }
            value = .error(code)
        case "date":
            guard let text = raw.string, let dateTime = ExcelDateTime(iso: text), dateTime.isValidDay else {
                throw failure("a date cell needs a value YYYY-MM-DDTHH:MM:SS.sss")
            }
            let elapsed = style.map { isElapsedTimeFormat($0.numberFormat) } ?? false
            value = elapsed ? .duration(days: dateTime.elapsedDays) : .date(serial: dateTime.serial(in: .excel1900))
        case "empty":
            // A formatted blank (the server's format route) keeps its style; otherwise only a
            // formula with no cached value is empty.
            guard formula != nil || style != nil else {
                throw failure("an empty cell is written only for a formula with no cached value, or with a style")
            }
            value = .empty
        default:
            throw failure("\"type\" must be number, string, boolean, error, date or empty")
        }
        return (reference.row, Cell(column: reference.column, value: value, formula: formula, formulaKind: kind), style)
    }

    /// `NumberFormat.isElapsedTimeFormat`, remembered for the last format asked about: a
    /// column of dates repeats one format on every line.
    private mutating func isElapsedTimeFormat(_ format: String) -> Bool {
        if let known = lastFormat, known.format == format { return known.isElapsed }
        let isElapsed = NumberFormat.isElapsedTimeFormat(format)
        lastFormat = (format, isElapsed)
        return isElapsed
    }

    private func style(_ fields: CellObject) throws -> CellStyle? {
        guard fields.style.isPresent else { return nil }
        guard fields.style == .object else { throw failure("\"style\" must be an object") }
        let members = fields.styleMembers
        var style = CellStyle()
        style.isBold = members.bold.bool ?? false
        style.isItalic = members.italic.bool ?? false
        style.horizontalAlignment = members.horizontal.string
        style.numberFormat = members.numFmt.string ?? "General"
        style.fillColor = members.fill.string
        style.textColor = members.color.string
        return style == .plain ? nil : style
    }

    private func failure(_ message: String) -> TextInputError {
        TextInputError(file: input.name, line: line, message)
    }
}
