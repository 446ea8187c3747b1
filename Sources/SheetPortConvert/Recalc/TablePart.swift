import SheetPortReader
import SheetPortCalc
import SheetPortCore

/// Reads a worksheet's table parts (`xl/tables/tableN.xml`) for structured references.
final class TablePart: XMLHandler {
    var name: String?
    var ref: String?
    var headerRowCount = 1
    var totalsRowCount = 0
    var columns: [String] = []
    /// The table's autoFilter filters a column (`<filterColumn>`): its hidden rows are filtered out.
    var isFiltering = false

    func startElement(_ element: XMLName, attributes: XMLAttributes) throws {
        if element.isSpreadsheet("table") {
            name = attributes.string("displayName") ?? attributes.string("name")
            ref = attributes.string("ref")
            headerRowCount = attributes.int("headerRowCount") ?? 1
            totalsRowCount = attributes.int("totalsRowCount") ?? 0
        } else if element.isSpreadsheet("filterColumn") {
            isFiltering = true
        } else if element.isSpreadsheet("tableColumn") {
            columns.append(attributes.string("name") ?? "")
        }
    }

    func endElement(_ element: XMLName) throws {}
    func characters(_ text: UnsafeBufferPointer<UInt8>) {}

    /// The tables of `sheet` (engine index `index`); a table part that does not read is left out.
    static func tables(of sheet: Sheet, index: Int, in workbook: Workbook) -> [CalcTable] {
        filteringTables(of: sheet, index: index, in: workbook).map(\.table)
    }

    /// The tables of `sheet`, each with whether its autoFilter filters a column.
    static func filteringTables(of sheet: Sheet, index: Int, in workbook: Workbook) -> [(table: CalcTable, isFiltering: Bool)] {
        guard let relationships = try? workbook.relationships(of: sheet) else { return [] }
        var tables: [(table: CalcTable, isFiltering: Bool)] = []
        for relationship in relationships where relationship.type == "table" && !relationship.isExternal {
            guard let entry = workbook.archive.entry(named: relationship.target) else { continue }
            let part = TablePart()
            guard (try? XMLPushParser.parse(entry, in: workbook.archive, with: part)) != nil,
                  let name = part.name, let ref = part.ref, let range = CellRange(ref),
                  part.columns.count == range.columnCount else { continue }
            tables.append((CalcTable(name: name, sheet: index, range: range, headerRowCount: part.headerRowCount,
                                     totalsRowCount: part.totalsRowCount, columnNames: part.columns), part.isFiltering))
        }
        return tables
    }
}
