import Testing
@testable import SheetPortCalc
import SheetPortCore

@Suite struct DateTests {
    static let table: [(String, CalcValue)] = [
        ("DATE(2024,1,31)", .number(45322)), ("DATE(1900,1,1)", .number(1)), ("DATE(1900,2,28)", .number(59)), ("DATE(1900,2,29)", .number(60)),
        ("DATE(1900,3,1)", .number(61)), ("DATE(2024,13,1)", .number(45658)), ("DATE(2024,1,0)", .number(45291)), ("DATE(99,1,1)", .number(36161)),
        ("DATE(10000,1,1)", .error(.number)), ("YEAR(60)", .number(1900)), ("MONTH(60)", .number(2)), ("DAY(60)", .number(29)), ("DAY(61)", .number(1)),
        ("DAY(59)", .number(28)), ("WEEKDAY(1)", .number(1)), ("WEEKDAY(45322)", .number(4)), ("WEEKDAY(45322,2)", .number(3)),
        ("WEEKDAY(45322,3)", .number(2)), ("WEEKDAY(-1)", .error(.number)), ("YEAR(\"2024-03-05\")", .number(2024)),
        ("TIME(12,30,0)", .number(0.520833333333333)), ("TIME(25,0,0)", .number(1.0 / 24)), ("HOUR(0.75)", .number(18)), ("MINUTE(0.5208333333)", .number(30)),
        ("SECOND(TIME(1,2,3))", .number(3)), ("TIMEVALUE(\"6:00 PM\")", .number(0.75)), ("DATEVALUE(\"1/31/2024\")", .number(45322)),
        ("DATEVALUE(\"31-Jan-2024\")", .number(45322)), ("DATEVALUE(\"x\")", .error(.value)), ("EDATE(45322,1)", .number(45351)),
        ("EOMONTH(45322,1)", .number(45351)), ("EOMONTH(45322,-1)", .number(45291)), ("DAYS(45322,45292)", .number(30)),
        ("DATEDIF(DATE(2020,1,15),DATE(2024,1,31),\"Y\")", .number(4)), ("DATEDIF(DATE(2020,1,15),DATE(2024,1,10),\"M\")", .number(47)),
        ("DATEDIF(DATE(2020,1,15),DATE(2024,1,10),\"MD\")", .number(26)), ("DATEDIF(45322,45292,\"D\")", .error(.number)),
        ("NETWORKDAYS(DATE(2024,1,1),DATE(2024,1,31))", .number(23)), ("NETWORKDAYS(DATE(2024,1,1),DATE(2024,1,31),DATE(2024,1,1))", .number(22)),
        ("WORKDAY(DATE(2024,1,5),1)", .number(45299)), ("WORKDAY(DATE(2024,1,8),-1)", .number(45296)),
        ("YEARFRAC(DATE(2024,1,1),DATE(2024,7,1))", .number(0.5)), ("YEARFRAC(DATE(2023,1,1),DATE(2024,1,1),1)", .number(1)),
        ("WEEKNUM(DATE(2024,1,6))", .number(1)), ("WEEKNUM(DATE(2024,1,7))", .number(2)), ("ISOWEEKNUM(DATE(2021,1,3))", .number(53)),
        ("ISOWEEKNUM(DATE(2024,12,30))", .number(1)), ("TODAY()", .number(46023)), ("NOW()", .number(46023.5625)),
    ]

    @Test(arguments: DateTests.table)
    func evaluates(_ formula: String, _ expected: CalcValue) {
        let got = eval(formula)
        if case .number(let x) = expected { #expect(close(got, x), "\(formula) = \(got)") } else { #expect(got == expected, "\(formula) = \(got)") }
    }

    @Test func system1904() {
        #expect(eval("DATE(1904,1,2)", system: .excel1904) == .number(1))
        #expect(eval("YEAR(0)", system: .excel1904) == .number(1904))
        #expect(eval("DATE(2024,1,31)", system: .excel1904) == .number(45322 - 1462))
        #expect(eval("WEEKDAY(0)", system: .excel1904) == .number(6))
    }

    @Test func clockAndTimeZone() {
        let e = CalcEngine(clock: .fixed(unixTime: 1_767_225_600, utcOffsetSeconds: -3600))
        let s = e.addSheet("S")
        e.setFormula("TODAY()", at: CellReference("A1")!, sheet: s)
        e.recalculate()
        // 2026-01-01 00:00 UTC is still 2025-12-31 an hour west.
        #expect(e.value(at: CellReference("A1")!, sheet: s) == .number(46022))
    }
}

@Suite struct LookupTests {
    nonisolated(unsafe) static let cells: [String: Any] = [
        "A1": "id", "B1": "name", "C1": "score",
        "A2": 1, "B2": "Ann", "C2": 90,
        "A3": 2, "B3": "bob", "C3": 75,
        "A4": 3, "B4": "Cy", "C4": 60,
        "A5": 5, "B5": "Dee", "C5": 88,
        "E1": 10, "F1": 20, "G1": 30,
    ]

    static let table: [(String, CalcValue)] = [
        ("VLOOKUP(2,A2:C5,2,FALSE)", .text("bob")), ("VLOOKUP(4,A2:C5,2)", .text("Cy")), ("VLOOKUP(4,A2:C5,2,FALSE)", .error(.notAvailable)),
        ("VLOOKUP(0,A2:C5,2)", .error(.notAvailable)), ("VLOOKUP(9,A2:C5,3,TRUE)", .number(88)), ("VLOOKUP(2,A2:C5,4,FALSE)", .error(.reference)),
        ("VLOOKUP(2,A2:C5,0,FALSE)", .error(.value)), ("VLOOKUP(\"BOB\",B2:C5,2,FALSE)", .number(75)), ("VLOOKUP(\"b*\",B2:C5,2,FALSE)", .number(75)),
        ("VLOOKUP(\"2\",A2:C5,2,FALSE)", .error(.notAvailable)), ("VLOOKUP(2,{1,\"a\";2,\"b\"},2,FALSE)", .text("b")),
        ("HLOOKUP(20,E1:G1,1,FALSE)", .number(20)), ("HLOOKUP(\"name\",A1:C5,3,FALSE)", .text("bob")),
        ("MATCH(3,A2:A5,0)", .number(3)), ("MATCH(4,A2:A5)", .number(3)), ("MATCH(\"c?\",B2:B5,0)", .number(3)), ("MATCH(7,{9,8,7,6},-1)", .number(3)),
        ("MATCH(99,A2:A5,0)", .error(.notAvailable)), ("INDEX(A2:C5,2,3)", .number(75)), ("INDEX(A2:C5,0,2)", .error(.value)),
        ("SUM(INDEX(A2:C5,0,3))", .number(313)), ("INDEX(E1:G1,2)", .number(20)), ("INDEX({1,2;3,4},2,1)", .number(3)), ("INDEX(A2:C5,9,1)", .error(.reference)),
        ("XLOOKUP(3,A2:A5,B2:B5)", .text("Cy")), ("XLOOKUP(4,A2:A5,B2:B5,\"none\")", .text("none")), ("XLOOKUP(4,A2:A5,B2:B5,,-1)", .text("Cy")),
        ("XLOOKUP(4,A2:A5,B2:B5,,1)", .text("Dee")), ("XLOOKUP(\"d*\",B2:B5,C2:C5,,2)", .number(88)), ("XMATCH(5,A2:A5)", .number(4)),
        ("XMATCH(4,A2:A5,1)", .number(4)), ("XMATCH(4,A2:A5,0,2)", .error(.notAvailable)), ("XMATCH(3,A2:A5,0,2)", .number(3)),
        ("LOOKUP(4,A2:A5,B2:B5)", .text("Cy")), ("LOOKUP(3,{1,2,3},{\"a\",\"b\",\"c\"})", .text("c")),
        ("ROW(B7)", .number(7)), ("COLUMN(C1)", .number(3)), ("ROWS(A1:C5)", .number(5)), ("COLUMNS(A1:C5)", .number(3)), ("ROWS({1;2;3})", .number(3)),
        ("ROW()", .number(1000)), ("COLUMN()", .number(702)), ("INDIRECT(\"B3\")", .text("bob")), ("SUM(INDIRECT(\"C2:C5\"))", .number(313)),
        ("INDIRECT(\"R3C2\",FALSE)", .text("bob")), ("INDIRECT(\"nonsense!!\")", .error(.reference)), ("SUM(OFFSET(A2,1,2,2,1))", .number(135)),
        ("OFFSET(A1,-1,0)", .error(.reference)), ("ADDRESS(2,3)", .text("$C$2")), ("ADDRESS(2,3,4)", .text("C2")), ("ADDRESS(2,3,1,FALSE)", .text("R2C3")),
        ("ADDRESS(1,1,1,TRUE,\"My Sheet\")", .text("'My Sheet'!$A$1")), ("SUM(TRANSPOSE(A2:A5))", .number(11)),
        ("COUNTIF(A2:A5,\">=2\")", .number(3)), ("COUNTIF(B2:B5,\"b*\")", .number(1)), ("COUNTIF(B2:B5,\"<>Ann\")", .number(3)),
        ("COUNTIF(A1:A9,\"\")", .number(4)), ("COUNTIF(A1:A9,\"<>\")", .number(5)), ("COUNTIF(A2:A5,2)", .number(1)), ("COUNTIF(A2:A5,\"2\")", .number(1)),
        ("COUNTIF(B2:B5,\"ANN\")", .number(1)), ("COUNTIFS(A2:A5,\">1\",C2:C5,\">70\")", .number(2)), ("SUMIF(A2:A5,\">2\",C2:C5)", .number(148)),
        ("SUMIF(C2:C5,\">80\")", .number(178)), ("SUMIFS(C2:C5,A2:A5,\"<5\",B2:B5,\"?*\")", .number(225)), ("AVERAGEIF(A2:A5,\"<3\",C2:C5)", .number(82.5)),
        ("AVERAGEIF(A2:A5,\">9\",C2:C5)", .error(.divisionByZero)), ("AVERAGEIFS(C2:C5,A2:A5,\">1\")", .number(74.3333333333333)),
        ("MAXIFS(C2:C5,A2:A5,\"<4\")", .number(90)), ("MINIFS(C2:C5,A2:A5,\">1\")", .number(60)), ("SUM(COUNTIF(B2:B5,{\"Ann\",\"Cy\"}))", .number(2)),
        ("MEDIAN(C2:C5)", .number(81.5)), ("MODE(1,2,2,3)", .number(2)), ("MODE(1,2,3)", .error(.notAvailable)), ("LARGE(C2:C5,2)", .number(88)),
        ("SMALL(C2:C5,1)", .number(60)), ("SMALL(C2:C5,9)", .error(.number)), ("RANK(88,C2:C5)", .number(2)), ("RANK(88,C2:C5,1)", .number(3)),
        ("RANK.AVG(2,{1,2,2,3})", .number(2.5)), ("STDEV(2,4,4,4,5,5,7,9)", .number(2.13808993529940)), ("STDEV.P(2,4,4,4,5,5,7,9)", .number(2)),
        ("VAR(1,2,3,4)", .number(1.66666666666667)), ("VARP(1,2,3,4)", .number(1.25)), ("STDEV(1)", .error(.divisionByZero)),
        ("PERCENTILE({1,2,3,4},0.5)", .number(2.5)), ("QUARTILE({1,2,3,4,5},1)", .number(2)), ("CORREL({1,2,3},{2,4,6.5})", .number(0.997948715788673)),
        // financial
        ("PMT(0.05/12,360,200000)", .number(-1073.64324602269)), ("PMT(0,10,100)", .number(-10)), ("FV(0.05,10,-100)", .number(1257.78925355488)),
        ("PV(0.05,10,-100)", .number(772.173492918482)), ("NPV(0.1,-100,50,60,70)", .number(43.3030530701455)), ("IRR({-100,50,60})", .number(0.0639410298049573)),
        ("NPER(0.01,-100,1000)", .number(10.5886444594233)), ("RATE(10,-100,800)", .number(0.0427749780351115)),
        ("IPMT(0.1,1,3,1000)", .number(-100)), ("PPMT(0.1,1,3,1000)", .number(-302.114803625378)),
    ]

    @Test(arguments: LookupTests.table)
    func evaluates(_ formula: String, _ expected: CalcValue) {
        let got = eval(formula, LookupTests.cells)
        if case .number(let x) = expected {
            #expect(got.number.map { Swift.abs($0 - x) <= Swift.abs(x) * 1e-9 } ?? false, "\(formula) = \(got)")
        } else {
            #expect(got == expected, "\(formula) = \(got)")
        }
    }

    @Test func exactLookupsBuildTheirIndexOnce() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        for r in 1...1_000 {
            e.setValue(.number(Double(r)), at: CellReference(row: r, column: 1), sheet: s)
            e.setValue(.text("v\(r)"), at: CellReference(row: r, column: 2), sheet: s)
        }
        for r in 1...20_000 {
            e.setFormula("VLOOKUP(\(r % 1000 + 1),$A$1:$B$1000,2,FALSE)", at: CellReference(row: r, column: 4), sheet: s)
            e.setFormula("COUNTIF($A$1:$A$1000,\(r % 1000 + 1))", at: CellReference(row: r, column: 5), sheet: s)
        }
        e.recalculate()
        #expect(e.value(at: CellReference("D20000")!, sheet: s) == .text("v1"))
        #expect(e.value(at: CellReference("D1")!, sheet: s) == .text("v2"))
        #expect(e.value(at: CellReference("E77")!, sheet: s) == .number(1))
        // One exact-match index for VLOOKUP's key column and one criteria index for COUNTIF.
        #expect(e.lookupCache.builds == 2)
    }
}
