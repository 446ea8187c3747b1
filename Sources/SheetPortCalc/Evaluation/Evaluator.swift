#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore
/// What an expression evaluates to before it is read as a value: a value, or references the
/// evaluator reads lazily (so `SUM(A:A)` never materialises a column).
enum Operand {
    case value(CalcValue)
    case ref(SheetRange)
    case refs([SheetRange])
    /// An omitted argument.
    case missing
    /// A LAMBDA (or a built-in function passed as one): called by MAP, REDUCE, `f(2)`; as a
    /// cell's value it is `#CALC!`, where a value is read `#VALUE!`.
    case lambda(Lambda)
}

/// Why an evaluation stopped early.
enum EvalInterrupt: Error {
    /// A formula cell it reads has not been computed yet (the recalculation computes it and retries).
    case needs(Int32)
    /// The expression's value is this error (thrown by coercions and functions; caught at each call).
    case error(ExcelError)
    /// The formula ran past its `maxEvalBytes` or `maxEvalSteps`: it is `#NUM!` as a whole (no
    /// function catches this one, so IFERROR cannot turn it into more work).
    case exhausted
}

/// Evaluates compiled formulas for one cell at a time with a value stack: no recursion except
/// into defined names (bounded).
final class Evaluator {
    /// The engine that made this evaluator for one pass and outlives it (`evaluate`): unowned(unsafe),
    /// as a checked unowned reference costs a retain and release on each of its many reads.
    unowned(unsafe) let engine: CalcEngine
    // Read and set for every cell by the one task evaluating: no dynamic exclusivity checks.
    /// The cell being evaluated.
    @exclusivity(unchecked) var sheet: Int32 = 0
    @exclusivity(unchecked) var row: Int32 = 0
    @exclusivity(unchecked) var column: Int32 = 0
    /// True in an array formula (CSE or dynamic) or inside array-evaluating functions' formulas.
    @exclusivity(unchecked) var arrayMode = false
    @exclusivity(unchecked) var nameDepth = 0
    /// Lambda calls under way (`Evaluator+Lambda.swift`), and the running thread's stack floor.
    @exclusivity(unchecked) var lambdaDepth = 0
    @exclusivity(unchecked) var stackBounds: (thread: pthread_t, floor: UInt)?
    /// The running formula's budget left (`CalcLimits`; set by `startBudget`).
    @exclusivity(unchecked) var stepsLeft = 0
    @exclusivity(unchecked) var bytesLeft = 0
    /// Steps of `maxEvalSteps` not yet handed to `stepsLeft`: with a deadline, the budget is
    /// given out in slices and the clock read between them (`moreSteps`).
    @exclusivity(unchecked) var stepsBanked = 0
    let limits: CalcLimits
    /// The engine's deadline for this pass (`CalcEngine.deadline`).
    let deadline: CalcDeadline?
    /// Cells evaluated until the clock is read again, and whether the deadline was seen passed.
    @exclusivity(unchecked) var cellsUntilClock = 0
    @exclusivity(unchecked) var isPastDeadline = false
    /// NOW as a serial of the workbook's date system, read once per recalculation.
    let nowSerial: Double

    init(engine: CalcEngine) {
        self.engine = engine
        limits = engine.limits
        deadline = engine.deadline
        let clock = engine.clock
        let local = clock.unixTime() + Double(clock.utcOffsetSeconds)
        var serial = local / 86_400 + 25_569
        if engine.dateSystem == .excel1904 { serial -= 1462 }
        nowSerial = serial
    }

    var dateSystem: DateSystem { engine.dateSystem }

    /// Runs a compiled formula at the current cell.
    @inline(__always)
    func run(_ formula: CompiledFormula) throws -> Operand {
        try execute(formula.instructions, 0..<formula.instructions.count, scope: nil)
    }

    /// Runs the instructions of `range` (a whole formula, or a lambda's body) with the LET and
    /// LAMBDA names of `scope` bound.
    func execute(_ code: [Instruction], _ range: Range<Int>, scope outer: LocalScope?) throws -> Operand {
        var stack: [Operand] = []
        stack.reserveCapacity(8)
        var scope = outer
        var pc = range.lowerBound
        while pc < range.upperBound {
            let step = code[pc]
            pc &+= 1
            stepsLeft &-= 1
            if stepsLeft < 0 { try moreSteps() }
            switch step {
            case .number(let v): stack.append(.value(.number(v)))
            case .text(let t): stack.append(.value(.text(t)))
            case .boolean(let b): stack.append(.value(.boolean(b)))
            case .error(let e): stack.append(.value(.error(e)))
            case .array(let a): stack.append(.value(.array(a)))
            case .missing: stack.append(.missing)
            case .cell(let r, let sheetName):
                stack.append(resolveCell(r, sheetName))
            case .area(let a, let sheetName):
                stack.append(resolveArea(a, sheetName))
            case .badReference:
                stack.append(.value(.error(.reference)))
            case .name(let n, let sheetName):
                stack.append(try evaluateName(n, sheetName))
            case .structured(let s):
                stack.append(resolveStructured(s))
            case .unary(let op):
                let x = stack.popLast() ?? .missing
                stack.append(try unary(op, x))
            case .binary(let op):
                let b = stack.popLast() ?? .missing
                let a = stack.popLast() ?? .missing
                if op == .range, spansSheetsNotHeld(code, before: pc &- 1, range.lowerBound, a, b) {
                    stack.append(.value(.error(.value)))
                } else {
                    stack.append(try binary(op, a, b))
                }
            case .call(let f, let count, _):
                let n = Int(count)
                let args = Array(stack.suffix(n))
                Evaluator.drop(n, from: &stack)
                // A name the registry does not know may be a defined name holding a LAMBDA.
                stack.append(try limited(f >= 0 ? try call(f, args) : try callDefinedName(code[pc &- 1], args)))
            case .union(let count):
                let n = Int(count)
                let parts = stack.suffix(n)
                var ranges: [SheetRange] = []
                var bad = false
                for p in parts {
                    switch p {
                    case .ref(let r): ranges.append(r)
                    case .refs(let rs): ranges.append(contentsOf: rs)
                    default: bad = true
                    }
                }
                Evaluator.drop(n, from: &stack)
                stack.append(bad ? .value(.error(.value)) : .refs(ranges))
            case .parenthesis:
                break
            case .variable(let n):
                stack.append(scope?.lookup(n.key) ?? .value(.error(.name)))
            case .bind(let n):
                scope = LocalScope(n.key, stack.popLast() ?? .missing, parent: scope)
            case .letEnd(let count):
                for _ in 0..<count { scope = scope?.parent }
            case .jump(let length):
                pc &+= Int(length)
            case .lambda(let parameters, let length):
                let body = (pc - 1 - Int(length))..<(pc - 1)
                stack.append(.lambda(Lambda(.code(code, body, parameters: parameters, scope: scope))))
            case .invoke(let count):
                let n = Int(count)
                let args = Array(stack.suffix(n))
                Evaluator.drop(n, from: &stack)
                let callee = stack.popLast() ?? .missing
                stack.append(try limited(try invoke(callee, args)))
            case .eta(let f, _):
                stack.append(.lambda(Lambda(.builtin(f))))
            case .ifTest(let skip):
                let branches = try ifBranches(stack.last)
                if branches == .valueIfFalse || branches == .neither {
                    stack.append(.missing)
                    pc &+= Int(skip)
                }
                // An error condition reads neither branch: the `ifElse` just passed over skips the other.
                if branches == .neither, pc > range.lowerBound, case .ifElse(let other) = code[pc - 1] {
                    stack.append(.missing)
                    pc &+= Int(other)
                }
            case .ifElse(let skip):
                // Reached after value_if_true: skip value_if_false unless both branches are needed.
                if stack.count >= 2, try ifBranches(stack[stack.count - 2]) == .valueIfTrue {
                    stack.append(.missing)
                    pc &+= Int(skip)
                }
            }
        }
        return stack.last ?? .value(.empty)
    }

    /// Pops the last `n` operands (fewer when the stack is shorter) one by one: `removeLast(n)`
    /// goes through `replaceSubrange`, several times the cost for the one to three of a call.
    @inline(__always)
    static func drop(_ n: Int, from stack: inout [Operand]) {
        for _ in 0..<min(n, stack.count) { stack.removeLast() }
    }

    // MARK: function calls

    func call(_ f: Int32, _ args: [Operand]) throws -> Operand {
        guard f >= 0 else { return .value(.error(.name)) }
        let spec = FunctionRegistry.specs[Int(f)]
        guard args.count >= spec.minArgs, args.count <= spec.maxArgs else {
            // Excel does not store such a call; an error among the arguments wins, as it would while typing.
            for a in args { if case .error(let e) = try scalar(a) { return .value(.error(e)) } }
            return .value(.error(.value))
        }
        do {
            if spec.lifts {
                return try lifted(spec, args)
            }
            return try spec.impl(self, args)
        } catch EvalInterrupt.error(let e) {
            return .value(.error(e))
        }
    }

    /// Applies a scalar function element by element when array arguments stand where it takes scalars.
    func lifted(_ spec: FunctionSpec, _ args: [Operand]) throws -> Operand {
        var scalars = args
        var rows = 1, columns = 1
        var hasArray = false
        for (k, a) in args.enumerated() where !spec.takesRaw(k) {
            // The Analysis ToolPak's functions take no range where they take a value, even in an
            // array formula (an array they lift over: `EDATE(--A1:A3,1)`).
            if arrayMode, case .ref(let r) = a, !r.isSingleCell, FunctionRegistry.analysisToolPak.contains(spec.name) {
                return .value(.error(.value))
            }
            let x = try liftable(a)
            if case .value(.array(let arr)) = x {
                hasArray = true
                rows = max(rows, arr.rows)
                columns = max(columns, arr.columns)
            }
            scalars[k] = x
        }
        guard hasArray else {
            do { return try spec.impl(self, scalars) } catch EvalInterrupt.error(let e) { return .value(.error(e)) }
        }
        if spec.name == "IF" { try readBranchRanges(args) }
        var out: [CalcValue] = []
        out.reserveCapacity(try arrayCells(rows, columns))
        var element = scalars
        for r in 0..<rows {
            for c in 0..<columns {
                for (k, a) in scalars.enumerated() where !spec.takesRaw(k) {
                    if case .value(.array(let arr)) = a { element[k] = .value(arr.broadcast(r, c)) }
                }
                do {
                    let v = try scalar(try spec.impl(self, element))
                    if case .text(let t) = v { out.append(try limitedText(t)) } else { out.append(v) }
                } catch EvalInterrupt.error(let e) {
                    out.append(.error(e))
                }
            }
        }
        return .value(.array(CalcArray(rows: rows, columns: columns, values: out)))
    }

    /// IF over an array condition reads its branches' ranges whole, whichever elements it picks:
    /// in Excel `{=IF(A8:A9,B8:B9,1)}` with both conditions false is still on a circular
    /// reference through B8 (calculation suite formulas__circular D8:D9). Only the reading
    /// counts: a cell not computed yet is computed first, and one on the path is a cycle.
    private func readBranchRanges(_ args: [Operand]) throws {
        guard arrayMode else { return }
        for case .ref(let r) in args.dropFirst() where !r.isSingleCell { try forEachCell(r) { _, _, _ in } }
    }

    /// An operand as a scalar or an array: references become arrays in array mode, else their implicit intersection.
    func liftable(_ op: Operand) throws -> Operand {
        switch op {
        case .ref(let r):
            if r.isSingleCell { return .value(try cellValue(r.sheet, r.r1, r.c1)) }
            if arrayMode { return .value(.array(try fullMatrix(r, limit: limits.maxArrayCells))) }
            return .value(try implicitIntersection(r))
        case .refs:
            return .value(.error(.value))
        default:
            return op
        }
    }

    // MARK: reading operands

    /// The single value of an operand: a cell's value, the implicit intersection of a range, an array's first element.
    func scalar(_ op: Operand) throws -> CalcValue {
        switch op {
        case .value(let v):
            if case .array(let a) = v { return a.values.first ?? .empty }
            return v
        case .missing:
            return .empty
        case .ref(let r):
            if r.isSingleCell { return try cellValue(r.sheet, r.r1, r.c1) }
            if arrayMode { return try cellValue(r.sheet, r.r1, r.c1) }
            return try implicitIntersection(r)
        case .refs, .lambda:
            return .error(.value)
        }
    }

    /// Excel's implicit intersection of a range with the formula's row or column.
    func implicitIntersection(_ r: SheetRange) throws -> CalcValue {
        if r.c1 == r.c2, row >= r.r1, row <= r.r2 { return try cellValue(r.sheet, row, r.c1) }
        if r.r1 == r.r2, column >= r.c1, column <= r.c2 { return try cellValue(r.sheet, r.r1, column) }
        return .error(.value)
    }

    /// A scalar that must not be an error (an error is thrown).
    func checked(_ op: Operand) throws -> CalcValue {
        let v = try scalar(op)
        if case .error(let e) = v { throw EvalInterrupt.error(e) }
        return v
    }

    /// A number as arithmetic reads it.
    func number(_ v: CalcValue) throws -> Double {
        switch v {
        case .number(let x): return x
        case .boolean(let b): return b ? 1 : 0
        case .empty: return 0
        case .text(let t):
            guard let x = Coercion.number(fromText: t, system: dateSystem) else { throw EvalInterrupt.error(.value) }
            return x
        case .error(let e): throw EvalInterrupt.error(e)
        case .array(let a): return try number(a.values.first ?? .empty)
        }
    }

    /// The number of an operand (scalar read, then coerced).
    func num(_ op: Operand) throws -> Double { try number(try scalar(op)) }

    /// The number of an optional argument, or `default` when missing or omitted.
    func num(_ args: [Operand], _ k: Int, default d: Double) throws -> Double {
        guard k < args.count else { return d }
        if case .missing = args[k] { return d }
        return try num(args[k])
    }

    /// An integer argument, truncated toward zero as Excel does.
    func int(_ op: Operand) throws -> Int {
        let x = try num(op)
        guard x.isFinite, Swift.abs(x) < 9e15 else { throw EvalInterrupt.error(.number) }
        return Int(x.rounded(.towardZero))
    }

    /// An optional integer argument (truncated toward zero), or `default` when missing or omitted.
    func int(_ args: [Operand], _ k: Int, default d: Int) throws -> Int {
        guard k < args.count else { return d }
        if case .missing = args[k] { return d }
        return try int(args[k])
    }

    /// The text of a value as `&` reads it.
    func text(_ v: CalcValue) throws -> String {
        switch v {
        case .text(let t): return t
        case .number(let x): return Coercion.text(x)
        case .boolean(let b): return b ? "TRUE" : "FALSE"
        case .empty: return ""
        case .error(let e): throw EvalInterrupt.error(e)
        case .array(let a): return try text(a.values.first ?? .empty)
        }
    }

    func str(_ op: Operand) throws -> String { try text(try scalar(op)) }

    /// A boolean as logical functions read it.
    func bool(_ v: CalcValue) throws -> Bool {
        switch v {
        case .boolean(let b): return b
        case .number(let x): return x != 0
        case .empty: return false
        case .text(let t):
            switch t.uppercased() {
            case "TRUE": return true
            case "FALSE": return false
            default: throw EvalInterrupt.error(.value)
            }
        case .error(let e): throw EvalInterrupt.error(e)
        case .array(let a): return try bool(a.values.first ?? .empty)
        }
    }

    func flag(_ op: Operand) throws -> Bool { try bool(try scalar(op)) }

    /// True when the argument was omitted (or is past the end).
    func isMissing(_ args: [Operand], _ k: Int) -> Bool {
        guard k < args.count else { return true }
        if case .missing = args[k] { return true }
        return false
    }
}
