extension Functions {
    static func isType(_ name: String, _ test: @escaping @Sendable (CalcValue) -> Bool) -> FunctionSpec {
        scalar(name, 1, 1) { ev, a in .value(.boolean(test(try ev.scalar(a[0])))) }
    }

    static let information: [FunctionSpec] = [
        isType("ISBLANK") { if case .empty = $0 { return true }; return false },
        isType("ISNUMBER") { if case .number = $0 { return true }; return false },
        isType("ISTEXT") { if case .text = $0 { return true }; return false },
        isType("ISNONTEXT") { if case .text = $0 { return false }; return true },
        isType("ISLOGICAL") { if case .boolean = $0 { return true }; return false },
        isType("ISERROR") { $0.isError },
        isType("ISERR") { if case .error(let e) = $0 { return e != .notAvailable }; return false },
        isType("ISNA") { $0 == .error(.notAvailable) },
        // A boolean is #VALUE! (ToolPak functions: calc-suite ISREF_ISFORMULA_ISODD_ISEVEN ISODD_ISEVEN!B15:C16).
        scalar("ISEVEN", 1, 1) { ev, a in .value(.boolean(try parityArgument(ev, a[0]) % 2 == 0)) },
        scalar("ISODD", 1, 1) { ev, a in .value(.boolean(try parityArgument(ev, a[0]) % 2 != 0)) },
        raw("ISREF", 1, 1) { _, a in
            switch a[0] {
            case .ref, .refs: return .value(.boolean(true))
            default: return .value(.boolean(false))
            }
        },
        scalar("NA", 0, 0) { _, _ in .value(.error(.notAvailable)) },
        raw("TYPE", 1, 1) { ev, a in
            if case .value(.array) = a[0] { return .value(.number(64)) }
            // A lambda (`TYPE(_xleta.SUM)`, calculation suite formulas__test INFORMATION!S24) is 128.
            if case .lambda = a[0] { return .value(.number(128)) }
            // A range is an array in an array formula (TYPE(C24:Q24) entered with Ctrl+Shift+Enter is 64:
            // formulas__test INFORMATION!AG24:AI24); in a cell formula 16, as before.
            if case .ref(let r) = a[0], !r.isSingleCell { return .value(.number(ev.arrayMode ? 64 : 16)) }
            switch try ev.scalar(a[0]) {
            case .number, .empty: return .value(.number(1))
            case .text: return .value(.number(2))
            case .boolean: return .value(.number(4))
            case .error: return .value(.number(16))
            case .array: return .value(.number(64))
            }
        },
        scalar("ERROR.TYPE", 1, 1) { ev, a in
            if case .error(let e) = try ev.scalar(a[0]) { return .value(.number(Double(e.typeNumber))) }
            return .value(.error(.notAvailable))
        },
        scalar("N", 1, 1) { ev, a in
            switch try ev.scalar(a[0]) {
            case .number(let x): return .value(.number(x))
            case .boolean(let b): return .value(.number(b ? 1 : 0))
            case .error(let e): return .value(.error(e))
            default: return .value(.number(0))
            }
        },
        scalar("T", 1, 1) { ev, a in
            switch try ev.scalar(a[0]) {
            case .text(let t): return .value(.text(t))
            case .error(let e): return .value(.error(e))
            default: return .value(.text(""))
            }
        },
    ]
}

extension Functions {
    static func parityArgument(_ ev: Evaluator, _ op: Operand) throws -> Int {
        if case .boolean = try ev.scalar(op) { throw EvalInterrupt.error(.value) }
        return try ev.int(op)
    }
}
