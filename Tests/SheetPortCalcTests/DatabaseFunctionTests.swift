import Testing
@testable import SheetPortCalc
import SheetPortCore

/// The database functions on the example table of Microsoft's reference (support.microsoft.com,
/// "DAVERAGE function" and the other D-function articles, which share it): criteria in A1:F3, the
/// database in A4:E10.
@Suite struct DatabaseFunctionTests {
    nonisolated(unsafe) static let cells: [String: Any] = [
        "A1": "Tree", "B1": "Height", "C1": "Age", "D1": "Yield", "E1": "Profit", "F1": "Height",
        "A2": "=\"=Apple\"", "B2": ">10", "F2": "<16", "A3": "=\"=Pear\"",
        "A4": "Tree", "B4": "Height", "C4": "Age", "D4": "Yield", "E4": "Profit",
        "A5": "Apple", "B5": 18, "C5": 20, "D5": 14, "E5": 105,
        "A6": "Pear", "B6": 12, "C6": 12, "D6": 10, "E6": 96,
        "A7": "Cherry", "B7": 13, "C7": 14, "D7": 9, "E7": 105,
        "A8": "Apple", "B8": 14, "C8": 15, "D8": 10, "E8": 75,
        "A9": "Pear", "B9": 9, "C9": 8, "D9": 8, "E9": 76.8,
        "A10": "Apple", "B10": 8, "C10": 9, "D10": 6, "E10": 45,
    ]

    static let examples: [(String, Double, Double)] = [
        ("DAVERAGE(A4:E10,\"Yield\",A1:B2)", 12, 0), ("DAVERAGE(A4:E10,3,A4:E10)", 13, 0),
        ("DCOUNT(A4:E10,\"Age\",A1:F2)", 1, 0), ("DCOUNTA(A4:E10,\"Profit\",A1:F2)", 1, 0),
        ("DMAX(A4:E10,\"Profit\",A1:A3)", 105, 0), ("DMIN(A4:E10,\"Profit\",A1:B2)", 75, 0),
        ("DPRODUCT(A4:E10,\"Yield\",A1:B2)", 140, 0),
        ("DSTDEV(A4:E10,\"Yield\",A1:A3)", 2.97, 0.005), ("DSTDEVP(A4:E10,\"Yield\",A1:A3)", 2.65, 0.005),
        ("DSUM(A4:E10,\"Profit\",A1:A2)", 225, 0), ("DSUM(A4:E10,\"Profit\",A1:F2)", 75, 0),
        ("DVAR(A4:E10,\"Yield\",A1:A3)", 8.8, 1e-12), ("DVARP(A4:E10,\"Yield\",A1:A3)", 7.04, 1e-12),
    ]

    @Test func microsoftExamples() {
        let e = engine(Self.cells.merging(Dictionary(uniqueKeysWithValues: Self.examples.enumerated().map { ("H\($0.offset + 1)", "=" + $0.element.0) })) { a, _ in a })
        for (k, (f, x, tolerance)) in Self.examples.enumerated() {
            let v = e.value(at: CellReference("H\(k + 1)")!, sheet: 0)
            #expect(v.number.map { Swift.abs($0 - x) <= tolerance } == true, "\(f) = \(v), Microsoft shows \(x)")
        }
        #expect(eval("DGET(A4:E10,\"Yield\",A1:A3)", Self.cells) == .error(.number))
    }

    @Test func criteriaAndHostileArguments() {
        // Text without an operator matches as a prefix; "=Pe" only "Pe".
        #expect(eval("DCOUNTA(A4:E10,1,H1:H2)", Self.cells.merging(["H1": "Tree", "H2": "Pe"]) { a, _ in a }) == .number(2))
        #expect(eval("DCOUNTA(A4:E10,1,H1:H2)", Self.cells.merging(["H1": "Tree", "H2": "=\"=Pe\""]) { a, _ in a }) == .number(0))
        // An empty criteria row holds for every record; DCOUNT without a field counts records.
        #expect(eval("DCOUNT(A4:E10,,H1:H2)", Self.cells.merging(["H1": "Tree"]) { a, _ in a }) == .number(6))
        #expect(eval("DGET(A4:E10,\"Yield\",H1:H2)", Self.cells.merging(["H1": "Tree", "H2": "Fig"]) { a, _ in a }) == .error(.value))
        #expect(eval("DSUM(A4:E10,\"Nothing\",A1:A2)", Self.cells) == .error(.value))
        #expect(eval("DSUM(A4:E10,9,A1:A2)", Self.cells) == .error(.value))
        #expect(eval("DSUM(A4:E4,\"Profit\",A1:A2)", Self.cells) == .error(.value))
        #expect(eval("DSUM(A4:E10,\"Profit\",A1)", Self.cells) == .error(.value))
        #expect(eval("DAVERAGE(A4:E10,\"Profit\",H1:H2)", Self.cells.merging(["H1": "Tree", "H2": "Fig"]) { a, _ in a }) == .error(.divisionByZero))
        #expect(eval("DVAR(A4:E10,\"Profit\",H1:H2)", Self.cells.merging(["H1": "Tree", "H2": "Cherry"]) { a, _ in a }) == .error(.divisionByZero))
        #expect(eval("DSUM(A4:E10,#N/A,A1:A2)", Self.cells) == .error(.notAvailable))
        #expect(eval("DMAX(A4:E10,\"Tree\",A1:A3)", Self.cells) == .number(0))
    }
}
