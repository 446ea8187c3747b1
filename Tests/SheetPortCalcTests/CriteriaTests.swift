import Testing
@testable import SheetPortCalc
import SheetPortCore

/// COUNTIF's "<>" criteria as Excel counts them (the calculation suite's COUNTIF and COUNTIFS
/// files, Excel-computed): "<>23" counts the text "23" as different from 23 though "=23" matches
/// it, and "<>" counts a formula's "" and errors as not empty.
@Suite struct CriteriaTests {
    nonisolated(unsafe) static let cells: [String: Any] = [
        "A2": 23, "A3": "23", "A4": true, "A5": 1, "A6": -23, "A7": "hey", "A8": false,
        "B2": CalcValue.error(.notAvailable), "B3": 12, "B4": CalcValue.error(.divisionByZero), "B5": "#N/A", "B6": 0,
        "B7": "=\"\"", "B8": "=\"\"",
    ]

    static let table: [(String, Double)] = [
        ("COUNTIF(A2:A8,23)", 2), ("COUNTIF(A2:A8,\"=23\")", 2), ("COUNTIF(A2:A8,\"<>23\")", 6), ("COUNTIF(A2:A8,\"<>1\")", 6),
        ("COUNTIF(A2:A8,\"<>0\")", 7), ("COUNTIFS(A2:A8,\"<>23\")", 6),
        ("COUNTIF(B2:B8,\"<>\")", 7), ("COUNTIF(B2:B12,\"\")", 6), ("COUNTIF(B2:B8,\"<>#N/A\")", 6), ("COUNTIF(B:B,\"<>\")", 7),
        ("COUNTIF(B:B,\"\")", 1_048_571),
    ]

    @Test func notEqualCriteria() {
        let e = engine(Self.cells.merging(["ZZ1": 0]) { a, _ in a })
        for (k, (formula, expected)) in Self.table.enumerated() {
            e.setFormula(formula, at: CellReference(row: 20 + k, column: 26), sheet: 0)
        }
        e.recalculate()
        for (k, (formula, expected)) in Self.table.enumerated() {
            let v = e.value(at: CellReference(row: 20 + k, column: 26), sheet: 0)
            #expect(v == .number(expected), "\(formula) = \(v), expected \(expected)")
        }
    }
}
