import Testing
import SheetPortCore
@testable import SheetPortCalc

/// The intersection operator over unions: each area meets the other side on its own, the
/// non-empty pieces kept (repeats too); nothing in common is #NULL!, which AREAS passes on; ROWS
/// and COLUMNS of several pieces are #REF! (Excel-computed: calc-suite formulas__test LOOKUP!T4,
/// V4, W4, V15, V115 and CORE!E7).
@Suite struct ReferenceIntersectionTests {
    nonisolated(unsafe) static let cells: [String: Any] = ["E3": 1, "F3": 2, "G3": 3, "E4": 4, "F4": 5, "G4": 6, "B2": 100, "H5": 1000,
                                                           "X1": CalcValue.error(.divisionByZero)]

    static let table: [(String, CalcValue)] = [
        ("AREAS(((F4:G4,G4:I4,F6:G6,G6:I6) G3:G11))", .number(4)), ("AREAS((G3:G11 (F4:G4,G4:I4)))", .number(2)),
        ("AREAS(((A1,B1) (A1,B1)))", .number(2)), ("AREAS(((A1:B2,C3) (A1,Z9)))", .number(1)),
        ("AREAS((E4:H4 J4:K4 L4:O4))", .error(.null)), ("AREAS(((A1,B1) (C1,D1)))", .error(.null)),
        ("SUM(E3:G4 (B2:E5,G2:H5))", .number(14)), ("SUM((B2:E5,G2:H5) E3:G4)", .number(14)),
        ("SUM((E3:E4,G3:G4) (E3,F3,G4))", .number(7)), ("SUM((E3:G4 (A1,B1)))", .error(.null)),
        ("ROWS(((F4:G4,G4:I4) G3:G11))", .error(.reference)), ("COLUMNS(((F4:G4,G4:I4,F6:G6,G6:I6) G3:G11))", .error(.reference)),
        ("ROWS(((F4:G4,Z9) G3:G11))", .number(1)), ("COLUMNS(((F4:H4,Z9) E3:G11))", .number(2)),
        ("SUM((X1,E3) E3)", .number(1)), ("SUM((X1,E3) X1)", .error(.divisionByZero)),
        ("AREAS(((A1,B1) 5))", .error(.value)), ("AREAS(((1/0) A1))", .error(.divisionByZero)),
    ]

    @Test(arguments: table) func answers(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula, Self.cells) == expected, "\(formula)")
    }
}
