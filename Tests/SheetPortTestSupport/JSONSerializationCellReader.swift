import Foundation

import SheetPortCore
import SheetPortConvert

/// The oracle of the differential tests: `CellJSONLReader` as it was before
/// `CellObjectParser` (commit 6bf8e49), parsing each line with `JSONSerialization` and
/// re-reading the number of `value` from its text. Kept verbatim but for its name.
package struct JSONSerializationCellReader {
    private let input: ByteInput
    private var line = 0
    /// The line of the first cell of the last row returned.
    package private(set) var rowLine = 0
    private var pendingLine = 0
    private var lineBytes: [UInt8] = []
    private var pending: (row: Int, cell: Cell, style: CellStyle?)?
    private var previous: (row: Int, column: Int) = (0, 0)

    /// A reader of `input`.
    package init(input: ByteInput) throws {
        self.input = input
        try input.skipByteOrderMark()
    }

    /// The next row with its cells and each cell's style (nil for the plain one), or nil at the end.
    package mutating func nextRow() throws -> (row: Row, styles: [CellStyle?])? {
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
            let object: Any
            do {
                object = try JSONSerialization.jsonObject(with: Data(lineBytes))
            } catch {
                throw failure("not a JSON object")
            }
            guard let fields = object as? [String: Any] else { throw failure("not a JSON object") }
            return try cell(fields)
        }
        return nil
    }

    private mutating func readLine() throws -> Bool {
        lineBytes.removeAll(keepingCapacity: true)
        guard try input.peek() != nil else { return false }
        line += 1
        while let byte = try input.next(), byte != 0x0A { lineBytes.append(byte) }
        if lineBytes.last == 0x0D { lineBytes.removeLast() }
        return true
    }

    private mutating func cell(_ fields: [String: Any]) throws -> (row: Int, cell: Cell, style: CellStyle?) {
        guard let referenceText = fields["ref"] as? String, let reference = CellReference(referenceText) else {
            throw failure("\"ref\" must be a cell reference such as \"B2\"")
        }
        guard reference.row > previous.row || (reference.row == previous.row && reference.column > previous.column) else {
            throw failure("\(referenceText) comes after \(CellReference.columnName(previous.column))\(previous.row); "
                          + "cells must be ordered by row, then column, each once")
        }
        previous = (reference.row, reference.column)
        let style = try self.style(fields["style"])
        let formula = fields["formula"] as? String
        if fields["formula"] != nil && formula == nil && !(fields["formula"] is NSNull) {
            throw failure("\"formula\" must be a string")
        }
        var kind = FormulaKind.normal
        if let member = fields["arrayRange"], !(member is NSNull) {
            guard formula != nil, let text = member as? String, let range = CellRange(text),
                  range.start == reference else {
                throw failure("\"arrayRange\" must be a range such as \"B2:B4\" starting at the cell of a formula")
            }
            kind = .array(range: range.description)
        }
        let raw = fields["value"]
        let value: CellValue
        switch fields["type"] as? String {
        case "number":
            guard let number = raw as? NSNumber else { throw failure("a number cell needs a numeric \"value\"") }
            // Foundation's JSON numbers do not always round-trip; the text is read exactly.
            value = .number(exactNumber(member: "value") ?? number.doubleValue)
        case "string":
            guard let text = raw as? String else { throw failure("a string cell needs a string \"value\"") }
            value = .string(text)
        case "boolean":
            guard let flag = raw as? Bool else { throw failure("a boolean cell needs true or false") }
            value = .boolean(flag)
        case "error":
            guard let code = raw as? String, code.hasPrefix("#") else { throw failure("an error cell needs a value such as \"#N/A\"") }
            value = .error(code)
        case "date":
            guard let text = raw as? String, let dateTime = ExcelDateTime(iso: text), dateTime.isValidDay else {
                throw failure("a date cell needs a value YYYY-MM-DDTHH:MM:SS.sss")
            }
            let elapsed = style.map { NumberFormat.isElapsedTimeFormat($0.numberFormat) } ?? false
            value = elapsed ? .duration(days: dateTime.elapsedDays) : .date(serial: dateTime.serial(in: .excel1900))
        case "empty":
            guard formula != nil || style != nil else {
                throw failure("an empty cell is written only for a formula with no cached value, or with a style")
            }
            value = .empty
        default:
            throw failure("\"type\" must be number, string, boolean, error, date or empty")
        }
        return (reference.row, Cell(column: reference.column, value: value, formula: formula, formulaKind: kind), style)
    }

    private func style(_ raw: Any?) throws -> CellStyle? {
        guard let raw, !(raw is NSNull) else { return nil }
        guard let members = raw as? [String: Any] else { throw failure("\"style\" must be an object") }
        var style = CellStyle()
        style.isBold = members["bold"] as? Bool ?? false
        style.isItalic = members["italic"] as? Bool ?? false
        style.horizontalAlignment = members["horizontal"] as? String
        style.numberFormat = members["numFmt"] as? String ?? "General"
        style.fillColor = members["fill"] as? String
        style.textColor = members["color"] as? String
        return style == .plain ? nil : style
    }

    /// The number of a top-level member of the current line, parsed from its text with
    /// correct rounding (JSONSerialization can be one unit off in the last place).
    private func exactNumber(member: String) -> Double? {
        let key = Array(("\"" + member + "\"").utf8)
        var depth = 0
        var index = 0
        let bytes = lineBytes
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if depth == 1, bytes[index...].starts(with: key) {
                    var cursor = index + key.count
                    while cursor < bytes.count, ASCII.isSpace(bytes[cursor]) { cursor += 1 }
                    if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") {
                        cursor += 1
                        while cursor < bytes.count, ASCII.isSpace(bytes[cursor]) { cursor += 1 }
                        let start = cursor
                        while cursor < bytes.count, "+-.eE0123456789".utf8.contains(bytes[cursor]) { cursor += 1 }
                        return bytes[start..<cursor].withUnsafeBufferPointer { ASCII.parseDouble($0) }
                    }
                }
                index += 1 // skip the string, escapes included
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
            }
            index += 1
        }
        return nil
    }

    private func failure(_ message: String) -> TextInputError {
        TextInputError(file: input.name, line: line, message)
    }
}
