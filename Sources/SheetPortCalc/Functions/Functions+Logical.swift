extension Functions {
    /// Calls `body` with each truth value of AND/OR/XOR arguments (ranges: numbers and booleans only).
    /// A text argument counts when it reads as TRUE or FALSE and is passed over otherwise, so an
    /// error after it still answers (`AND(TRUE,"0")` is TRUE, `AND(TRUE,"ciao",#REF!)` #REF!,
    /// `AND("0")` #VALUE! for want of any truth value: calc-suite formulas__test LOGICAL!AP3:AT4,
    /// LOGICAL__AND_OR_XOR C46:E53).
    static func forEachTruth(_ ev: Evaluator, _ a: [Operand], _ body: (Bool) -> Void) throws -> Bool {
        var any = false
        try ev.forEachValue(a) { v, direct in
            switch v {
            case .boolean(let b): body(b); any = true
            case .number(let x): body(x != 0); any = true
            case .error(let e): throw EvalInterrupt.error(e)
            case .text: if direct, let b = try? ev.bool(v) { body(b); any = true }
            default: if direct { body(false); any = true }
            }
        }
        return any
    }

    static let logical: [FunctionSpec] = [
        scalar("IF", 1, 3, raw: [1, 2]) { ev, a in
            let c = try ev.flag(a[0])
            if c { return a.count > 1 ? (ev.isMissing(a, 1) ? .value(.number(0)) : a[1]) : .value(.boolean(true)) }
            return a.count > 2 ? (ev.isMissing(a, 2) ? .value(.number(0)) : a[2]) : .value(.boolean(false))
        },
        raw("IFS", 2, 254) { ev, a in
            guard a.count % 2 == 0 else { return .value(.error(.value)) }
            var k = 0
            while k < a.count {
                let v = try ev.checked(a[k])
                if try ev.bool(v) { return a[k + 1] }
                k += 2
            }
            return .value(.error(.notAvailable))
        },
        scalar("IFERROR", 2, 2, raw: [0, 1]) { ev, a in
            try errorFallback(ev, a) { if case .error = $0 { return true }; return false }
        },
        scalar("IFNA", 2, 2, raw: [0, 1]) { ev, a in
            try errorFallback(ev, a) { $0 == .error(.notAvailable) }
        },
        raw("AND", 1, 255) { ev, a in
            var r = true
            let any = try forEachTruth(ev, a) { r = r && $0 }
            return any ? .value(.boolean(r)) : .value(.error(.value))
        },
        raw("OR", 1, 255) { ev, a in
            var r = false
            let any = try forEachTruth(ev, a) { r = r || $0 }
            return any ? .value(.boolean(r)) : .value(.error(.value))
        },
        raw("XOR", 1, 255) { ev, a in
            var r = false
            let any = try forEachTruth(ev, a) { if $0 { r.toggle() } }
            return any ? .value(.boolean(r)) : .value(.error(.value))
        },
        scalar("NOT", 1, 1) { ev, a in .value(.boolean(!(try ev.flag(a[0])))) },
        scalar("TRUE", 0, 0) { _, _ in .value(.boolean(true)) },
        scalar("FALSE", 0, 0) { _, _ in .value(.boolean(false)) },
        scalar("SWITCH", 3, 254, raw: Array(1..<254)) { ev, a in
            let v = try ev.checked(a[0])
            var k = 1
            while k + 1 < a.count {
                let candidate = try ev.scalar(a[k])
                if case .error(let e) = candidate { throw EvalInterrupt.error(e) }
                if Compare.rank(candidate) == Compare.rank(v), Compare.values(v, candidate) == 0 { return a[k + 1] }
                k += 2
            }
            return k < a.count ? a[k] : .value(.error(.notAvailable))
        },
        scalar("CHOOSE", 2, 255, raw: Array(1..<255)) { ev, a in
            let k = try ev.int(a[0])
            guard k >= 1, k < a.count else { return .value(.error(.value)) }
            return ev.isMissing(a, k) ? .value(.number(0)) : a[k]
        },
    ]
}

extension Functions {
    /// IFERROR and IFNA: the value, or the fallback where it is the error. An array value (a range in
    /// an array formula, `G4:G7/H4:H7`) is replaced element by element, so `SUM(IFERROR(G4:G7/H4:H7,0))`
    /// adds the quotients that exist (calc-suite LOGICAL__IFERROR C31).
    static func errorFallback(_ ev: Evaluator, _ a: [Operand], _ caught: (CalcValue) -> Bool) throws -> Operand {
        let fallback: Operand = ev.isMissing(a, 1) ? .value(.number(0)) : a[1]
        if case .value(.array(let arr)) = try ev.liftable(a[0]) {
            let other = try ev.liftable(fallback)
            var out: [CalcValue] = []
            out.reserveCapacity(arr.values.count)
            for r in 0..<arr.rows {
                for c in 0..<arr.columns {
                    let v = arr[r, c]
                    guard caught(v) else { out.append(v); continue }
                    if case .value(.array(let f)) = other { out.append(f.broadcast(r, c)) } else { out.append(try ev.scalar(other)) }
                }
            }
            return .value(.array(CalcArray(rows: arr.rows, columns: arr.columns, values: out)))
        }
        return caught(try ev.scalar(a[0])) ? fallback : a[0]
    }
}
