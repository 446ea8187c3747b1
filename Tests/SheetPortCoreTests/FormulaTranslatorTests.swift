import Testing
@testable import SheetPortCore

/// Shared formulas expand as Excel moves references when it copies a formula.
@Suite struct FormulaTranslatorTests {
    @Test(arguments: [
        ("A1*2", 1, 0, "A2*2"),
        ("A1*2", 0, 1, "B1*2"),
        ("$A1+A$1+$A$1", 2, 3, "$A3+D$1+$A$1"),
        ("SUM(A1:A3)", 1, 1, "SUM(B2:B4)"),
        ("SUM($A$1:A3)", 4, 0, "SUM($A$1:A7)"),
        ("SUM(A:A)", 5, 1, "SUM(B:B)"),
        ("SUM($A:B)", 5, 1, "SUM($A:C)"),
        ("SUM(1:1)", 2, 9, "SUM(3:3)"),
        ("SUM($1:2)", 2, 9, "SUM($1:4)"),
        ("Sheet2!A1+'My Sheet'!B2", 1, 1, "Sheet2!B2+'My Sheet'!C3"),
        ("\"A1\"&A1", 1, 0, "\"A1\"&A2"),
        ("\"say \"\"A1\"\"\"&B1", 0, 1, "\"say \"\"A1\"\"\"&C1"),
        ("LOG10(A1)", 1, 0, "LOG10(A2)"),
        ("Table1[Col A]+A1", 1, 0, "Table1[Col A]+A2"),
        ("Table1[[#This Row],[B1]]*C1", 1, 0, "Table1[[#This Row],[B1]]*C2"),
        ("A1!B1", 1, 0, "A1!B2"),
        ("Sheet1:Sheet3!A1", 1, 0, "Sheet1:Sheet3!A2"),
        ("[1]Sheet1!A1", 0, 1, "[1]Sheet1!B1"),
        ("A1-1E5+TRUE", 1, 0, "A2-1E5+TRUE"),
        ("#REF!+A1", 1, 0, "#REF!+A2"),
        ("A1", -1, 0, "#REF!"),
        ("XFD1", 0, 1, "#REF!"),
        ("a1+b2", 1, 0, "A2+B3"),
        ("_xlfn.XLOOKUP(A1,B:B,C:C)", 1, 1, "_xlfn.XLOOKUP(B2,C:C,D:D)"),
        ("MyName+A1", 1, 0, "MyName+A2"),
        ("ÄÖ1+A1", 1, 0, "ÄÖ1+A2"),
    ])
    func moves(_ formula: String, _ rows: Int, _ columns: Int, _ expected: String) {
        #expect(FormulaTranslator.translate(formula, rows: rows, columns: columns) == expected)
    }

    @Test func noOffsetIsIdentity() {
        #expect(FormulaTranslator.translate("SUM(A1:B2)", rows: 0, columns: 0) == "SUM(A1:B2)")
    }
}
