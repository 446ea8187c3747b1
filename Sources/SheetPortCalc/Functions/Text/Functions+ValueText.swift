
extension Functions {
    /// A value as VALUETOTEXT and ARRAYTOTEXT write it: numbers in General, booleans and errors as
    /// Excel shows them; text as it is (concise) or quoted with its quotes doubled (strict).
    static func valueText(_ v: CalcValue, strict: Bool) -> String {
        switch v {
        case .number(let x): return Coercion.text(x)
        case .boolean(let b): return b ? "TRUE" : "FALSE"
        case .error(let e): return e.rawValue
        case .empty: return ""
        case .text(let t): return strict ? "\"" + t.replacingOccurrences("\"", "\"\"") + "\"" : t
        case .array(let a): return valueText(a.values.first ?? .empty, strict: strict)
        }
    }

    static let valueTexts: [FunctionSpec] = [
        scalar("VALUETOTEXT", 1, 2) { ev, a in
            let strict = try switchArgument(ev, a, 1) // 0 concise (default), 1 strict
            return .value(.text(valueText(try ev.scalar(a[0]), strict: strict)))
        },
        // ARRAYTOTEXT(array, [format]): concise joins the values with ", "; strict writes an array
        // constant, `{1,"a";TRUE,#N/A}`.
        raw("ARRAYTOTEXT", 1, 2, arrays: true) { ev, a in
            let strict = try switchArgument(ev, a, 1) // 0 concise (default), 1 strict
            let arr = try ev.array(a[0])
            // Built piece by piece: past 32,767 characters #VALUE!, before a huge array is all written.
            var s = LimitedText()
            // One empty cell has no strict form (calc-suite formulas__test TEXT!V4: ARRAYTOTEXT(H4,1),
            // H4 empty, is #VALUE!; an empty cell among others is written as nothing, AH4).
            if strict, arr.values == [.empty] { return .value(.error(.value)) }
            if strict {
                try s.append("{")
                for r in 0..<arr.rows {
                    if r > 0 { try s.append(";") }
                    for c in 0..<arr.columns {
                        if c > 0 { try s.append(",") }
                        try s.append(valueText(arr[r, c], strict: true))
                    }
                }
                try s.append("}")
            } else {
                for (k, v) in arr.values.enumerated() {
                    if k > 0 { try s.append(", ") }
                    try s.append(valueText(v, strict: false))
                }
            }
            return .value(.text(s.text))
        },
    ]
}
