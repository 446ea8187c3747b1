import Foundation
import Testing
@testable import SheetPort

/// The writer: what it writes reads back the same, its limits are errors, and nothing is
/// left behind when writing fails.
@Suite struct WriterTests {
    @Test func writesAndReadsBackEveryKindOfCell() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("book.xlsx").path
        let writer = try WorkbookWriter(path: path)
        let bold = try writer.style(CellStyle(isBold: true, horizontalAlignment: "center", fillColor: "#FFEE00", textColor: "#112233"))
        let percent = try writer.style(CellStyle(isItalic: true, numberFormat: "0.0%"))
        let sheet = try writer.addWorksheet(named: "Data & <more>")
        try sheet.setColumnWidth(20, for: 1...2)
        try sheet.append(Row(index: 1, height: 30, cells: [
            Cell(column: 1, value: .string("naïve & <tag> _x0041_ \u{1}"), styleIndex: bold),
            Cell(column: 2, value: .number(0.1)),
            Cell(column: 3, value: .boolean(true)),
            Cell(column: 4, value: .error("#DIV/0!")),
            Cell(column: 5, value: .date(serial: 45322.5729166667)),
            Cell(column: 6, value: .number(6), formula: "B1*2+\"x\"", styleIndex: percent),
            Cell(column: 7, value: .empty, formula: "NOW()"),
            Cell(column: 8, value: .string("  spaced\nline  ")),
            Cell(column: 9, value: .duration(days: 1.5)),
        ]))
        try sheet.append(Row(index: 3, isHidden: true, cells: [Cell(column: 16384, value: .number(-1e-300))]))
        try sheet.addComment("Check this", author: "Ann", row: 1, column: 2)
        let second = try writer.addWorksheet(named: "Second")
        try second.append(Row(index: 1, cells: [Cell(column: 1, value: .string("naïve & <tag> _x0041_ \u{1}"))]))
        try writer.close()

        let workbook = try Workbook(path: path)
        #expect(workbook.sheets.map(\.name) == ["Data & <more>", "Second"])
        let reader = try workbook.rows(of: workbook.sheets[0])
        let first = try #require(try reader.nextRow())
        #expect(first.height == 30)
        #expect(first.cells.map(\.value) == [
            .string("naïve & <tag> _x0041_ \u{1}"), .number(0.1), .boolean(true), .error("#DIV/0!"),
            .date(serial: 45322.5729166667), .number(6), .empty, .string("  spaced\nline  "), .duration(days: 1.5),
        ])
        #expect(first.cells[5].formula == "B1*2+\"x\"")
        #expect(first.cells[6].formula == "NOW()")
        let styles = try workbook.styles()
        let style = styles.format(first.cells[0].styleIndex).keptStyle(relativeTo: styles.format(0))
        #expect(style == CellStyle(isBold: true, horizontalAlignment: "center", fillColor: "#FFEE00", textColor: "#112233"))
        #expect(styles.format(first.cells[5].styleIndex).numberFormat == "0.0%")
        let third = try #require(try reader.nextRow())
        #expect(third.index == 3 && third.isHidden && third.cells == [Cell(column: 16384, value: .number(-1e-300))])
        #expect(try reader.nextRow() == nil)
        #expect(try workbook.comments(of: workbook.sheets[0]) == [Comment(reference: "B1", author: "Ann", text: "Check this")])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["book.xlsx"])
    }
}
