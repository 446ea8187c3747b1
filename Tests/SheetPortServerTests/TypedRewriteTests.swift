import Testing
import SheetPortCalc
import SheetPortCore
@testable import SheetPortServer

/// A write reads each updated cell's old line from the typed form its decoded block holds
/// (`StoredCell.reading`), renders the new line once for both the line and its typed form
/// (`StoredCell.typedLine`), and its history entry keeps the bytes of both lines (`WrittenCell`):
/// each must be what the lines themselves read and spell, whatever the cells hold.
@Suite struct TypedRewriteTests {
    /// The hostile cells of the typed encoding's suite and of the line writer's, each in a column
    /// of its own (the block spreads them over its 64 rows).
    static var cellSets: [[StoredCell]] {
        [RowBlockTypedEncodingTests.cells, StoredCellWriteTests.cells.enumerated().map { index, cell in
            var cell = cell
            cell.column = index + 1
            return cell
        }]
    }

    /// One block of `cells`, stored and decoded as a write reads it: its rows and typed lines.
    static func decoded(_ cells: [StoredCell]) throws -> (entries: [RowBlock.Entry], typed: RowBlock.TypedLines) {
        let (entries, _) = RowBlockTypedEncodingTests.block(cells)
        var typed = RowBlock.TypedLines()
        let read = try RowBlock.entries(stored: RowBlock.binary(entries), typed: &typed)
        return (read, typed)
    }

    /// A typed line reads as its line reads, and is spelled as the cell's line is spelled (so
    /// the history may keep it as it is); a line it does not read goes to the line's reader.
    @Test(arguments: [0, 1])
    func aTypedLineReadsAsItsLine(_ set: Int) throws {
        let (entries, typed) = try Self.decoded(Self.cellSets[set])
        var lines = 0, kept = 0
        for entry in entries {
            for line in entry.cells {
                lines += 1
                let general = StoredCell(line: line, row: entry.row)
                let column = general?.column ?? SheetEdit.column(of: line) ?? 1
                let (cell, keptLine) = StoredCell.reading(line, row: entry.row, column: column, typed: typed)
                let text = String(decoding: line.prefix(160), as: UTF8.self)
                #expect(cell.line == (general ?? StoredCell(row: entry.row, column: column)).line, "\(text)")
                if let keptLine {
                    kept += 1
                    #expect(keptLine == line && cell.line == Array(line), "\(text)")
                }
                // Without the typed form the line is read, never kept.
                #expect(StoredCell.reading(line, row: entry.row, column: column, typed: RowBlock.TypedLines()).line == nil)
            }
        }
        // Lines go the typed way (most plain ones; the line writer's are mostly escaped or
        // styled), so the comparisons above are not only of the reader with itself.
        #expect(kept > (set == 0 ? lines / 3 : 10), "\(kept) of \(lines)")
        #expect(StoredCell.reading(nil, row: 4, column: 9, typed: typed).cell.isVacant)
    }

    /// Bytes JSON does not take raw in a string (a quote, a backslash, a control character) or
    /// that are not UTF-8, in any member of a typed line, leave the line to its reader.
    @Test(arguments: [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0x22], [0x5C], [0x0A], [0x00], [0x1F]] as [[UInt8]])
    func rawBytesInATypedMemberAreLeftToTheLine(_ bytes: [UInt8]) throws {
        var cell = StoredCell(row: 3, column: 2)
        cell.input = "ab"
        cell.value = .text("ab")
        var formula = cell
        formula.input = "=A1&B1"
        formula.formula = "A1&B1"
        formula.arrayRange = "B3:B3"
        let plain = try #require(TypedLine(cell)), withFormula = try #require(TypedLine(formula))
        #expect(StoredCell(plain, row: 3)?.line == cell.line && StoredCell(withFormula, row: 3)?.line == formula.line)
        let hostile = ArraySlice(Array("a".utf8) + bytes + Array("b".utf8))
        var damaged = [plain, plain, withFormula, withFormula]
        damaged[0].text = hostile
        damaged[1].input = hostile
        damaged[2].formula = hostile
        damaged[3].arrayRange = hostile
        for typed in damaged { #expect(StoredCell(typed, row: 3) == nil) }
    }

    /// A write clearing, overwriting and retyping cells of a decoded block: each updated cell's
    /// lines before and after, as `WrittenCell` keeps them, are those of its cells, so its
    /// history entry is the one rendering them gives; the block encodes as its lines do.
    @Test(arguments: [0, 1])
    func aRewriteKeepsTheLinesOfItsCells(_ set: Int) throws {
        var (entries, typed) = try Self.decoded(Self.cellSets[set])
        var updates: [CellReference: CellUpdate] = [:]
        var touched: [SheetEdit.Touched] = []
        for (index, entry) in entries.enumerated() {
            for line in entry.cells {
                guard let column = SheetEdit.column(of: line) else { continue }
                let cell = CellReference(row: entry.row, column: column)
                let value: CalcValue
                switch index % 4 {
                case 0: updates[cell] = CellUpdate(content: .clear); value = .empty
                case 1: updates[cell] = CellUpdate(content: .value(.number(Double(column)), input: String(column))); value = .number(Double(column))
                case 2: updates[cell] = CellUpdate(content: .formula("A1*2")); value = .number(4)
                default: updates[cell] = CellUpdate(content: .value(.text("x\"\u{2028}é"), input: "x\"\u{2028}é"), style: .clear); value = .text("x\"\u{2028}é")
                }
                touched.append((cell, value))
            }
        }
        touched.sort { $0.cell < $1.cell }
        var applied = SheetEdit.Applied()
        var written: [WrittenCell] = []
        SheetEdit.rewrite(touched[...], updates: updates, spills: [:], in: &entries, into: &applied, written: &written, typed: &typed, showing: 0)
        // In the order rewritten, row and column order: the history writes them so, unsorted.
        #expect(written.map(\.cell) == touched.map(\.cell))
        let writer = CellHistory.EntryWriter()
        var keptBefore = 0
        for kept in written {
            let cell = kept.cell
            if let line = kept.beforeLine {
                keptBefore += 1
                #expect(Array(line) == kept.before.line, "\(cell)")
            }
            #expect(kept.afterLine.map(Array.init) == (kept.after.isVacant ? nil : kept.after.line), "\(cell)")
            writer.putCell(kept, changed: ["input"], at: cell)
            let fromLines = writer.take()
            writer.putCell(kept.before, kept.after, changed: ["input"], at: cell)
            #expect(fromLines == writer.take(), "\(cell)")
        }
        #expect(keptBefore > (set == 0 ? written.count / 3 : 10), "\(keptBefore) of \(written.count)")
        #expect(RowBlock.binary(entries, typed: typed) == RowBlock.binary(entries))
    }
}
