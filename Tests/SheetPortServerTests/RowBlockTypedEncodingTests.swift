import Testing
import SheetPortCore
import SheetPortCalc
import SheetPortConvert
@testable import SheetPortServer

/// A write hands `RowBlock.binary` the cells it holds typed (`RowBlock.TypedLines`: the cells it
/// rewrote, `TypedLine(_: StoredCell)`, and those a block decoded into) instead of their lines to
/// read back: the block must be byte for byte the one its lines make.
@Suite struct RowBlockTypedEncodingTests {
    static let texts = ["x", "", "a\"b", "a\\b", "/", "\u{8}\u{C}\n\r\t", "\u{0}\u{1F}\u{7F}", "\u{2028}\u{2029}", "é😀",
                        "→—", "=A1", "TRUE", "12", "1.50", "#DIV/0!", "{\"col\":1}", " lead"]
    static let values: [CalcValue] = [
        .number(0), .number(-0.0), .number(1), .number(-1), .number(0.1), .number(1.5), .number(-1e-7), .number(1e300),
        .number(999_999_999_999_999), .number(1e15), .number(-1e15), .number(9_007_199_254_740_993), .number(123_456.789),
        .number(.nan), .number(.infinity), .number(-.infinity), .number(45_000.5),
        // Doubles typed from the number rendered (`TypedLine(_:line:members:)`), not its text:
        // the smallest subnormal, 2^53, past it, exponents, a sum's last digit, 16 digits.
        .number(5e-324), .number(-.leastNormalMagnitude), .number(9_007_199_254_740_992), .number(1e16), .number(1e21),
        .number(-1.2345e-20), .number(0.1 + 0.2), .number(1_234_567_890_123_456), .number(.greatestFiniteMagnitude),
        .text("x"), .text(""), .text("a\"\\\u{1}\u{2028}😀"),
        .boolean(true), .boolean(false), .error(.divisionByZero), .error(.notAvailable), .empty,
    ]

    /// Cells of every kind: each value with a hostile input, a formula, an array range, a
    /// spill, a style (a date format makes a number a date), or an input of its own.
    static var cells: [StoredCell] {
        var cells: [StoredCell] = []
        var column = 1
        func add(_ make: (inout StoredCell) -> Void) {
            var cell = StoredCell(row: 1, column: column)
            make(&cell)
            cells.append(cell)
            column += 1
        }
        for value in values {
            add { $0.value = value; $0.input = Self.input(of: value) }
            add { $0.value = value; $0.input = "=B1&\"\\\"" ; $0.formula = "B1&\"\\\"" }
            add { $0.value = value; $0.input = "={1,2}"; $0.formula = "{1,2}"; $0.arrayRange = "A1:B1" }
            add { $0.value = value; $0.input = ""; $0.spill = "A1" }
            add { $0.value = value; $0.input = "45000.5"; $0.style = ["numFmt": "yyyy-mm-dd", "bold": true] }
            add { $0.value = value; $0.input = "1"; $0.style = ["fill": "#FFEE00", "color": "#000000", "zeta": "\"q\""] }
            for text in texts {
                add { $0.value = value; $0.input = text }
                add { $0.value = value; $0.input = "=" + text; $0.formula = text }
            }
        }
        for column in [16_383, 16_384, 16_385, 100_000] {
            var cell = StoredCell(row: 1, column: column)
            cell.value = .number(2)
            cell.input = "2"
            cells.append(cell)
        }
        return cells
    }

    /// One block of `cells` spread over rows 1 to 64 (row 1 of each cell replaced), its lines
    /// as `StoredCell.line` writes them, and the cells by reference.
    static func block(_ cells: [StoredCell]) -> (entries: [RowBlock.Entry], typed: RowBlock.TypedLines) {
        var entries: [RowBlock.Entry] = []
        var byReference: [CellReference: StoredCell] = [:]
        for (index, var cell) in cells.enumerated() {
            cell.row = 1 + index % 64
            byReference[CellReference(row: cell.row, column: cell.column)] = cell
        }
        var typed = RowBlock.TypedLines()
        for row in 1...64 {
            let inRow = byReference.values.filter { $0.row == row }.sorted { $0.column < $1.column }
            let lines = inRow.map { cell in
                let line = ArraySlice(cell.line)
                if let typedLine = TypedLine(cell) { typed.add(line, typedLine) }
                return line
            }
            if !inRow.isEmpty { entries.append(RowBlock.Entry(row: row, height: row == 3 ? 20.5 : nil, isHidden: row == 4, cells: lines)) }
        }
        return (entries, typed)
    }

    @Test func eachCellEncodesAsItsLine() {
        var typedOnes = 0
        for cell in Self.cells {
            let (entries, typed) = Self.block([cell])
            #expect(RowBlock.binary(entries, typed: typed) == RowBlock.binary(entries), "\(String(decoding: cell.line, as: UTF8.self))")
            if TypedLine(cell) != nil { typedOnes += 1 }
        }
        // Most cells go the typed way, so the comparison above is not only of lines with lines.
        #expect(typedOnes > Self.cells.count / 2, "\(typedOnes) of \(Self.cells.count)")
    }

    @Test func aBlockEncodesAsItsLinesAndReadsBackThem() throws {
        let (entries, typed) = Self.block(Self.cells)
        let bytes = RowBlock.binary(entries, typed: typed)
        #expect(bytes == RowBlock.binary(entries))
        let back = try RowBlock.entries(stored: bytes)
        #expect(back.map(\.row) == entries.map(\.row))
        for (read, written) in zip(back, entries) {
            #expect(read.cells.map { Array($0) } == written.cells.map { Array($0) }, "row \(written.row)")
        }
    }

    /// A block read back registers its lines' cells: encoded from them, it is the same block.
    @Test func aDecodedBlockEncodesAgainAsItsLines() throws {
        let (entries, _) = Self.block(Self.cells)
        let stored = RowBlock.binary(entries)
        var typed = RowBlock.TypedLines()
        let read = try RowBlock.entries(stored: stored, typed: &typed)
        let found = read.flatMap(\.cells).filter { typed.cell(of: $0) != nil }.count
        #expect(found > read.flatMap(\.cells).count / 2, "\(found) lines typed")
        #expect(RowBlock.binary(read, typed: typed) == stored)
        #expect(RowBlock.binary(read) == stored)
    }

    /// Only the very line registered (or a value sharing its buffer, so its bytes) is found: a
    /// copy of its bytes elsewhere, or the line changed, is read as any line is.
    @Test func onlyTheRegisteredLineIsTyped() throws {
        let (entries, typed) = Self.block(Array(Self.cells.prefix(50)))
        let line = try #require(entries.first?.cells.first)
        #expect(typed.cell(of: line) != nil)
        #expect(typed.cell(of: ArraySlice(line.map { $0 })) == nil) // the same bytes in a buffer of their own
        var changed = entries
        changed[0].cells[0][changed[0].cells[0].startIndex + 1] = UInt8(ascii: " ") // `{ "col"...`, a copy made on write
        #expect(typed.cell(of: changed[0].cells[0]) == nil)
        #expect(typed.cell(of: line.dropLast()) == nil)
        #expect(RowBlock.binary(changed, typed: typed) == RowBlock.binary(changed))
    }

    /// A decoded block's lines share one buffer: only a whole line of it is found, never a
    /// slice of one (a prefix, its tail), a copy or a changed line; lines
    /// kept whole between typed ones are not typed.
    @Test func onlyAWholeDecodedLineIsTyped() throws {
        let (entries, _) = Self.block(Self.cells)
        var typed = RowBlock.TypedLines()
        let read = try RowBlock.entries(stored: RowBlock.binary(entries), typed: &typed)
        var found = 0
        for entry in read {
            for line in entry.cells {
                // Typed exactly when the block holds the cell typed (a line kept whole is not).
                #expect((typed.cell(of: line) != nil) == (TypedLine(line, row: entry.row) != nil), "\(String(decoding: line, as: UTF8.self))")
                if typed.cell(of: line) != nil { found += 1 }
                #expect(typed.cell(of: line.dropLast()) == nil)
                #expect(typed.cell(of: line.dropFirst()) == nil)
                #expect(typed.cell(of: line.prefix(1)) == nil)
                #expect(typed.cell(of: ArraySlice(Array(line))) == nil)
            }
        }
        #expect(found > read.flatMap(\.cells).count / 2, "\(found) lines typed")
        // A line changed in place is copied on write and read as any line.
        var changed = read
        changed[0].cells[0][changed[0].cells[0].startIndex + 1] = UInt8(ascii: " ")
        #expect(typed.cell(of: changed[0].cells[0]) == nil)
        #expect(RowBlock.binary(changed, typed: typed) == RowBlock.binary(changed))
        // The cells of some columns alone are the same lines as the whole block's.
        let columns: Set<Int> = [1, 2, 7, 16_384]
        let some = try RowBlock.entries(stored: RowBlock.binary(entries), columns: columns)
        #expect(some.map(\.row) == read.map(\.row))
        for (part, whole) in zip(some, read) {
            let kept = whole.cells.filter { line in TypedLine(line, row: whole.row).map { columns.contains($0.column) } ?? true }
            #expect(part.cells.map { Array($0) } == kept.map { Array($0) }, "row \(whole.row)")
        }
    }

    /// The input a user types for `value`.
    static func input(of value: CalcValue) -> String {
        switch value {
        case .number(let number): number.isFinite ? ValueText.number(number) : "1"
        case .text(let text): text
        case .boolean(let flag): flag ? "TRUE" : "FALSE"
        case .error(let error): error.rawValue
        default: ""
        }
    }
}
