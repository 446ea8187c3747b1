import SheetPortCore
/// LET and LAMBDA: their names are resolved while parsing (lexical scope), so a name in scope is a
/// `.variable` and any other word stays a defined name. Excel stores the names with `_xlpm.`
/// (`_xlop.` for an optional LAMBDA parameter); typed formulas write them bare.
extension FormulaParser {
    static let parameterPrefix = "_XLPM."
    static let optionalParameterPrefix = "_XLOP."
    static let etaPrefix = "_XLETA."

    /// The LET or LAMBDA name in scope that `word` is (`_xlpm.x` or `x`), if any.
    func localName(_ word: String) -> LocalName? {
        guard !scopes.isEmpty else { return nil }
        let name = Self.strippingParameterPrefix(word)
        let local = LocalName(name)
        return scopes.contains(local.key) ? local : nil
    }

    /// A name without its `_xlpm.`/`_xlop.` storage prefix, and whether it was `_xlop.` (optional).
    static func strippingParameterPrefix(_ word: String) -> String {
        let upper = word.uppercased()
        for prefix in [parameterPrefix, optionalParameterPrefix] where upper.hasPrefix(prefix) {
            return String(word.dropFirst(prefix.count))
        }
        return word
    }

    /// Reads a LET or LAMBDA name followed by `,` (consumed); nil with the cursor kept when the
    /// text there is not one (it is then the calculation). A name Excel refuses (a cell reference's
    /// shape such as `A1`, `TRUE`, a name taken twice) is a parse error, as Excel refuses the formula.
    mutating func declaredName(taken: [LocalName], optionalAllowed: Bool) throws(FormulaParseError) -> LocalName? {
        let save = i
        skipSpaces()
        let start = i
        var bracketed = false
        if optionalAllowed, peek() == UInt8(ascii: "[") { bracketed = true; i += 1 }
        guard isWordStart(peek()) else { i = save; return nil }
        while i < s.count, isWordChar(s[i]) { i += 1 }
        let word = String(decoding: s[(bracketed ? start + 1 : start)..<i], as: UTF8.self)
        if bracketed {
            guard peek() == UInt8(ascii: "]") else { i = save; return nil }
            i += 1
        }
        skipSpaces()
        guard peek() == UInt8(ascii: ",") else { i = save; return nil }
        i += 1
        let optional = bracketed || word.uppercased().hasPrefix(Self.optionalParameterPrefix)
        let name = LocalName(Self.strippingParameterPrefix(word), optional: optional)
        let bare = Array(name.written.utf8)
        if name.written.isEmpty || name.key == "TRUE" || name.key == "FALSE"
            || A1.parseCell(bare, from: 0)?.end == bare.count || isR1C1Shaped(name.key) {
            throw fail("'\(name.written)' cannot be a LET or LAMBDA name", at: start)
        }
        if taken.contains(where: { $0.key == name.key }) {
            throw fail("the name '\(name.written)' is declared twice", at: start)
        }
        return name
    }

    /// `R1C1`, `R2`, `C3`, `RC`: R1C1 references (`r` and `c` alone are fine: Microsoft's
    /// MAKEARRAY example is `LAMBDA(r,c, r*c)`).
    func isR1C1Shaped(_ key: String) -> Bool {
        guard key.count > 1 else { return false }
        var rest = Substring(key)
        if rest.first == "R" { rest = rest.dropFirst(); rest = rest.drop { $0.isNumber } }
        if rest.first == "C" { rest = rest.dropFirst(); rest = rest.drop { $0.isNumber } }
        return rest.isEmpty
    }

    /// `LET(name₁, value₁, …, calculation)`, the cursor past `(`: each value is evaluated once, in
    /// order, with the names before it in scope.
    mutating func letCall(start: Int) throws(FormulaParseError) {
        var names: [LocalName] = []
        let outer = scopes.count
        defer { scopes.removeLast(scopes.count - outer) }
        while let name = try declaredName(taken: names, optionalAllowed: false) {
            skipSpaces()
            try expression(0, union: false)
            out.append(.bind(name))
            names.append(name)
            scopes.append(name.key)
            skipSpaces()
            guard peek() == UInt8(ascii: ",") else { throw fail("LET needs a calculation after its names and values", at: i) }
            i += 1
        }
        guard !names.isEmpty else { throw fail("LET needs a name, a value and a calculation", at: start) }
        skipSpaces()
        try expression(0, union: false)
        try closeParenthesis("LET")
        out.append(.letEnd(count: Int32(names.count)))
        try invocationsAfterLambda()
    }

    /// `LAMBDA(parameter₁, …, calculation)`, the cursor past `(`: the calculation is compiled in
    /// place behind a jump and run only when the lambda is called.
    mutating func lambdaCall(start: Int) throws(FormulaParseError) {
        var parameters: [LocalName] = []
        while let name = try declaredName(taken: parameters, optionalAllowed: true) {
            guard parameters.count < 253 else { throw fail("too many LAMBDA parameters", at: i) }
            parameters.append(name)
        }
        let outer = scopes.count
        defer { scopes.removeLast(scopes.count - outer) }
        scopes.append(contentsOf: parameters.map(\.key))
        out.append(.jump(0))
        let bodyStart = out.count
        skipSpaces()
        try expression(0, union: false)
        try closeParenthesis("LAMBDA")
        let length = Int32(out.count - bodyStart)
        out[bodyStart - 1] = .jump(length)
        out.append(.lambda(parameters: parameters, length: length))
        try invocationsAfterLambda()
    }

    func closeParenthesis(_ function: String) throws(FormulaParseError) {
        guard peek() == UInt8(ascii: ")") else { throw fail("expected ')' in the arguments of \(function)", at: i) }
    }

    /// Consumes the `)` checked by `closeParenthesis`, then calls written right after it (`LAMBDA(x,x+1)(2)`).
    mutating func invocationsAfterLambda() throws(FormulaParseError) {
        i += 1
        while peek() == UInt8(ascii: "(") { try invocation() }
    }

    /// The arguments of a call of the lambda just emitted, the cursor at `(`.
    mutating func invocation() throws(FormulaParseError) {
        let start = i
        i += 1
        let count = try arguments(of: "a lambda", start: start)
        out.append(.invoke(count: count))
    }
}

extension FormulaParser {
    /// `IF(condition, [value_if_true], [value_if_false])`, the cursor past `(`: its arguments with
    /// the `ifTest`/`ifElse` marks that let the evaluator skip the branch not taken.
    mutating func ifCall(_ index: Int32, start: Int) throws(FormulaParseError) {
        var ends: [Int] = []
        let count = try arguments(of: "IF", start: start, ends: &ends)
        let branches = ends.count >= 2 ? [ends[0]..<ends[1]] + (count == 3 ? [ends[1]..<out.count] : []) : []
        // Branches that are one literal or reference cost nothing to evaluate: such an IF keeps
        // the plain call (`IF(F2>500,"high","low")`, the common kind, runs no extra instruction).
        if count >= 2, count <= 3, branches.contains(where: { !isTrivial($0) }) {
            // The marks go in after the condition and after value_if_true (a later one first, so
            // the earlier position holds); each skips to the end of the branch it passes over.
            let call = out.count + (count == 3 ? 2 : 1)
            if count == 3 {
                out.insert(.ifElse(Int32(call - ends[1] - 2)), at: ends[1])
            }
            let trueEnd = count == 3 ? ends[1] + 2 : call
            out.insert(.ifTest(Int32(trueEnd - ends[0] - 1)), at: ends[0])
        }
        out.append(.call(function: index, count: count, name: "IF"))
    }

    /// True when the instructions of `range` are one literal or reference, read without work.
    func isTrivial(_ range: Range<Int>) -> Bool {
        guard range.count == 1 else { return false }
        switch out[range.lowerBound] {
        case .number, .text, .boolean, .error, .missing, .cell, .area, .badReference, .variable: return true
        default: return false
        }
    }
}
