import Testing
import SheetPortCore
@testable import SheetPortEditing

@Suite struct TSVTests {
    @Test(arguments: [
        ([["1", "2"], ["3", "4"]], "1\t2\n3\t4\n"),
        ([["a\tb", "say \"hi\""]], "\"a\tb\"\t\"say \"\"hi\"\"\"\n"),
        ([["two\nlines", ""]], "\"two\nlines\"\t\n"),
        ([["", "", ""]], "\t\t\n"),
        ([["=A1*2", "naïve ✓"]], "=A1*2\tnaïve ✓\n"),
        ([["\"", "x\"y"]], "\"\"\"\"\t\"x\"\"y\"\n"),
    ])
    func roundTrips(_ rows: [[String]], _ text: String) {
        #expect(TSV.encode(rows) == text)
        #expect(TSV.decode(text) == rows)
    }

    @Test(arguments: [
        ("1\t2\r\n3\t4\r\n", [["1", "2"], ["3", "4"]]),
        ("1\t2", [["1", "2"]]),
        ("a\"b\tc", [["a\"b", "c"]]),
        ("\"unterminated\tx", [["unterminated\tx"]]),
        ("", []),
        ("\n", [[""]]),
    ])
    func readsWhatOthersWrite(_ text: String, _ rows: [[String]]) {
        #expect(TSV.decode(text) == rows)
    }
}

@Suite struct ClipboardTests {
    @Test func pasteInsideTheSheetGoesAsACopy() {
        let model = MemorySheetTransport()
        model.inputs = [CellReference("A1")!: "1", CellReference("B1")!: "=A1*2", CellReference("A2")!: "3", CellReference("B2")!: "=A2*2"]
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.show(start: 1, count: 20)
        run(editor, "S-down S-right ^C")
        #expect(editor.clipboard?.text == "1\t0\n3\t0\n")
        #expect(editor.clipboard?.origin?.range == CellRange("A1:B2"))
        run(editor, "^G D4 enter ^V")
        #expect(model.inputs[CellReference("E4")!] == "=D4*2")
        #expect(model.inputs[CellReference("E5")!] == "=D5*2")
        #expect(editor.selection.range.description == "D4:E5")
        #expect(editor.formulaBar == "D4 | 1")
        // The same text from outside (no origin) goes as inputs, untranslated.
        editor.clipboard = ClipboardContent(text: "x\t=A1*2\n")
        run(editor, "^G G1 enter ^V")
        #expect(model.inputs[CellReference("H1")!] == "=A1*2")
        #expect(model.inputs[CellReference("G1")!] == "x")
        // A copy from another sheet pastes as text too.
        editor.clipboard = ClipboardContent(text: "7\n", origin: ("other", CellRange("A1")!))
        run(editor, "^G J1 enter ^V")
        #expect(model.inputs[CellReference("J1")!] == "7")
    }

    @Test func pasteOverTheCapsIsRefusedWhole() {
        let model = MemorySheetTransport()
        model.limitsValue = EditingLimits(maxBatchCells: 4, maxBatchBytes: 120)
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.show(start: 1, count: 20)
        editor.clipboard = ClipboardContent(text: "1\t2\t3\n4\t5\t6\n")
        run(editor, "^V")
        #expect(model.inputs.isEmpty)
        #expect(editor.lastError?.message.contains("maxBatchCells of 4") == true)
        editor.clipboard = ClipboardContent(text: String(repeating: "x", count: 200) + "\n")
        run(editor, "^V")
        #expect(model.inputs.isEmpty)
        #expect(editor.lastError?.message.contains("maxBatchBytes of 120") == true)
        // Quotes and control characters count as their JSON escapes.
        #expect(CellEdit(ref: CellReference("A1")!, input: "\"\u{1}").encodedSize == 21 + 2 + 2 + 6)
        editor.clipboard = ClipboardContent(text: "1\t2\n")
        run(editor, "^G XFD1 enter ^V")
        #expect(editor.lastError?.message.contains("past the sheet's edge") == true)
        #expect(model.inputs.isEmpty)
        run(editor, "^G A1 enter ^V")
        #expect(model.inputs.count == 2)
        // A copy within the sheet is checked against the cell cap too.
        model.limitsValue = EditingLimits(maxBatchCells: 4, maxBatchBytes: 1 << 20)
        let second = SheetEditor(sheet: "s", transport: model)
        second.show(start: 1, count: 20)
        run(second, "S-right S-right S-down ^C ^G E5 enter ^V")
        #expect(second.lastError?.message.contains("6 cells is over the server's maxBatchCells of 4") == true)
        #expect(model.inputs.count == 2)
    }
}

@Suite struct InsertFunctionTests {
    /// Numbers in column B rows 1-3 and row 6 columns A-C, a header in B0's place (text in D1).
    static func model() -> MemorySheetTransport {
        let model = MemorySheetTransport()
        for (ref, input) in [("B1", "Qty"), ("B2", "1"), ("B3", "2"), ("B4", "3"), ("A6", "10"), ("B6", "20"), ("C6", "x"), ("E6", "5")] {
            model.inputs[CellReference(ref)!] = input
        }
        return model
    }

    /// Selection (address), key, then the inputs written (or the draft opened).
    @Test(arguments: [
        ("B5", "A=", ["B5": "=SUM(B2:B4)"], nil as String?),
        ("C6", "A=", ["C6": "=SUM(A6:B6)"], nil),
        ("F6", "A=", ["F6": "=SUM(E6)"], nil),
        ("G9", "A=", [:], "=SUM("),
        ("B2:B4", "A=", ["B5": "=SUM(B2:B4)"], nil),
        ("A2:B4", "A=", ["A5": "=SUM(A2:A4)", "B5": "=SUM(B2:B4)"], nil),
        ("A6:B6", "A=", ["C6": "=SUM(A6:B6)"], nil),
        ("B5", "F3 enter", ["B5": "=SUM(B2:B4)"], nil),
        ("B5", "F3 down enter", ["B5": "=AVERAGE(B2:B4)"], nil),
        ("B5", "F3 down down enter", ["B5": "=COUNT(B2:B4)"], nil),
        ("B5", "F3 MA enter", ["B5": "=MAX(B2:B4)"], nil),
        ("B5", "F3 MI enter", ["B5": "=MIN(B2:B4)"], nil),
        ("B5", "F3 esc", [:], nil),
        ("A1048576", "A=", [:], "=SUM("),
    ])
    func inserts(_ address: String, _ script: String, _ written: [String: String], _ draft: String?) {
        let model = Self.model()
        let before = model.inputs
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.show(start: 1, count: 20)
        editor.navigate(to: CellRange(address)!)
        run(editor, script)
        var added: [String: String] = [:]
        for (ref, input) in model.inputs where before[ref] != input { added[ref.description] = input }
        #expect(added == written, "\(address) \(script)")
        #expect(editor.draft?.text == draft)
        #expect(editor.focus == .grid)
    }

    @Test func totalAppears() {
        let model = Self.model()
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.show(start: 1, count: 20)
        editor.navigate(to: CellRange("B5")!)
        run(editor, "A=")
        #expect(editor.cells[CellReference("B5")!]?.display == "6")
        // A range ending on the grid's last row has no room below.
        editor.navigate(to: CellRange("A1048575:A1048576")!)
        run(editor, "A=")
        #expect(editor.lastError?.message.contains("edge") == true)
    }

    /// The run of numbers above the cell goes on past the top of the window shown (the grid has
    /// scrolled): the rows above are fetched and the argument is the whole run; a failed fetch
    /// writes nothing and says so.
    @Test func argumentRunsPastTheWindow() {
        let model = MemorySheetTransport()
        for row in 2...640 { model.inputs[CellReference(row: row, column: 1)] = "\(row)" }
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.show(start: 620, count: 30)
        editor.navigate(to: CellRange("A641")!)
        run(editor, "A=")
        #expect(model.inputs[CellReference("A641")!] == "=SUM(A2:A640)")
        #expect(editor.cells[CellReference("A641")!]?.display == String((2...640).reduce(0, +)))

        model.inputs[CellReference("B599")!] = "1"
        model.inputs[CellReference("B600")!] = "2"
        editor.show(start: 601, count: 30)
        editor.navigate(to: CellRange("B601")!)
        model.failRows = TransportError(status: 503, code: nil, message: "busy", retryable: true)
        run(editor, "A=")
        #expect(model.inputs[CellReference("B601")!] == nil)
        #expect(editor.lastError?.retryable == true)
        #expect(editor.lastError?.message.contains("SUM") == true)
    }
}
