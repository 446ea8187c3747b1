/// TRIMRANGE(range, [trim_rows], [trim_cols]): the range without its blank leading and trailing rows
/// and columns, as a reference (so `SUM(ANCHORARRAY(J3))` over its spill and `ROW()` on it work).
/// Trim modes (Microsoft's TRIMRANGE article): 0 none, 1 leading, 2 trailing, 3 both (the default);
/// given as text they are read as numbers, a fraction or a mode past 3 is #VALUE!, and a range
/// with no value at all is #REF! (calculation suite formulas__test LOOKUP!R135:AG135, Z136).
/// The trim-ref operators `A1:.C9` (trailing), `A1.:C9` (leading) and `A1.:.C9` (both) are stored
/// as `_xlfn._TRO_TRAILING`, `_TRO_LEADING` and `_TRO_ALL` calls of the plain range.
extension Functions {
    static let trimRange: [FunctionSpec] = [
        raw("TRIMRANGE", 1, 3) { ev, a in
            let modes = try (1...2).map { try trimMode(ev, a, $0) }
            if let shape = modes.compactMap(\.shape).first {
                // A mode given as an array lifts TRIMRANGE over it: each element's answer is a range,
                // which no array cell holds.
                return .value(.array(CalcArray(rows: shape.rows, columns: shape.columns,
                                               values: Array(repeating: .error(.value), count: shape.rows * shape.columns))))
            }
            return try trimmed(ev, a[0], rows: modes[0].mode, columns: modes[1].mode)
        },
        raw("_TRO_ALL", 1, 1) { ev, a in try trimmed(ev, a[0], rows: 3, columns: 3) },
        raw("_TRO_LEADING", 1, 1) { ev, a in try trimmed(ev, a[0], rows: 1, columns: 1) },
        raw("_TRO_TRAILING", 1, 1) { ev, a in try trimmed(ev, a[0], rows: 2, columns: 2) },
    ]

    /// A trim mode argument: 3 when omitted, else a whole number 0...3; an array of more than one
    /// element gives its shape instead.
    private static func trimMode(_ ev: Evaluator, _ a: [Operand], _ k: Int) throws -> (mode: Int, shape: (rows: Int, columns: Int)?) {
        guard !ev.isMissing(a, k) else { return (3, nil) }
        if case .value(.array(let arr)) = a[k], arr.values.count > 1 { return (0, (arr.rows, arr.columns)) }
        let x = try ev.num(a[k])
        guard x == x.rounded(), (0...3).contains(x) else { throw EvalInterrupt.error(.value) }
        return (Int(x), nil)
    }

    /// The range of `op` trimmed of blank rows and columns at the ends `rows` and `columns` name
    /// (bit 1 leading, bit 2 trailing); a range with no value is #REF!, anything but a range #VALUE!.
    static func trimmed(_ ev: Evaluator, _ op: Operand, rows: Int, columns: Int) throws -> Operand {
        guard case .ref(let range) = op else {
            if case .value(.error(let e)) = op { return .value(.error(e)) }
            return .value(.error(.value))
        }
        var r1 = Int32.max, r2 = Int32.min, c1 = Int32.max, c2 = Int32.min
        try ev.forEachCell(ev.clipped(range)) { r, c, v in
            if case .empty = v { return }
            r1 = min(r1, r); r2 = max(r2, r); c1 = min(c1, c); c2 = max(c2, c)
        }
        guard r1 <= r2 else { return .value(.error(.reference)) }
        var out = range
        if rows & 1 != 0 { out.r1 = r1 }
        if rows & 2 != 0 { out.r2 = r2 }
        if columns & 1 != 0 { out.c1 = c1 }
        if columns & 2 != 0 { out.c2 = c2 }
        return .ref(out)
    }
}
