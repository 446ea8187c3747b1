/// Moves the relative references of a formula, as Excel does when it copies a formula,
/// and as a shared formula (`<f t="shared" si=".."/>`) is expanded to each cell of its range.
///
/// String literals, quoted sheet names, structured references and external-workbook
/// brackets are copied untouched; `$` anchors a row or column; function names
/// (`LOG10(`), sheet names (`A1!`) and table names (`T1[`) are never references.
/// A reference moved outside the grid becomes `#REF!`.
public enum FormulaTranslator {
    /// `formula` moved down by `rows` and right by `columns`.
    public static func translate(_ formula: String, rows: Int, columns: Int) -> String {
        if rows == 0 && columns == 0 { return formula }
        let input = Array(formula.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count + 8)
        var index = 0
        while index < input.count {
            let byte = input[index]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let end = quotedEnd(input, from: index)
                output += input[index..<end]
                index = end
            case UInt8(ascii: "["):
                let end = bracketEnd(input, from: index)
                output += input[index..<end]
                index = end
            case _ where isNameByte(byte):
                var end = index
                while end < input.count, isNameByte(input[end]) { end += 1 }
                index = translateToken(input, start: index, end: end, rows: rows, columns: columns, into: &output)
            default:
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Handles the name-like token `input[start..<end]` and what may pair with it
    /// (`A:C`, `1:3`, `Sheet1:Sheet3!`); returns where to go on.
    private static func translateToken(_ input: [UInt8], start: Int, end: Int, rows: Int, columns: Int,
                                       into output: inout [UInt8]) -> Int {
        let token = input[start..<end]
        let next = end < input.count ? input[end] : 0
        let isPreceded = start > 0 && (input[start - 1] == UInt8(ascii: "#"))
        if isPreceded || next == UInt8(ascii: "!") || next == UInt8(ascii: "(") || next == UInt8(ascii: "[") {
            output += token
            return end
        }
        if next == UInt8(ascii: ":") {
            var secondEnd = end + 1
            while secondEnd < input.count, isNameByte(input[secondEnd]) { secondEnd += 1 }
            let second = input[(end + 1)..<secondEnd]
            let afterSecond = secondEnd < input.count ? input[secondEnd] : 0
            if afterSecond == UInt8(ascii: "!") { // a 3-D reference: Sheet1:Sheet3!A1
                output += input[start...secondEnd]
                return secondEnd + 1
            }
            if let first = moveLine(token, rows: rows, columns: columns),
               let last = moveLine(second, rows: rows, columns: columns) {
                output += first + [UInt8(ascii: ":")] + last
                return secondEnd
            }
        }
        if let moved = moveCell(token, rows: rows, columns: columns) {
            output += moved
        } else {
            output += token
        }
        return end
    }

    /// A cell reference `$?COL$?ROW` moved, `#REF!` when it leaves the grid, nil when not a reference.
    private static func moveCell(_ token: ArraySlice<UInt8>, rows: Int, columns: Int) -> [UInt8]? {
        guard let parts = splitReference(token), let column = parts.column, let row = parts.row else { return nil }
        let newColumn = parts.columnAbsolute ? column : column + columns
        let newRow = parts.rowAbsolute ? row : row + rows
        guard (1...CellReference.maxColumn).contains(newColumn), (1...CellReference.maxRow).contains(newRow) else {
            return Array("#REF!".utf8)
        }
        return Array(((parts.columnAbsolute ? "$" : "") + CellReference.columnName(newColumn)
                      + (parts.rowAbsolute ? "$" : "") + String(newRow)).utf8)
    }

    /// One side of a whole-column (`$A`) or whole-row (`$3`) range moved, nil when it is neither.
    private static func moveLine(_ token: ArraySlice<UInt8>, rows: Int, columns: Int) -> [UInt8]? {
        guard let parts = splitReference(token) else { return nil }
        switch (parts.column, parts.row) {
        case (let column?, nil):
            let moved = parts.columnAbsolute ? column : column + columns
            guard (1...CellReference.maxColumn).contains(moved) else { return Array("#REF!".utf8) }
            return Array(((parts.columnAbsolute ? "$" : "") + CellReference.columnName(moved)).utf8)
        case (nil, let row?):
            let moved = parts.rowAbsolute ? row : row + rows
            guard (1...CellReference.maxRow).contains(moved) else { return Array("#REF!".utf8) }
            return Array(((parts.rowAbsolute ? "$" : "") + String(moved)).utf8)
        default:
            return moveCell(token, rows: rows, columns: columns)
        }
    }

    private struct ReferenceParts {
        var column: Int?
        var columnAbsolute = false
        var row: Int?
        var rowAbsolute = false
    }

    /// Splits `$?letters$?digits` (either part may be missing); nil for anything else.
    private static func splitReference(_ token: ArraySlice<UInt8>) -> ReferenceParts? {
        var parts = ReferenceParts()
        var index = token.startIndex
        if index < token.endIndex, token[index] == UInt8(ascii: "$") { parts.columnAbsolute = true; index += 1 }
        let lettersStart = index
        while index < token.endIndex, isLetter(token[index]) { index += 1 }
        if index > lettersStart {
            guard let column = CellReference.columnNumber(token[lettersStart..<index]) else { return nil }
            parts.column = column
        } else if parts.columnAbsolute {
            parts.columnAbsolute = false
            parts.rowAbsolute = true
        }
        if index < token.endIndex, token[index] == UInt8(ascii: "$") {
            guard parts.column != nil, !parts.rowAbsolute else { return nil }
            parts.rowAbsolute = true
            index += 1
        }
        let digitsStart = index
        var row = 0
        while index < token.endIndex, token[index] >= 0x30, token[index] <= 0x39, row <= CellReference.maxRow {
            row = row * 10 + Int(token[index] - 0x30)
            index += 1
        }
        if index > digitsStart {
            guard token[digitsStart] != 0x30, row <= CellReference.maxRow else { return nil }
            parts.row = row
        }
        guard index == token.endIndex, parts.column != nil || parts.row != nil else { return nil }
        if parts.row == nil && parts.rowAbsolute { return nil }
        return parts
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Bytes that can be part of a name, reference or number token.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "?") || byte >= 0x80
    }

    /// The index after a `"..."` or `'...'` literal whose quote is doubled to escape it.
    private static func quotedEnd(_ input: [UInt8], from start: Int) -> Int {
        let quote = input[start]
        var index = start + 1
        while index < input.count {
            if input[index] == quote {
                if index + 1 < input.count, input[index + 1] == quote { index += 2; continue }
                return index + 1
            }
            index += 1
        }
        return input.count
    }

    /// The index after the `]` that closes the `[` at `start`, brackets nesting.
    private static func bracketEnd(_ input: [UInt8], from start: Int) -> Int {
        var depth = 0
        var index = start
        while index < input.count {
            switch input[index] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index + 1 }
            case UInt8(ascii: "'") where index + 1 < input.count && input[index + 1] != UInt8(ascii: "]"):
                index += 1 // an escape inside structured references: '[ '] '#
            default: break
            }
            index += 1
        }
        return input.count
    }
}
