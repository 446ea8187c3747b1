/// A value normalised for exact matching: numbers to 15 digits, text case-folded.
enum LookupKey: Hashable {
    case number(Double)
    case text(String)
    case boolean(Bool)
    case error(ExcelError)

    init?(_ v: CalcValue) {
        switch v {
        case .number(let x): self = .number(Coercion.round15(x) + 0)
        case .text(let t): self = .text(t.lowercased())
        case .boolean(let b): self = .boolean(b)
        case .error(let e): self = .error(e)
        case .empty: return nil
        case .array: return nil
        }
    }
}

/// Indexes built once per recalculation pass and shared by every lookup over the same range:
/// the range's values, a hash of first positions for exact matches, and positions per key for
/// criteria. Cleared at the start of every pass (the ranges' cells may have changed).
/// Its tables are exempt from dynamic exclusivity checks as the engine's are (one task at a time).
final class LookupCache {
    @exclusivity(unchecked) var vectors: [SheetRange: [CalcValue]] = [:]
    @exclusivity(unchecked) var firstPositions: [SheetRange: [LookupKey: Int]] = [:]
    @exclusivity(unchecked) var lastPositions: [SheetRange: [LookupKey: Int]] = [:]
    @exclusivity(unchecked) var criteriaPositions: [SheetRange: [LookupKey: [Int]]] = [:]
    @exclusivity(unchecked) var sortedNumbers: [SheetRange: SortedNumbers] = [:]
    @exclusivity(unchecked) var sortedSums: [SortedSumsKey: SortedSums] = [:]
    /// How many indexes were built (for tests).
    @exclusivity(unchecked) var builds = 0
}

extension Evaluator {
    /// The values of a one-row or one-column range (clipped to the stored extent), cached for the pass.
    func vector(_ r: SheetRange) throws -> [CalcValue] {
        if let v = engine.lookupCache.vectors[r] { return v }
        let m = try matrix(r)
        engine.lookupCache.vectors[r] = m.values
        return m.values
    }

    /// The first (or last) position of each value in a one-dimensional range, built once per pass.
    func positionIndex(_ r: SheetRange, last: Bool = false) throws -> [LookupKey: Int] {
        if let d = last ? engine.lookupCache.lastPositions[r] : engine.lookupCache.firstPositions[r] { return d }
        let values = try vector(r)
        var d: [LookupKey: Int] = [:]
        d.reserveCapacity(values.count)
        for (k, v) in values.enumerated() {
            guard let key = LookupKey(v) else { continue }
            if last { d[key] = k } else if d[key] == nil { d[key] = k }
        }
        engine.lookupCache.builds += 1
        if last { engine.lookupCache.lastPositions[r] = d } else { engine.lookupCache.firstPositions[r] = d }
        return d
    }

    /// Every position of each value in a range (row-major offsets in the clipped range), built once
    /// per pass: equality criteria of COUNTIF/SUMIF and kin become one hash look-up.
    func criteriaIndex(_ r: SheetRange) throws -> [LookupKey: [Int]] {
        if let d = engine.lookupCache.criteriaPositions[r] { return d }
        let c = clipped(r)
        let cols = c.columns
        var d: [LookupKey: [Int]] = [:]
        try forEachCell(c) { rr, cc, v in
            let offset = Int(rr - c.r1) * cols + Int(cc - c.c1)
            guard let key = LookupKey(v) else { return }
            d[key, default: []].append(offset)
            // Numeric text also matches a numeric criterion.
            if case .text(let t) = v, let x = Coercion.number(fromText: t, system: dateSystem), Coercion.plainNumber(Array(t.utf8)) != nil {
                d[.number(Coercion.round15(x) + 0), default: []].append(offset)
            }
        }
        for k in d.keys { d[k]?.sort() }
        engine.lookupCache.builds += 1
        engine.lookupCache.criteriaPositions[r] = d
        return d
    }
}
