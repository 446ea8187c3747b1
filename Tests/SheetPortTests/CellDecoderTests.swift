import Testing
@testable import SheetPort

/// The hand-over between the worksheet's XML and the decoding of its cells (`UndecodedRows`,
/// `CellDecoder`): batches may end inside a row, and decoding keeps what the reader did before.
@Suite struct CellDecoderTests {
    private static func text(_ string: String) -> TextCollector {
        var collector = TextCollector()
        collector.begin()
        var bytes = Array(string.utf8)
        bytes.withUnsafeMutableBufferPointer { collector.append(UnsafeBufferPointer($0)) }
        try? collector.end()
        return collector
    }

    private static func decoder(_ strings: [String] = ["zero", "", "two"]) -> CellDecoder {
        var table = SharedStrings()
        for string in strings { table.append(string, isRich: false) }
        return CellDecoder(sharedStrings: table, styles: Styles())
    }

    @Test func aBatchEndingInsideARowKeepsTheRowWhole() {
        var rows = UndecodedRows()
        rows.openRow(index: 1, height: 12.5, isHidden: false)
        rows.appendCell(column: 1, styleIndex: 0, type: .number, value: Self.text("1.5"), extra: nil)
        rows.appendCell(column: 2, styleIndex: 0, type: .inlineString, value: nil,
                        extra: .init(formula: nil, formulaKind: .normal, inlineString: "inline"))
        rows.closeRow()
        rows.openRow(index: 3, height: nil, isHidden: true)
        rows.appendCell(column: 1, styleIndex: 0, type: .sharedString, value: Self.text("2"), extra: nil)
        rows.appendCell(column: 3, styleIndex: 0, type: .number, value: Self.text("3"),
                        extra: .init(formula: "A1*2", formulaKind: .normal, inlineString: nil))

        // The batch ends inside row 3: only row 1 goes; row 3 keeps its cells and takes more.
        let first = rows.takeComplete()
        #expect(first.count == 1)
        #expect(rows.count == 0 && rows.hasOpenRow)
        rows.appendCell(column: 4, styleIndex: 0, type: .formulaString, value: Self.text("x_x0041_"),
                        extra: .init(formula: "\"x\"&\"A\"", formulaKind: .array(range: "D3"), inlineString: nil))
        rows.closeRow()
        let second = rows.takeComplete()
        #expect(second.count == 1 && !rows.hasOpenRow && rows.isEmpty)

        var decoder = Self.decoder()
        var decoded: [Row] = []
        decoder.decode(first, into: &decoded)
        decoder.decode(second, into: &decoded)
        #expect(decoded == [
            Row(index: 1, height: 12.5, cells: [Cell(column: 1, value: .number(1.5)), Cell(column: 2, value: .string("inline"))]),
            Row(index: 3, isHidden: true, cells: [
                Cell(column: 1, value: .string("two")),
                Cell(column: 3, value: .number(3), formula: "A1*2"),
                Cell(column: 4, value: .string("xA"), formula: "\"x\"&\"A\"", formulaKind: .array(range: "D3")),
            ]),
        ])
    }

    @Test func aBatchEndingRightAfterARowStartsMovesAnEmptyRow() {
        var rows = UndecodedRows()
        rows.openRow(index: 7, height: nil, isHidden: false)
        let first = rows.takeComplete()
        #expect(first.isEmpty && rows.hasOpenRow)
        rows.appendCell(column: 2, styleIndex: 0, type: .boolean, value: Self.text("1"), extra: nil)
        rows.closeRow()
        var decoder = Self.decoder()
        var decoded: [Row] = []
        decoder.decode(rows.takeComplete(), into: &decoded)
        #expect(decoded == [Row(index: 7, cells: [Cell(column: 2, value: .boolean(true))])])
    }

    @Test func hostileValuesDecodeAsTheReaderAlwaysDid() {
        var rows = UndecodedRows()
        rows.openRow(index: 1, height: nil, isHidden: false)
        // Out of the table, negative, not a number, an empty string, past Int: no value; misses counted.
        for (column, index) in ["3", "-1", "x", "1", "99999999999999999999"].enumerated() {
            rows.appendCell(column: column + 1, styleIndex: 0, type: .sharedString, value: Self.text(index), extra: nil)
        }
        rows.appendCell(column: 6, styleIndex: 0, type: .number, value: Self.text("  12e3 "), extra: nil)
        rows.appendCell(column: 7, styleIndex: 0, type: .number, value: Self.text("1,5"), extra: nil)
        rows.appendCell(column: 8, styleIndex: 0, type: .error, value: Self.text(" #N/A "), extra: nil)
        rows.appendCell(column: 9, styleIndex: -5, type: .number, value: Self.text("2"), extra: nil)
        rows.appendCell(column: 10, styleIndex: 0, type: .number, value: nil, extra: nil)
        // Two cells in one column, out of order: sorted, the later one wins.
        rows.appendCell(column: 12, styleIndex: 0, type: .number, value: Self.text("1"), extra: nil)
        rows.appendCell(column: 11, styleIndex: 0, type: .number, value: Self.text("2"), extra: nil)
        rows.appendCell(column: 12, styleIndex: 0, type: .number, value: Self.text("3"), extra: nil)
        rows.closeRow()
        var decoder = Self.decoder()
        var decoded: [Row] = []
        decoder.decode(rows.takeComplete(), into: &decoded)
        #expect(decoded.first?.cells == [
            Cell(column: 6, value: .number(12_000)),
            Cell(column: 7, value: .string("1,5")),
            Cell(column: 8, value: .error("#N/A")),
            Cell(column: 9, value: .number(2), styleIndex: -5),
            Cell(column: 11, value: .number(2)),
            Cell(column: 12, value: .number(3)),
        ])
        let metadata = decoder.completing(WorksheetMetadata())
        #expect(metadata.missingSharedStringCount == 2) // 3 and -1; "x" and the overflowing one are no index
    }
}
