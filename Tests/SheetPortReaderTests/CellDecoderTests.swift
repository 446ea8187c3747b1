import Testing
@testable import SheetPortCore
@testable import SheetPortReader

/// The hand-over between the worksheet's XML and the decoding of its cells (`UndecodedRows`,
/// `CellDecoder`): batches may end inside a row, and decoding keeps what the reader did before.
@Suite struct CellDecoderTests {
    /// Reads a cell into `rows` as `WorksheetPart` does: its `<v>` text, then the cell.
    private static func append(_ rows: inout UndecodedRows, column: Int, styleIndex: Int = 0, _ type: UndecodedRows.ValueType,
                               _ value: String?, extra: UndecodedRows.Extra? = nil) {
        rows.beginCell()
        if let value {
            rows.beginValue()
            Array(value.utf8).withUnsafeBufferPointer { rows.appendValue($0) }
            try? rows.endValue()
        }
        let extraIndex = extra.map { rows.appendExtra($0) } ?? -1
        rows.appendCell(column: column, styleIndex: styleIndex, type: type, hasValue: value != nil, extra: extraIndex)
    }

    private static func decoder(_ strings: [String] = ["zero", "", "two"]) -> CellDecoder {
        var table = SharedStrings()
        for string in strings { table.append(string, isRich: false) }
        return CellDecoder(sharedStrings: table, styles: Styles())
    }

    @Test func aBatchEndingInsideARowKeepsTheRowWhole() {
        var rows = UndecodedRows()
        rows.openRow(index: 1, height: 12.5, isHidden: false)
        Self.append(&rows, column: 1, .number, "1.5")
        Self.append(&rows, column: 2, .inlineString, nil,
                    extra: .init(formula: nil, formulaKind: .normal, inlineString: "inline"))
        rows.closeRow()
        rows.openRow(index: 3, height: nil, isHidden: true)
        Self.append(&rows, column: 1, .sharedString, "2")
        Self.append(&rows, column: 3, .number, "3",
                    extra: .init(formula: "A1*2", formulaKind: .normal, inlineString: nil))

        // The batch ends inside row 3: only row 1 goes; row 3 keeps its cells and takes more.
        let first = rows.takeComplete()
        #expect(first.count == 1)
        #expect(rows.count == 0 && rows.hasOpenRow)
        Self.append(&rows, column: 4, .formulaString, "x_x0041_", extra: .init(formula: "\"x\"&\"A\"", formulaKind: .array(range: "D3"), inlineString: nil))
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
        Self.append(&rows, column: 2, .boolean, "1")
        rows.closeRow()
        var decoder = Self.decoder()
        var decoded: [Row] = []
        decoder.decode(rows.takeComplete(), into: &decoded)
        #expect(decoded == [Row(index: 7, cells: [Cell(column: 2, value: .boolean(true))])])
    }

    @Test func hostileValuesDecodeAsTheReaderAlwaysDid() {
        var rows = UndecodedRows()
        rows.openRow(index: 1, height: nil, isHidden: false)
        // Out of the table, negative, not a number, no digits, past Int: no value; misses counted.
        for (column, index) in ["3", "-1", "x", "", "99999999999999999999"].enumerated() {
            Self.append(&rows, column: column + 1, .sharedString, index)
        }
        Self.append(&rows, column: 6, .number, "  12e3 ")
        Self.append(&rows, column: 7, .number, "1,5")
        Self.append(&rows, column: 8, .error, " #N/A ")
        Self.append(&rows, column: 9, styleIndex: -5, .number, "2")
        Self.append(&rows, column: 10, .number, nil)
        // Two cells in one column, out of order: sorted, the later one wins.
        Self.append(&rows, column: 12, .number, "1")
        Self.append(&rows, column: 11, .number, "2")
        Self.append(&rows, column: 12, .number, "3")
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

    /// An empty shared string or `t="str"` value is the text "", as Excel has it (ISTEXT TRUE,
    /// COUNTA counts it, MATCH("",...) finds it) and openpyxl reads it; a cell with no value,
    /// or an inline string with nothing, stays absent.
    @Test func anEmptyStringIsATextCell() {
        var rows = UndecodedRows()
        rows.openRow(index: 1, height: nil, isHidden: false)
        Self.append(&rows, column: 1, .sharedString, "1")
        Self.append(&rows, column: 2, .formulaString, "")
        Self.append(&rows, column: 3, .formulaString, "", extra: .init(formula: "\"\"", formulaKind: .normal, inlineString: nil))
        Self.append(&rows, column: 4, .formulaString, nil)
        Self.append(&rows, column: 5, .sharedString, nil)
        Self.append(&rows, column: 6, .inlineString, nil)
        rows.closeRow()
        var decoder = Self.decoder()
        var decoded: [Row] = []
        decoder.decode(rows.takeComplete(), into: &decoded)
        #expect(decoded.first?.cells == [
            Cell(column: 1, value: .string("")),
            Cell(column: 2, value: .string("")),
            Cell(column: 3, value: .string(""), formula: "\"\""),
        ])
    }

    @Test func aBatchEndingInsideACellsTextKeepsTheText() {
        var rows = UndecodedRows()
        rows.openRow(index: 1, height: nil, isHidden: false)
        Self.append(&rows, column: 1, .number, "1")
        rows.closeRow()
        rows.openRow(index: 2, height: nil, isHidden: false)
        Self.append(&rows, column: 1, .number, "2")
        // Cell B2's `<v>` is cut by the end of the batch: "12" then "34".
        rows.beginCell()
        rows.beginValue()
        Array("12".utf8).withUnsafeBufferPointer { rows.appendValue($0) }
        let first = rows.takeComplete()
        #expect(rows.isCollectingValue)
        Array("34".utf8).withUnsafeBufferPointer { rows.appendValue($0) }
        try? rows.endValue()
        rows.appendCell(column: 2, styleIndex: 0, type: .number, hasValue: true)
        rows.closeRow()
        // A `<v>` outside any cell leaves nothing behind.
        rows.beginValue()
        Array("99".utf8).withUnsafeBufferPointer { rows.appendValue($0) }
        try? rows.endValue()
        rows.openRow(index: 3, height: nil, isHidden: false)
        Self.append(&rows, column: 3, .number, "3")
        rows.closeRow()
        var decoder = Self.decoder()
        var decoded: [Row] = []
        decoder.decode(first, into: &decoded)
        decoder.decode(rows.takeComplete(), into: &decoded)
        #expect(decoded == [
            Row(index: 1, cells: [Cell(column: 1, value: .number(1))]),
            Row(index: 2, cells: [Cell(column: 1, value: .number(2)), Cell(column: 2, value: .number(1234))]),
            Row(index: 3, cells: [Cell(column: 3, value: .number(3))]),
        ])
    }

    @Test func aValueOverTheTextLimitIsRefused() {
        var rows = UndecodedRows()
        rows.openRow(index: 1, height: nil, isHidden: false)
        rows.beginCell()
        rows.beginValue()
        let chunk = [UInt8](repeating: UInt8(ascii: "1"), count: 1 << 16)
        for _ in 0...(TextCollector.limit >> 16) { chunk.withUnsafeBufferPointer { rows.appendValue($0) } }
        #expect(throws: TextTooLong.self) { try rows.endValue() }
    }
}
