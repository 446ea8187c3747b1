import Testing
import SheetPortCore
@testable import SheetPortEditing

/// The format menu (Alt-F, issue 38): over the grid, moved with the arrows, closed with Escape.
@Suite struct FormatMenuTests {
    func editor(_ model: MemorySheetTransport) -> SheetEditor {
        let editor = shownEditor(model)
        return editor
    }

    @Test func movesWithEveryArrowAndClosesWithEscape() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        run(editor, "A-f")
        #expect(editor.focus == .formatMenu(0))
        run(editor, "right right down left")
        #expect(editor.focus == .formatMenu(2))
        run(editor, "up up up")
        #expect(editor.focus == .formatMenu(FormatMenuEntry.allCases.count - 1))
        run(editor, "esc")
        #expect(editor.focus == .grid)
        #expect(model.version == 0)
    }

    @Test func alignsAndClearsTheSelection() {
        let model = MemorySheetTransport()
        model.inputs = [CellReference("A1")!: "7"]
        let editor = shownEditor(model)
        run(editor, "S-right A-f right enter")
        #expect(model.formatLog.last?.range == CellRange("A1:B1"))
        #expect(editor.cells[CellReference("A1")!]?.alignment == .center)
        #expect(editor.cells[CellReference("A1")!]?.effectiveAlignment == .center)
        #expect(editor.focus == .grid)
        // Clear formatting is the last entry: Up from the first wraps to it.
        run(editor, "A-f up enter")
        #expect(model.formatLog.last?.change == .clear)
        #expect(editor.cells[CellReference("A1")!]?.alignment == nil)
        #expect(editor.cells[CellReference("A1")!]?.effectiveAlignment == .right)
    }

    func open(_ editor: SheetEditor, _ entry: FormatMenuEntry) {
        run(editor, "A-f")
        for _ in 0..<FormatMenuEntry.allCases.firstIndex(of: entry)! { run(editor, "down") }
        run(editor, "enter")
    }

    @Test func numberFormatPreviewsTheActiveCell() {
        let model = MemorySheetTransport()
        model.inputs = [CellReference("A1")!: "0.6896551"]
        let editor = shownEditor(model)
        open(editor, .numberFormat)
        #expect(editor.focus == .formatField(.numberFormat, "General"))
        for _ in 0..<7 { run(editor, "bs") }
        run(editor, "0.00%")
        #expect(editor.formatPreview == "68.97%")
        run(editor, "enter")
        #expect(model.formatLog.last?.change == .set([.numberFormat("0.00%")]))
        #expect(editor.cells[CellReference("A1")!]?.numberFormat == "0.00%")
        #expect(editor.focus == .grid)
    }

    @Test(arguments: [
        (FormatMenuEntry.fill, "ffee00", FormatMember.fill("#FFEE00")),
        (.color, "#112233", .color("#112233")),
        (.fill, "", .fill(nil)),
    ])
    func coloursAreChecked(_ entry: FormatMenuEntry, _ typed: String, _ expected: FormatMember) {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        open(editor, entry)
        if !typed.isEmpty { editor.handle(.text(typed)) }
        run(editor, "enter")
        #expect(model.formatLog.last?.change == .set([expected]))
    }

    @Test(arguments: [
        (FormatMenuEntry.fill, "\u{1B}[2Jred"),
        (.color, "#12345"),
        (.columnWidth, "300"),
        (.columnWidth, "-1"),
        (.rowHeight, "nan"),
        (.rowHeight, "1e400"),
    ])
    func hostileValuesAreRefusedBeforeSending(_ entry: FormatMenuEntry, _ typed: String) {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        open(editor, entry)
        guard case .formatField(let field, let current) = editor.focus else { Issue.record("no field"); return }
        for _ in current { run(editor, "bs") }
        editor.handle(.text(typed))
        run(editor, "enter")
        #expect(model.version == 0)
        #expect(editor.focus == .formatField(field, typed.filter { !$0.isControl }))
        #expect(editor.lastError?.message.contains("\u{1B}") == false)
        #expect(editor.lastError != nil)
        run(editor, "esc")
        #expect(editor.focus == .grid)
    }

    @Test func columnWidthAndRowHeightAreSetAndReadBack() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        #expect(editor.sizes.width(ofColumn: 2) == CellSizes.defaultColumnWidth)
        run(editor, "right S-right")
        open(editor, .columnWidth)
        #expect(editor.focus == .formatField(.columnWidth, "8.43"))
        for _ in 0..<4 { run(editor, "bs") }
        run(editor, "20 enter")
        #expect(model.columnWidths == [2: 20, 3: 20])
        #expect(editor.sizes.width(ofColumn: 3) == 20)
        open(editor, .rowHeight)
        for _ in 0..<2 { run(editor, "bs") }
        run(editor, "45 enter")
        model.inputs[CellReference("A1")!] = "x"
        #expect(model.rowHeights == [1: 45])
        editor.show(start: 2, count: 5)
        editor.show(start: 1, count: 5)
        #expect(editor.rowHeight(1) == 45)
        #expect(editor.rowHeight(2) == CellSizes.defaultRowHeight)
    }

    @Test(arguments: [(8.43, 8), (0, 1), (255, 255), (1e9, 255), (Double.nan, 1)])
    func widthsToTerminalColumns(_ width: Double, _ columns: Int) {
        #expect(CellSizes.terminalColumns(forWidth: width) == columns)
    }

    @Test(arguments: [(15.0, 1), (30, 2), (0, 1), (409, 27), (Double.infinity, 1)])
    func heightsToTerminalLines(_ points: Double, _ lines: Int) {
        #expect(CellSizes.terminalLines(forHeight: points) == lines)
    }

    @Test func aViewerCannotOpenIt() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        editor.role = .viewer
        run(editor, "A-f")
        #expect(editor.focus == .grid)
        #expect(editor.lastError?.message.hasPrefix("read-only") == true)
    }

    @Test func theFunctionMenuMovesWithLeftAndRight() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        run(editor, "F3 right right left")
        #expect(editor.focus == .functionMenu(1))
        run(editor, "left left")
        #expect(editor.focus == .functionMenu(GridMenuEntry.allCases.count - 1))
    }
}
