import SheetPortCore
/// A parsed formula with its references stored relative to its own cell, so that every cell of a
/// filled column (`B2+C2`, `B3+C3`, ...) shares one instance.
final class CompiledFormula: Sendable {
    /// The postfix program.
    let instructions: [Instruction]
    /// True when a volatile function (NOW, TODAY, RAND, RANDBETWEEN, OFFSET, INDIRECT) appears.
    let isVolatile: Bool
    /// True when an array-evaluating function (SUMPRODUCT, INDEX, MATCH, ...) appears: ranges
    /// inside it evaluate as arrays rather than by implicit intersection.
    let usesArrayArguments: Bool
    /// The names of functions the engine does not implement, upper-cased, in order of appearance.
    let unknownFunctions: [String]
    /// True when SUBTOTAL or AGGREGATE is called: a SUBTOTAL over the cell leaves it out.
    let callsSubtotal: Bool

    init(instructions: [Instruction], usesArrayArguments: Bool) {
        self.instructions = instructions
        self.usesArrayArguments = usesArrayArguments
        var volatile = false
        var unknown: [String] = []
        var subtotal = false
        for step in instructions {
            if case .call(let f, _, let name) = step {
                if name == "SUBTOTAL" || name == "AGGREGATE" { subtotal = true }
                if f < 0 { if !unknown.contains(name) { unknown.append(name) } } else if FunctionRegistry.specs[Int(f)].isVolatile { volatile = true }
            }
        }
        isVolatile = volatile
        unknownFunctions = unknown
        callsSubtotal = subtotal
    }

    /// The formula's A1 text (no leading `=`) as written at `cell`; references that fall off the grid become `#REF!`.
    func text(at cell: CellIndex) -> String { render(at: cell, slot: nil) }

    /// The text at `cell`; with `slot`, each cell and area reference is written as `slot` answers
    /// for it instead (the sheet prefix stays): how `FormulaTemplate` finds the references.
    func render(at cell: CellIndex, slot: ((Instruction) -> String)?) -> String {
        var stack: [String] = []
        stack.reserveCapacity(16)
        func pop() -> String { stack.popLast() ?? "" }
        for step in instructions {
            switch step {
            case .number(let v): stack.append(FormulaText.number(v))
            case .text(let t): stack.append("\"" + t.replacingOccurrences("\"", "\"\"") + "\"")
            case .boolean(let b): stack.append(b ? "TRUE" : "FALSE")
            case .error(let e): stack.append(e.rawValue)
            case .array(let a): stack.append(FormulaText.array(a))
            case .missing: stack.append("")
            case .cell(let r, let sheet): stack.append(FormulaText.sheetPrefix(sheet) + (slot?(step) ?? FormulaText.cell(r, at: cell)))
            case .area(let a, let sheet): stack.append(FormulaText.sheetPrefix(sheet) + (slot?(step) ?? FormulaText.area(a, at: cell)))
            case .badReference(let sheet): stack.append(FormulaText.sheetPrefix(sheet) + "#REF!")
            case .name(let n, let sheet): stack.append(FormulaText.sheetPrefix(sheet) + n)
            case .structured(let r): stack.append(FormulaText.structured(r))
            case .unary(let op):
                let x = pop()
                switch op {
                case .negate: stack.append("-" + x)
                case .plus: stack.append("+" + x)
                case .percent: stack.append(x + "%")
                }
            case .binary(let op):
                let b = pop(), a = pop()
                stack.append(a + op.symbol + b)
            case .call(_, let count, let name):
                var args: [String] = []
                for _ in 0..<count { args.append(pop()) }
                stack.append(FormulaText.storedName(name) + "(" + args.reversed().joined(separator: ",") + ")")
            case .union(let count):
                var parts: [String] = []
                for _ in 0..<count { parts.append(pop()) }
                stack.append(parts.reversed().joined(separator: ","))
            case .parenthesis:
                stack.append("(" + pop() + ")")
            case .variable(let n):
                stack.append("_xlpm." + n.written)
            case .bind(let n):
                stack.append("_xlpm." + n.written + "," + pop())
            case .letEnd(let count):
                let body = pop()
                var bindings: [String] = []
                for _ in 0..<count { bindings.append(pop()) }
                stack.append("_xlfn.LET(" + bindings.reversed().joined(separator: ",") + "," + body + ")")
            case .jump, .ifTest, .ifElse:
                break
            case .lambda(let parameters, _):
                let body = pop()
                let names = parameters.map { ($0.isOptional ? "_xlop." : "_xlpm.") + $0.written }
                stack.append("_xlfn.LAMBDA(" + (names + [body]).joined(separator: ",") + ")")
            case .invoke(let count):
                var args: [String] = []
                for _ in 0..<count { args.append(pop()) }
                stack.append(pop() + "(" + args.reversed().joined(separator: ",") + ")")
            case .eta(_, let name):
                stack.append("_xleta." + name)
            }
        }
        return stack.last ?? ""
    }
}

/// Rendering helpers for formula text.
enum FormulaText {
    /// Functions Excel stores with the `_xlfn.` prefix (added after Excel 2007).
    static let futureFunctions: Set<String> = [
        "IFS", "SWITCH", "XOR", "CONCAT", "TEXTJOIN", "MAXIFS", "MINIFS", "XLOOKUP", "XMATCH", "CEILING.MATH",
        "CEILING.PRECISE", "FLOOR.MATH", "FLOOR.PRECISE", "MODE.SNGL", "RANK.EQ", "RANK.AVG", "STDEV.S", "STDEV.P",
        "VAR.S", "VAR.P", "PERCENTILE.INC", "QUARTILE.INC", "AGGREGATE", "DAYS", "ISOWEEKNUM", "UNICHAR", "UNICODE",
        "IFNA", "NUMBERVALUE", "SORT", "FILTER", "UNIQUE", "SEQUENCE", "SHEET", "SHEETS", "SORTBY", "HSTACK", "VSTACK",
        "TAKE", "DROP", "EXPAND", "TOCOL", "TOROW", "WRAPCOLS", "WRAPROWS", "CHOOSECOLS", "CHOOSEROWS", "SINGLE", "RANDARRAY",
        "PDURATION", "RRI",
        // Statistical (Excel 2010 and later)
        "BETA.DIST", "BETA.INV", "BINOM.DIST", "BINOM.DIST.RANGE", "BINOM.INV", "CHISQ.DIST", "CHISQ.DIST.RT",
        "CHISQ.INV", "CHISQ.INV.RT", "CHISQ.TEST", "CONFIDENCE.NORM", "CONFIDENCE.T", "COVARIANCE.P", "COVARIANCE.S",
        "EXPON.DIST", "F.DIST", "F.DIST.RT", "F.INV", "F.INV.RT", "F.TEST", "FORECAST.LINEAR", "FORECAST.ETS",
        "FORECAST.ETS.CONFINT", "FORECAST.ETS.SEASONALITY", "FORECAST.ETS.STAT", "GAMMA", "GAMMA.DIST", "GAMMA.INV",
        "GAMMALN.PRECISE", "GAUSS", "HYPGEOM.DIST", "LOGNORM.DIST", "LOGNORM.INV", "MODE.MULT", "NEGBINOM.DIST",
        "NORM.DIST", "NORM.INV", "NORM.S.DIST", "NORM.S.INV", "PERCENTILE.EXC", "PERCENTRANK.EXC", "PERCENTRANK.INC",
        "PERMUTATIONA", "PHI", "POISSON.DIST", "QUARTILE.EXC", "SKEW.P", "T.DIST", "T.DIST.2T", "T.DIST.RT", "T.INV",
        "T.INV.2T", "T.TEST", "WEIBULL.DIST", "Z.TEST",
        "BITAND", "BITOR", "BITXOR", "BITLSHIFT", "BITRSHIFT", "ERF.PRECISE", "ERFC.PRECISE", "IMCOSH", "IMCOT", "IMCSC",
        "IMCSCH", "IMSEC", "IMSECH", "IMSINH", "IMTAN", "COMBINA", "COT", "COTH", "CSC", "CSCH", "SEC", "SECH", "ACOT",
        "ACOTH", "ARABIC", "BASE", "DECIMAL", "MUNIT", "TEXTBEFORE", "TEXTAFTER", "TEXTSPLIT", "REGEXTEST", "REGEXEXTRACT",
        "REGEXREPLACE", "ARRAYTOTEXT", "VALUETOTEXT", "FORMULATEXT", "ISFORMULA", "NETWORKDAYS.INTL", "WORKDAY.INTL",
        "MAP", "REDUCE", "SCAN", "BYROW", "BYCOL", "MAKEARRAY", "ISOMITTED",
        "TRIMRANGE", "_TRO_ALL", "_TRO_LEADING", "_TRO_TRAILING", "GROUPBY", "PIVOTBY", "PERCENTOF",
    ]

    static func storedName(_ name: String) -> String {
        futureFunctions.contains(name) ? "_xlfn." + name : name
    }

    static func number(_ v: Double) -> String {
        if v == v.rounded(), Swift.abs(v) < 1e15 { return String(Int64(v)) }
        return String(v).uppercased()
    }

    static func sheetPrefix(_ sheet: String?) -> String {
        guard let sheet else { return "" }
        let plain = !sheet.isEmpty && sheet.utf8.allSatisfy { A1.upperLetter($0) != nil || ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
            && A1.upperLetter(sheet.utf8.first ?? 0) != nil && CellReference(sheet) == nil
        return plain ? sheet + "!" : "'" + sheet.replacingOccurrences("'", "''") + "'!"
    }

    static func cell(_ r: CellRef, at cell: CellIndex) -> String {
        let row = r.row.resolve(cell.row), col = r.column.resolve(cell.column)
        guard row >= 0, row <= maxRowIndex, col >= 0, col <= maxColumnIndex else { return "#REF!" }
        return (r.column.absolute ? "$" : "") + A1.columnName(col) + (r.row.absolute ? "$" : "") + String(row + 1)
    }

    static func area(_ a: AreaRef, at cell: CellIndex) -> String {
        switch a.kind {
        case .cells:
            let x = Self.cell(a.start, at: cell), y = Self.cell(a.end, at: cell)
            if x == "#REF!" || y == "#REF!" { return "#REF!" }
            return x + ":" + y
        case .columns:
            let c1 = a.start.column.resolve(cell.column), c2 = a.end.column.resolve(cell.column)
            guard c1 >= 0, c2 >= 0, c1 <= maxColumnIndex, c2 <= maxColumnIndex else { return "#REF!" }
            return (a.start.column.absolute ? "$" : "") + A1.columnName(c1) + ":" + (a.end.column.absolute ? "$" : "") + A1.columnName(c2)
        case .rows:
            let r1 = a.start.row.resolve(cell.row), r2 = a.end.row.resolve(cell.row)
            guard r1 >= 0, r2 >= 0, r1 <= maxRowIndex, r2 <= maxRowIndex else { return "#REF!" }
            return (a.start.row.absolute ? "$" : "") + String(r1 + 1) + ":" + (a.end.row.absolute ? "$" : "") + String(r2 + 1)
        }
    }

    static func array(_ a: CalcArray) -> String {
        var rows: [String] = []
        for r in 0..<a.rows {
            var items: [String] = []
            for c in 0..<a.columns {
                switch a[r, c] {
                case .number(let v): items.append(number(v))
                case .text(let t): items.append("\"" + t.replacingOccurrences("\"", "\"\"") + "\"")
                case .boolean(let b): items.append(b ? "TRUE" : "FALSE")
                case .error(let e): items.append(e.rawValue)
                default: items.append("")
                }
            }
            rows.append(items.joined(separator: ","))
        }
        return "{" + rows.joined(separator: ";") + "}"
    }

    static func structured(_ r: StructuredRef) -> String {
        func esc(_ s: String) -> String {
            var out = ""
            for ch in s { if "[]#'".contains(ch) { out.append("'") }; out.append(ch) }
            return out
        }
        if r.items == .thisRow && r.table == nil {
            guard let first = r.firstColumn else { return (r.table ?? "") + "[@]" }
            let simple = first.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            var col = simple && r.lastColumn == nil ? esc(first) : "[" + esc(first) + "]"
            if let last = r.lastColumn { col += ":[" + esc(last) + "]" }
            return (r.table ?? "") + "[@" + col + "]"
        }
        var parts: [String] = []
        if r.items.contains(.all) { parts.append("[#All]") }
        if r.items.contains(.data) { parts.append("[#Data]") }
        if r.items.contains(.headers) { parts.append("[#Headers]") }
        if r.items.contains(.totals) { parts.append("[#Totals]") }
        if r.items.contains(.thisRow) { parts.append("[#This Row]") }
        if let first = r.firstColumn {
            var col = "[" + esc(first) + "]"
            if let last = r.lastColumn { col += ":[" + esc(last) + "]" }
            parts.append(col)
        }
        let body: String
        if parts.count == 1 && r.lastColumn == nil { body = parts[0] } else { body = "[" + parts.joined(separator: ",") + "]" }
        return (r.table ?? "") + (parts.isEmpty ? "[]" : body)
    }
}
