/// The spill range operator: `G1#` is `ANCHORARRAY(G1)`, as Excel stores it in a file
/// (`_xlfn.ANCHORARRAY`): the range the dynamic array anchored at G1 spills into.
extension Functions {
    static let spillRange: [FunctionSpec] = [
        raw("ANCHORARRAY", 1, 1) { ev, a in
            // An error argument passes on, as with every function; any other non-reference is #REF!.
            if case .value(.error(let e)) = a[0] { return .value(.error(e)) }
            guard case .ref(let r) = a[0], r.isSingleCell else { return .value(.error(.reference)) }
            return try ev.spillRange(anchoredAt: r)
        },
    ]
}

extension Evaluator {
    /// The range a dynamic array anchored at `anchor` spills into (itself for a one-value result),
    /// or the range of the legacy array formula (Ctrl+Shift+Enter) entered there: Excel's `C2#`
    /// over `{=123}` in C2:C5 sums 492 (calc-suite spill_operator G2, dynamic_arrays M1); `#REF!`
    /// when the cell anchors no array, or a dynamic one that is an error (a blocked spill).
    func spillRange(anchoredAt anchor: SheetRange) throws -> Operand {
        let s = Int(anchor.sheet)
        guard s >= 0, s < engine.sheets.count, let id = engine.sheets[s].find(row: anchor.r1, column: anchor.c1) else {
            return .value(.error(.reference))
        }
        if !engine.dynamicFormulas.contains(id), let array = engine.arrays[id], !array.isDynamic,
           array.range.start.row == anchor.r1, array.range.start.column == anchor.c1 {
            return .ref(SheetRange(sheet: anchor.sheet, r1: array.range.start.row, c1: array.range.start.column,
                                   r2: array.range.end.row, c2: array.range.end.column))
        }
        guard engine.dynamicFormulas.contains(id) else { return .value(.error(.reference)) }
        // Waits for the anchor: its spill range is known once it is computed.
        guard !(try valueOf(id)).isError else { return .value(.error(.reference)) }
        guard let spill = engine.arrays[id], spill.isDynamic else { return .ref(anchor) }
        return .ref(SheetRange(sheet: anchor.sheet, r1: spill.range.start.row, c1: spill.range.start.column,
                               r2: spill.range.end.row, c2: spill.range.end.column))
    }
}
