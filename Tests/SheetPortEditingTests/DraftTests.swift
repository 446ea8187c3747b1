import Testing
import SheetPortCore
@testable import SheetPortEditing

@Suite struct DraftTests {
    func editor(_ model: MemorySheetTransport = MemorySheetTransport()) -> SheetEditor {
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.show(start: 1, count: 20)
        return editor
    }

    /// From A1: keys, then the active cell, the formula bar, and the model's inputs.
    @Test(arguments: [
        ("12 enter", "A2", "A2 | ", ["A1": "12"]),
        ("12 tab", "B1", "B1 | ", ["A1": "12"]),
        ("right 7 stab", "A1", "A1 | ", ["B1": "7"]),
        ("down 5 aenter", "A1", "A1 | ", ["A2": "5"]),
        ("12", "A1", "A1 | 12", [:]),
        ("12 esc", "A1", "A1 | ", [:]),
        ("12 bs 3 enter", "A2", "A2 | ", ["A1": "13"]),
        ("=SUM(B1:B3) enter up", "A1", "A1 | =SUM(B1:B3)", ["A1": "=SUM(B1:B3)"]),
        ("1 down 2 right", "B2", "B2 | ", ["A1": "1", "A2": "2"]),
        ("1 enter up f2 0 enter", "A2", "A2 | ", ["A1": "10"]),
        ("1 enter up bs enter", "A2", "A2 | ", [:]),
        ("'0123 enter up", "A1", "A1 | '0123", ["A1": "'0123"]),
        ("S-down S-right 1 enter 2 enter 3 enter", "B2", "B2 | ", ["A1": "1", "A2": "2", "B1": "3"]),
        ("\u{1B}[31mx enter", "A2", "A2 | ", ["A1": "[31mx"]),
        // Typed across a row with Tab, Enter goes to the next row where the run started (Excel).
        ("right 1 tab 2 tab 3 enter", "B2", "B2 | ", ["B1": "1", "C1": "2", "D1": "3"]),
        ("right 1 tab 2 stab 3 tab tab enter", "B2", "B2 | ", ["B1": "3", "C1": "2"]),
        // An arrow ends the run: Enter goes down from where it is.
        ("1 tab 2 tab right down up 3 enter", "D2", "D2 | ", ["A1": "1", "B1": "2", "D1": "3"]),
        ("1 tab 2 enter 3 enter", "A3", "A3 | ", ["A1": "1", "B1": "2", "A2": "3"]),
    ])
    func typing(_ script: String, _ active: String, _ bar: String, _ expected: [String: String]) {
        let model = MemorySheetTransport()
        let editor = editor(model)
        run(editor, script)
        #expect(editor.selection.active.description == active, "\(script)")
        #expect(editor.formulaBar == bar, "\(script)")
        #expect(Dictionary(uniqueKeysWithValues: model.inputs.map { ($0.key.description, $0.value) }) == expected, "\(script)")
        #expect(editor.version == model.version)
    }

    @Test func draftSurvivesASnapshot() {
        let model = MemorySheetTransport()
        let editor = editor(model)
        run(editor, "42")
        model.otherClientWrites("A1", "7")
        model.otherClientWrites("B1", "8")
        for event in model.events { editor.receive(event) }
        editor.refreshIfNeeded()
        #expect(editor.version == 2)
        #expect(editor.cells[CellReference("B1")!]?.input == "8")
        #expect(editor.formulaBar == "A1 | 42")
        run(editor, "enter")
        #expect(model.inputs[CellReference("A1")!] == "42")
        #expect(editor.version == 3)
    }

    @Test func failedSaveKeepsTheDraft() {
        let model = MemorySheetTransport()
        let editor = editor(model)
        model.failNext = TransportError(status: 0, code: nil, message: "connection dropped", retryable: true)
        run(editor, "99 enter")
        #expect(editor.draft == Draft(ref: CellReference("A1")!, text: "99"))
        #expect(editor.selection.active.description == "A1")
        #expect(editor.lastError?.retryable == true)
        #expect(editor.lastError?.message.contains("A1") == true)
        #expect(model.inputs.isEmpty)
        run(editor, "enter")
        #expect(model.inputs[CellReference("A1")!] == "99")
        #expect(editor.lastError == nil)
        #expect(editor.selection.active.description == "A2")
        // A refusal (bad formula) keeps the draft too, and says it is not retryable.
        model.failNext = TransportError(status: 400, code: .badFormula, message: "A2: bad formula at 3", retryable: false)
        run(editor, "=1+ enter")
        #expect(editor.draft?.text == "=1+")
        #expect(editor.lastError?.retryable == false)
        #expect(editor.lastError?.message.contains("bad-formula") == true)
    }

    /// Closing or going elsewhere with a draft asks; the answers and what they leave.
    @Test(arguments: [
        ("5 ^Q", false, "5", nil as String?),
        ("5 ^Q ans:c", false, "5", nil),
        ("5 ^Q esc", false, "5", nil),
        ("5 ^Q ans:d", true, nil, nil),
        ("5 ^Q ans:s", true, nil, "5"),
        ("5 ^Q s", true, nil, "5"),
        ("^Q", true, nil, nil),
        ("5 ^G C3 enter", false, "5", nil),
        ("5 ^G C3 enter d", false, nil, nil),
        ("5 ^G C3 enter s", false, nil, "5"),
    ])
    func unresolvedDraftAsks(_ script: String, _ closed: Bool, _ draft: String?, _ saved: String?) {
        let model = MemorySheetTransport()
        let editor = editor(model)
        run(editor, script)
        #expect(editor.isClosed == closed, "\(script)")
        #expect(editor.draft?.text == draft, "\(script)")
        #expect(model.inputs[CellReference("A1")!] == saved, "\(script)")
        if script.hasSuffix("enter") { #expect(editor.pendingNavigation == .goTo(CellRange("C3")!)) }
        if script.hasSuffix("enter d") || script.hasSuffix("enter s") { #expect(editor.selection.active.description == "C3") }
    }

    @Test func failedSaveOnCloseStaysOpen() {
        let model = MemorySheetTransport()
        let editor = editor(model)
        model.failNext = TransportError(status: 503, code: nil, message: "busy", retryable: true)
        run(editor, "5 ^Q ans:s")
        #expect(!editor.isClosed)
        #expect(editor.draft?.text == "5")
        #expect(editor.lastError?.retryable == true)
    }
}

/// A viewer's grid (issue 38): no draft opens, nothing is sent, and it says so at the first key.
@Suite struct ReadOnlyEditorTests {
    @Test(arguments: ["paid enter", "bs enter", "f2 9 enter", "del", "^A del", "A=", "F3 enter", "^V", "^B", "A-i", "^X", "^D", "^R"])
    func nothingChanges(_ script: String) {
        let model = MemorySheetTransport()
        model.otherClientWrites("A1", "7")
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.role = .viewer
        editor.show(start: 1, count: 20)
        let version = model.version
        run(editor, script)
        #expect(editor.draft == nil, "\(script)")
        #expect(model.version == version, "\(script)")
        #expect(editor.lastError?.message.hasPrefix("read-only") == true, "\(script)")
        #expect(editor.focus == .grid)
    }

    @Test func movingAndCopyingStillWork() {
        let model = MemorySheetTransport()
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.role = .viewer
        run(editor, "down right S-down ^C")
        #expect(editor.selection.range.description == "B2:B3")
        #expect(editor.clipboard != nil)
        #expect(editor.lastError == nil)
    }
}

/// Ctrl-Z in the grid (issue 38): the person's own last write is taken back, one per key.
@Suite struct UndoKeyTests {
    @Test func undoesTheLastWritesInTurn() {
        let model = MemorySheetTransport()
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.show(start: 1, count: 20)
        run(editor, "1 enter 2 enter up up 3 enter")
        #expect(model.inputs[CellReference("A1")!] == "3")
        run(editor, "^Z")
        #expect(model.inputs[CellReference("A1")!] == "1")
        #expect(editor.version == model.version)
        run(editor, "^Z ^Z")
        #expect(model.inputs.isEmpty)
        // Nothing left: the server's 409 is shown, nothing else changes.
        run(editor, "^Z")
        #expect(editor.lastError?.message.contains("nothing to undo") == true, "\(String(describing: editor.lastError))")
        #expect(model.inputs.isEmpty)
    }

    @Test func aDraftIsNotUndone() {
        let model = MemorySheetTransport()
        let editor = SheetEditor(sheet: "s", transport: model)
        run(editor, "1 enter 5 ^Z")
        #expect(editor.draft?.text == "5")
        #expect(model.inputs[CellReference("A1")!] == "1")
    }
}
