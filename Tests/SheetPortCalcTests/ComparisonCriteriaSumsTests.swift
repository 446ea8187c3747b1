import Testing
@testable import SheetPortCalc
import SheetPortCore

/// COUNTIF, SUMIF and AVERAGEIF with one numeric comparison criterion answer from the sorted
/// numbers' running totals (`Evaluator.comparisonSum`, `comparisonCount`); every result here is
/// checked, bit for bit, against a plain scan written in the test: the matching cells in row-major
/// order, the sum range's numbers added in that order, its first error the result.
@Suite struct ComparisonCriteriaSumsTests {
    static func below(_ n: Int, _ g: inout SplitMix64) -> Int { Int(g.next() % UInt64(n)) }

    /// A hostile cell: ties among small integers, negatives, numbers stored as text, text,
    /// booleans, blanks and errors; `decimals` adds 0.1-like values and 1e308.
    static func cell(_ g: inout SplitMix64, decimals: Bool) -> CalcValue {
        switch below(decimals ? 14 : 11, &g) {
        case 0, 1, 2, 3: return .number(Double(below(41, &g) - 20))
        case 4: return .number(Double(below(2_000_001, &g)) - 1_000_000)
        case 5: return .text(String(below(21, &g) - 10))
        case 6: return .text("abc")
        case 7: return .boolean(below(2, &g) == 0)
        case 8: return .empty
        case 9: return .error(below(2, &g) == 0 ? .notAvailable : .divisionByZero)
        case 10: return .number(Double(below(81, &g) - 40) / 4)
        case 11: return .number(Double(below(21, &g) - 10) / 10)
        case 12: return .number(below(2, &g) == 0 ? 1e308 : -1e308)
        default: return .number(0.1 * Double(below(7, &g)) + 1e-3)
        }
    }

    /// The plain scan: COUNTIF, SUMIF and AVERAGEIF of `criterion` over `criteria` (row-major
    /// cells) summing `sums` (the same offsets), as Excel and the engine's scan compute them.
    static func scan(_ criteria: [CalcValue], _ sums: [CalcValue], _ criterion: Criterion) -> [CalcValue] {
        var count = 0, total = 0.0, numbers = 0
        var error: ExcelError?
        for (k, v) in criteria.enumerated() where criterion.matches(v) {
            count += 1
            switch k < sums.count ? sums[k] : .empty {
            case .number(let x): total += x; numbers += 1
            case .error(let e): if error == nil { error = e }
            default: break
            }
        }
        func number(_ x: Double) -> CalcValue { x.isFinite ? .number(abs(x) < Double.leastNormalMagnitude ? 0 : x) : .error(.number) }
        let sum = error.map(CalcValue.error) ?? number(total)
        let average = error.map(CalcValue.error) ?? (numbers == 0 ? .error(.divisionByZero) : number(total / Double(numbers)))
        return [.number(Double(count)), sum, average]
    }

    static let operators = [">", ">=", "<", "<="]

    /// Fills A1:B`rows` (the criteria, two columns so offsets wrap rows) and D`sumsFrom` down
    /// (the sum range's cells, row-major as the criteria's offsets), then a row of COUNTIF, SUMIF
    /// and AVERAGEIF per criterion, the sum range given as its top-left cell only (Excel resizes
    /// it). Checks each against the scan; returns the engine.
    @discardableResult
    static func check(seed: UInt64, rows: Int, formulas: Int, decimals: Bool, sumsFrom: Int = 1) -> CalcEngine {
        var g = SplitMix64(seed: seed)
        let e = CalcEngine()
        let s = e.addSheet("S")
        var criteria: [CalcValue] = []
        for r in 1...rows {
            for c in 1...2 {
                let v = cell(&g, decimals: decimals)
                criteria.append(v)
                if v != .empty { e.setValue(v, at: CellReference(row: r, column: c), sheet: s) }
            }
        }
        var sums: [CalcValue] = []
        for k in 0..<(2 * rows) {
            // The sum range is D (one column) read as two: offset k is row k / 2, column k % 2 of D:E.
            let v = cell(&g, decimals: decimals)
            sums.append(v)
            if v != .empty { e.setValue(v, at: CellReference(row: sumsFrom + k / 2, column: 4 + k % 2), sheet: s) }
        }
        for f in 1...formulas {
            // Against a criteria cell's own value (`">"&A7`, as down a column), or a literal.
            let op = operators[below(4, &g)]
            let criterion = below(4, &g) == 0 ? "\"\(op)\(below(41, &g) - 20)\"" : "\"\(op)\"&\(["A", "B"][below(2, &g)])\(1 + below(rows, &g))"
            e.setFormula(criterion, at: CellReference(row: f, column: 7), sheet: s)
            let range = "$A$1:$B$\(rows)"
            e.setFormula("COUNTIF(\(range),G\(f))", at: CellReference(row: f, column: 8), sheet: s)
            e.setFormula("SUMIF(\(range),G\(f),$D$\(sumsFrom))", at: CellReference(row: f, column: 9), sheet: s)
            e.setFormula("AVERAGEIF(\(range),G\(f),$D$\(sumsFrom):$D$\(sumsFrom + 1))", at: CellReference(row: f, column: 10), sheet: s)
        }
        e.recalculate()
        for f in 1...formulas {
            let text = e.value(at: CellReference(row: f, column: 7), sheet: s)
            let expected = scan(criteria, sums, Criterion(text, system: .excel1900))
            for (j, want) in expected.enumerated() {
                let got = e.value(at: CellReference(row: f, column: 8 + j), sheet: s)
                #expect(got == want, "seed \(seed), row \(f), criterion \(text), formula \(j): \(got), expected \(want)")
            }
        }
        return e
    }

    @Test func integersSumFromRunningTotalsAsTheScanDoes() throws {
        for seed in UInt64(1)...6 {
            let e = Self.check(seed: seed, rows: 150, formulas: 120, decimals: false, sumsFrom: Int(seed))
            // Integers and quarters add exactly: the running totals answered.
            #expect(e.lookupCache.sortedSums.values.contains { $0.exact }, "seed \(seed)")
        }
    }

    @Test func decimalsAndHugeNumbersAddInRowOrder() throws {
        for seed in UInt64(11)...16 {
            let e = Self.check(seed: seed, rows: 150, formulas: 120, decimals: true)
            // 0.1 and 1e308 could round: no running sums, the row-order walk of the dense arrays added them.
            #expect(e.lookupCache.sortedSums.values.allSatisfy { !$0.exact && !$0.bounds.isEmpty }, "seed \(seed)")
        }
    }

    /// The bound of exactness, at its edge: magnitudes adding to 2^53 of the lowest bit are not exact.
    @Test func exactOnlyBelowTwoToTheFiftyThree() throws {
        for (values, exact) in [([Double](repeating: 1, count: 4) + [9_007_199_254_740_987], true),  // 2^53 - 1 in all
                                ([Double](repeating: 1, count: 5) + [9_007_199_254_740_987], false), // 2^53
                                ([0.5, 0.25, 0.125, 3], true), ([0.1], true), ([0.1, 0.1], true), ([0.1, 0.2], false),
                                ([-0.0, 0, .leastNonzeroMagnitude, .leastNonzeroMagnitude], true), ([1e308], true), ([1e308, 1e308], false)] {
            let e = CalcEngine()
            let s = e.addSheet("S")
            for (k, x) in values.enumerated() { e.setValue(.number(x), at: CellReference(row: k + 1, column: 1), sheet: s) }
            e.setFormula("SUMIF(A:A,\">=-1\")", at: CellReference(row: 1, column: 2), sheet: s)
            e.recalculate()
            #expect(e.lookupCache.sortedSums.values.map(\.exact) == [exact], "\(values)")
            let total = values.reduce(0, +)
            let want: CalcValue = total.isFinite ? .number(abs(total) < Double.leastNormalMagnitude ? 0 : total) : .error(.number)
            #expect(e.value(at: CellReference(row: 1, column: 2), sheet: s) == want, "\(values)")
        }
    }

    /// A sum range of formulas not computed yet is not read whole: that could be a cycle the scan
    /// does not make. Through OFFSET (no static precedent), `B(r) = 1+SUMIF(A:A,">"&A(r),B:B)`
    /// reads only the B cells of larger A values, never its own: B(r) = 2^(n-r).
    @Test func aSumRangeOfPendingFormulasIsScanned() throws {
        let e = CalcEngine()
        let s = e.addSheet("S")
        let n = 200
        e.setValue(.number(0), at: CellReference(row: 1, column: 1), sheet: s)
        e.setValue(.number(0), at: CellReference(row: 1, column: 2), sheet: s)
        for r in 2...n {
            e.setValue(.number(Double(r)), at: CellReference(row: r, column: 1), sheet: s)
            e.setFormula("1+SUMIF(A$1:A$\(n),\">\"&A\(r),OFFSET(B$1,0,0))", at: CellReference(row: r, column: 2), sheet: s)
        }
        e.recalculate()
        for r in [n, n - 1, n - 10, 150, 2] {
            #expect(e.value(at: CellReference(row: r, column: 2), sheet: s) == .number(Double(sign: .plus, exponent: n - r, significand: 1)))
        }
        #expect(!e.lookupCache.sortedSums.isEmpty && e.lookupCache.sortedSums.values.allSatisfy { !$0.available })
    }

    /// A column reaching the last row (one stray number there) is a million cells clipped: the
    /// counts and sums stay slices of the sorted numbers, right and quick, as do SUMIFS' bitmaps;
    /// decimals there (sums that could round) are scanned, no million-cell arrays made.
    @Test func aWholeColumnOfATallSheet() throws {
        let e = CalcEngine()
        let s = e.addSheet("S")
        let n = 2_000
        var values: [Double] = []
        for r in 1...n {
            let x = Double((r * 7_919) % 613)
            values.append(x)
            e.setValue(.number(x), at: CellReference(row: r, column: 1), sheet: s)
            e.setFormula("SUMIF(A:A,\">\"&A\(r))", at: CellReference(row: r, column: 2), sheet: s)
            e.setFormula("COUNTIF(A:A,\"<=\"&A\(r))", at: CellReference(row: r, column: 3), sheet: s)
            e.setValue(.number(Double(r)), at: CellReference(row: r, column: 6), sheet: s)
            e.setFormula("AVERAGEIF(A:A,\">=\"&A\(r),F:F)", at: CellReference(row: r, column: 4), sheet: s)
            e.setValue(.number(Double(r % 97) / 10), at: CellReference(row: r, column: 7), sheet: s)
            e.setFormula("SUMIF(G:G,\"<=\"&G\(r))", at: CellReference(row: r, column: 8), sheet: s)
        }
        e.setValue(.number(-1), at: CellReference(row: 1_048_576, column: 1), sheet: s)
        e.setValue(.number(-0.3), at: CellReference(row: 1_048_576, column: 7), sheet: s)
        e.setFormula("SUMIFS(A:A,A:A,\">-5\")", at: CellReference(row: 1, column: 5), sheet: s)
        e.recalculate()
        values.append(-1)
        for r in [1, 2, 17, 1_500, n] {
            let x = values[r - 1]
            #expect(e.value(at: CellReference(row: r, column: 2), sheet: s) == .number(values.filter { $0 > x }.reduce(0, +)))
            #expect(e.value(at: CellReference(row: r, column: 3), sheet: s) == .number(Double(values.filter { $0 <= x }.count)))
            let rows = values.indices.filter { values[$0] >= x && $0 < n }.map { Double($0 + 1) }
            #expect(e.value(at: CellReference(row: r, column: 4), sheet: s) == .number(rows.reduce(0, +) / Double(rows.count)))
            let decimals = (1...n).map { Double($0 % 97) / 10 } + [-0.3]
            #expect(e.value(at: CellReference(row: r, column: 8), sheet: s) == .number(decimals.filter { $0 <= decimals[r - 1] }.reduce(0, +)))
        }
        #expect(e.value(at: CellReference(row: 1, column: 5), sheet: s) == .number(values.reduce(0, +)))
        let rounding = e.lookupCache.sortedSums.values.filter { !$0.exact }
        #expect(rounding.count == 1 && rounding.allSatisfy { $0.available && $0.bounds.isEmpty })
    }
}
