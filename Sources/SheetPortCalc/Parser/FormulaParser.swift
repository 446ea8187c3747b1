/// Why a formula could not be compiled.
public struct FormulaParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// The zero-based character position in the formula text where it went wrong.
    public var position: Int
    /// True when the formula refers to another workbook (`[1]Sheet1!A1`): not an error in the
    /// formula itself, but one the engine evaluates only with the workbook's links loaded.
    public var isExternalReference: Bool

    /// A parse error at a character position.
    public init(message: String, position: Int, isExternalReference: Bool = false) {
        self.message = message
        self.position = position
        self.isExternalReference = isExternalReference
    }

    /// The message with its position.
    public var description: String { "\(message) at position \(position)" }
}

/// Parses formula text as stored in xlsx (`SUM(A1:B2)*2`, no leading `=`) into postfix instructions.
///
/// A Pratt parser: chains of operators of one precedence are a loop, so only nesting (parentheses,
/// function calls, prefix operators) recurses, and that is limited to `maxDepth` levels: deeper
/// input is a parse error, never a stack overflow.
struct FormulaParser {
    /// The deepest nesting accepted (Excel allows 64 levels of functions).
    static let maxDepth = 200
    /// The longest formula accepted, in UTF-8 bytes (Excel allows 8,192 characters).
    static let maxLength = 65_536

    let s: [UInt8]
    let text: String
    let origin: CellIndex
    var i = 0
    var out: [Instruction] = []
    var depth = 0
    var arrayArgs = 0
    var usesArrayArguments = false
    /// The keys of the LET and LAMBDA names in scope at the cursor, innermost last.
    var scopes: [String] = []
    /// Whether references to other workbooks compile (`[1]Sheet1!A1` names the sheet `[1]Sheet1`,
    /// `[1]!Name` the name `[1]!Name`); otherwise they are a parse error marked `isExternalReference`.
    var allowsExternal = false

    init(_ text: String, at origin: CellIndex) {
        self.text = text
        self.s = Array(text.utf8)
        self.origin = origin
    }

    /// Parses the whole text; the instructions and whether an array-evaluating function appears.
    static func parse(_ text: String, at origin: CellIndex) throws(FormulaParseError) -> [Instruction] {
        var p = FormulaParser(text, at: origin)
        return try p.run()
    }

    mutating func run() throws(FormulaParseError) -> [Instruction] {
        guard s.count <= FormulaParser.maxLength else { throw fail("formula too long", at: 0) }
        if s.first == UInt8(ascii: "=") { i = 1 }
        skipSpaces()
        guard i < s.count else { throw fail("empty formula", at: i) }
        try expression(0, union: false)
        skipSpaces()
        guard i >= s.count else { throw fail("unexpected '\(char(i))'", at: i) }
        return out
    }

    // MARK: errors and bytes

    func fail(_ message: String, at pos: Int, external: Bool = false) -> FormulaParseError {
        let clamped = min(max(pos, 0), s.count)
        let chars = String(decoding: s[..<clamped], as: UTF8.self).count
        return FormulaParseError(message: message, position: chars, isExternalReference: external)
    }

    func char(_ k: Int) -> String { k < s.count ? String(decoding: [s[k]], as: UTF8.self) : "end" }

    @inline(__always) func peek(_ k: Int = 0) -> UInt8 { i + k < s.count ? s[i + k] : 0 }

    mutating func skipSpaces() {
        while i < s.count, s[i] == 32 || s[i] == 10 || s[i] == 13 || s[i] == 9 { i += 1 }
    }

    // MARK: precedence

    static let precCompare = 1, precConcat = 2, precAdd = 3, precMultiply = 4, precPower = 5
    static let precPercent = 6, precUnary = 7, precUnion = 8, precIntersect = 9, precRange = 10

    /// Reads a binary operator at the cursor without consuming it.
    func binaryOperator(union: Bool) -> (op: BinaryOperator?, isUnion: Bool, length: Int, prec: Int)? {
        let c = peek()
        switch c {
        case UInt8(ascii: "+"): return (.add, false, 1, Self.precAdd)
        case UInt8(ascii: "-"): return (.subtract, false, 1, Self.precAdd)
        case UInt8(ascii: "*"): return (.multiply, false, 1, Self.precMultiply)
        case UInt8(ascii: "/"): return (.divide, false, 1, Self.precMultiply)
        case UInt8(ascii: "^"): return (.power, false, 1, Self.precPower)
        case UInt8(ascii: "&"): return (.concat, false, 1, Self.precConcat)
        case UInt8(ascii: "="): return (.equal, false, 1, Self.precCompare)
        case UInt8(ascii: ":"): return (.range, false, 1, Self.precRange)
        case UInt8(ascii: "<"):
            if peek(1) == UInt8(ascii: ">") { return (.notEqual, false, 2, Self.precCompare) }
            if peek(1) == UInt8(ascii: "=") { return (.lessEqual, false, 2, Self.precCompare) }
            return (.less, false, 1, Self.precCompare)
        case UInt8(ascii: ">"):
            if peek(1) == UInt8(ascii: "=") { return (.greaterEqual, false, 2, Self.precCompare) }
            return (.greater, false, 1, Self.precCompare)
        case UInt8(ascii: ","):
            return union ? (nil, true, 1, Self.precUnion) : nil
        default: return nil
        }
    }

    func startsOperand(_ c: UInt8) -> Bool {
        switch c {
        case 0, UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "}"),
             UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "^"),
             UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ":"),
             UInt8(ascii: "%"):
            return false
        default: return true
        }
    }

    // MARK: expressions

    /// Parses an expression whose operators bind at least as tight as `minPrec`.
    mutating func expression(_ minPrec: Int, union: Bool) throws(FormulaParseError) {
        depth += 1
        defer { depth -= 1 }
        guard depth <= FormulaParser.maxDepth else { throw fail("formula nested too deeply (more than \(FormulaParser.maxDepth) levels)", at: i) }
        try prefix(union: union)
        var unionCount: Int32 = 1
        while true {
            let before = i
            skipSpaces()
            let skipped = i > before
            if peek() == UInt8(ascii: "%") {
                guard Self.precPercent >= minPrec else { break }
                i += 1
                out.append(.unary(.percent))
                continue
            }
            if let op = binaryOperator(union: union) {
                guard op.prec >= minPrec else { break }
                i += op.length
                skipSpaces()
                if op.isUnion {
                    if unionCount == 1 { try requireReference(at: before) }
                    try expression(op.prec + 1, union: union)
                    try requireReference(at: before)
                    unionCount += 1
                    // Unions are collected into one instruction at the end of the chain.
                    continue
                }
                if unionCount > 1 { out.append(.union(count: unionCount)); unionCount = 1 }
                try expression(op.prec + 1, union: union)
                if let b = op.op { out.append(.binary(b)) }
                continue
            }
            if skipped, startsOperand(peek()), Self.precIntersect >= minPrec {
                try expression(Self.precIntersect + 1, union: union)
                out.append(.binary(.intersect))
                continue
            }
            i = before
            break
        }
        if unionCount > 1 { out.append(.union(count: unionCount)) }
    }

    /// The union operator joins references only: `(-4,3)` is not a formula Excel accepts.
    func requireReference(at pos: Int) throws(FormulaParseError) {
        switch out.last {
        case .number?, .text?, .boolean?, .array?, .unary?:
            throw fail("the union operator ',' needs references", at: pos)
        case .binary(let op)? where op != .range && op != .intersect:
            throw fail("the union operator ',' needs references", at: pos)
        default: break
        }
    }

    mutating func prefix(union: Bool) throws(FormulaParseError) {
        skipSpaces()
        let c = peek()
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") {
            i += 1
            try expression(Self.precUnary, union: union)
            out.append(.unary(c == UInt8(ascii: "-") ? .negate : .plus))
            return
        }
        try primary()
    }

    mutating func primary() throws(FormulaParseError) {
        let c = peek()
        switch c {
        case 0:
            throw fail("unexpected end of formula", at: i)
        case UInt8(ascii: "("):
            i += 1
            skipSpaces()
            try expression(0, union: true)
            skipSpaces()
            guard peek() == UInt8(ascii: ")") else { throw fail("expected ')'", at: i) }
            i += 1
            out.append(.parenthesis)
        case UInt8(ascii: "\""):
            out.append(.text(try stringLiteral()))
        case UInt8(ascii: "{"):
            out.append(.array(try arrayConstant()))
        case UInt8(ascii: "#"):
            let start = i
            guard let e = errorLiteral() else { throw fail("unknown error literal", at: start) }
            if e == .reference {
                out.append(.badReference(sheet: nil))
            } else {
                out.append(.error(e))
            }
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."):
            if try rowRange(sheet: nil) { return }
            out.append(.number(try numberLiteral()))
        case UInt8(ascii: "'"):
            let start = i
            let sheet = try quotedSheet()
            try referenceAfterSheet(sheet, start: start)
        case UInt8(ascii: "["):
            if isExternalBracket() {
                guard allowsExternal else { throw fail("reference to another workbook", at: i, external: true) }
                try externalReference()
                return
            }
            out.append(.structured(try structuredReference(table: nil)))
        case UInt8(ascii: "$"):
            if try rowRange(sheet: nil) { return }
            try wordOperand()
        default:
            if isWordStart(c) { try wordOperand(); return }
            throw fail("unexpected '\(char(i))'", at: i)
        }
    }

    func isWordStart(_ c: UInt8) -> Bool {
        A1.upperLetter(c) != nil || c == UInt8(ascii: "_") || c == UInt8(ascii: "\\") || c >= 0x80
    }

    func isWordChar(_ c: UInt8) -> Bool {
        isWordStart(c) || (c >= 48 && c <= 57) || c == UInt8(ascii: ".") || c == UInt8(ascii: "$") || c == UInt8(ascii: "?")
    }

    /// After `Sheet1:` a second sheet name and `!` follow (`Sheet1:Sheet3!A1`), not a cell (`A1:B2`).
    func isThreeDPrefix(from k0: Int) -> Bool {
        var k = k0
        while k < s.count, isWordChar(s[k]) { k += 1 }
        return k > k0 && k < s.count && s[k] == UInt8(ascii: "!")
    }

    /// `[1]Sheet!A1` or `[Book.xlsx]Sheet!A1` rather than a structured reference.
    func isExternalBracket() -> Bool {
        var k = i + 1
        while k < s.count, s[k] != UInt8(ascii: "]") {
            if s[k] == UInt8(ascii: "[") || s[k] == UInt8(ascii: "@") || s[k] == UInt8(ascii: "#") { return false }
            k += 1
        }
        guard k < s.count else { return false }
        // After the bracket a sheet name and '!' follow for an external reference.
        var j = k + 1
        while j < s.count, isWordChar(s[j]) || s[j] == 32 { j += 1 }
        return j < s.count && s[j] == UInt8(ascii: "!")
    }

    /// `[1]Sheet1!A1`, `[Book.xlsx]Sheet!A1:B2` (the sheet `[1]Sheet1`, as the engine holds the
    /// other workbook's cached sheets) or `[2]!Name` (the name `[2]!Name`), the cursor at `[`.
    mutating func externalReference() throws(FormulaParseError) {
        let start = i
        while i < s.count, s[i] != UInt8(ascii: "]") { i += 1 }
        i += 1  // isExternalBracket found the ']'
        let book = String(decoding: s[start..<i], as: UTF8.self)
        if peek() == UInt8(ascii: "!") {
            i += 1
            let wStart = i
            while i < s.count, isWordChar(s[i]) { i += 1 }
            guard i > wStart else { throw fail("expected a name after the workbook", at: i) }
            out.append(.name(book + "!" + String(decoding: s[wStart..<i], as: UTF8.self), sheet: nil))
            return
        }
        let sheetStart = i
        while i < s.count, isWordChar(s[i]) { i += 1 }
        guard i > sheetStart, peek() == UInt8(ascii: "!") else { throw fail("expected '!' after the sheet of another workbook", at: i) }
        let sheet = book + String(decoding: s[sheetStart..<i], as: UTF8.self)
        i += 1
        try referenceAfterSheet(sheet, start: start)
    }

    mutating func stringLiteral() throws(FormulaParseError) -> String {
        try quoted(by: UInt8(ascii: "\""), unterminated: "unterminated text")
    }

    /// The text between the `quote` at `i` and its closing one, a doubled quote read as one;
    /// `i` is left past the closing quote. `unterminated` names what has none.
    private mutating func quoted(by quote: UInt8, unterminated: String) throws(FormulaParseError) -> String {
        let start = i
        i += 1
        var bytes: [UInt8] = []
        while true {
            guard i < s.count else { throw fail(unterminated, at: start) }
            if s[i] == quote {
                if peek(1) == quote { bytes.append(s[i]); i += 2; continue }
                i += 1
                break
            }
            bytes.append(s[i]); i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    mutating func errorLiteral() -> ExcelError? {
        // Longest match among the literals.
        for e in ExcelError.allCases.sorted(by: { $0.rawValue.utf8.count > $1.rawValue.utf8.count }) {
            let lit = Array(e.rawValue.utf8)
            guard i + lit.count <= s.count else { continue }
            var ok = true
            for k in 0..<lit.count where (A1.upperLetter(s[i + k]) ?? s[i + k]) != lit[k] { ok = false; break }
            if ok { i += lit.count; return e }
        }
        return nil
    }

    mutating func numberLiteral() throws(FormulaParseError) -> Double {
        let start = i
        while i < s.count, (s[i] >= 48 && s[i] <= 57) || s[i] == UInt8(ascii: ".") { i += 1 }
        if i < s.count, s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E") {
            var k = i + 1
            if k < s.count, s[k] == UInt8(ascii: "+") || s[k] == UInt8(ascii: "-") { k += 1 }
            if k < s.count, s[k] >= 48, s[k] <= 57 {
                i = k
                while i < s.count, s[i] >= 48, s[i] <= 57 { i += 1 }
            }
        }
        guard let v = Double(String(decoding: s[start..<i], as: UTF8.self)) else { throw fail("bad number", at: start) }
        guard v.isFinite else { throw fail("number out of range", at: start) }
        return v
    }

    mutating func arrayConstant() throws(FormulaParseError) -> CalcArray {
        let start = i
        i += 1
        var rows: [[CalcValue]] = [[]]
        while true {
            skipSpaces()
            var negative = false
            if peek() == UInt8(ascii: "-") { negative = true; i += 1 } else if peek() == UInt8(ascii: "+") { i += 1 }
            let c = peek()
            var v: CalcValue
            if c == UInt8(ascii: "\"") {
                v = .text(try stringLiteral())
            } else if c == UInt8(ascii: "#") {
                guard let e = errorLiteral() else { throw fail("bad error literal in array", at: i) }
                v = .error(e)
            } else if (c >= 48 && c <= 57) || c == UInt8(ascii: ".") {
                let n = try numberLiteral()
                v = .number(negative ? -n : n)
            } else {
                let wStart = i
                while i < s.count, A1.upperLetter(s[i]) != nil { i += 1 }
                let w = String(decoding: s[wStart..<i], as: UTF8.self).uppercased()
                if w == "TRUE" { v = .boolean(true) } else if w == "FALSE" { v = .boolean(false) } else { throw fail("bad array element", at: wStart) }
            }
            rows[rows.count - 1].append(v)
            skipSpaces()
            switch peek() {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: ";"): i += 1; rows.append([])
            case UInt8(ascii: "}"):
                i += 1
                let cols = rows[0].count
                guard rows.allSatisfy({ $0.count == cols }) else { throw fail("array rows differ in length", at: start) }
                return CalcArray(rows: rows.count, columns: cols, values: rows.flatMap { $0 })
            default: throw fail("expected ',', ';' or '}' in array", at: i)
            }
        }
    }

    mutating func quotedSheet() throws(FormulaParseError) -> String {
        let start = i
        let name = try quoted(by: UInt8(ascii: "'"), unterminated: "unterminated sheet name")
        guard peek() == UInt8(ascii: "!") else { throw fail("expected '!' after sheet name", at: i) }
        i += 1
        if name.utf8.first == UInt8(ascii: "["), !allowsExternal { throw fail("reference to another workbook", at: start, external: true) }
        // 'Sheet 1:Sheet 3'!A1, a 3-D reference, keeps its colon: the evaluator spans the sheets.
        return name
    }

    // MARK: references

    func coord(_ index: Int32, absolute: Bool, origin: Int32) -> RefCoord {
        absolute ? RefCoord(value: index, absolute: true) : RefCoord(value: index - origin, absolute: false)
    }

    /// `1:3`, `$1:$3` at the cursor (a whole-row range); false (cursor kept) when it is not one.
    mutating func rowRange(sheet: String?) throws(FormulaParseError) -> Bool {
        guard let ends = lineRangeEnds(rows: true) else { return false }
        let a = CellRef(row: ends.first, column: RefCoord(value: 0, absolute: true))
        let b = CellRef(row: ends.last, column: RefCoord(value: maxColumnIndex, absolute: true))
        out.append(.area(AreaRef(start: a, end: b, kind: .rows), sheet: sheet))
        return true
    }

    /// `A:C`, `$A:$C` at the cursor; false (cursor kept) when it is not one.
    mutating func columnRange(sheet: String?) -> Bool {
        guard let ends = lineRangeEnds(rows: false) else { return false }
        let a = CellRef(row: RefCoord(value: 0, absolute: true), column: ends.first)
        let b = CellRef(row: RefCoord(value: maxRowIndex, absolute: true), column: ends.last)
        out.append(.area(AreaRef(start: a, end: b, kind: .columns), sheet: sheet))
        return true
    }

    /// The two ends of a whole-row (`rows`) or whole-column range at the cursor, the cursor moved
    /// past it; nil (cursor kept) when there is none. Neither is followed by a word character,
    /// except that a row range may be by `.`; a column range is not followed by `(` either.
    private mutating func lineRangeEnds(rows: Bool) -> (first: RefCoord, last: RefCoord)? {
        let save = i
        guard let first = lineCoordinate(rows: rows), peek() == UInt8(ascii: ":") else { i = save; return nil }
        i += 1
        guard let last = lineCoordinate(rows: rows) else { i = save; return nil }
        let next = peek()
        if rows ? isWordChar(next) && next != UInt8(ascii: ".") : isWordChar(next) || next == UInt8(ascii: "(") { i = save; return nil }
        return (first, last)
    }

    /// A row number or column letters after an optional `$` at the cursor (moved past them).
    private mutating func lineCoordinate(rows: Bool) -> RefCoord? {
        let absolute = peek() == UInt8(ascii: "$")
        if absolute { i += 1 }
        if rows {
            guard let row = A1.parseRow(s, from: i) else { return nil }
            i = row.end
            return coord(row.row, absolute: absolute, origin: origin.row)
        }
        guard let column = A1.parseColumn(s, from: i) else { return nil }
        i = column.end
        return coord(column.column, absolute: absolute, origin: origin.column)
    }

    /// A cell reference at the cursor, not followed by word characters; nil (cursor kept) otherwise.
    mutating func cellReference() -> CellRef? {
        guard let p = A1.parseCell(s, from: i) else { return nil }
        if p.end < s.count, isWordChar(s[p.end]) || s[p.end] == UInt8(ascii: "(") || s[p.end] == UInt8(ascii: "[") || s[p.end] == UInt8(ascii: "!") { return nil }
        i = p.end
        return CellRef(row: coord(p.row, absolute: p.rowAbsolute, origin: origin.row),
                       column: coord(p.column, absolute: p.columnAbsolute, origin: origin.column))
    }

    /// A cell or `A1:B2` area at the cursor (the second corner may carry the same sheet again).
    mutating func cellOrArea(sheet: String?) -> Bool {
        if trimmedArea(sheet: sheet) { return true }
        guard let a = cellReference() else { return false }
        if peek() == UInt8(ascii: ":") {
            let save = i
            i += 1
            if let b = cellReference() {
                out.append(.area(AreaRef(start: a, end: b, kind: .cells), sheet: sheet))
                return true
            }
            i = save
        }
        out.append(.cell(a, sheet: sheet))
        // `G1#`, the spill range reference, is ANCHORARRAY(G1) (an error literal such as G1#REF! is not).
        if peek() == UInt8(ascii: "#"), !(i + 1 < s.count && isWordChar(s[i + 1])), let f = FunctionRegistry.index(of: "ANCHORARRAY") {
            i += 1
            out.append(.call(function: f, count: 1, name: "ANCHORARRAY"))
        }
        return true
    }

    /// The trim-ref operators: `A1.:C9` trims leading blanks, `A1:.C9` trailing ones, `A1.:.C9` both;
    /// compiled as the calls Excel stores them as (`_xlfn._TRO_LEADING(A1:C9)`, `_TRO_TRAILING`,
    /// `_TRO_ALL`), so the text renders back in that form. False (cursor kept) when it is not one.
    mutating func trimmedArea(sheet: String?) -> Bool {
        guard let p = A1.parseCell(s, from: i) else { return false }
        var k = p.end
        let leading = k < s.count && s[k] == UInt8(ascii: ".")
        if leading { k += 1 }
        guard k < s.count, s[k] == UInt8(ascii: ":") else { return false }
        k += 1
        let trailing = k < s.count && s[k] == UInt8(ascii: ".")
        if trailing { k += 1 }
        let name = leading && trailing ? "_TRO_ALL" : leading ? "_TRO_LEADING" : "_TRO_TRAILING"
        guard leading || trailing, let f = FunctionRegistry.index(of: name) else { return false }
        let save = i
        i = k
        guard let b = cellReference() else { i = save; return false }
        let a = CellRef(row: coord(p.row, absolute: p.rowAbsolute, origin: origin.row),
                        column: coord(p.column, absolute: p.columnAbsolute, origin: origin.column))
        out.append(.area(AreaRef(start: a, end: b, kind: .cells), sheet: sheet))
        out.append(.call(function: f, count: 1, name: name))
        return true
    }

    /// What follows `Sheet!`: a cell, an area, whole rows or columns, `#REF!`, or a sheet-scoped name.
    mutating func referenceAfterSheet(_ sheet: String, start: Int) throws(FormulaParseError) {
        if peek() == UInt8(ascii: "#") {
            guard let e = errorLiteral(), e == .reference else { throw fail("bad reference", at: i) }
            out.append(.badReference(sheet: sheet))
            return
        }
        if try rowRange(sheet: sheet) { return }
        if columnRange(sheet: sheet) { return }
        if cellOrArea(sheet: sheet) { return }
        let wStart = i
        while i < s.count, isWordChar(s[i]) { i += 1 }
        guard i > wStart else { throw fail("expected a reference after the sheet name", at: i) }
        out.append(.name(String(decoding: s[wStart..<i], as: UTF8.self), sheet: sheet))
    }

    /// An operand starting with a letter, `_`, `\` or `$`: function call, sheet prefix, reference,
    /// boolean, structured reference or defined name.
    mutating func wordOperand() throws(FormulaParseError) {
        let start = i
        // Sheet1:Sheet3!A1 before a column range can take `Jan:Mar` for columns JAN:MAR.
        var k = i
        while k < s.count, isWordChar(s[k]) { k += 1 }
        if k > i, k + 1 < s.count, s[k] == UInt8(ascii: ":"), isWordStart(s[k + 1]), isThreeDPrefix(from: k + 1) {
            let first = String(decoding: s[i..<k], as: UTF8.self)
            i = k + 1
            while i < s.count, isWordChar(s[i]) { i += 1 }
            let last = String(decoding: s[(k + 1)..<i], as: UTF8.self)
            i += 1  // the '!'
            try referenceAfterSheet(first + ":" + last, start: start)
            return
        }
        if columnRange(sheet: nil) { return }
        if cellOrArea(sheet: nil) { return }
        while i < s.count, isWordChar(s[i]) { i += 1 }
        let word = String(decoding: s[start..<i], as: UTF8.self)
        switch peek() {
        case UInt8(ascii: "("):
            if let local = localName(word) {
                // A LET or LAMBDA name called: `f(2)` where f holds a lambda.
                out.append(.variable(local))
                try invocation()
                return
            }
            try functionCall(word, start: start)
        case UInt8(ascii: "!"):
            i += 1
            try referenceAfterSheet(word, start: start)
        case UInt8(ascii: "["):
            out.append(.structured(try structuredReference(table: word)))
        default:
            let upper = word.uppercased()
            if upper == "TRUE" { out.append(.boolean(true)); return }
            if upper == "FALSE" { out.append(.boolean(false)); return }
            guard !word.isEmpty else { throw fail("unexpected '\(char(i))'", at: i) }
            if let local = localName(word) { out.append(.variable(local)); return }
            if upper.hasPrefix(Self.etaPrefix) {
                let function = String(upper.dropFirst(Self.etaPrefix.count))
                out.append(.eta(function: FunctionRegistry.index(of: function) ?? -1, name: function))
                return
            }
            out.append(.name(word, sheet: nil))
        }
    }

    /// The function's name without the storage prefixes (`_xlfn.`, `_xlws.`, `_xludf.`), upper-cased.
    static func functionName(_ raw: String) -> String {
        var name = raw.uppercased()
        for prefix in ["_XLFN.", "_XLWS.", "_XLUDF."] where name.hasPrefix(prefix) {
            name.removeFirst(prefix.count)
        }
        if name.hasPrefix("_XLWS.") { name.removeFirst(6) }
        return name
    }

    mutating func functionCall(_ raw: String, start: Int) throws(FormulaParseError) {
        i += 1 // (
        let name = FormulaParser.functionName(raw)
        if !raw.uppercased().hasPrefix("_XLUDF.") {
            if name == "LET" { try letCall(start: start); return }
            if name == "LAMBDA" { try lambdaCall(start: start); return }
            if name == "IF", let index = FunctionRegistry.index(of: name) { try ifCall(index, start: start); return }
        }
        let index = FunctionRegistry.index(of: name)
        let evaluatesArrays = index.map { FunctionRegistry.specs[Int($0)].arrayArguments } ?? false
        if evaluatesArrays { arrayArgs += 1; usesArrayArguments = true }
        defer { if evaluatesArrays { arrayArgs -= 1 } }
        let count = try arguments(of: raw, start: start)
        if raw.uppercased().hasPrefix("_XLUDF.") {
            out.append(.call(function: -1, count: count, name: name))
        } else {
            out.append(.call(function: index ?? -1, count: count, name: name))
        }
    }

    /// The arguments of a call, the cursor past its `(`: each one's instructions (`.missing` for
    /// an omitted one) and their count; the cursor ends past the `)`.
    mutating func arguments(of raw: String, start: Int) throws(FormulaParseError) -> Int32 {
        var ends: [Int] = []
        return try arguments(of: raw, start: start, ends: &ends)
    }

    /// The same, with where each argument's instructions end in `out` (`ends`).
    mutating func arguments(of raw: String, start: Int, ends: inout [Int]) throws(FormulaParseError) -> Int32 {
        var count: Int32 = 0
        skipSpaces()
        if peek() == UInt8(ascii: ")") {
            i += 1
        } else {
            while true {
                skipSpaces()
                if peek() == UInt8(ascii: ",") || peek() == UInt8(ascii: ")") {
                    out.append(.missing)
                } else {
                    try expression(0, union: false)
                }
                count += 1
                ends.append(out.count)
                skipSpaces()
                if peek() == UInt8(ascii: ",") { i += 1; continue }
                if peek() == UInt8(ascii: ")") { i += 1; break }
                throw fail("expected ',' or ')' in the arguments of \(raw)", at: i)
            }
        }
        guard count <= 255 else { throw fail("too many arguments", at: start) }
        return count
    }

    // MARK: structured references

    mutating func structuredReference(table: String?) throws(FormulaParseError) -> StructuredRef {
        let start = i
        var ref = StructuredRef(table: table, items: [], firstColumn: nil, lastColumn: nil)
        i += 1 // [
        if peek() == UInt8(ascii: "]") { i += 1; return ref } // Table1[]
        if peek() == UInt8(ascii: "@") {
            ref.items = .thisRow
            i += 1
            if peek() == UInt8(ascii: "[") {
                ref.firstColumn = try bracketName()
                if peek() == UInt8(ascii: ":"), peek(1) == UInt8(ascii: "[") { i += 1; ref.lastColumn = try bracketName() }
            } else if peek() != UInt8(ascii: "]") {
                ref.firstColumn = try plainColumnName(until: UInt8(ascii: "]"))
            }
            guard peek() == UInt8(ascii: "]") else { throw fail("expected ']'", at: i) }
            i += 1
            return ref
        }
        if peek() != UInt8(ascii: "[") {
            let name = try plainColumnName(until: UInt8(ascii: "]"))
            i += 1
            if let item = specialItem(name) { ref.items = item } else { ref.firstColumn = name }
            return ref
        }
        // [[#This Row],[Qty]] or [[A]:[B]] or [[#Headers],[A]:[B]]; after an item, a column may
        // also stand bare to the closing bracket, as XlsxWriter writes `[@Qty]` ([[#This Row],Qty]).
        var columns: [String] = []
        var afterComma = false
        while true {
            skipSpaces()
            if afterComma, peek() != UInt8(ascii: "[") {
                columns.append(try plainColumnName(until: UInt8(ascii: "]")))
                i += 1
                break
            }
            guard peek() == UInt8(ascii: "[") else { throw fail("expected '[' in structured reference", at: i) }
            let name = try bracketName()
            if let item = specialItem(name) { ref.items.insert(item) } else { columns.append(name) }
            skipSpaces()
            afterComma = peek() == UInt8(ascii: ",")
            if peek() == UInt8(ascii: ":") || afterComma { i += 1; continue }
            if peek() == UInt8(ascii: "]") { i += 1; break }
            throw fail("bad structured reference", at: start)
        }
        ref.firstColumn = columns.first
        ref.lastColumn = columns.count > 1 ? columns.last : nil
        return ref
    }

    func specialItem(_ name: String) -> TableItems? {
        switch name.trimmingFormulaSpaces().uppercased() {
        case "#ALL": return .all
        case "#DATA": return .data
        case "#HEADERS": return .headers
        case "#TOTALS": return .totals
        case "#THIS ROW": return .thisRow
        default: return nil
        }
    }

    /// `[Name]` with `'` escapes; the cursor ends after `]`.
    mutating func bracketName() throws(FormulaParseError) -> String {
        i += 1
        let name = try plainColumnName(until: UInt8(ascii: "]"))
        i += 1
        return name
    }

    /// Text up to `end` (not consumed), honouring the `'` escape of structured references; kept
    /// as written, as a column name may end in a space (`[the two ]`).
    mutating func plainColumnName(until end: UInt8) throws(FormulaParseError) -> String {
        var bytes: [UInt8] = []
        let start = i
        while true {
            guard i < s.count else { throw fail("unterminated structured reference", at: start) }
            if s[i] == UInt8(ascii: "'") { if i + 1 < s.count { bytes.append(s[i + 1]) }; i += 2; continue }
            if s[i] == end { break }
            bytes.append(s[i]); i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    func trimmingFormulaSpaces() -> String {
        let u = Array(utf8)
        var a = 0, b = u.count
        while a < b, u[a] == 32 { a += 1 }
        while b > a, u[b - 1] == 32 { b -= 1 }
        return String(decoding: u[a..<b], as: UTF8.self)
    }
}
