#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The LET and LAMBDA names bound where an instruction runs: an immutable chain, innermost
/// first, so a lambda made inside a LET keeps the bindings it saw (lexical scope) however long
/// it lives.
final class LocalScope {
    let key: String
    let value: Operand
    let parent: LocalScope?

    init(_ key: String, _ value: Operand, parent: LocalScope?) {
        self.key = key
        self.value = value
        self.parent = parent
    }

    /// The value bound to `key` here or further out; nil when unbound.
    func lookup(_ key: String) -> Operand? {
        var scope: LocalScope? = self
        while let s = scope {
            if s.key == key { return s.value }
            scope = s.parent
        }
        return nil
    }
}

/// A lambda value: a LAMBDA's body in its program with the scope it was made in, or a built-in
/// function passed eta-reduced (`_xleta.SUM`).
final class Lambda {
    enum Body {
        case code([Instruction], Range<Int>, parameters: [LocalName], scope: LocalScope?)
        case builtin(Int32)
    }

    let body: Body

    init(_ body: Body) { self.body = body }

    /// How many arguments a call must pass at least and may pass at most.
    var arity: ClosedRange<Int> {
        switch body {
        case .code(_, _, let parameters, _):
            return parameters.count(where: { !$0.isOptional })...parameters.count
        case .builtin(let f):
            guard f >= 0 else { return 0...255 }
            let spec = FunctionRegistry.specs[Int(f)]
            return spec.minArgs...spec.maxArgs
        }
    }
}

extension Evaluator {
    /// The deepest nesting of lambda calls (a recursive LAMBDA held in a name): past it, or with
    /// too little of the thread's stack left, the formula is `#NUM!` as a whole.
    static let maxLambdaDepth = 1_000
    /// The stack kept free below the deepest lambda call, for the functions it calls.
    static let lambdaStackReserve = 256 << 10

    /// Calls `callee` (a lambda, else `#VALUE!`; an error is passed on) with `args`.
    func invoke(_ callee: Operand, _ args: [Operand]) throws -> Operand {
        switch callee {
        case .lambda(let l): return try apply(l, args)
        case .value(.error(let e)): return .value(.error(e))
        default: return .value(.error(.value))
        }
    }

    /// Runs a lambda with `args` bound to its parameters (an omitted one is `.missing`, which
    /// ISOMITTED sees); a wrong number of arguments is `#VALUE!`.
    func apply(_ lambda: Lambda, _ args: [Operand]) throws -> Operand {
        guard lambda.arity.contains(args.count) else { return .value(.error(.value)) }
        switch lambda.body {
        case .builtin(let f):
            return try call(f, args)
        case .code(let code, let range, let parameters, let outer):
            guard lambdaDepth < Self.maxLambdaDepth, hasStackForLambda() else { throw EvalInterrupt.exhausted }
            lambdaDepth += 1
            defer { lambdaDepth -= 1 }
            var scope = outer
            for (k, p) in parameters.enumerated() { scope = LocalScope(p.key, k < args.count ? args[k] : .missing, parent: scope) }
            do {
                return try execute(code, range, scope: scope)
            } catch EvalInterrupt.error(let e) {
                return .value(.error(e))
            }
        }
    }

    /// A call of a name the registry does not know: a defined name holding a LAMBDA
    /// (`=CountWords(A1)`) is called with the arguments; any other is `#NAME?`.
    func callDefinedName(_ step: Instruction, _ args: [Operand]) throws -> Operand {
        guard case .call(_, _, let name) = step, engine.definedName(name, sheet: sheet) != nil else { return .value(.error(.name)) }
        let callee = try evaluateName(name, nil)
        if case .lambda = callee { return try invoke(callee, args) }
        if case .value(.error(let e)) = callee { return .value(.error(e)) }
        return .value(.error(.value))
    }

    /// A lambda argument of MAP, REDUCE and the others (the last one): `#VALUE!` when it is not one.
    func lambdaArgument(_ op: Operand) throws -> Lambda {
        switch op {
        case .lambda(let l): return l
        case .value(.error(let e)): throw EvalInterrupt.error(e)
        default: throw EvalInterrupt.error(.value)
        }
    }

    /// True while the running thread has `lambdaStackReserve` bytes of stack left below this
    /// frame: a recursive LAMBDA stops with `#NUM!` on any thread's stack size instead of overflowing it.
    func hasStackForLambda() -> Bool {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return here > stackFloor() &+ UInt(Self.lambdaStackReserve)
    }

    /// The lowest address of the running thread's stack, asked once per thread (0 when unknown:
    /// `maxLambdaDepth` alone bounds the calls then).
    func stackFloor() -> UInt {
        let thread = pthread_self()
        if let known = stackBounds, known.thread == thread { return known.floor }
        var floor: UInt = 0
        #if canImport(Glibc)
        // pthread_attr_t is 56 bytes on 64-bit Linux; a larger buffer leaves room.
        let attributes = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 16)
        defer { attributes.deallocate() }
        if threadAttributes(thread, attributes) == 0 {
            var address: UnsafeMutableRawPointer?
            var size = 0
            if stackOfAttributes(attributes, &address, &size) == 0, let address { floor = UInt(bitPattern: address) }
            _ = destroyAttributes(attributes)
        }
        #elseif canImport(Darwin)
        // Darwin answers the stack's top (its highest address) and size.
        floor = UInt(bitPattern: pthread_get_stackaddr_np(thread)) &- UInt(pthread_get_stacksize_np(thread))
        #endif
        stackBounds = (thread, floor)
        return floor
    }
}

#if canImport(Glibc)
// glibc's calls for a thread's stack bounds; pthread_getattr_np is a GNU extension the Glibc
// module does not export, so the three are declared here with their C signatures.
@_silgen_name("pthread_getattr_np")
private func threadAttributes(_ thread: pthread_t, _ attributes: UnsafeMutableRawPointer) -> Int32
@_silgen_name("pthread_attr_getstack")
private func stackOfAttributes(_ attributes: UnsafeMutableRawPointer, _ address: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
                               _ size: UnsafeMutablePointer<Int>) -> Int32
@_silgen_name("pthread_attr_destroy")
private func destroyAttributes(_ attributes: UnsafeMutableRawPointer) -> Int32
#elseif canImport(Darwin)
// Darwin exports pthread_get_stackaddr_np and pthread_get_stacksize_np (used above).
#endif

extension Evaluator {
    /// The branches of IF its condition needs (`ifTest`, `ifElse`): both for an array (IF picks
    /// element by element) or a range read as an array; neither for a scalar that is no truth
    /// (IF answers its error: `IF(#REF!="",0,A1)` in A1 is no circular reference, as in Excel).
    func ifBranches(_ condition: Operand?) throws -> IfBranches {
        guard let condition else { return .both }
        switch condition {
        case .value(.array), .refs, .lambda, .missing:
            return .both
        case .ref(let r) where !r.isSingleCell && arrayMode:
            return .both
        case .value, .ref:
            do { return try flag(condition) ? .valueIfTrue : .valueIfFalse } catch EvalInterrupt.error { return .neither }
        }
    }
}

/// The arguments of IF its condition needs evaluated.
enum IfBranches {
    case valueIfTrue, valueIfFalse, both, neither
}
