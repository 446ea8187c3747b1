import Testing
import SheetPortCore
@testable import SheetPortCalc

/// XMATCH, XLOOKUP, LOOKUP, MATCH and INDEX as Excel computed them in calc-suite formulas__test
/// (LOOKUP!V171:W197, EXTRA!K79:L94, LOOKUP!R53:V71): a blank lookup value sorts above every value,
/// and the binary search modes probe unsorted data from the middle of the first and last positions,
/// keeping an equal value met.
@Suite struct LookupProbeTests {
    @Test func aBlankLookupValueSortsAboveEveryValue() {
        let cases: [(String, CalcValue)] = [
            ("XMATCH(H1,{4.1,3.1,2.1,1.1},-1)", .number(1)),
            ("XMATCH(H1,{-1.1,2.1,3.1,4.1},-1)", .number(4)),
            ("XMATCH(H1,{\"\",4.1,\"a\",1.1},-1)", .number(3)),
            ("XMATCH(H1,{\"c bau c\",4.1,\"a\",1.1},-1)", .number(1)),
            ("XMATCH(H1,{FALSE,2.1,TRUE,4.1},-1)", .number(3)),
            ("XMATCH(H1,{TRUE,FALSE,\"a\",\"c bau c\"},-1)", .number(1)),
            ("XMATCH(H1,{-1.1,2.1,3.1,4.1},1)", .error(.notAvailable)),
            ("XMATCH(H1,{4.1,3.1,2.1,1.1},0)", .error(.notAvailable)),
            ("XMATCH(H1,{#N/A,#DIV/0!},-1)", .error(.notAvailable)),
            ("XLOOKUP(H1,{\"\",4.1,\"a\",1.1},{\"L\",\"ML\",\"MR\",\"R\"},1,1)", .number(1)),
            ("XLOOKUP(H1,{1,5,3},{\"a\",\"b\",\"c\"},,-1,-1)", .text("b")),
        ]
        for (formula, expected) in cases { #expect(eval(formula) == expected, "\(formula)") }
        #expect(eval("XMATCH(H1,A1:A3,-1)", ["A1": 2, "A3": 9]) == .number(2), "a blank cell is found first")
    }

    @Test func binarySearchProbesAsExcelDoes() {
        let cases: [(String, CalcValue)] = [
            ("XMATCH(4.1,{\"c bau c\",4.1,\"a\",1.1},0,2)", .number(2)),
            ("XMATCH(4.1,{\"\",4.1,\"a\",1.1},1,2)", .number(2)),
            ("XMATCH(4.1,{TRUE,4.1,FALSE,1.1},-1,2)", .number(2)),
            ("XMATCH(4.1,{TRUE,4.1,FALSE,\"c bau c\"},-1,-2)", .number(2)),
            ("XMATCH(4.1,{\"\",\"a\",1.1,4.1},0,2)", .error(.notAvailable)),
            ("XMATCH(4.1,{1.1,4.1,\"\",\"a\"},-1,-2)", .number(2)),
            ("XMATCH(\"ss\",{1,\"SS\",\"c bau c\",4.1},0,2)", .number(2)),
            ("XMATCH(FALSE,{\"a\",2,FALSE,4.1,3,2.1,2,FALSE,9,9},-1,2)", .number(8)),
            // Sorted data: first of a run going up, last going down; neighbours on the asked side.
            ("XMATCH(2,{1,2,2,2,3},0,2)", .number(2)),
            ("XMATCH(2,{3,2,2,2,1},0,-2)", .number(4)),
            ("XMATCH(2.5,{1,2,3,4},-1,2)", .number(2)),
            ("XMATCH(2.5,{1,2,3,4},1,2)", .number(3)),
            ("XMATCH(2.5,{4,3,2,1},-1,-2)", .number(3)),
            ("XMATCH(2.5,{4,3,2,1},1,-2)", .number(2)),
            ("XMATCH(0,{1,2,3},-1,2)", .error(.notAvailable)),
            ("XMATCH(9,{1,2,3},1,2)", .error(.notAvailable)),
            ("XMATCH(1,{1},0,2)", .number(1)),
            ("XMATCH(1E+308,{1,2,3},-1,2)", .number(3)),
        ]
        for (formula, expected) in cases { #expect(eval(formula) == expected, "\(formula)") }
    }

    /// LOOKUP's and MATCH's approximate search ends at an equal value it meets, at the end of that
    /// value's run, so unsorted mixed data gives what the probes meet (LOOKUP!V60:V71: the middle
    /// probe of {"b",4.1,"a",1.1} meets 4.1 and stops there; before, the engine went on to 1.1).
    @Test func approximateMatchStopsAtAnEqualValue() {
        let cases: [(String, CalcValue)] = [
            ("LOOKUP(4.1,{\"b\",4.1,\"a\",1.1})", .number(4.1)),
            ("LOOKUP(4.1,{\"\",4.1,\"a\",1.1})", .number(4.1)),
            ("LOOKUP(4.1,{TRUE,4.1,FALSE,1.1})", .number(4.1)),
            ("LOOKUP(2,{\"b\",4.1,\"a\",1.1})", .error(.notAvailable)),
            ("LOOKUP(-2,{\"b\",4.1,\"a\",1.1})", .error(.notAvailable)),
            ("MATCH(4.1,{\"c bau c\",4.1,\"a\",1.1})", .number(2)),
            ("MATCH(4.1,{TRUE,4.1,FALSE,1.1})", .number(2)),
            // Sorted data: the last of a run of equal values, as before.
            ("MATCH(2,{1,2,2,2,3})", .number(4)),
            ("MATCH(2,{1,2,2,2,3,3,3,3,3,3})", .number(4)),
            ("MATCH(1,{1,1,\"x\",1})", .number(2)),
            ("MATCH(\"b\",{\"a\",\"b\",\"B\",\"c\"})", .number(3)),
            ("MATCH(TRUE,{FALSE,TRUE,TRUE})", .number(3)),
            ("MATCH(2.5,{1,2,3})", .number(2)),
            ("MATCH(0,{1,2,3})", .error(.notAvailable)),
            ("MATCH(#N/A,{1,2,3})", .error(.notAvailable)),
            ("MATCH(1E+308,{1,2,3})", .number(3)),
        ]
        for (formula, expected) in cases { #expect(eval(formula) == expected, "\(formula)") }
    }

    /// XLOOKUP's and XMATCH's search mode is rounded down (LOOKUP!AH162: -1.1 searches binary over
    /// descending data), and a blank lookup value's next smaller in descending data is the first value (W178).
    @Test func searchModeRoundsDownAndABlankSortsAboveDescendingData() {
        let cases: [(String, CalcValue)] = [
            ("XLOOKUP(-1.1,{-1.1,2.1,3.1,4.1},{\"L\",\"ML\",\"MR\",\"R\"},,1,-1.1)", .text("R")),
            ("XLOOKUP(-1.1,{-1.1,2.1,3.1,4.1},{\"L\",\"ML\",\"MR\",\"R\"},,1,-1)", .text("L")),
            ("XMATCH(2,{1,2,3},0,1.9)", .number(2)),
            ("XMATCH(2,{1,2,3},0,0.5)", .error(.value)),
            ("XMATCH(2,{1,2,3},0,-3)", .error(.value)),
            ("XMATCH(2,{1,2,3},0,1E+300)", .error(.value)),
            ("XMATCH(2,{1,2,3},0,\"x\")", .error(.value)),
            ("XMATCH(H1,{TRUE,4.1,FALSE,\"c bau c\"},-1,-2)", .number(1)),
            ("XMATCH(H1,{4.1,3.1,2.1},-1,-2)", .number(1)),
            ("XMATCH(H1,{4.1,3.1,2.1},1,-2)", .error(.notAvailable)),
        ]
        for (formula, expected) in cases { #expect(eval(formula) == expected, "\(formula)") }
    }

    /// A criterion read as a date from text also meets a cell holding the same text (Excel's
    /// `COUNTIF(I24:J24,I24)` over `"29/02/1900"` and TRUE is 1).
    @Test func aDateTextCriterionMeetsTheSameText() {
        let cells: [String: Any] = ["A1": "29/02/1900", "A2": true, "A3": 60, "A4": "1/03/1900", "A5": "29/02/1900 "]
        #expect(eval("COUNTIF(A1:A5,A1)", cells) == .number(2))
        #expect(eval("COUNTIF(A1:A5,\"<>29/02/1900\")", cells) == .number(4), "text differs for <>, as \"23\" for \"<>23\"")
        #expect(eval("SUMIF(A1:A5,\"29/02/1900\",A1:A5)", cells) == .number(60))
        #expect(eval("COUNTIF(A1:A5,\">29/02/1900\")", cells) == .number(0))
    }

    /// Serials 0 and 1 are in ISO week 52 of 1899 (Excel: `ISOWEEKNUM` of 0, 0.7, 1, TRUE and a blank is 52).
    @Test func isoWeeksOfExcelsFirstDays() {
        for argument in ["0", "0.7", "1", "TRUE", "H1"] { #expect(eval("ISOWEEKNUM(\(argument))") == .number(52), "\(argument)") }
        #expect(eval("ISOWEEKNUM(2)") == .number(1))
        #expect(eval("ISOWEEKNUM(-1)") == .error(.number))
    }

    /// INDEX with one index into a block of cells: #REF!, where a row or column of cells, or an
    /// array's row, is read (LOOKUP!R53 and its neighbours).
    @Test func indexWithOneIndexIntoABlockIsARefError() {
        let cells: [String: Any] = ["A1": 1, "B1": 2, "C1": 3, "A2": 4, "B2": 5, "C2": 6]
        #expect(eval("INDEX(A1:C2,2)", cells) == .error(.reference))
        #expect(eval("INDEX(A1:C2,1)", cells) == .error(.reference))
        #expect(eval("INDEX(A1:C2,2,3)", cells) == .number(6))
        #expect(eval("INDEX(A1:C1,2)", cells) == .number(2))
        #expect(eval("INDEX(A1:A2,2)", cells) == .number(4))
        #expect(eval("INDEX({2,3;4,5},2)", cells) == .number(4))
        #expect(eval("INDEX(A1:C2,-1)", cells) == .error(.value))
        #expect(eval("INDEX(A1:C2,\"x\")", cells) == .error(.value))
        #expect(eval("INDEX(A1:C2,#N/A)", cells) == .error(.notAvailable))
    }
}
