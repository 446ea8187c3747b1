import SheetPortCore
extension Functions {
    /// CELL for the information types that depend only on the reference and its value: "address",
    /// "row", "col", "contents" and "type". The others ("width", "format", "filename", ...) read
    /// the file's layout, formats or path, and a CELL without a reference reads the last changed
    /// cell: those are `#VALUE!` here (the file's cached value is then a listed miss).
    static let cell: [FunctionSpec] = [
        raw("CELL", 1, 2) { ev, a in
            let info = try ev.str(a[0]).lowercased()
            guard a.count > 1, case .ref(let r) = a[1] else { return .value(.error(.value)) }
            switch info {
            case "address":
                let own = "$" + A1.columnName(r.c1) + "$" + String(r.r1 + 1)
                guard r.sheet != ev.sheet, Int(r.sheet) < ev.engine.sheets.count else { return .value(.text(own)) }
                return .value(.text(FormulaText.sheetPrefix(ev.engine.sheets[Int(r.sheet)].name) + own))
            case "row": return .value(.number(Double(r.r1 + 1)))
            case "col": return .value(.number(Double(r.c1 + 1)))
            case "contents":
                let v = try ev.cellValue(r.sheet, r.r1, r.c1)
                return .value(v == .empty ? .number(0) : v)
            case "type":
                switch try ev.cellValue(r.sheet, r.r1, r.c1) {
                case .empty: return .value(.text("b"))
                case .text: return .value(.text("l"))
                default: return .value(.text("v"))
                }
            default:
                return .value(.error(.value))
            }
        },
        // The cell shows the friendly name (any value), else the link's text; the link itself is not followed.
        scalar("HYPERLINK", 1, 2) { ev, a in
            if !ev.isMissing(a, 1) { return .value(try ev.scalar(a[1])) }
            return .value(.text(try ev.str(a[0])))
        },
    ]
}
