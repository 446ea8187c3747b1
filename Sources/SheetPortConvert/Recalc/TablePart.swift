import SheetPortReader
import SheetPortCalc
import SheetPortCore

/// Reads a worksheet's table parts (`xl/tables/tableN.xml`): for structured references, and
/// whole (columns, totals row, calculated columns) for the server to keep and export.
final class TablePart: XMLHandler {
    var name: String?
    var ref: String?
    var headerRowCount = 1
    var totalsRowCount = 0
    var columns: [WorksheetTable.Column] = []
    var styleName: String?
    /// The table's autoFilter filters a column (`<filterColumn>`): its hidden rows are filtered out.
    var isFiltering = false
    /// The text of a `calculatedColumnFormula` or `totalsRowFormula` being read, capped at
    /// `formulaLimit` bytes.
    private var formulaText: [UInt8]?
    private static let formulaLimit = 1 << 16

    func startElement(_ element: XMLName, attributes: XMLAttributes) throws {
        if element.isSpreadsheet("table") {
            name = attributes.string("displayName") ?? attributes.string("name")
            ref = attributes.string("ref")
            headerRowCount = attributes.int("headerRowCount") ?? 1
            totalsRowCount = attributes.int("totalsRowCount") ?? 0
        } else if element.isSpreadsheet("filterColumn") {
            isFiltering = true
        } else if element.isSpreadsheet("tableColumn") {
            columns.append(WorksheetTable.Column(name: attributes.string("name") ?? "",
                                                 totalsRowFunction: attributes.string("totalsRowFunction"),
                                                 totalsRowLabel: attributes.string("totalsRowLabel")))
        } else if element.isSpreadsheet("calculatedColumnFormula") || element.isSpreadsheet("totalsRowFormula") {
            formulaText = []
        } else if element.isSpreadsheet("tableStyleInfo") {
            styleName = attributes.string("name")
        }
    }

    func endElement(_ element: XMLName) throws {
        guard let text = formulaText, !columns.isEmpty else { return }
        let formula = String(decoding: text, as: UTF8.self)
        if element.isSpreadsheet("calculatedColumnFormula") {
            columns[columns.count - 1].calculatedColumnFormula = formula
        } else if element.isSpreadsheet("totalsRowFormula") {
            columns[columns.count - 1].totalsRowFormula = formula
        } else {
            return
        }
        formulaText = nil
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        guard formulaText != nil else { return }
        formulaText!.append(contentsOf: text.prefix(max(0, Self.formulaLimit - formulaText!.count)))
    }

    /// The tables of `sheet`, each with whether its autoFilter filters a column.
    static func filteringTables(of sheet: Sheet, index: Int, in workbook: Workbook) -> [(table: CalcTable, isFiltering: Bool)] {
        parts(of: sheet, in: workbook).map { (CalcTable($0.table, sheet: index), $0.isFiltering) }
    }

    /// The table parts of `sheet` that read: a valid name, a range, one column per column of it.
    static func parts(of sheet: Sheet, in workbook: Workbook) -> [(table: WorksheetTable, isFiltering: Bool)] {
        guard let relationships = try? workbook.relationships(of: sheet) else { return [] }
        var tables: [(table: WorksheetTable, isFiltering: Bool)] = []
        for relationship in relationships where relationship.type == "table" && !relationship.isExternal {
            guard let entry = workbook.archive.entry(named: relationship.target) else { continue }
            let part = TablePart()
            guard (try? XMLPushParser.parse(entry, in: workbook.archive, with: part)) != nil,
                  let name = part.name, let ref = part.ref, let range = CellRange(ref),
                  part.columns.count == range.columnCount else { continue }
            tables.append((WorksheetTable(name: name, range: range, hasHeaderRow: part.headerRowCount > 0,
                                          hasTotalsRow: part.totalsRowCount > 0, columns: part.columns,
                                          styleName: part.styleName), part.isFiltering))
        }
        return tables
    }
}

extension Workbook {
    /// The tables of `sheet` whole (columns, totals row, calculated columns), as the server keeps
    /// and exports them; a table part that does not read, or a second table of one name, is left out.
    package func tables(of sheet: Sheet) -> [WorksheetTable] {
        var names: Set<String> = []
        return TablePart.parts(of: sheet, in: self).map(\.table).filter { names.insert($0.name.uppercased()).inserted }
    }
}

extension CalcTable {
    /// The engine's table for `table` on engine sheet `sheet`.
    package init(_ table: WorksheetTable, sheet: Int) {
        self.init(name: table.name, sheet: sheet, range: table.range, headerRowCount: table.hasHeaderRow ? 1 : 0,
                  totalsRowCount: table.hasTotalsRow ? 1 : 0, columnNames: table.columns.map(\.name))
    }
}
