import Foundation
import Testing
import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortServer

/// What an import keeps of names and tables, how the layout stores them, and how the export
/// renames the sheet in their formulas, with hostile values (the flow through a real server is
/// `NamesAndTablesTests`).
struct ImportNamesTests {
    @Test func renamingTouchesOnlyReferencesToTheSheet() {
        let formula = "SUM(Hours!A1,'hours'!B2:B3,\"Hours!A1\",Other!A1,[1]Hours!A1,Hours[Qty],MyHours!A1,'Hours x'!A1)"
        #expect(FormulaSheets.renaming(formula, from: "Hours", to: "Pay 2026")
                == "SUM('Pay 2026'!A1,'Pay 2026'!B2:B3,\"Hours!A1\",Other!A1,[1]Hours!A1,Hours[Qty],MyHours!A1,'Hours x'!A1)")
        #expect(FormulaSheets.renaming("'It''s'!$A$1", from: "It's", to: "Plain") == "Plain!$A$1")
        #expect(FormulaSheets.renaming("Sheet1!A1", from: "Sheet1", to: "A1") == "'A1'!A1") // a name shaped like a cell is quoted
        #expect(FormulaSheets.renaming("Sheet1!A1", from: "Sheet1", to: "R1C1") == "'R1C1'!A1")
        #expect(FormulaSheets.renaming("\"unterminated Sheet1!A1", from: "Sheet1", to: "New") == "\"unterminated Sheet1!A1")
        #expect(FormulaSheets.renaming("'unterminated", from: "unterminated", to: "New") == "'unterminated")
    }

    @Test func hostileNamesAreLeftOutAsExcelRefusesThem() throws {
        let sheet = Sheet(name: "Data", position: 1, kind: .worksheet, state: .visible, part: "xl/worksheets/sheet1.xml", relationshipID: "rId1")
        func name(_ text: String, _ formula: String, local: Int? = nil, hidden: Bool = false) -> DefinedName {
            DefinedName(name: text, formula: formula, localSheet: local, isHidden: hidden)
        }
        let kept = ImportNames.kept([
            name("Prices", "Data!$B$2:$B$4"), name("prices", "Data!$C$1"), name("Prices", "Data!$D$1", local: 0),
            name("A1", "1"), name("r1c1", "1"), name("RC", "1"), name("bell\u{7}", "1"), name("rtl\u{202E}", "1"),
            name(String(repeating: "x", count: 256), "1"), name(String(repeating: "y", count: 255), "1"), name("", "1"),
            name("Empty", ""), name("Nul", "\"a\u{0}\""), name("Elsewhere", "Other!$A$1"), name("OtherLocal", "1", local: 1),
            name("_xlnm.Print_Area", "Data!$A$1:$B$2", local: 0), name("Secret", "42", hidden: true),
            name("Twice", "=LAMBDA(x,x*2)"), name("Long", "1+" + String(repeating: "1+", count: 4_100) + "1"),
        ], of: sheet, otherSheets: ["Other"])
        #expect(kept.map(\.name) == ["Prices", "Prices", String(repeating: "y", count: 255), "_xlnm.Print_Area", "Secret", "Twice"])
        #expect(kept[0].ref == "B2:B4" && !kept[0].isLocal && kept[1].ref == "D1" && kept[1].isLocal)
        #expect(kept.map(\.isListed) == [true, true, true, false, false, true])
        #expect(kept[5].formula == "LAMBDA(x,x*2)" && kept[5].ref == nil)
    }

    @Test func tablesExcelWouldNotTakeAreLeftOut() {
        func table(_ name: String, _ ref: String, _ columns: [String]) -> WorksheetTable {
            WorksheetTable(name: name, range: CellRange(ref)!, columns: columns.map { WorksheetTable.Column(name: $0) })
        }
        let kept = ImportNames.tables([
            table("Sales", "A1:B3", ["Item", "Line\nbreak"]), table("Overlap", "B2:C4", ["a", "b"]), table("sales", "E1:F3", ["a", "b"]),
            table("Ctl", "E1:F3", ["a\u{1B}[31m", "b"]), table("Same", "E1:F3", ["a", "A"]), table("A1", "E1:F3", ["a", "b"]),
            table("Short", "E1:F3", ["a"]), table("Header", "E1:F1", ["a", "b"]), table("Right", "E1:F3", ["a", "b"]),
        ])
        #expect(kept.map(\.name) == ["Sales", "Right"])
    }

    @Test func theLayoutKeepsNamesAndTablesAndReadsTheEarlierForm() throws {
        let name = SheetDefinedName(name: "Rate", formula: "0.2", ref: nil, isLocal: true, isHidden: false)
        #expect(SheetLayout.name(SheetLayout.object(name)) == name)
        // A layout stored before names kept formulas: the range alone, made absolute.
        #expect(SheetLayout.name(["name": "Prices", "ref": "B2:B4"])?.formula == "$B$2:$B$4")
        #expect(SheetLayout.name(["name": "Cols", "ref": "A:C"])?.formula == "$A:$C")
        #expect(SheetLayout.name(["name": "Rows", "ref": "10:12"])?.formula == "$10:$12")
        #expect(SheetLayout.name(["name": "Bad", "ref": "not a range"]) == nil)
        let table = WorksheetTable(name: "T", range: CellRange("B2:C9")!, hasTotalsRow: true, columns: [
            .init(name: "Qty", totalsRowFunction: "sum"), .init(name: "Amount", totalsRowLabel: "x", totalsRowFormula: "1", calculatedColumnFormula: "T[[#This Row],[Qty]]*2"),
        ], styleName: "TableStyleLight1")
        #expect(SheetLayout.table(SheetLayout.object(table)) == table)
        #expect(SheetLayout.table(["name": "T", "ref": "A1:B3", "columns": [["name": "a"]]]) == nil) // one column for two
    }
}
