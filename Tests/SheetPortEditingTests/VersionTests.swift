import Testing
import SheetPortCore
@testable import SheetPortEditing

@Suite struct VersionTests {
    func snapshot(_ version: Int, _ cells: [String: String]) -> RowsWindow {
        var rows: [Int: [Int: CellSnapshot]] = [:]
        for (ref, input) in cells {
            let reference = CellReference(ref)!
            rows[reference.row, default: [:]][reference.column] = CellSnapshot(input: input, display: input, type: "number")
        }
        return RowsWindow(version: version, start: 1, count: 50, rows: rows.map { WindowRow(row: $0.key, cells: $0.value) })
    }

    @Test func olderAnswersAreIgnoredAndSnapshotsReplaceEverything() {
        let editor = SheetEditor(sheet: "s", transport: MemorySheetTransport())
        #expect(editor.apply(snapshot(5, ["A1": "1", "B2": "2"])))
        #expect(!editor.apply(snapshot(4, ["A1": "old"])))
        #expect(editor.cells[CellReference("A1")!]?.input == "1")
        #expect(!editor.apply(WriteResult(version: 5, changed: [CellReference("A1")!: CellSnapshot(input: "x", display: "x", type: "string")])))
        #expect(editor.cells[CellReference("A1")!]?.input == "1")
        // The same version again replaces (a refetch), the deleted B2 and its format go.
        var styled = snapshot(6, ["A1": "1"])
        styled.rows[0].cells[1]?.fill = "#FFEE00"
        #expect(editor.apply(styled))
        #expect(editor.cells[CellReference("A1")!]?.fill == "#FFEE00")
        #expect(editor.apply(snapshot(7, ["A1": "1"])))
        #expect(editor.cells[CellReference("B2")!] == nil)
        #expect(editor.cells[CellReference("A1")!]?.fill == nil)
        #expect(editor.version == 7)
    }

    @Test func aGapRefetchesTheWindow() {
        let model = MemorySheetTransport()
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.show(start: 1, count: 30)
        #expect(model.windowRequests.count == 1)
        run(editor, "1 enter")
        #expect(model.windowRequests.count == 1)
        // Another client wrote between: our next answer is two versions on.
        model.otherClientWrites("C3", "33")
        run(editor, "2 enter")
        #expect(model.windowRequests.count == 2)
        #expect(editor.version == 3)
        #expect(editor.cells[CellReference("C3")!]?.input == "33")
        // A `more` answer refetches too, and so does an event inside the window.
        #expect(!editor.apply(WriteResult(version: 4, changed: [:], more: true)))
        #expect(editor.needsRefetch)
        editor.refreshIfNeeded()
        #expect(editor.version == 3)
        model.otherClientWrites("A5", "5")
        editor.receive(model.events.last!)
        editor.refreshIfNeeded()
        #expect(editor.cells[CellReference("A5")!]?.input == "5")
        #expect(editor.version == 4)
        // An event outside the window moves the version without a fetch.
        let fetches = model.windowRequests.count
        model.otherClientWrites("A500", "5")
        editor.receive(model.events.last!)
        editor.refreshIfNeeded()
        #expect(model.windowRequests.count == fetches)
        #expect(editor.version == 5)
        // Our own write's event, arriving after its answer, is ignored.
        run(editor, "9 enter")
        editor.receive(model.events.last!)
        #expect(!editor.needsRefetch)
    }

    @Test func anotherClientsSizesReachEmptyRowsAndColumns() throws {
        let model = MemorySheetTransport()
        model.inputs[CellReference("A1")!] = "1"
        let editor = shownEditor(model)
        #expect(editor.rowHeight(7) == CellSizes.defaultRowHeight)
        // Row 7 has no cell; a sizes event names no cell (its refs are rows and columns).
        _ = try model.setSizes(sheet: "s", rows: [7: 45], columns: [3: 30])
        editor.receive(SheetEvent(version: model.version, change: .sizes, refs: []))
        editor.refreshIfNeeded()
        #expect(editor.rowHeight(7) == 45)
        #expect(editor.sizes.width(ofColumn: 3) == 30)
        #expect(editor.version == model.version)
    }

    @Test func virtualizedWindows() {
        let model = MemorySheetTransport()
        model.inputs[CellReference("A900")!] = "far"
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.show(start: 1, count: 24)
        editor.show(start: 1, count: 24)
        #expect(model.windowRequests.map(\.count) == [24])
        #expect(editor.cells.isEmpty)
        editor.show(start: 890, count: 24)
        #expect(model.windowRequests.last! == (890, 24))
        #expect(editor.cells[CellReference("A900")!]?.input == "far")
    }

    @Test func writesAreSerializedAndExportWaitsForThem() throws {
        let model = MemorySheetTransport()
        let editor = SheetEditor(sheet: "s", transport: model)
        editor.show(start: 1, count: 10)
        model.failNext = TransportError(status: 0, code: nil, message: "dropped", retryable: true)
        run(editor, "1 enter")
        #expect(editor.draft != nil)
        run(editor, "enter 2 enter 3 enter")
        #expect(model.writeLog == [1, 2, 3])
        let bytes = try editor.export()
        #expect(String(decoding: bytes, as: UTF8.self) == "version 3 >= 3")
        #expect(editor.pendingWrites.isEmpty)
    }
}
