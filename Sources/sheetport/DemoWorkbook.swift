import SheetPortCore
import SheetPortWriter

/// The demo's bundled workbook, written with the project's streaming writer (the same cells
/// give the same bytes): "Orders" (the worksheet an import takes: 2,000 rows of numbers, text,
/// dates, booleans, formulas with cached values, a styled header, a comment), then "Regions"
/// and "Notes", which the pre-flight reports as not imported.
enum DemoWorkbook {
    /// Rows of data under the header on "Orders".
    static let orderRows = 2_000

    static func write(to path: String) throws {
        let writer = try WorkbookWriter(path: path)
        do {
            let header = try writer.style(CellStyle(isBold: true, fillColor: "#1F4E79", textColor: "#FFFFFF"))
            let money = try writer.style(CellStyle(numberFormat: "#,##0.00"))
            let date = try writer.style(CellStyle(numberFormat: "yyyy-mm-dd"))
            let regions = ["North", "South", "East", "West", "Central"]

            let orders = try writer.addWorksheet(named: "Orders")
            try orders.setColumnWidth(14, for: 1...6)
            try orders.append(Row(index: 1, cells: ["Order", "Region", "Date", "Quantity", "Price", "Total", "Paid"].enumerated().map {
                Cell(column: $0.offset + 1, value: .string($0.element), styleIndex: header)
            }))
            for index in 1...orderRows {
                let row = index + 1
                let quantity = Double(index % 17 + 1)
                let price = Double((index * 37) % 1000) / 4 + 0.25
                try orders.append(Row(index: row, cells: [
                    Cell(column: 1, value: .number(Double(10_000 + index))),
                    Cell(column: 2, value: .string(regions[index % regions.count])),
                    Cell(column: 3, value: .date(serial: Double(45_292 + index % 366)), styleIndex: date),
                    Cell(column: 4, value: .number(quantity)),
                    Cell(column: 5, value: .number(price), styleIndex: money),
                    Cell(column: 6, value: .number(quantity * price), formula: "D\(row)*E\(row)", styleIndex: money),
                    Cell(column: 7, value: .boolean(index % 3 != 0)),
                ]))
            }
            try orders.addComment("Totals are computed from quantity and price", author: "SheetPort demo", row: 1, column: 6)

            let summary = try writer.addWorksheet(named: "Regions")
            try summary.append(Row(index: 1, cells: [Cell(column: 1, value: .string("Region"), styleIndex: header),
                                                     Cell(column: 2, value: .string("Total"), styleIndex: header)]))
            for (offset, region) in regions.enumerated() {
                try summary.append(Row(index: offset + 2, cells: [
                    Cell(column: 1, value: .string(region)),
                    Cell(column: 2, value: .empty, formula: "SUMIF(Orders!B:B,A\(offset + 2),Orders!F:F)", styleIndex: money),
                ]))
            }
            let notes = try writer.addWorksheet(named: "Notes")
            try notes.append(Row(index: 1, cells: [Cell(column: 1, value: .string("Only the first worksheet (Orders) is imported."))]))
            try writer.close()
        } catch {
            writer.discard()
            throw error
        }
    }
}
