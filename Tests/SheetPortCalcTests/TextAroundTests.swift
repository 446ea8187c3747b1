import Testing
@testable import SheetPortCalc

/// TEXTBEFORE and TEXTAFTER argument handling against Excel's values in the calculation suite
/// (TEXT__TEXTBEFORE_TEXTAFTER, Sheet1 rows 15-40).
@Suite struct TextAroundTests {
    static var cells: [String: Any] { ["A1": "123 the 456 the 891", "F1": "Failed"] }

    @Test(arguments: [
        // instance_num is floored: 1.2 is 1, -1.2 and -1.6 are -2.
        ("TEXTAFTER(A1,\"the\",1.2)", CalcValue.text(" 456 the 891")), ("TEXTAFTER(A1,\"the\",-1.2)", .text(" 456 the 891")),
        ("TEXTBEFORE(A1,\"the\",-1.6)", .text("123 ")), ("TEXTAFTER(A1,\"the\",-0.5)", .text(" 891")),
        ("TEXTAFTER(A1,\"the\",0.5)", .error(.value)),
        // An explicit instance past the delimiter's last possible place is #VALUE!; without it #N/A.
        ("TEXTAFTER(\"del\",\"deli\",1,1,0,\"qwerty\")", .error(.value)), ("TEXTBEFORE(\"hi\",\"Hello Good Morning\",1)", .error(.value)),
        ("TEXTAFTER(\"del\",\"deli\")", .error(.notAvailable)), ("TEXTAFTER(A1,\"Hello\",2,1,1,F1)", .text("Failed")),
        // match_end is 0 or 1 (or a boolean).
        ("TEXTAFTER(A1,\"Hello\",-1,1,2,F1)", .error(.value)), ("TEXTBEFORE(A1,\"Hello\",-1,1,-12,F1)", .error(.value)),
        ("TEXTAFTER(A1,\"Hello\",-1,1,TRUE,F1)", .text("123 the 456 the 891")), ("TEXTAFTER(A1,\"Hello\",-1,1,1,F1)", .text("123 the 456 the 891")),
        // A blank if_not_found gives "".
        ("TEXTAFTER(TRUE,\"r\",1,0,0,B9)", .text("")), ("TEXTAFTER(TRUE,\"R\",1,0,0,B9)", .text("UE")),
        ("TEXTAFTER(A1,\"the\",1E+300)", .error(.value)),
    ])
    func evaluates(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula, Self.cells) == expected, "\(formula)")
    }
}
