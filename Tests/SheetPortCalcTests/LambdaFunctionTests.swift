import Foundation
import Synchronization
import Testing
@testable import SheetPortCalc
import SheetPortCore

/// LET, LAMBDA, MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY and ISOMITTED: Microsoft's documented
/// examples (support.microsoft.com, each function's article, with its sample data in A1:C2), the
/// forms Excel stores in files (`_xlfn.`, `_xlpm.`, `_xlop.`, `_xleta.`), LAMBDAs held in defined
/// names, and hostile inputs (runaway recursion, huge arrays, wrong arity, a lambda as a value).
/// Whole arrays are read through ARRAYTOTEXT's strict form.
@Suite struct LambdaFunctionTests {
    nonisolated(unsafe) static let numbers: [String: Any] = ["A1": 1, "A2": 4, "B1": 2, "B2": 5, "C1": 3, "C2": 6]

    @Test(arguments: [
        // LET: "=LET(x, 5, SUM(x, 1))" is 6; names see the ones before them; inner names hide outer ones.
        ("LET(x, 5, SUM(x, 1))", CalcValue.number(6)),
        ("_xlfn.LET(_xlpm.x,1,SUM(_xlpm.x,3))", .number(4)),
        ("LET(x,2,y,x*10,x+y)", .number(22)),
        ("2+LET(x,8,LET(x,2,x+x)*x)", .number(34)),
        ("LET(r,A1:C2,SUM(r)+ROWS(r))", .number(23)),
        ("LET(Total,A1+B1,total*2)", .number(6)),
        ("LET(x,1/0,5)", .number(5)),
        ("LET(x,1,y)", .error(.name)),
        // LAMBDA called in place: "=LAMBDA(number, number + 1)(1)" is 2.
        ("LAMBDA(number, number + 1)(1)", .number(2)),
        ("_xlfn.LAMBDA(_xlpm.x,_xlpm.y, SQRT(_xlpm.x*_xlpm.x+_xlpm.y*_xlpm.y))(3,4)", .number(5)),
        ("LET(area,LAMBDA(x,y,x*y),area(6,7))", .number(42)),
        ("LET(k,10,f,LAMBDA(x,x+k),LET(k,1000,f(1)))", .number(11)),
        ("LAMBDA(x,LAMBDA(y,x*y))(3)(4)", .number(12)),
        ("INDEX(LAMBDA(x,x)(A1:C2),2,3)", .number(6)),
        ("SUM(LAMBDA(x,x)(A1:C2))", .number(21)),
        // Wrong arity, a lambda where a value goes, a value called.
        ("LAMBDA(x,y,x+y)(1)", .error(.value)),
        ("LAMBDA(x,x)(1,2)", .error(.value)),
        ("LAMBDA(x,x+1)", .error(.calc)),
        ("LET(f,LAMBDA(x,x),f)", .error(.calc)),
        ("LAMBDA(x,x)+1", .error(.value)),
        ("SUM(LAMBDA(x,x))", .error(.value)),
        ("LET(x,1,x(2))", .error(.value)),
        ("LAMBDA(x,x)(1/0)", .error(.divisionByZero)),
        ("LAMBDA(x,x)()", .error(.value)), ("LET(x,1,x)(2)", .error(.value)), ("_xlpm.x", .error(.name)),
        ("MAP({1},_xleta.NOSUCHFUNCTION)", .error(.name)), ("LAMBDA(1)()", .number(1)),
        ("LET(x,MAKEARRAY(10000,10000,LAMBDA(r,c,r)),ISERROR(x))", .boolean(true)),
        // ISOMITTED, and optional parameters as Excel stores them (`_xlop.`).
        ("_xlfn.LAMBDA(_xlpm.x,_xlpm.y, IF(_xlfn.ISOMITTED(_xlpm.y),\"Missing second argument\",_xlpm.x+_xlpm.y))(1,)", .text("Missing second argument")),
        ("LAMBDA(x,y,IF(ISOMITTED(y),\"missing\",x+y))(1,2)", .number(3)),
        ("_xlfn.LAMBDA(_xlpm.a,_xlop.b,IF(_xlfn.ISOMITTED(_xlpm.b),_xlpm.a/2,_xlpm.a*_xlpm.b))(12)", .number(6)),
        ("_xlfn.LAMBDA(_xlpm.a,_xlop.b,IF(_xlfn.ISOMITTED(_xlpm.b),_xlpm.a/2,_xlpm.a*_xlpm.b))(12,3)", .number(36)),
        ("ISOMITTED(1)", .boolean(false)),
        // MAP: "=MAP(A1:C2, LAMBDA(a, IF(a>4,a*a,a)))" over 1…6.
        ("ARRAYTOTEXT(MAP(A1:C2, LAMBDA(a, IF(a>4,a*a,a))),1)", .text("{1,2,3;4,25,36}")),
        ("ARRAYTOTEXT(MAP({1,2,3},LAMBDA(a,a+1)),1)", .text("{2,3,4}")),
        ("ARRAYTOTEXT(MAP(A1:C1,A2:C2,LAMBDA(x,y,x*y)),1)", .text("{4,10,18}")),
        ("ARRAYTOTEXT(MAP(A1:A2,LAMBDA(c,ROW(c))),1)", .text("{1;2}")),
        ("ARRAYTOTEXT(MAP({1,2},LAMBDA(x,{1,2})),1)", .text("{#CALC!,#CALC!}")),
        ("MAP(A1:C2,LAMBDA(x,y,x))", .error(.value)),
        ("MAP(A1:C2,5)", .error(.value)),
        // REDUCE: "=REDUCE(, A1:C2, LAMBDA(a,b,a+b^2))" is 91.
        ("REDUCE(, A1:C2, LAMBDA(a,b,a+b^2))", .number(91)),
        ("REDUCE(1,A1:C2,LAMBDA(a,b,IF(b>2,a*b,a)))", .number(360)),
        ("REDUCE(0,{1,2,3},LAMBDA(a,b,a+b))", .number(6)),
        // SCAN: "=SCAN(1,A1:C2,LAMBDA(a,b,a*b))" is the factorials.
        ("ARRAYTOTEXT(SCAN(1,A1:C2,LAMBDA(a,b,a*b)),1)", .text("{1,2,6;24,120,720}")),
        ("ARRAYTOTEXT(SCAN(\"\",{\"a\",\"b\",\"c\";\"d\",\"e\",\"f\"},LAMBDA(a,b,a&b)),1)",
         .text("{\"a\",\"ab\",\"abc\";\"abcd\",\"abcde\",\"abcdef\"}")),
        // BYROW and BYCOL: "=BYROW(A1:C2, LAMBDA(array, MAX(array)))" and SUMSQ.
        ("ARRAYTOTEXT(BYROW(A1:C2, LAMBDA(array, MAX(array))),1)", .text("{3;6}")),
        ("ARRAYTOTEXT(BYROW(A1:C2, LAMBDA(array, SUMSQ(array))),1)", .text("{14;77}")),
        ("ARRAYTOTEXT(BYCOL(A1:C2, LAMBDA(array, MAX(array))),1)", .text("{4,5,6}")),
        ("ARRAYTOTEXT(BYCOL(A1:C2, LAMBDA(array, SUMSQ(array))),1)", .text("{17,29,45}")),
        ("ARRAYTOTEXT(BYROW({1,2;3,4},LAMBDA(r,SUM(r))),1)", .text("{3;7}")),
        ("ARRAYTOTEXT(BYROW(A1:C2,LAMBDA(r,r*2)),1)", .text("{#CALC!;#CALC!}")),
        // Eta-reduced built-ins as Excel writes them.
        ("ARRAYTOTEXT(_xlfn.BYROW(A1:C2,_xleta.SUM),1)", .text("{6;15}")),
        ("ARRAYTOTEXT(_xlfn.BYCOL(A1:C2,_xleta.MAX),1)", .text("{4,5,6}")),
        ("ARRAYTOTEXT(MAP({1,4,9},_xleta.SQRT),1)", .text("{1,2,3}")),
        // MAKEARRAY: "=MAKEARRAY(3, 3, LAMBDA(r,c, r*c))".
        ("ARRAYTOTEXT(MAKEARRAY(3, 3, LAMBDA(r,c, r*c)),1)", .text("{1,2,3;2,4,6;3,6,9}")),
        ("ARRAYTOTEXT(MAKEARRAY(1,3,LAMBDA(r,c,c&\"x\")),1)", .text("{\"1x\",\"2x\",\"3x\"}")),
        ("MAKEARRAY(0,3,LAMBDA(r,c,1))", .error(.value)),
        ("MAKEARRAY(100000,100000,LAMBDA(r,c,1))", .error(.number)),
        ("MAKEARRAY(2,2,LAMBDA(r,r))", .error(.value)),
        ("MAKEARRAY(2.3,\"1\",LAMBDA(x,y,x+1+y))", .error(.value)), ("MAKEARRAY(2.3,1,LAMBDA(x,y,x+1+y))", .number(3)),
        ("TYPE(_xleta.SUM)", .number(128)), ("TYPE(LAMBDA(x,x))", .number(128)),
    ])
    func documentedAndHostile(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula, Self.numbers) == expected, "\(formula)")
    }

    /// A LAMBDA in a defined name is called like a function (LAMBDA article: ToCelsius, Hypotenuse,
    /// CountWords); the name's cells are the formula's precedents.
    @Test func namedLambdas() throws {
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        let s = e.addSheet("Sheet1")
        #expect(e.defineName("ToCelsius", formula: "LAMBDA(temp, (5/9) * (Temp-32))") == nil)
        #expect(e.defineName("Hypotenuse", formula: "_xlfn.LAMBDA(_xlpm.a, _xlpm.b, SQRT((_xlpm.a^2+_xlpm.b^2)))") == nil)
        #expect(e.defineName("CountWords", formula: "_xlfn.LAMBDA(_xlpm.text, LEN(TRIM(_xlpm.text)) - LEN(SUBSTITUTE(TRIM(_xlpm.text), \" \", \"\")) + 1)") == nil)
        #expect(e.defineName("Scaled", formula: "LAMBDA(x, x*Sheet1!$D$1)") == nil)
        #expect(e.defineName("Plain", formula: "Sheet1!$D$1") == nil)
        let cells: [(String, String)] = [("A1", "ToCelsius(104)"), ("A2", "ToCelsius(86)"), ("A3", "ToCelsius(0)"), ("A4", "Hypotenuse(7,24)"),
                                         ("A5", "CountWords(\"  Bunch of Random   Words \")"), ("A6", "Scaled(2)"), ("A7", "Hypotenuse(3)"),
                                         ("A8", "Plain(2)"), ("A9", "NoSuchName(2)"), ("A10", "MAP({1,2},ToCelsius)"), ("A11", "ToCelsius")]
        e.setValue(.number(10), at: CellReference("D1")!, sheet: s)
        for (ref, f) in cells { e.setFormula(f, at: CellReference(ref)!, sheet: s, cachedValue: .text("stale")) }
        e.recalculate()
        func v(_ ref: String) -> CalcValue { e.value(at: CellReference(ref)!, sheet: s) }
        #expect(v("A1") == .number(40))
        #expect(v("A2") == .number(30))
        #expect(close(v("A3"), -160.0 / 9))
        #expect(v("A4") == .number(25))
        #expect(v("A5") == .number(4))
        #expect(v("A6") == .number(20))
        #expect(v("A7") == .error(.value))
        #expect(v("A8") == .error(.value))
        // An unknown function keeps its cached value, as before; a named LAMBDA is computed instead.
        #expect(v("A9") == .text("stale"))
        #expect(v("A11") == .error(.calc))
        #expect(e.report.unsupportedFunctions.map(\.name) == ["NOSUCHNAME"])
        // The name's cell is a precedent: an edit of D1 recomputes A6.
        let changed = e.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference("D1")!), content: .value(.number(100)))])
        #expect(v("A6") == .number(200))
        #expect(changed.contains { $0.location == CellLocation(sheet: s, cell: CellReference("A6")!) })
    }

    /// A recursive LAMBDA in a name that never stops is `#NUM!` (the call depth, or the thread's
    /// stack), never a crash: also on a thread with a small stack.
    @Test func runawayRecursionIsNumError() throws {
        #expect(Self.runaway() == [.error(.number), .error(.number)])
        let result = Mutex<[CalcValue]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let r = Self.runaway()
            result.withLock { $0 = r }
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        done.wait()
        #expect(result.withLock { $0 } == [.error(.number), .error(.number)])
    }

    @Sendable static func runaway() -> [CalcValue] {
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        let s = e.addSheet("Sheet1")
        e.defineName("Forever", formula: "LAMBDA(n, Forever(n+1))")
        e.defineName("Twice", formula: "LAMBDA(n, Twice(n)+Twice(n))")
        e.setFormula("Forever(1)", at: CellReference("A1")!, sheet: s)
        e.setFormula("Twice(1)", at: CellReference("A2")!, sheet: s)
        e.recalculate()
        return [e.value(at: CellReference("A1")!, sheet: s), e.value(at: CellReference("A2")!, sheet: s)]
    }

    /// IF runs only the branch its condition picks, so a recursive LAMBDA in a name ends.
    @Test func recursionThroughANamedLambda() {
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        let s = e.addSheet("Sheet1")
        e.defineName("Fact", formula: "LAMBDA(n, IF(n<=1, 1, n*Fact(n-1)))")
        e.defineName("Depth", formula: "LAMBDA(n, IF(n=0, 0, 1+Depth(n-1)))")
        e.defineName("Reverse", formula: "LAMBDA(t, IF(LEN(t)<2, t, Reverse(MID(t,2,LEN(t)))&LEFT(t)))")
        let cells = [("A1", "Fact(10)"), ("A2", "Depth(100)"), ("A3", "Depth(1000000)"), ("A4", "Reverse(\"lambda\")"),
                     ("A5", "IF(A6>0,1,1/0)"), ("A7", "IF(A6>0,\"yes\",Depth(1000000))"), ("A8", "IF(1/0,1,2)")]
        e.setValue(.number(1), at: CellReference("A6")!, sheet: s)
        for (ref, f) in cells { e.setFormula(f, at: CellReference(ref)!, sheet: s) }
        e.recalculate()
        func v(_ ref: String) -> CalcValue { e.value(at: CellReference(ref)!, sheet: s) }
        #expect(v("A1") == .number(3_628_800))
        #expect(v("A2") == .number(100))
        #expect(v("A3") == .error(.number))
        #expect(v("A4") == .text("adbmal"))
        #expect(v("A5") == .number(1))
        #expect(v("A7") == .text("yes"))
        #expect(v("A8") == .error(.divisionByZero))
        _ = e.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference("A6")!), content: .value(.number(0)))])
        #expect(v("A5") == .error(.divisionByZero))
    }

    /// LET names Excel refuses: a cell reference's shape, TRUE, a name declared twice; a LET
    /// without its calculation. Each is a parse error (Excel refuses such a formula).
    @Test(arguments: ["LET(A1,1,A1)", "LET(x,1,X,2,x)", "LET(TRUE,1,2)", "LET(x,1)", "LET(x)", "LAMBDA(x,x,x+1)", "LET(R1C1,1,2)", "LAMBDA(b5,1)", "LAMBDA()", "LET(_xlpm.,1,2)"])
    func refusedNames(_ formula: String) {
        #expect(throws: FormulaParseError.self) { try CalcEngine.validateFormula(formula) }
    }

    /// The text written back is Excel's stored form.
    @Test func rendersStoredForm() throws {
        let e = CalcEngine()
        let s = e.addSheet("Sheet1")
        e.setFormula("LET(x,A1,f,LAMBDA(y,[z],y+x),f(2)+BYROW(B1:C1,_xleta.SUM))", at: CellReference("D1")!, sheet: s)
        #expect(e.formula(at: CellReference("D1")!, sheet: s)
                == "_xlfn.LET(_xlpm.x,A1,_xlpm.f,_xlfn.LAMBDA(_xlpm.y,_xlop.z,_xlpm.y+_xlpm.x),_xlpm.f(2)+_xlfn.BYROW(B1:C1,_xleta.SUM))")
        #expect(eval("FORMULATEXT(D1)", ["D1": "=LET(x,1,f,LAMBDA(y,[z],y+x),f(2)+BYROW({1,2},_xleta.SUM))"])
                == .text("=LET(x,1,f,LAMBDA(y,[z],y+x),f(2)+BYROW({1,2},SUM))"))
        let copied = try CalcEngine.translateFormula("MAP(A1:A3,LAMBDA(v,v*B1))", from: CellReference("C1")!, to: CellReference("C2")!)
        #expect(copied == "_xlfn.MAP(A2:A4,_xlfn.LAMBDA(_xlpm.v,_xlpm.v*B2))")
    }

    /// IF with branches that cost nothing (a literal, a reference) keeps the plain call; others get
    /// the marks that skip the branch not taken.
    @Test func ifMarksOnlyWhereABranchHasWork() throws {
        func marks(_ f: String) throws -> Int {
            try FormulaParser.parse(f, at: CellIndex(row: 0, column: 0)).count { if case .ifTest = $0 { return true }; return false }
        }
        #expect(try marks("IF(F2>500,\"high\",\"low\")") == 0)
        #expect(try marks("IF(A1,B1:B3)") == 0)
        #expect(try marks("IF(A1,1,SUM(B1:B3))") == 1)
        #expect(try marks("IF(A1,IF(B1,1,2/0),3)") == 2)
    }

    /// A cell read inside a lambda's body is a precedent of the formula (the body is compiled in place).
    @Test func lambdaBodyReferencesAreDependencies() {
        let e = engine(["A1": 1, "A2": 2, "B1": 10, "C1": "=SUM(MAP(A1:A2,LAMBDA(v,v*B1)))"])
        #expect(e.value(at: CellReference("C1")!, sheet: 0) == .number(30))
        _ = e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("B1")!), content: .value(.number(100)))])
        #expect(e.value(at: CellReference("C1")!, sheet: 0) == .number(300))
    }

    /// A LAMBDA's work counts against maxEvalSteps: a long MAKEARRAY stops with #NUM!.
    @Test func lambdaWorkIsBudgeted() {
        let e = CalcEngine()
        e.limits = CalcLimits(maxEvalSteps: 10_000)
        let s = e.addSheet("Sheet1")
        e.setFormula("SUM(MAKEARRAY(100,100,LAMBDA(r,c,r*c)))", at: CellReference("A1")!, sheet: s)
        e.setFormula("SUM(MAKEARRAY(10,10,LAMBDA(r,c,r*c)))", at: CellReference("A2")!, sheet: s)
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: s) == .error(.number))
        #expect(e.value(at: CellReference("A2")!, sheet: s) == .number(3025))
    }
}
