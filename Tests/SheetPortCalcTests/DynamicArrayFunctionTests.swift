import Testing
import Foundation
@testable import SheetPortCalc

/// SEQUENCE, SORT, SORTBY, UNIQUE, FILTER, HSTACK, VSTACK, TAKE, DROP, EXPAND, TOCOL, TOROW, WRAPCOLS
/// and WRAPROWS: Microsoft's documented examples (support.microsoft.com, each function's article)
/// and the values Excel cached in the calculation suite (LOOKUP_AND_REFERENCE__SORT, DROP_TAKE,
/// EXPAND, FILTER_ERRORS, HSTACK_VSTACK, TOCOL, WRAPCOLS_ROWS, MATH_AND_TRIGONOMETRY__SEQUENCE);
/// whole arrays are read through ARRAYTOTEXT's strict form.
@Suite struct DynamicArrayFunctionTests {
    @Test(arguments: [
        // SEQUENCE
        ("ARRAYTOTEXT(SEQUENCE(2,3),1)", CalcValue.text("{1,2,3;4,5,6}")),
        ("ARRAYTOTEXT(SEQUENCE(3,1,10,2.5),1)", .text("{10;12.5;15}")),
        ("ARRAYTOTEXT(SEQUENCE(3,,10),1)", .text("{10;11;12}")),
        ("ROWS(SEQUENCE(2.3,4,7))", .number(2)), ("COLUMNS(SEQUENCE(,12,,2.5))", .number(12)),
        ("ROWS(SEQUENCE(\"5\"))", .number(5)), ("SUM(SEQUENCE(10))", .number(55)),
        ("SEQUENCE(0,0)", .error(.calc)), ("SEQUENCE(-1)", .error(.value)), ("SEQUENCE(0.3)", .error(.calc)),
        ("SEQUENCE(1/0)", .error(.divisionByZero)), ("SEQUENCE(NA())", .error(.notAvailable)),
        ("SEQUENCE(100000,100000)", .error(.number)), ("SEQUENCE(1E+300)", .error(.number)), ("SEQUENCE(\"x\")", .error(.value)),
        ("MATCH(15,SEQUENCE(5,1,5,5),0)", .number(3)), ("VLOOKUP(3,SEQUENCE(3,2),2)", .number(4)),
        // RANDARRAY: shape, bounds and whole numbers (the values are random)
        ("ROWS(RANDARRAY(3,4))", .number(3)), ("COLUMNS(RANDARRAY(3,4))", .number(4)),
        ("AND(RANDARRAY(20,20,5,7)>=5,RANDARRAY(20,20,5,7)<=7)", .boolean(true)),
        ("SUMPRODUCT(--(MOD(RANDARRAY(20,20,1,3,TRUE),1)=0))", .number(400)), ("MAX(RANDARRAY(50,50,1,3,TRUE))", .number(3)),
        ("AND(RANDARRAY()>=0,RANDARRAY()<1)", .boolean(true)),
        ("RANDARRAY(2,2,5,1)", .error(.value)), ("RANDARRAY(2,2,1.5,3,TRUE)", .error(.value)), ("RANDARRAY(-1)", .error(.value)),
        ("RANDARRAY(100000,100000)", .error(.number)),
        // SORT and SORTBY
        ("ARRAYTOTEXT(SORT({3;1;2}),1)", .text("{1;2;3}")), ("ARRAYTOTEXT(SORT({3;1;2},1,-1),1)", .text("{3;2;1}")),
        ("ARRAYTOTEXT(SORT({\"b\",2;\"a\",1;\"c\",0},2),1)", .text("{\"c\",0;\"a\",1;\"b\",2}")),
        ("ARRAYTOTEXT(SORT({3,1,2},1,1,TRUE),1)", .text("{1,2,3}")),
        ("ARRAYTOTEXT(SORT({1,\"b\";2,\"a\";1,\"a\"},{1,2},{1,-1}),1)", .text("{1,\"b\";1,\"a\";2,\"a\"}")),
        ("SORT({3;1;2},1,2)", .error(.value)), ("SORT({3;1;2},2)", .error(.value)), ("SORT({3;1;2},0)", .error(.value)),
        ("SORT({2,1,2,1},1,{1;-1})", .error(.value)),
        ("ARRAYTOTEXT(SORTBY({\"a\";\"b\";\"c\"},{3;1;2}),1)", .text("{\"b\";\"c\";\"a\"}")),
        ("ARRAYTOTEXT(SORTBY({\"a\";\"b\";\"c\"},{1;1;2},-1,{\"z\";\"y\";\"x\"},1),1)", .text("{\"c\";\"b\";\"a\"}")),
        ("SORTBY({\"a\";\"b\";\"c\"},{3;1})", .error(.value)), ("SORTBY({1;2},{2;1},0)", .error(.value)),
        // UNIQUE (text compared case-blind, as Excel's `=`)
        ("ARRAYTOTEXT(UNIQUE({\"apple\";\"banana\";\"Apple\";\"cherry\"}),1)", .text("{\"apple\";\"banana\";\"cherry\"}")),
        ("ARRAYTOTEXT(UNIQUE({1;2;2;3},,TRUE),1)", .text("{1;3}")), ("ARRAYTOTEXT(UNIQUE({1,1,2},TRUE),1)", .text("{1,2}")),
        ("ARRAYTOTEXT(UNIQUE({1,2;1,2;1,3}),1)", .text("{1,2;1,3}")), ("UNIQUE({1;1},,TRUE)", .error(.calc)),
        // FILTER
        ("ARRAYTOTEXT(FILTER({10;20;30;40},{10;20;30;40}>25),1)", .text("{30;40}")),
        ("ARRAYTOTEXT(FILTER({1,2,3},{TRUE,FALSE,1}),1)", .text("{1,3}")),
        ("FILTER({1;2},{0;0},\"none\")", .text("none")), ("FILTER({1;2},{0;0})", .error(.calc)),
        ("FILTER({1;2},{\"yes\";1})", .error(.value)), ("FILTER({1;2;3},{1;0})", .error(.value)),
        ("FILTER({1;2},{1;#DIV/0!})", .error(.divisionByZero)),
        // HSTACK and VSTACK: short parts padded with #N/A
        ("ARRAYTOTEXT(HSTACK({1;2;3},{4;5}),1)", .text("{1,4;2,5;3,#N/A}")),
        ("ARRAYTOTEXT(VSTACK({1,2},{3}),1)", .text("{1,2;3,#N/A}")),
        ("ARRAYTOTEXT(HSTACK(\"one\",2),1)", .text("{\"one\",2}")), ("ARRAYTOTEXT(HSTACK(1/0,2),1)", .text("{#DIV/0!,2}")), ("VLOOKUP(\"b\",HSTACK({\"a\";\"b\";\"c\"},{10;20;30}),2,FALSE)", .number(20)),
        // TAKE and DROP: counts truncated, negative from the end
        ("ARRAYTOTEXT(DROP({1;2;3;4;5;6;7},2),1)", .text("{3;4;5;6;7}")), ("ARRAYTOTEXT(DROP({1;2;3;4;5;6;7},3.4),1)", .text("{4;5;6;7}")),
        ("ARRAYTOTEXT(DROP({1;2;3;4;5;6;7},-2),1)", .text("{1;2;3;4;5}")), ("ARRAYTOTEXT(DROP({1;2;3;4;5;6;7},6.2),1)", .text("{7}")),
        ("DROP({1;2;3;4;5;6;7},7)", .error(.calc)), ("DROP({1;2;3;4;5;6;7},-7)", .error(.calc)),
        ("DROP({1;2;3;4;5;6;7},1200)", .error(.calc)), ("DROP({1;2;3;4;5;6;7},1,1)", .error(.calc)),
        ("DROP(1/0,1)", .error(.divisionByZero)), ("SORT(NA())", .error(.notAvailable)),
        ("ARRAYTOTEXT(TAKE({1;2;3;4;5;6;7},2),1)", .text("{1;2}")), ("ARRAYTOTEXT(TAKE({1;2;3;4;5;6;7},-3),1)", .text("{5;6;7}")),
        ("ARRAYTOTEXT(TAKE({1,2,3;4,5,6},1,-1),1)", .text("{3}")), ("ARRAYTOTEXT(TAKE({1;2},1200),1)", .text("{1;2}")),
        ("TAKE({1;2;3},0)", .error(.calc)), ("ARRAYTOTEXT(TAKE({1,2,3;4,5,6},,2),1)", .text("{1,2;4,5}")),
        // EXPAND
        ("ARRAYTOTEXT(EXPAND({1,2;3,4},3),1)", .text("{1,2;3,4;#N/A,#N/A}")), ("ARRAYTOTEXT(EXPAND({1,2},1,3,\"x\"),1)", .text("{1,2,\"x\"}")),
        ("EXPAND({1,2;3,4},1)", .error(.value)), ("EXPAND({1},100000,100000)", .error(.number)),
        // TOCOL and TOROW
        ("ARRAYTOTEXT(TOCOL({1,2;3,4}),1)", .text("{1;2;3;4}")), ("ARRAYTOTEXT(TOCOL({1,2;3,4},0,TRUE),1)", .text("{1;3;2;4}")),
        ("ARRAYTOTEXT(TOROW({1,#N/A;3,4},2),1)", .text("{1,3,4}")), ("TOCOL({1,2},4)", .error(.value)),
        // WRAPCOLS and WRAPROWS
        ("ARRAYTOTEXT(WRAPCOLS({1,2,3,4,5},2),1)", .text("{1,3,5;2,4,#N/A}")),
        ("ARRAYTOTEXT(WRAPROWS({1,2,3,4,5},2,0),1)", .text("{1,2;3,4;5,0}")),
        ("WRAPROWS({1,2;3,4},2)", .error(.value)),
        // Counts given as arrays lift the function, each result its top-left value (formulas__test LOOKUP!AE16, O155, O156).
        ("ARRAYTOTEXT(DROP({1,2,3;4,5,6;7,8,9},1.1,{1;2;1}),1)", .text("{5;6;5}")),
        ("ARRAYTOTEXT(WRAPROWS({1,2,3},{1,2},6),1)", .text("{1,1}")), ("ARRAYTOTEXT(WRAPROWS({1,2,3},{-1.1,2}),1)", .text("{#NUM!,1}")),
        ("ARRAYTOTEXT(TAKE({1,2;3,4},{1;-1}),1)", .text("{1;3}")), ("ARRAYTOTEXT(DROP({1,2;3,4},{0,1},{0;1}),1)", .text("{1,3;2,4}")),
        ("ARRAYTOTEXT(WRAPCOLS({1,2,3},{2,\"x\",#N/A}),1)", .text("{1,#VALUE!,#N/A}")), ("INDEX(DROP({1,2;3,4},{1,5}),1,2)", .error(.calc)),
        ("ARRAYTOTEXT(TAKE({1,2;3,4},{1,1,1},{1;2}),1)", .text("{1,1,1;1,1,1}")), ("WRAPCOLS({1,2},0)", .error(.number)), ("WRAPCOLS(IF(1=0,{1,2,3}),2)", .boolean(false)),
    ])
    func evaluates(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula) == expected, "\(formula)")
    }

    /// Over ranges: blanks sort last either way, errors by their code, text case-blind and stable
    /// (LOOKUP_AND_REFERENCE__SORT Sheet1); a comparison over a range with a blank tail keeps the
    /// range's size (Sheet3!C2: FILTER(A2:A12,A2:A12>10) over six filled rows).
    @Test func rangesKeepTheirSize() {
        let cells: [String: Any] = ["A1": 5, "A2": "Hola", "A3": true, "A4": "=1/0", "A5": "HOLA", "A6": -2, "A8": "=NA()",
                                    "B2": 23, "B3": 24, "B4": 12, "B5": 8, "B6": 9, "B7": 12]
        #expect(eval("ARRAYTOTEXT(TAKE(SORT(A1:A8),6),1)", cells) == .text("{-2,5,\"Hola\",\"HOLA\",TRUE,#DIV/0!}".replacingOccurrences(of: ",", with: ";")))
        #expect(eval("INDEX(SORT(A1:A8),7)", cells) == .error(.notAvailable))
        #expect(eval("ROWS(SORT(A1:A8))", cells) == .number(8))
        #expect(eval("INDEX(SORT(A1:A8,1,-1),1)", cells) == .error(.notAvailable))
        #expect(eval("INDEX(SORT(A1:A8,1,-1),7)", cells) == .number(-2))
        #expect(eval("SUM(FILTER(B2:B12,B2:B12>10))", cells) == .number(71))
        #expect(eval("SUMPRODUCT(--(B2:B12<10))", cells) == .number(7))
        #expect(eval("ROWS(FILTER(B:B,B:B>10))", cells) == .number(4))
    }
}
