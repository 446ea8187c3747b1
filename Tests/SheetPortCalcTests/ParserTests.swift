import Testing
@testable import SheetPortCalc
import SheetPortCore

@Suite struct ParserTests {
    /// Formula text round-trips through the compiled form at the same cell.
    @Test(arguments: [
        "SUM(A1:B2)", "$A$1+A$1+$A1", "Sheet2!A1", "'My Sheet'!A1:B3", "''''!A1", "A:A", "$A:$C", "1:1", "$2:$5",
        "Sheet2!A:B", "-A1^2", "A1%", "\"a\"\"b\"&C3", "{1,2;3,4}", "{\"x\",TRUE;#N/A,-1.5}", "IF(A1,,2)",
        "Table1[Qty]", "Table1[[#This Row],[Qty]]", "[@Qty]", "Table1[#All]", "Table1[[#Headers],[A]:[B]]",
        "SUM((A1,B2:C3))", "A1:B5 B2:C9", "#REF!+1", "Sheet1!#REF!", "_xlfn.XLOOKUP(A1,B:B,C:C)", "MyName*2", "TRUE<>FALSE",
        "INDEX(A1:C3,2,2):C3", "1E+20*2",
    ])
    func roundTrip(_ text: String) throws {
        let back = try CalcEngine.translateFormula(text, from: CellReference("C5")!, to: CellReference("C5")!)
        #expect(back == text)
    }

    @Test func prefixesAreStripped() {
        #expect(FormulaParser.functionName("_xlfn._xlws.SORT") == "SORT")
        #expect(FormulaParser.functionName("_xlfn.IFS") == "IFS")
        #expect(FormulaParser.functionName("_xludf.MYFUNC") == "MYFUNC")
        #expect(eval("_xlfn.IFS(FALSE,1,TRUE,2)") == .number(2))
    }

    @Test func precedence() {
        #expect(eval("-2^2") == .number(4))
        #expect(eval("2^3^2") == .number(64))
        #expect(eval("1+2*3^2") == .number(19))
        #expect(eval("-5%") == .number(-0.05))
        #expect(eval("2*50%") == .number(1))
        #expect(eval("1+2&3") == .text("33"))
        #expect(eval("1&2=12") == .boolean(false))
        #expect(eval("\"12\"=1&2") == .boolean(true))
        #expect(eval("1<2=TRUE") == .boolean(true))
        #expect(eval("(1+2)*3") == .number(9))
        #expect(eval("10-2-3") == .number(5))
        #expect(eval("12/2/3") == .number(2))
        #expect(eval("--\"3\"") == .number(3))
        #expect(eval("2^-1") == .number(0.5))
    }

    @Test func rangesIntersectionsAndUnions() {
        let cells: [String: Any] = ["A1": 1, "A2": 2, "B1": 10, "B2": 20, "C3": 100]
        #expect(eval("SUM(A1:B2 B1:B9)", cells) == .number(30))
        #expect(eval("SUM(A1:A2 C1:C2)", cells) == .error(.null))
        #expect(eval("SUM((A1:A2,C3))", cells) == .number(103))
        #expect(eval("SUM(A1:B1:A2)", cells) == .number(33))
        #expect(eval("SUM(A:A)", cells) == .number(3))
        #expect(eval("SUM(1:1)", cells) == .number(11))
        #expect(eval("SUM(A1:INDEX(A1:B2,2,2))", cells) == .number(33))
    }

    @Test func errorsCarryPositions() {
        #expect(throws: FormulaParseError.self) { try CalcEngine.validateFormula("SUM(1,") }
        do { try CalcEngine.validateFormula("1+*2") } catch { #expect(error.position == 2) }
        do { try CalcEngine.validateFormula("SUM(A1") } catch { #expect(error.position == 6) }
        do { try CalcEngine.validateFormula("\"abc") } catch { #expect(error.position == 0) }
        do { try CalcEngine.validateFormula("(-4,3)") } catch { #expect(error.message.contains("union")) }
        do { try CalcEngine.validateFormula("[1]Sheet1!A1") } catch { #expect(error.isExternalReference) }
        do { try CalcEngine.validateFormula("'[Book.xlsx]Sheet 1'!A1") } catch { #expect(error.isExternalReference) }
    }

    @Test func deepNestingIsAParseErrorNotACrash() {
        let open = String(repeating: "(", count: 10_000), close = String(repeating: ")", count: 10_000)
        #expect(throws: FormulaParseError.self) { try CalcEngine.validateFormula(open + "1" + close) }
        let minus = String(repeating: "-", count: 10_000) + "1"
        #expect(throws: FormulaParseError.self) { try CalcEngine.validateFormula(minus) }
        #expect(eval(String(repeating: "(", count: 60) + "7" + String(repeating: ")", count: 60)) == .number(7))
    }

    @Test func longFormulasParse() throws {
        // 8,192 characters: a long chain of additions is a loop, not recursion.
        var text = "A1"
        while text.utf8.count < 8_180 { text += "+A1" }
        let v = eval(text, ["A1": 1])
        #expect(v == .number(Double((text.utf8.count + 1) / 3)))
        var sums = "SUM(A1"
        while sums.utf8.count < 8_180 { sums += ",A1" }
        sums += ")"
        // More than 255 arguments is not a formula Excel accepts.
        #expect(throws: FormulaParseError.self) { try CalcEngine.validateFormula(sums) }
    }

    @Test func translationMovesRelativeParts() throws {
        #expect(try CalcEngine.translateFormula("B2+$C$2+C$2+$D2", from: CellReference("A2")!, to: CellReference("A5")!) == "B5+$C$2+C$2+$D5")
        #expect(try CalcEngine.translateFormula("SUM(A1:A3)", from: CellReference("B4")!, to: CellReference("C4")!) == "SUM(B1:B3)")
        #expect(try CalcEngine.translateFormula("A1+1", from: CellReference("B2")!, to: CellReference("A1")!) == "#REF!+1")
        #expect(try CalcEngine.translateFormula("A:A", from: CellReference("B2")!, to: CellReference("C2")!) == "B:B")
    }

    @Test func filledColumnsShareOneCompiledFormula() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        for r in 1...1_000 {
            e.setValue(.number(Double(r)), at: CellReference("B\(r)")!, sheet: s)
            e.setFormula("B\(r)+C\(r)", at: CellReference("A\(r)")!, sheet: s)
            e.setFormula("SUM($B$1:B\(r))", at: CellReference("D\(r)")!, sheet: s)
        }
        #expect(e.compiledFormulaCount == 2)
        e.recalculate()
        #expect(e.value(at: CellReference("A7")!, sheet: s) == .number(7))
        #expect(e.value(at: CellReference("D1000")!, sheet: s) == .number(500_500))
        #expect(e.formula(at: CellReference("A9")!, sheet: s) == "B9+C9")
    }
}
