import Testing
import SheetPortCore
@testable import SheetPortEditing

/// The table view panel (Alt-T, issue 38): sorted and filtered by the server, source row numbers
/// shown, edits written to the source rows.
@Suite struct TableViewTests {
    func model() -> MemorySheetTransport {
        let model = MemorySheetTransport()
        for (ref, input) in [("A1", "fig"), ("B1", "3"), ("A2", "apple"), ("B2", "10"), ("A3", "kiwi"), ("B3", "7")] { model.inputs[CellReference(ref)!] = input }
        return model
    }

    func rowLines(_ editor: SheetEditor) -> [String] { editor.panel?.lines.map(\.text).filter { $0.hasPrefix("row ") && !$0.hasPrefix("row  ") } ?? [] }

    @Test func sortsAndEditsThroughTheSourceRow() {
        let model = model()
        let editor = shownEditor(model)
        run(editor, "right A-t")
        #expect(editor.focus == .panel && editor.panel?.kind == .table)
        #expect(editor.panel?.title == "Table view: 3 rows, Enter edits column B (Left/Right)")
        #expect(editor.panel?.chosenAction == .sortView)
        #expect(rowLines(editor).map { $0.prefix(6) } == ["row 1:", "row 2:", "row 3:"])
        run(editor, "enter B:desc enter")
        #expect(model.viewLog.last == TableViewQuery(sort: "B:desc"))
        #expect(rowLines(editor) == ["row 2: apple | [10] |  |  |  |  |  | ", "row 3: kiwi | [7] |  |  |  |  |  | ", "row 1: fig | [3] |  |  |  |  |  | "])
        // The first row of the view is storage row 2: Enter asks for B2 with its input.
        run(editor, "down down enter")
        #expect(editor.panel?.input?.prompt == "B2" && editor.panel?.input?.text == "10")
        run(editor, "bs bs 1 enter")
        #expect(model.inputs[CellReference("B2")!] == "1")
        #expect(model.inputs[CellReference("A2")!] == "apple")
        #expect(editor.cells[CellReference("B2")!]?.input == "1")
        #expect(editor.panel?.notice == "B2 saved")
        #expect(rowLines(editor).map { $0.prefix(6) } == ["row 3:", "row 1:", "row 2:"])
        // Ctrl-Z after Escape takes the edit back like any other.
        run(editor, "esc ^Z")
        #expect(model.inputs[CellReference("B2")!] == "10")
    }

    @Test func filtersAndRefusesABadView() {
        let model = model()
        let editor = shownEditor(model)
        run(editor, "A-t down enter B:>5 enter")
        #expect(model.viewLog.last == TableViewQuery(filters: ["B:>5"]))
        #expect(editor.panel?.title.hasPrefix("Table view: 2 rows") == true)
        #expect(editor.panel?.lines[1].text == "Filter: B:>5…")
        // Two filters, ; between, spaces around them dropped.
        run(editor, "enter ; space A:contains:i space enter")
        #expect(model.viewLog.last == TableViewQuery(filters: ["B:>5", "A:contains:i"]))
        #expect(rowLines(editor).map { $0.prefix(6) } == ["row 3:"])
        // A sort the server refuses: the error shown, the field and the view kept.
        run(editor, "up enter nonsense enter")
        #expect(editor.lastError?.message.hasPrefix("cannot read the table view: bad view") == true)
        #expect(editor.panel?.input?.text == "nonsense")
        #expect(editor.panel?.query == TableViewQuery(filters: ["B:>5", "A:contains:i"]))
        run(editor, "esc esc")
        #expect(editor.focus == .grid)
        #expect(model.version == 0)
    }

    @Test func leftAndRightMoveTheEditColumn() {
        let editor = shownEditor(model())
        run(editor, "A-t right right left")
        #expect(editor.panel?.column == 2)
        #expect(editor.panel?.title.hasSuffix("edits column B (Left/Right)") == true)
        run(editor, "left left")
        #expect(editor.panel?.column == 1)
    }

    @Test func aViewerSortsButDoesNotEdit() {
        let model = model()
        let editor = shownEditor(model)
        editor.role = .viewer
        run(editor, "A-t enter A:asc enter")
        #expect(rowLines(editor).map { $0.prefix(6) } == ["row 2:", "row 1:", "row 3:"])
        #expect(editor.panel?.title == "Table view: 3 rows (read-only)")
        #expect(editor.panel?.lines.filter { $0.action != nil }.count == 2)
        run(editor, "down down enter")
        #expect(editor.panel?.input?.action != .editViewCell(row: 2))
        #expect(model.version == 0)
    }

    @Test func hostileValuesInTheViewAreShownVisibleAndCut() {
        let model = MemorySheetTransport()
        model.inputs[CellReference("A1")!] = "\u{1B}[2J" + String(repeating: "w", count: 500)
        let editor = shownEditor(model)
        run(editor, "A-t")
        let rows = editor.panel!.layout(width: 20, height: 4)
        #expect(rows.count <= 4 && rows.allSatisfy { $0.text.count <= 20 && !$0.text.containsControlCharacters })
        let line = rowLines(editor).first ?? ""
        #expect(line.count < 200 && line.hasPrefix("row 1: [\u{1B}[2J"))
        #expect(editor.panel!.layout(width: 200, height: 20).contains { $0.text.contains("\\u{1B}[2J") })
    }
}
