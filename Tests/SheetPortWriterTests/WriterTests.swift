import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
import SheetPortBench
import SheetPortTestSupport

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

extension WriterTests {
    /// `_xHHHH_` is an escape in cell text only: a sheet name or format code keeps it literally.
    @Test func keepsEscapeLikeTextInNamesAndFormats() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("book.xlsx").path
        let writer = try WorkbookWriter(path: path)
        let style = try writer.style(CellStyle(numberFormat: "0.0\\_x0041_"))
        try writer.addWorksheet(named: "has_x000D_name").append(Row(index: 1, cells: [Cell(column: 1, value: .number(1), styleIndex: style)]))
        try writer.close()
        let workbook = try Workbook(path: path)
        #expect(workbook.sheets.map(\.name) == ["has_x000D_name"])
        let cell = try #require(try workbook.rows(of: workbook.sheets[0]).nextRow()?.cells.first)
        #expect(try workbook.styles().format(cell.styleIndex).numberFormat == "0.0\\_x0041_")
    }
}

/// Failures leave nothing behind, and Excel's limits are errors, never truncation.
@Suite struct WriterLimitTests {
    /// Runs `body` on a new writer in an empty folder; returns the folder's content afterwards.
    private func leftovers(_ body: (WorkbookWriter) throws -> Void) throws -> [String] {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let writer = try WorkbookWriter(path: folder.appendingPathComponent("out.xlsx").path)
            try body(writer)
        }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
    }

    @Test(arguments: ["", "History", "history", "a[b", "x:y", "q?", "'quoted'", "thirty-two characters long name!", "tab\tname"])
    func refusesSheetNamesExcelRefuses(_ name: String) throws {
        _ = try leftovers { writer in
            #expect(throws: WriterError.self) { _ = try writer.addWorksheet(named: name) }
        }
    }

    @Test func refusesDuplicateSheetNamesIgnoringCase() throws {
        _ = try leftovers { writer in
            _ = try writer.addWorksheet(named: "Data")
            #expect(throws: WriterError.duplicateSheetName("DATA")) { _ = try writer.addWorksheet(named: "DATA") }
        }
    }

    @Test func refusesTextOverExcelsLimitWithoutWritingTheRow() throws {
        let files = try leftovers { writer in
            let sheet = try writer.addWorksheet(named: "S")
            let long = String(repeating: "é", count: 32_768)
            #expect(throws: WriterError.textTooLong(sheet: "S", reference: "B1", length: 32_768)) {
                try sheet.append(Row(index: 1, cells: [Cell(column: 1, value: .number(1)), Cell(column: 2, value: .string(long))]))
            }
            // The failed row wrote nothing: the same row can still be written.
            try sheet.append(Row(index: 1, cells: [Cell(column: 2, value: .string(String(long.dropLast())))]))
            writer.discard()
        }
        #expect(files.isEmpty)
    }

    @Test func refusesCellsOutsideTheGridAndOutOfOrder() throws {
        let files = try leftovers { writer in
            let sheet = try writer.addWorksheet(named: "S")
            #expect(throws: WriterError.outsideGrid(sheet: "S", row: 1_048_577, column: 1)) {
                try sheet.append(Row(index: 1_048_577, cells: [Cell(column: 1, value: .number(1))]))
            }
            #expect(throws: WriterError.outsideGrid(sheet: "S", row: 1, column: 16_385)) {
                try sheet.append(Row(index: 1, cells: [Cell(column: 16_385, value: .number(1))]))
            }
            #expect(throws: WriterError.outsideGrid(sheet: "S", row: 1, column: 0)) {
                try sheet.append(Row(index: 1, cells: [Cell(column: 0, value: .number(1))]))
            }
            #expect(throws: WriterError.outOfOrder(sheet: "S", reference: "B1", after: "B1")) {
                try sheet.append(Row(index: 1, cells: [Cell(column: 2, value: .number(1)), Cell(column: 2, value: .number(1))]))
            }
            try sheet.append(Row(index: 5, cells: [Cell(column: 1, value: .number(1))]))
            #expect(throws: WriterError.outOfOrder(sheet: "S", reference: "row 5", after: "row 5")) {
                try sheet.append(Row(index: 5))
            }
            #expect(throws: WriterError.invalidNumber(sheet: "S", reference: "A6")) {
                try sheet.append(Row(index: 6, cells: [Cell(column: 1, value: .number(.nan))]))
            }
            #expect(throws: WriterError.unknownStyle(7)) {
                try sheet.append(Row(index: 6, cells: [Cell(column: 1, value: .number(1), styleIndex: 7)]))
            }
            #expect(throws: WriterError.self) { _ = try writer.style(CellStyle(fillColor: "red")) }
            // Dropping the writer without closing it publishes nothing.
        }
        #expect(files.isEmpty)
    }

    @Test func sameCellsGiveTheSameBytes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [Data] = []
        for name in ["a.xlsx", "b.xlsx"] {
            let path = folder.appendingPathComponent(name).path
            let writer = try WorkbookWriter(path: path)
            try SyntheticSheet(rows: 500).write(into: writer).addComment("note", row: 2, column: 2)
            try writer.close()
            files.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(files[0] == files[1])
    }

    /// A streamed entry claims a size, so libzip writes no ZIP64 extra field for it, and
    /// the local headers ask for version 2.0, which every zip reader handles.
    @Test func writesNoZip64WhenSizesDoNotNeedIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("book.xlsx").path
        let writer = try WorkbookWriter(path: path)
        try SyntheticSheet(rows: 2_000).write(into: writer)
        try writer.close()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 0
        var entries = 0
        while offset + 30 <= bytes.count, bytes[offset..<(offset + 4)] == [0x50, 0x4B, 0x03, 0x04] {
            func field(_ at: Int, _ size: Int) -> Int { (0..<size).reduce(0) { $0 | Int(bytes[offset + at + $1]) << (8 * $1) } }
            #expect(field(4, 2) == 20, "version needed")
            #expect(field(28, 2) == 0, "extra field length")
            offset += 30 + field(26, 2) + field(28, 2) + field(18, 4)
            entries += 1
        }
        #expect(entries == 9)
    }
}
