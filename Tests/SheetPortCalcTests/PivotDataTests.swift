import Testing
@testable import SheetPortCalc
import SheetPortCore

/// GETPIVOTDATA over a pivot table laid out as Excel renders one: two row fields (Region, then
/// Product) with subtotals, a column field (Year) and two data fields along the columns, plus
/// hostile calls (no pivot table there, unknown names and items, errors, odd pairs).
@Suite struct PivotDataTests {
    /// A1:G9 on Sheet1, data from row 3 (firstDataRow 2) and column B (firstDataCol 1): columns
    /// B-G are 2023 Sum, 2023 Count, 2024 Sum, 2024 Count, grand Sum, grand Count; rows 3-9 are
    /// East's header line, East/Pen, East/Ink, East's subtotal, West/7, a blank line, the grand total.
    static func engine() -> CalcEngine {
        let e = CalcEngine(clock: .fixed(unixTime: 0, utcOffsetSeconds: 0), randomSeed: 1)
        let s = e.addSheet("Sheet1")
        _ = e.addSheet("Other")
        func item(_ field: String, _ v: CalcValue) -> CalcPivotTable.Item { .init(field: field, value: v) }
        let east = item("Region", .text("East")), west = item("Region", .text("West"))
        let pen = item("Product", .text("Pen")), ink = item("Product", .text("Ink")), n7 = item("Product", .number(7))
        let rows: [CalcPivotTable.Line] = [
            .init(items: [east], kind: .data),           // row 3: East's header line (empty in tabular form)
            .init(items: [east, pen]),                    // row 4
            .init(items: [east, ink]),                    // row 5
            .init(items: [east], kind: .subtotal),        // row 6: East Total
            .init(items: [west, n7]),                     // row 7
            .init(items: [], kind: .blank),               // row 8
            .init(items: [], kind: .grandTotal),          // row 9
        ]
        let y23 = item("Year", .number(2023)), y24 = item("Year", .number(2024))
        let columns: [CalcPivotTable.Line] = [
            .init(items: [y23], dataField: 0), .init(items: [y23], dataField: 1),
            .init(items: [y24], dataField: 0), .init(items: [y24], dataField: 1),
            .init(items: [], dataField: 0, kind: .grandTotal), .init(items: [], dataField: 1, kind: .grandTotal),
        ]
        e.addPivotTable(CalcPivotTable(sheet: s, range: CellRange("A1:G9")!, firstDataRow: 2, firstDataColumn: 1,
                                       dataFields: [.init(name: "Sum of Sales", sourceName: "Sales"), .init(name: "Count of Sales", sourceName: "Sales2")],
                                       rows: rows, columns: columns))
        // Values: row r, column c (B=2 ...) holds r*10 + c, so each answer names its cell.
        for r in 3...9 where r != 8 {
            for c in 2...7 { e.setValue(.number(Double(r * 10 + c)), at: CellReference(row: r, column: c), sheet: s) }
        }
        e.setValue(.text("text"), at: CellReference("F5")!, sheet: s)
        e.setValue(.error(.divisionByZero), at: CellReference("H1")!, sheet: s)
        return e
    }

    static let table: [(String, CalcValue)] = [
        // Grand totals, data fields by name or source name, any case, spaces around
        ("GETPIVOTDATA(\"Sum of Sales\",A1)", .number(96)), ("GETPIVOTDATA(\"count of sales\",C4)", .number(97)),
        ("GETPIVOTDATA(\" Sales \",$A$1)", .number(96)), ("GETPIVOTDATA(\"Sales2\",G9)", .number(97)),
        // Items: the line with exactly those fields, a subtotal before the header line
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Region\",\"East\")", .number(66)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Region\",\"east\",\"Product\",\"Pen\")", .number(46)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Product\",\"Ink\",\"Region\",\"East\")", .text("text")),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Region\",\"West\",\"Product\",7)", .number(76)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Region\",\"West\",\"Product\",\"7\")", .number(76)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Year\",2024)", .number(94)),
        ("GETPIVOTDATA(\"Count of Sales\",A1,\"Year\",2023,\"Region\",\"East\",\"Product\",\"Pen\")", .number(43)),
        // #REF!: no pivot table there, unknown data field, field or item, a field given twice, a
        // pair missing its item, a deeper field without its outer one
        ("GETPIVOTDATA(\"Sum of Sales\",H1)", .error(.reference)), ("GETPIVOTDATA(\"Sum of Sales\",Other!A1)", .error(.reference)),
        ("GETPIVOTDATA(\"Sum of Sales\",\"A1\")", .error(.reference)), ("GETPIVOTDATA(\"Sum of Sales\",5)", .error(.reference)),
        ("GETPIVOTDATA(\"Average\",A1)", .error(.reference)), ("GETPIVOTDATA(\"\",A1)", .error(.reference)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Country\",\"East\")", .error(.reference)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Region\",\"North\")", .error(.reference)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Region\",\"East\",\"Region\",\"West\")", .error(.reference)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Region\")", .error(.reference)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Product\",\"Pen\")", .error(.reference)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Year\",\"2025\")", .error(.reference)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Region\",\"\")", .error(.reference)),
        // Errors in the arguments come through
        ("GETPIVOTDATA(H1,A1)", .error(.divisionByZero)), ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Region\",H1)", .error(.divisionByZero)),
        ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Region\",1/0)", .error(.divisionByZero)),
        // ... before the pivot table is looked for: a pivot_table that is an error value, or that
        // is no pivot table while a field or item is an error (LibreOffice answers so too).
        ("GETPIVOTDATA(\"Sum of Sales\",NA())", .error(.notAvailable)), ("GETPIVOTDATA(\"Sum of Sales\",H2,\"Region\",1/0)", .error(.divisionByZero)),
        ("GETPIVOTDATA(\"Sum of Sales\",5,1/0,\"East\")", .error(.divisionByZero)), ("GETPIVOTDATA(1/0,H2)", .error(.divisionByZero)),
        ("GETPIVOTDATA(1/0,A1,\"Region\")", .error(.divisionByZero)), ("GETPIVOTDATA(\"Sum of Sales\",A1,\"Region\",\"East\",NA())", .error(.notAvailable)),
    ]

    @Test(arguments: table) func answers(_ formula: String, _ expected: CalcValue) {
        let e = Self.engine()
        e.setFormula(formula, at: CellReference("Z1")!, sheet: 0)
        e.recalculate()
        #expect(e.value(at: CellReference("Z1")!, sheet: 0) == expected, "\(formula)")
    }

    /// A pivot table without column fields or a second data field has no data-field layout: its
    /// one data column is the only answer; a sheet index out of range adds nothing.
    @Test func oneDataFieldWithoutColumnFields() {
        let e = CalcEngine(clock: .fixed(unixTime: 0, utcOffsetSeconds: 0), randomSeed: 1)
        let s = e.addSheet("S")
        let category = { (name: String) in CalcPivotTable.Item(field: "Category", value: .text(name)) }
        let pivot = CalcPivotTable(sheet: s, range: CellRange("A8:B11")!, firstDataRow: 1, firstDataColumn: 1,
                                   dataFields: [.init(name: "Sum of Score", sourceName: "Score")],
                                   rows: [.init(items: [category("Category 1")]), .init(items: [category("Category 2")]), .init(items: [], kind: .grandTotal)],
                                   columns: [.init(items: [])])
        e.addPivotTable(pivot)
        var elsewhere = pivot
        elsewhere.sheet = 5
        e.addPivotTable(elsewhere)
        for (r, x) in [(9, 3.0), (10, 12), (11, 15)] { e.setValue(.number(x), at: CellReference(row: r, column: 2), sheet: s) }
        let formulas = ["GETPIVOTDATA(\"Sum of Score\",A8,\"Category\",\"Category 1\")", "GETPIVOTDATA(\"Sum of Score\",B11)",
                        "GETPIVOTDATA(\"Sum of Score\",A8,\"Category\",\"Category 3\")"]
        for (k, f) in formulas.enumerated() { e.setFormula(f, at: CellReference(row: 1, column: 5 + k), sheet: s) }
        e.recalculate()
        #expect((0..<3).map { e.value(at: CellReference(row: 1, column: 5 + $0), sheet: s) } == [.number(3), .number(15), .error(.reference)])
    }
}
