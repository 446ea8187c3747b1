import Testing
@testable import SheetPortCalc

/// Evaluation tables per function family, with hostile values.
@Suite struct FunctionTests {
    nonisolated(unsafe) static let cells: [String: Any] = [
        "A1": 1, "A2": 2, "A3": "3", "A4": true, "A5": "x", "A6": -4.5,
        "B1": 10, "B2": 20, "B3": 30, "B4": 40,
        "C1": "apple", "C2": "Banana", "C3": "cherry", "C4": "apple pie",
        "D1": CalcValue.error(.divisionByZero), "E1": 1e308, "E2": 1e-308, "E3": -0.0,
    ]

    static let table: [(String, CalcValue)] = [
        // aggregates: ranges skip text and booleans; direct text numbers count
        ("SUM(A1:A6)", .number(-1.5)), ("SUM(A1,\"3\",TRUE)", .number(5)), ("SUM(A1:A6,D1)", .error(.divisionByZero)),
        ("SUM(\"x\")", .error(.value)), ("SUM(E1,E1)", .error(.number)), ("SUM(Z1:Z9)", .number(0)),
        ("AVERAGE(A1:A6)", .number(-0.5)), ("AVERAGE(Z1:Z3)", .error(.divisionByZero)), ("AVERAGEA(A1:A5)", .number(0.8)),
        ("COUNT(A1:A6)", .number(3)), ("COUNT(1,\"2\",\"x\",TRUE)", .number(3)), ("COUNTA(A1:A6,Z1)", .number(6)),
        ("COUNTBLANK(A1:A8)", .number(2)), ("MAX(A1:A6)", .number(2)), ("MIN(A1:A6)", .number(-4.5)), ("MAX(Z1:Z2)", .number(0)),
        ("MAXA(A1:A5)", .number(2)), ("MINA(A4:A5)", .number(0)), ("PRODUCT(B1:B2)", .number(200)), ("SUMSQ(1,2)", .number(5)),
        ("SUMPRODUCT(B1:B2,A1:A2)", .number(50)), ("SUMPRODUCT((B1:B4>15)*B1:B4)", .number(90)), ("SUMPRODUCT(A1:A2,B1:B3)", .error(.value)),
        ("SUBTOTAL(9,B1:B4)", .number(100)), ("SUBTOTAL(101,B1:B4)", .number(25)), ("AGGREGATE(9,6,B1:B4,D1)", .number(100)),
        ("AGGREGATE(14,6,B1:B4,2)", .number(30)),
        // math
        ("ROUND(2.675,2)", .number(2.68)), ("ROUND(-2.5,0)", .number(-3)), ("ROUND(1234.5,-2)", .number(1200)),
        ("ROUNDUP(3.14159,3)", .number(3.142)), ("ROUNDDOWN(-3.99,0)", .number(-3)), ("MROUND(10,3)", .number(9)), ("MROUND(5,-2)", .error(.number)),
        ("INT(-3.5)", .number(-4)), ("TRUNC(-3.5)", .number(-3)), ("MOD(-3,2)", .number(1)), ("MOD(3,-2)", .number(-1)), ("MOD(1,0)", .error(.divisionByZero)),
        ("ABS(-2)", .number(2)), ("POWER(2,10)", .number(1024)), ("POWER(0,0)", .error(.number)), ("POWER(-8,1/3)", .number(-2)),
        ("SQRT(-1)", .error(.number)), ("SQRT(16)", .number(4)), ("LN(0)", .error(.number)), ("LOG(100)", .number(2)), ("LOG(8,2)", .number(3)),
        ("LOG10(1000)", .number(3)), ("EXP(0)", .number(1)), ("PI()>3.14", .boolean(true)), ("DEGREES(PI())", .number(180)),
        ("ATAN2(0,0)", .error(.divisionByZero)), ("CEILING(2.5,1)", .number(3)), ("CEILING(-2.5,-2)", .number(-4)), ("CEILING(2.5,-1)", .error(.number)),
        ("FLOOR(2.5,1)", .number(2)), ("FLOOR(-2.5,2)", .number(-4)), ("CEILING.MATH(-5.5,2,1)", .number(-6)), ("FLOOR.MATH(-5.5)", .number(-6)),
        ("CEILING.PRECISE(-4.1)", .number(-4)), ("FLOOR.PRECISE(4.9)", .number(4)), ("SIGN(-0.0)", .number(0)), ("GCD(12,18)", .number(6)),
        ("LCM(4,6)", .number(12)), ("FACT(5)", .number(120)), ("FACT(171)", .error(.number)), ("COMBIN(5,2)", .number(10)),
        ("EVEN(1.5)", .number(2)), ("EVEN(-1)", .number(-2)), ("ODD(2)", .number(3)), ("ODD(0)", .number(1)), ("QUOTIENT(-7,2)", .number(-3)),
        ("E1*10", .error(.number)), ("E2/1e10", .number(1e-318)), ("E3", .number(0)), ("1/E3", .error(.divisionByZero)),
        // logical
        ("IF(A1>0,\"p\",\"n\")", .text("p")), ("IF(FALSE,1)", .boolean(false)), ("IF(TRUE,)", .number(0)), ("IF(\"x\",1,2)", .error(.value)),
        ("IF(D1,1,2)", .error(.divisionByZero)), ("IFS(A1>5,1,A1>0,2)", .number(2)), ("IFS(FALSE,1)", .error(.notAvailable)),
        ("IFERROR(1/0,\"e\")", .text("e")), ("IFERROR(5,\"e\")", .number(5)), ("IFNA(NA(),1)", .number(1)), ("IFNA(1/0,1)", .error(.divisionByZero)),
        ("AND(A1:A4)", .boolean(true)), ("AND(A1,0)", .boolean(false)), ("OR(Z1:Z3)", .error(.value)), ("XOR(TRUE,TRUE,TRUE)", .boolean(true)),
        ("NOT(0)", .boolean(true)), ("SWITCH(2,1,\"a\",2,\"b\",\"z\")", .text("b")), ("SWITCH(9,1,\"a\",\"z\")", .text("z")),
        ("SWITCH(9,1,\"a\")", .error(.notAvailable)), ("CHOOSE(2,\"a\",\"b\")", .text("b")), ("CHOOSE(3,\"a\",\"b\")", .error(.value)),
        ("SUM(CHOOSE(2,A1:A2,B1:B2))", .number(30)), ("TRUE()", .boolean(true)),
        // comparison ordering
        ("\"a\"<\"B\"", .boolean(true)), ("\"A\"=\"a\"", .boolean(true)), ("1<\"0\"", .boolean(true)), ("\"z\"<TRUE", .boolean(true)),
        ("Z1=0", .boolean(true)), ("Z1=\"\"", .boolean(true)), ("Z1=FALSE", .boolean(true)), ("\"1\"=1", .boolean(false)),
        // information
        ("ISBLANK(Z1)", .boolean(true)), ("ISBLANK(A1)", .boolean(false)), ("ISNUMBER(A3)", .boolean(false)), ("ISTEXT(A3)", .boolean(true)),
        ("ISNONTEXT(Z1)", .boolean(true)), ("ISERROR(D1)", .boolean(true)), ("ISERR(NA())", .boolean(false)), ("ISNA(NA())", .boolean(true)),
        ("ISLOGICAL(A4)", .boolean(true)), ("ISEVEN(2.9)", .boolean(true)), ("ISODD(-3)", .boolean(true)), ("ISREF(A1)", .boolean(true)),
        ("ISREF(1)", .boolean(false)), ("TYPE(A5)", .number(2)), ("TYPE({1,2})", .number(64)), ("ERROR.TYPE(D1)", .number(2)),
        ("ERROR.TYPE(1)", .error(.notAvailable)), ("N(A4)", .number(1)), ("N(A5)", .number(0)), ("T(A5)", .text("x")), ("T(A1)", .text("")),
        // text
        ("CONCATENATE(\"a\",1,TRUE)", .text("a1TRUE")), ("CONCAT(A1:B2)", .text("110220")), ("TEXTJOIN(\"-\",TRUE,A1:A2,Z1,\"q\")", .text("1-2-q")),
        ("TEXTJOIN(\",\",FALSE,Z1,A1)", .text(",1")), ("LEFT(\"abc\",2)", .text("ab")), ("LEFT(\"abc\")", .text("a")), ("RIGHT(\"abc\",5)", .text("abc")),
        ("MID(\"abcdef\",2,3)", .text("bcd")), ("MID(\"abc\",9,1)", .text("")), ("MID(\"abc\",0,1)", .error(.value)), ("LEN(\"héllo\")", .number(5)),
        ("LEN(123.5)", .number(5)), ("FIND(\"b\",\"abcb\")", .number(2)), ("FIND(\"B\",\"abc\")", .error(.value)), ("FIND(\"b\",\"abcb\",3)", .number(4)),
        ("SEARCH(\"B\",\"abc\")", .number(2)), ("SEARCH(\"a?c\",\"xxabc\")", .number(3)), ("SEARCH(\"*c\",\"abc\")", .number(1)),
        ("SEARCH(\"~*\",\"a*b\")", .number(2)), ("SUBSTITUTE(\"aaa\",\"a\",\"b\")", .text("bbb")), ("SUBSTITUTE(\"aaa\",\"a\",\"b\",2)", .text("aba")),
        ("REPLACE(\"abcdef\",2,3,\"X\")", .text("aXef")), ("UPPER(\"aB\")", .text("AB")), ("LOWER(\"aB\")", .text("ab")),
        ("PROPER(\"hello wORLD 2go\")", .text("Hello World 2Go")), ("TRIM(\"  a   b  \")", .text("a b")), ("CLEAN(\"a\"&CHAR(7)&\"b\")", .text("ab")),
        ("VALUE(\"1,234.5\")", .number(1234.5)), ("VALUE(\"50%\")", .number(0.5)), ("VALUE(\"abc\")", .error(.value)), ("VALUE(\"1e3\")", .number(1000)),
        ("VALUE(\"$1,234.50\")", .number(1234.5)), ("VALUE(\"(12)\")", .number(-12)), ("VALUE(\"2024-01-31\")", .number(45322)),
        ("REPT(\"ab\",3)", .text("ababab")), ("EXACT(\"a\",\"A\")", .boolean(false)), ("CHAR(65)", .text("A")), ("CODE(\"A\")", .number(65)),
        ("CHAR(128)", .text("€")), ("UNICHAR(8364)", .text("€")), ("UNICODE(\"€\")", .number(8364)),
        ("FIXED(1234.567,1)", .text("1,234.6")), ("FIXED(1234.567,1,TRUE)", .text("1234.6")), ("FIXED(-0.5,0)", .text("-1")),
        ("DOLLAR(1234.567)", .text("$1,234.57")), ("DOLLAR(-2)", .text("($2.00)")),
        ("TEXT(1234.5,\"#,##0.00\")", .text("1,234.50")), ("TEXT(0.125,\"0.0%\")", .text("12.5%")), ("TEXT(0.5,\"0%\")", .text("50%")),
        ("TEXT(3.14159,\"0.00\")", .text("3.14")), ("TEXT(7,\"000\")", .text("007")), ("TEXT(45322,\"yyyy-mm-dd\")", .text("2024-01-31")),
        ("TEXT(45322,\"mm/dd/yyyy\")", .text("01/31/2024")), ("TEXT(45322,\"d-mmm-yy\")", .text("31-Jan-24")), ("TEXT(0.5,\"hh:mm:ss\")", .text("12:00:00")),
        ("TEXT(0.75,\"h:mm AM/PM\")", .text("6:00 PM")), ("TEXT(-1234.5,\"#,##0.00\")", .text("-1,234.50")), ("TEXT(12,\"General\")", .text("12")),
        ("TEXT(45322,\"dddd, mmmm d\")", .text("Wednesday, January 31")), ("TEXT(1234567,\"0.00E+00\")", .text("1.23E+06")),
        ("TEXT(\"abc\",\"0.00\")", .text("abc")), ("1&\"\"", .text("1")), ("0.1+0.2&\"\"", .text("0.3")), ("1/3&\"\"", .text("0.333333333333333")),
        ("1E+20&\"\"", .text("1E+20")), ("123456789012345678&\"\"", .text("1.23456789012346E+17")), ("0.00001&\"\"", .text("0.00001")),
        ("TRUE&\"\"", .text("TRUE")),
        // Excel's TEXT: a date format mixed with digit placeholders or a negative date is #VALUE!
        // (a cell shows ####); General keeps the digits scientific keeps (calc-suite TEXT__TEXT).
        ("TEXT(41181,\"mm###\")", .error(.value)), ("TEXT(-1,\"m/d/y\")", .error(.value)),
        ("TEXT(-2.5E-09,\"General\")", .text("-2.5E-09")), ("TEXT(-1E-08,\"General\")", .text("-0.00000001")),
        // coercion in arithmetic
        ("\" 12 \"+0", .number(12)), ("\"1,234\"+0", .number(1234)), ("\"1e3\"+0", .number(1000)), ("\"50%\"+0", .number(0.5)),
        ("\"1,23\"+0", .error(.value)), ("TRUE+TRUE", .number(2)), ("\"x\"+1", .error(.value)), ("Z1+1", .number(1)), ("Z1&\"a\"", .text("a")),
        ("\"2024-01-31\"+1", .number(45323)), ("\"12:00\"*2", .number(1)), ("1-0.9-0.1", .number(0)),
    ]

    @Test(arguments: FunctionTests.table)
    func evaluates(_ formula: String, _ expected: CalcValue) {
        let got = eval(formula, FunctionTests.cells)
        if case .number(let x) = expected {
            #expect(close(got, x), "\(formula) = \(got), expected \(expected)")
        } else {
            #expect(got == expected, "\(formula) = \(got), expected \(expected)")
        }
    }
}
