import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport

/// Workbooks written by real producers (Fixtures/producers/make_producers.py): sheets, values,
/// kept formatting and metadata as each producer writes them. Values are also checked against
/// openpyxl and python-calamine by the value-agreement test.
@Suite struct ProducerTests {
    static let folder = Project.root.appendingPathComponent("Fixtures/producers")

    private func open(_ name: String) throws -> (Workbook, [Row], WorksheetReader) {
        let workbook = try Workbook(path: Self.folder.appendingPathComponent(name).path)
        let reader = try workbook.rows(of: #require(workbook.firstWorksheet))
        var rows: [Row] = []
        while let row = try reader.nextRow() { rows.append(row) }
        return (workbook, rows, reader)
    }

    private func cell(_ rows: [Row], _ ref: String) -> Cell? {
        guard let reference = CellReference(ref) else { return nil }
        return rows.first { $0.index == reference.row }?.cells.first { $0.column == reference.column }
    }

    @Test(arguments: [("lo_mixed.xlsx", "Sales", 2), ("gnumeric_mixed.xlsx", "Sales", 2),
                      ("openpyxl_mixed.xlsx", "Data", 2), ("xlsxwriter_mixed.xlsx", "Report", 2),
                      ("xlsxwriter_constant_memory.xlsx", "Report", 1)])
    func firstWorksheetAndSheetCount(_ name: String, _ first: String, _ count: Int) throws {
        let (workbook, rows, _) = try open(name)
        #expect(workbook.firstWorksheet?.name == first)
        #expect(workbook.sheets.count == count)
        #expect(rows.reduce(0) { $0 + $1.cells.count } > 200)
    }

    @Test func libreOfficeDatesFormulasAndStyles() throws {
        let (workbook, rows, reader) = try open("lo_mixed.xlsx")
        #expect(cell(rows, "A3")?.value == .date(serial: 45292))           // 2024-01-01
        #expect(cell(rows, "D4")?.formula == "B4*C4")
        #expect(cell(rows, "D4")?.value == .number(2.7))
        #expect(cell(rows, "E10")?.value == .string("line\nbreak"))
        let styles = try workbook.styles()
        #expect(styles.format(cell(rows, "A1")!.styleIndex).isBold)
        let price = styles.format(cell(rows, "C3")!.styleIndex)
        #expect(price.fillColor == "#FFFF00")
        #expect(price.textColor == "#C00000")
        #expect(price.horizontalAlignment == "right")
        #expect(styles.format(cell(rows, "E3")!.styleIndex).isItalic)
        #expect(reader.metadata.mergedRanges == ["A1:B1"])
        let comments = try workbook.comments(of: workbook.firstWorksheet!)
        #expect(comments.map(\.reference) == ["E3"])
        #expect(comments.first?.text.contains("check this row") == true)
    }

    @Test func openpyxlFormulasHaveNoCachedValue() throws {
        let (workbook, rows, reader) = try open("openpyxl_mixed.xlsx")
        #expect(cell(rows, "D2")?.value == .empty)
        #expect(cell(rows, "D2")?.formula == "B2*C2")
        #expect(cell(rows, "F3")?.value == .boolean(true))
        #expect(rows.first?.height == 28)
        #expect(reader.metadata.columns.contains { $0.first == 5 && $0.width == 24 })
        let styles = try workbook.styles()
        #expect(styles.format(cell(rows, "C2")!.styleIndex).fillColor == "#FFFF00")
        #expect(styles.format(cell(rows, "E2")!.styleIndex).horizontalAlignment == "center")
    }

    @Test(arguments: ["xlsxwriter_mixed.xlsx", "xlsxwriter_constant_memory.xlsx"])
    func xlsxWriterValuesAndFormats(_ name: String) throws {
        let (workbook, rows, _) = try open(name)
        let styles = try workbook.styles()
        let header = styles.format(cell(rows, "A1")!.styleIndex)
        #expect(header.isBold && header.textColor == "#C00000")
        #expect(cell(rows, "A2")?.value == .date(serial: 45290.5))          // 2023-12-30 12:00
        #expect(cell(rows, "G2")?.value == .error("#DIV/0!"))
        #expect(cell(rows, "G2")?.formula == "1/0")
        #expect(cell(rows, "E4")?.value == .string("東京"))
        let money = styles.format(cell(rows, "C2")!.styleIndex)
        #expect(money.numberFormat == "#,##0.00" && money.fillColor == "#DDEBF7" && money.horizontalAlignment == "right")
    }
}
