import Testing
import SheetPortCore
@testable import SheetPortEditing

/// Ctrl-B and Alt-I (issue 38): a toggle on the selection, decided by the active cell.
@Suite struct FormatKeyTests {
    @Test func boldTogglesOnTheSelection() {
        let model = MemorySheetTransport()
        model.inputs = [CellReference("A1")!: "x", CellReference("A2")!: "y"]
        let editor = shownEditor(model)
        run(editor, "S-down ^B")
        #expect(model.formatLog.last?.range == CellRange("A1:A2"))
        #expect(model.formatLog.last?.change == .set([.bold(true)]))
        #expect(editor.cells[CellReference("A1")!]?.bold == true)
        #expect(editor.cells[CellReference("A2")!]?.bold == true)
        #expect(editor.cells[CellReference("A2")!]?.input == "y")
        run(editor, "^B")
        #expect(model.formatLog.last?.change == .set([.bold(false)]))
        #expect(editor.cells[CellReference("A1")!]?.bold == false)
        #expect(model.version == editor.version)
    }

    @Test func italicTogglesAndFormatsEmptyCellsToo() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        run(editor, "right A-i")
        // An empty cell with a format stays shown (it has a style).
        #expect(editor.cells[CellReference("B1")!]?.italic == true)
        run(editor, "A-i")
        #expect(model.formatLog.map(\.change) == [.set([.italic(true)]), .set([.italic(false)])])
    }

    @Test func aDraftIsCommittedBeforeTheFormat() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        run(editor, "total ^B")
        #expect(editor.draft == nil)
        #expect(model.inputs[CellReference("A1")!] == "total")
        #expect(editor.cells[CellReference("A1")!]?.bold == true)
        #expect(editor.formulaBar == "A1 | total")
    }

    @Test func aRefusedFormatIsTheLastError() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        model.failNext = TransportError(status: 403, code: .forbidden, message: "\u{1B}[2Jnot yours", retryable: false)
        run(editor, "^B")
        #expect(editor.lastError?.message.contains("not yours") == true)
        #expect(editor.lastError?.retryable == false)
        #expect(editor.pendingWrites.isEmpty)
    }

    @Test(arguments: [
        (CellSnapshot(input: "1", display: "1", type: "number"), CellAlignment.right),
        (CellSnapshot(input: "x", display: "x", type: "string"), .left),
        (CellSnapshot(input: "TRUE", display: "TRUE", type: "boolean"), .center),
        (CellSnapshot(input: "=1/0", display: "#DIV/0!", type: "error"), .center),
        (CellSnapshot(input: "1", display: "1", type: "number", alignment: .left), .left),
        (CellSnapshot(input: "x", display: "x", type: "string", alignment: .center), .center),
    ])
    func alignmentFollowsExcel(_ cell: CellSnapshot, _ expected: CellAlignment) {
        #expect(cell.effectiveAlignment == expected)
    }
}

/// Ctrl-D, Ctrl-R: one server copy, formulas translated.
@Suite struct FillKeyTests {
    @Test func fillDownCopiesTheFirstRowOverTheSelection() {
        let model = MemorySheetTransport()
        model.inputs = [CellReference("A1")!: "2", CellReference("B1")!: "=A1*2"]
        let editor = shownEditor(model)
        run(editor, "right S-down S-down ^D")
        #expect(model.inputs[CellReference("B2")!] == "=A2*2")
        #expect(model.inputs[CellReference("B3")!] == "=A3*2")
        #expect(model.inputs[CellReference("B4")!] == nil)
        #expect(editor.selection.range.description == "B1:B3")
    }

    @Test func oneRowFillsFromTheRowAbove() {
        let model = MemorySheetTransport()
        model.inputs = [CellReference("B1")!: "=A1+1"]
        let editor = shownEditor(model)
        run(editor, "down right ^D")
        #expect(model.inputs[CellReference("B2")!] == "=A2+1")
        run(editor, "right ^R")
        #expect(model.inputs[CellReference("C2")!] == "=B2+1")
    }

    @Test func nothingToFillFromSaysSo() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        run(editor, "^D")
        #expect(editor.lastError?.message.contains("nothing above") == true)
        run(editor, "^R")
        #expect(editor.lastError?.message.contains("nothing to the left") == true)
        #expect(model.version == 0)
    }

    @Test func wholeGridFillIsRefusedBeforeSending() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        run(editor, "^A ^D")
        #expect(editor.lastError?.message.hasPrefix("fill refused") == true)
        #expect(model.version == 0)
    }

    @Test(arguments: [
        ("A1:C3", Direction.down, "A1:C1", "A2:C3"),
        ("B2:B2", .down, "B1:B1", "B2:B2"),
        ("A1:C3", .right, "A1:A3", "B1:C3"),
        ("B2:B4", .right, "A2:A4", "B2:B4"),
    ])
    func fillRanges(_ selection: String, _ direction: Direction, _ source: String, _ target: String) {
        let fill = CellRange(selection)!.fill(direction)
        #expect(fill?.source == CellRange(source))
        #expect(fill?.target == CellRange(target))
    }
}

/// Ctrl-X then Ctrl-V: a move (copy, then what the paste did not cover is cleared).
@Suite struct CutTests {
    @Test func cutMovesTheCellsAndSpendsTheClipboard() {
        let model = MemorySheetTransport()
        model.inputs = [CellReference("A1")!: "1", CellReference("A2")!: "=A1*2"]
        let editor = shownEditor(model)
        run(editor, "S-down ^X")
        #expect(editor.clipboard?.isCut == true)
        // Nothing moves until the paste.
        #expect(model.inputs.count == 2)
        run(editor, "^G C5 enter ^V")
        #expect(model.inputs[CellReference("C5")!] == "1")
        #expect(model.inputs[CellReference("C6")!] == "=C5*2")
        #expect(model.inputs[CellReference("A1")!] == nil)
        #expect(model.inputs[CellReference("A2")!] == nil)
        #expect(model.clearLog.map(\.what) == ["all"])
        #expect(editor.clipboard == nil)
        #expect(editor.selection.range.description == "C5:C6")
        #expect(editor.cells[CellReference("A1")!] == nil)
        run(editor, "^V")
        #expect(editor.lastError?.message == PasteError.empty.description)
    }

    @Test func anOverlappingMoveClearsOnlyWhatItLeft() {
        let model = MemorySheetTransport()
        model.inputs = [CellReference("A1")!: "a", CellReference("A2")!: "b", CellReference("A3")!: "c"]
        let editor = shownEditor(model)
        run(editor, "S-down S-down ^X down ^V")
        #expect(model.inputs[CellReference("A1")!] == nil)
        #expect(model.inputs[CellReference("A2")!] == "a")
        #expect(model.inputs[CellReference("A3")!] == "b")
        #expect(model.inputs[CellReference("A4")!] == "c")
        #expect(model.clearLog.map(\.range) == [CellRange("A1")!])
    }

    @Test(arguments: [
        ("A1:C3", "D4:E5", ["A1:C3"]),
        ("A1:C3", "B2:C3", ["A1:C1", "A2:A3"]),
        ("A1:C3", "A1:C3", []),
        ("B2:D4", "C3", ["B2:D2", "B4:D4", "B3", "D3"]),
    ])
    func subtraction(_ range: String, _ other: String, _ parts: [String]) {
        #expect(CellRange(range)!.subtracting(CellRange(other)!).map(\.description) == parts)
    }
}
