extension Functions {
    /// The range of a criteria argument (a reference is required).
    static func rangeArg(_ op: Operand) throws -> SheetRange {
        guard case .ref(let r) = op else { throw EvalInterrupt.error(.value) }
        return r
    }

    /// (range, criterion) pairs from arguments `start`, `start+1`, ... (range, criteria, range, criteria...).
    static func criteriaPairs(_ ev: Evaluator, _ a: [Operand], from start: Int) throws -> [(SheetRange, Criterion)] {
        guard (a.count - start) % 2 == 0, a.count > start else { throw EvalInterrupt.error(.value) }
        var pairs: [(SheetRange, Criterion)] = []
        var k = start
        while k < a.count {
            pairs.append((try rangeArg(a[k]), Criterion(try ev.scalar(a[k + 1]), system: ev.dateSystem)))
            k += 2
        }
        return pairs
    }

    /// The numbers at the matching offsets of a value range of the same shape (text and empty skipped; errors thrown).
    static func valuesAt(_ ev: Evaluator, _ offsets: [Int], _ shape: SheetRange, _ target: SheetRange) throws -> [Double] {
        var out: [Double] = []
        let cols = shape.columns
        for off in offsets {
            let v = try ev.cellValue(target.sheet, target.r1 + Int32(off / cols), target.c1 + Int32(off % cols))
            switch v {
            case .number(let x): out.append(x)
            case .error(let e): throw EvalInterrupt.error(e)
            default: break
            }
        }
        return out
    }

    /// COUNTIF with a criterion argument that may be an array (lifted by hand).
    static func countIf(_ ev: Evaluator, _ pairs: [(SheetRange, Criterion)]) throws -> Double {
        if pairs.count == 1, let n = try ev.comparisonCount(pairs[0].0, pairs[0].1) { return Double(n) }
        let m = try ev.matchingOffsets(pairs)
        var n = Double(m.offsets.count)
        if m.emptyBeyond > 0, pairs.allSatisfy({ $0.1.matchesEmpty }) { n += Double(m.emptyBeyond) }
        return n
    }

    /// SUMIF/AVERAGEIF's value range: the sum range resized to the criteria range's shape.
    static func sized(_ target: SheetRange, like r: SheetRange) -> SheetRange {
        SheetRange(sheet: target.sheet, r1: target.r1, c1: target.c1, r2: target.r1 + Int32(r.rows - 1), c2: target.c1 + Int32(r.columns - 1))
    }

    /// Lifts a criteria function over an array criterion (`SUM(COUNTIF(A:A,{"a","b"}))`).
    static func overCriteria(_ ev: Evaluator, _ a: [Operand], _ k: Int, _ body: ([Operand]) throws -> Operand) throws -> Operand {
        if case .value(.array(let arr)) = a[k] {
            var out: [CalcValue] = []
            var args = a
            for v in arr.values {
                args[k] = .value(v)
                out.append(try ev.scalar(try body(args)))
            }
            return .value(.array(CalcArray(rows: arr.rows, columns: arr.columns, values: out)))
        }
        if case .ref(let r) = a[k], !r.isSingleCell, ev.arrayMode {
            let arr = try ev.matrix(r)
            return try overCriteria(ev, { var b = a; b[k] = .value(.array(arr)); return b }(), k, body)
        }
        return try body(a)
    }

    static let statistical: [FunctionSpec] = [
        raw("COUNTIF", 2, 2) { ev, a in
            try overCriteria(ev, a, 1) { a in
                .value(.number(try countIf(ev, [(try rangeArg(a[0]), Criterion(try ev.scalar(a[1]), system: ev.dateSystem))])))
            }
        },
        raw("COUNTIFS", 2, 254) { ev, a in .value(.number(try countIf(ev, try criteriaPairs(ev, a, from: 0)))) },
        raw("SUMIF", 2, 3) { ev, a in
            try overCriteria(ev, a, 1) { a in
                let r = try rangeArg(a[0])
                let target = a.count > 2 && !ev.isMissing(a, 2) ? sized(try rangeArg(a[2]), like: r) : r
                let criterion = Criterion(try ev.scalar(a[1]), system: ev.dateSystem)
                if let totals = try ev.comparisonSum(r, criterion, over: target) { return number(totals.sum) }
                let m = try ev.matchingOffsets([(r, criterion)])
                return number(try valuesAt(ev, m.offsets, m.clipped, target).reduce(0, +))
            }
        },
        raw("SUMIFS", 3, 255) { ev, a in
            let target = try rangeArg(a[0])
            let m = try ev.matchingOffsets(try criteriaPairs(ev, a, from: 1))
            return number(try valuesAt(ev, m.offsets, m.clipped, target).reduce(0, +))
        },
        raw("AVERAGEIF", 2, 3) { ev, a in
            let r = try rangeArg(a[0])
            let target = a.count > 2 && !ev.isMissing(a, 2) ? sized(try rangeArg(a[2]), like: r) : r
            let criterion = Criterion(try ev.scalar(a[1]), system: ev.dateSystem)
            if let totals = try ev.comparisonSum(r, criterion, over: target) {
                return totals.numbers == 0 ? .value(.error(.divisionByZero)) : number(totals.sum / Double(totals.numbers))
            }
            let m = try ev.matchingOffsets([(r, criterion)])
            let v = try valuesAt(ev, m.offsets, m.clipped, target)
            return v.isEmpty ? .value(.error(.divisionByZero)) : number(v.reduce(0, +) / Double(v.count))
        },
        raw("AVERAGEIFS", 3, 255) { ev, a in
            let m = try ev.matchingOffsets(try criteriaPairs(ev, a, from: 1))
            let v = try valuesAt(ev, m.offsets, m.clipped, try rangeArg(a[0]))
            return v.isEmpty ? .value(.error(.divisionByZero)) : number(v.reduce(0, +) / Double(v.count))
        },
        raw("MAXIFS", 3, 255) { ev, a in
            let m = try ev.matchingOffsets(try criteriaPairs(ev, a, from: 1))
            return .value(.number(try valuesAt(ev, m.offsets, m.clipped, try rangeArg(a[0])).max() ?? 0))
        },
        raw("MINIFS", 3, 255) { ev, a in
            let m = try ev.matchingOffsets(try criteriaPairs(ev, a, from: 1))
            return .value(.number(try valuesAt(ev, m.offsets, m.clipped, try rangeArg(a[0])).min() ?? 0))
        },
        raw("MEDIAN", 1, 255) { ev, a in Statistics.byCode(12, try ev.numbers(a)) },
        raw("MODE", 1, 255) { ev, a in Statistics.byCode(13, try ev.numbers(a)) },
        raw("MODE.SNGL", 1, 255) { ev, a in Statistics.byCode(13, try ev.numbers(withoutEmptyTexts(a))) },
        raw("LARGE", 2, 2) { ev, a in try ev.scalarsBeforeArrays(a[1]); return try Statistics.large(try ev.numbers([a[0]]), try ev.num(a[1])) },
        raw("SMALL", 2, 2) { ev, a in try ev.scalarsBeforeArrays(a[1]); return try Statistics.small(try ev.numbers([a[0]]), try ev.num(a[1])) },
        raw("RANK", 2, 3) { ev, a in try rank(ev, a, average: false) },
        raw("RANK.EQ", 2, 3) { ev, a in try rank(ev, a, average: false) },
        raw("RANK.AVG", 2, 3) { ev, a in try rank(ev, a, average: true) },
        raw("STDEV", 1, 255) { ev, a in Statistics.byCode(7, try ev.numbers(a)) },
        raw("STDEV.S", 1, 255) { ev, a in Statistics.byCode(7, try ev.numbers(a)) },
        raw("STDEVP", 1, 255) { ev, a in Statistics.byCode(8, try ev.numbers(a)) },
        raw("STDEV.P", 1, 255) { ev, a in Statistics.byCode(8, try ev.numbers(a)) },
        raw("VAR", 1, 255) { ev, a in Statistics.byCode(10, try ev.numbers(a)) },
        raw("VAR.S", 1, 255) { ev, a in Statistics.byCode(10, try ev.numbers(a)) },
        raw("VARP", 1, 255) { ev, a in Statistics.byCode(11, try ev.numbers(a)) },
        raw("VAR.P", 1, 255) { ev, a in Statistics.byCode(11, try ev.numbers(a)) },
        raw("PERCENTILE", 2, 2) { ev, a in try ev.scalarsBeforeArrays(a[1]); return try Statistics.kth(16, try ev.numbers([a[0]]), try ev.num(a[1])) },
        raw("PERCENTILE.INC", 2, 2) { ev, a in try ev.scalarsBeforeArrays(a[1]); return try Statistics.kth(16, try ev.numbers([a[0]]), try ev.num(a[1])) },
        raw("PERCENTILE.EXC", 2, 2) { ev, a in try ev.scalarsBeforeArrays(a[1]); return try Statistics.kth(18, try ev.numbers([a[0]]), try ev.num(a[1])) },
        raw("QUARTILE", 2, 2) { ev, a in try ev.scalarsBeforeArrays(a[1]); return try Statistics.kth(17, try ev.numbers([a[0]]), try quart(ev, a[1])) },
        raw("QUARTILE.INC", 2, 2) { ev, a in try ev.scalarsBeforeArrays(a[1]); return try Statistics.kth(17, try ev.numbers([a[0]]), try quart(ev, a[1])) },
    ]

    static func rank(_ ev: Evaluator, _ a: [Operand], average: Bool) throws -> Operand {
        let x = try ev.num(a[0])
        let values = try ev.numbers([a[1]])
        let ascending = ev.isMissing(a, 2) ? false : (try ev.num(a[2])) != 0
        var before = 0, equal = 0
        for v in values {
            if v == x { equal += 1 } else if ascending ? v < x : v > x { before += 1 }
        }
        guard equal > 0 else { return .value(.error(.notAvailable)) }
        return .value(.number(average ? Double(before) + Double(equal + 1) / 2 : Double(before + 1)))
    }

    /// QUARTILE's quart, truncated: a negative one is #NUM! before it is truncated, so -0.1 is refused
    /// rather than read as 0, where 4.5 reads as 4 (calc-suite formulas__test COMPATIBILITY!U32,
    /// STATISTICAL__PERCENTIL_QUARTIL G9).
    static func quart(_ ev: Evaluator, _ op: Operand) throws -> Double {
        let q = try ev.num(op)
        guard q >= 0 else { throw EvalInterrupt.error(.number) }
        return q.rounded(.towardZero)
    }
}
