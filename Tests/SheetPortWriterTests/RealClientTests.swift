import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortWriter
import SheetPortTestSupport

/// What the writer writes beyond values (comments, widths, heights, kept formatting) as real
/// clients see it: openpyxl, LibreOffice and Gnumeric, through Tests/RealClients/features.py.
/// Values are checked in all four clients by Tests/RealClients/roundtrip.sh. Runs when
/// `SHEETPORT_REAL_CLIENTS=1` (Scripts/test.sh sets it after installing the clients).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SHEETPORT_REAL_CLIENTS"] == "1"))
struct RealClientTests {
    /// Both packagings: a file through libzip, and the stream (data descriptors, libarchive)
    /// that the server sends.
    @Test(arguments: [false, true])
    func commentsWidthsHeightsAndStylesShowInRealClients(streamed: Bool) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("features.xlsx").path
        let streamedBytes = ByteCollector()
        let writer = streamed ? try WorkbookWriter(streamingTo: streamedBytes.append, name: book) : try WorkbookWriter(path: book)
        let title = try writer.style(CellStyle(isBold: true, horizontalAlignment: "center", fillColor: "#1F4E78", textColor: "#FFFFFF"))
        let money = try writer.style(CellStyle(isItalic: true, horizontalAlignment: "right", numberFormat: "#,##0.00", textColor: "#C00000"))
        let sheet = try writer.addWorksheet(named: "Features")
        try sheet.setColumnWidth(24, for: 1...1)
        try sheet.setColumnWidth(12.5, for: 2...3)
        try sheet.append(Row(index: 1, height: 30, cells: [
            Cell(column: 1, value: .string("Quarter"), styleIndex: title),
            Cell(column: 2, value: .string("Revenue"), styleIndex: title),
        ]))
        try sheet.append(Row(index: 2, cells: [Cell(column: 1, value: .string("Q1")), Cell(column: 2, value: .number(1234.5), styleIndex: money)]))
        try sheet.append(Row(index: 4, height: 45.75, cells: [Cell(column: 3, value: .number(3))]))
        try sheet.addComment("Checked by finance\nsecond line", author: "Ann Smith", row: 2, column: 2)
        try sheet.addComment("Title row & <header>", author: "SheetPort", row: 1, column: 1)
        let other = try writer.addWorksheet(named: "Other")
        try other.addComment("on the second sheet", row: 3, column: 3)
        try writer.close()
        if streamed { try Data(streamedBytes.bytes).write(to: URL(fileURLWithPath: book)) }

        let expected: [String: Any] = [
            "comments": ["B2": ["text": "Checked by finance\nsecond line", "author": "Ann Smith"],
                         "A1": ["text": "Title row & <header>", "author": "SheetPort"]],
            "columnWidths": ["A": 24, "B": 12.5, "C": 12.5],
            "rowHeights": ["1": 30, "4": 45.75],
            "styles": ["A1": ["bold": true, "horizontal": "center", "fill": "#1F4E78", "color": "#FFFFFF"],
                       "B2": ["italic": true, "horizontal": "right", "numFmt": "#,##0.00", "color": "#C00000"],
                       "A2": [String: Any]()],
        ]
        let expectedPath = folder.appendingPathComponent("expected.json")
        try JSONSerialization.data(withJSONObject: expected).write(to: expectedPath)
        let (status, text) = try Project.python([Project.root.appendingPathComponent("Tests/RealClients/features.py").path, book, expectedPath.path])
        #expect(status == 0, "\(text)")
        #expect(text.components(separatedBy: " ok").count == 4, "\(text)")
    }
}

/// Collects what a streaming `WorkbookWriter` sends.
final class ByteCollector: @unchecked Sendable {
    private(set) var bytes: [UInt8] = []
    func append(_ chunk: UnsafeRawBufferPointer) { bytes += chunk }
}
