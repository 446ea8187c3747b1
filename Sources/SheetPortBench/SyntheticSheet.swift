import SheetPortCore
import SheetPortWriter

/// The benchmark sheet: a header row and then rows of ten typed columns, the same cells
/// that `Benchmarks/write/libxlsxwriter_write.c` writes (`Benchmarks/write/expected_jsonl.py`
/// spells them out). Data rows are sheet rows r = 2...rows+1:
///
/// | A | B | C | D | E | F | G | H | I | J |
/// |---|---|---|---|---|---|---|---|---|---|
/// | r | r×1.25 | alpha/beta/gamma/delta | item-r | date 45000 + r mod 1000 | r even | r/7 | =A r×2 (cached) | north/south/east/west | r mod 100 |
package struct SyntheticSheet: Sendable {
    /// Data rows (the header comes on top).
    package let rows: Int

    private static let words = ["alpha", "beta", "gamma", "delta"]
    private static let directions = ["north", "south", "east", "west"]

    /// A sheet of `rows` data rows.
    package init(rows: Int) { self.rows = rows }

    /// Writes the sheet into `writer` as sheet `name`; `progress` hears the rows written every 4,096.
    @discardableResult
    package func write(into writer: WorkbookWriter, named name: String = "Data",
                      progress: ((Int) -> Void)? = nil) throws -> WorksheetWriter {
        let sheet = try writer.addWorksheet(named: name)
        let date = try writer.style(CellStyle(numberFormat: "yyyy-mm-dd"))
        try sheet.append(Row(index: 1, cells: (1...10).map { Cell(column: $0, value: .string("c\($0)")) }))
        // One row value reused: its cell array keeps its storage from row to row.
        var row = Row(index: 0, cells: (1...10).map { Cell(column: $0, value: .empty) })
        for r in 2..<(rows + 2) {
            row.index = r
            let value = Double(r)
            row.cells[0].value = .number(value)
            row.cells[1].value = .number(value * 1.25)
            row.cells[2].value = .string(Self.words[r % 4])
            row.cells[3].value = .string("item-" + String(r))
            row.cells[4] = Cell(column: 5, value: .date(serial: Double(45_000 + r % 1000)), styleIndex: date)
            row.cells[5].value = .boolean(r % 2 == 0)
            row.cells[6].value = .number(value / 7)
            row.cells[7] = Cell(column: 8, value: .number(2 * value), formula: "A" + String(r) + "*2")
            row.cells[8].value = .string(Self.directions[r % 4])
            row.cells[9].value = .number(Double(r % 100))
            try sheet.append(row)
            if let progress, r & 4095 == 0 { progress(r - 1) }
        }
        return sheet
    }
}
