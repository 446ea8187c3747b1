import Testing
import SheetPortCore
@testable import SheetPortEditing

@Suite struct NameBoxTests {
    static let names = ["Totals": CellRange("D2:D9")!, "Far": CellRange("A1048570:B1048576")!]

    @Test(arguments: [
        ("A1", "A1"), ("c7", "C7"), ("$B$2", "B2"), ("B$2", "B2"), (" a1:c9 ", "A1:C9"), ("C9:A1", "A1:C9"),
        ("$A$1:$C$9", "A1:C9"), ("B:D", "B:D"), ("d:b", "B:D"), ("3:5", "3:5"), ("5:3", "3:5"), ("XFD1048576", "XFD1048576"),
        ("totals", "D2:D9"), ("TOTALS", "D2:D9"), ("A:A", "A:A"), ("1:1", "1:1"),
    ])
    func parses(_ input: String, _ expected: String) throws {
        let range = try NameBox.parse(input, names: Self.names)
        #expect(range.description(in: .excel) == expected)
    }

    @Test(arguments: ["", "   ", "XFE1", "A0", "A1048577", "0:3", "1:1048577", "B:XFE", "A1:", ":A1", "A1:B2:C3", "nosuchname",
                      "A1\u{1B}[2J", "=A1", "A-1", String(repeating: "A", count: 300), "1A", "$", "A1,B2"])
    func refuses(_ input: String) {
        #expect(throws: NameBox.Invalid.self) { try NameBox.parse(input, names: Self.names) }
    }

    @Test func clampsToASmallerGrid() throws {
        let grid = GridSize(rows: 100, columns: 10)
        #expect(try NameBox.parse("B:C", grid: grid).description(in: grid) == "B:C")
        #expect(try NameBox.parse("B:C", grid: grid) == CellRange("B1:C100"))
        #expect(try NameBox.parse("2:3", grid: grid) == CellRange("A2:J3"))
        #expect(try NameBox.parse("far", names: Self.names, grid: grid) == CellRange("A100:B100"))
        #expect(throws: NameBox.Invalid.self) { try NameBox.parse("K1", grid: grid) }
        #expect(throws: NameBox.Invalid.self) { try NameBox.parse("A101", grid: grid) }
        // Refused text is shown with its control characters visible.
        let error = #expect(throws: NameBox.Invalid.self) { try NameBox.parse("Z\u{1B}9") }
        #expect(error?.description.contains("\u{1B}") == false)
    }
}

@Suite struct SelectionTests {
    /// Key sequences from B2 and the selection they leave: active cell, then the range.
    @Test(arguments: [
        ("", "B2", "B2"),
        ("down down right", "C4", "C4"),
        ("up up up left left left", "A1", "A1"),
        ("S-down S-right", "B2", "B2:C3"),
        ("S-down S-right S-up S-up", "B2", "B1:C2"),
        ("S-down S-down down", "B3", "B3"),
        ("^A", "B2", "A1:XFD1048576"),
        // Enter inside a range goes down its column, then to the next column's top, then wraps.
        ("S-down S-right enter", "B3", "B2:C3"),
        ("S-down S-right enter enter", "C2", "B2:C3"),
        ("S-down S-right enter enter enter enter", "B2", "B2:C3"),
        // Tab goes along the row, then to the next row's start.
        ("S-down S-right tab", "C2", "B2:C3"),
        ("S-down S-right tab tab", "B3", "B2:C3"),
        ("S-down S-right stab", "C3", "B2:C3"),
        ("S-down S-right aenter", "C3", "B2:C3"),
        // Outside a range they move one cell.
        ("enter", "B3", "B3"), ("tab", "C2", "C2"), ("stab", "A2", "A2"), ("aenter", "B1", "B1"),
        ("stab stab stab", "A2", "A2"),
    ])
    func keysMoveTheSelection(_ script: String, _ active: String, _ range: String) {
        let editor = SheetEditor(sheet: "s", transport: MemorySheetTransport())
        editor.navigate(to: CellRange("B2")!)
        run(editor, script)
        #expect(editor.selection.active.description == active, "\(script)")
        #expect(editor.selection.range.description == range, "\(script)")
        #expect(editor.draft == nil)
    }

    @Test func staysOnTheGrid() {
        var selection = Selection(CellReference("XFD1048576")!)
        selection.move(.right); selection.move(.down)
        #expect(selection.active.description == "XFD1048576")
        selection.extend(.right)
        #expect(!selection.isRange)
        let clamped = Selection(CellReference(row: 0, column: 99_999))
        #expect(clamped.active.description == "XFD1")
    }

    @Test func addressFieldSelects() {
        let transport = MemorySheetTransport()
        transport.definedNames = ["Totals": CellRange("D2:D9")!]
        let editor = SheetEditor(sheet: "s", transport: transport)
        run(editor, "^G C7 enter")
        #expect(editor.selection.range.description == "C7")
        #expect(editor.focus == .grid)
        run(editor, "^G totals enter")
        #expect(editor.selection.range.description == "D2:D9")
        #expect(editor.selection.active.description == "D2")
        run(editor, "^G A1:B3 enter")
        #expect(editor.selection.range.description == "A1:B3")
        run(editor, "^G nope enter")
        #expect(editor.focus == .addressField("nope"))
        #expect(editor.lastError?.message.contains("nope") == true)
        run(editor, "esc")
        #expect(editor.focus == .grid)
        #expect(editor.selection.range.description == "A1:B3")
    }

    /// The names come from the server at the first Ctrl-G; a failed load leaves cells and
    /// ranges working, is shown as retryable, and the next Ctrl-G loads them.
    @Test func addressFieldLoadsTheSheetsNames() {
        let transport = MemorySheetTransport()
        transport.definedNames = ["Prices": CellRange("B2:B4")!, "Q1_Total": CellRange("E9")!]
        transport.failNames = TransportError(status: 0, code: nil, message: "connection reset", retryable: true)
        let editor = SheetEditor(sheet: "s", transport: transport)
        run(editor, "^G")
        #expect(!editor.namesLoaded)
        #expect(editor.lastError?.retryable == true)
        run(editor, "prices enter")
        #expect(editor.focus == .addressField("prices"))
        run(editor, "esc ^G c7 enter")
        #expect(editor.namesLoaded)
        #expect(editor.selection.range.description == "C7")
        run(editor, "^G prices enter")
        #expect(editor.selection.range.description == "B2:B4")
        run(editor, "^G q1_total enter")
        #expect(editor.selection.range.description == "E9")
        // Loaded once: names do not change after the import.
        transport.definedNames = [:]
        run(editor, "^G PRICES enter")
        #expect(editor.selection.range.description == "B2:B4")
    }
}
