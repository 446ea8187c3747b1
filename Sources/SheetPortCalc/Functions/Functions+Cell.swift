extension Functions {
    /// CELL for the information types that depend on the reference, its value and its column's
    /// width: "address", "row", "col", "contents", "type" and "width". The others ("format",
    /// "filename", ...) read the file's formats or path: `#VALUE!` here. Without a reference CELL
    /// answers for the selected cell (Microsoft's CELL reference: the cell selected when it is
    /// calculated), the one the file saved as selected (`setSelectedCell`); `#VALUE!` when none.
    static let cell: [FunctionSpec] = [
        raw("CELL", 1, 2) { ev, a in
            let info = try ev.str(a[0]).lowercased()
            let reference: SheetRange?
            if a.count > 1, case .ref(let r) = a[1] { reference = r } else if a.count == 1 { reference = ev.engine.selectedCell } else { reference = nil }
            guard let r = reference else { return .value(.error(.value)) }
            switch info {
            case "width":
                // Excel 365 answers {width rounded to an integer, whether it is the default width}.
                let (width, isDefault) = ev.engine.columnLayouts[r.sheet]?.width(ofColumn: r.c1) ?? (8, true)
                return .value(.array(CalcArray(rows: 1, columns: 2, values: [.number(width.rounded()), .boolean(isDefault)])))
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
        // SHEET: the number of the reference's sheet, of the sheet a text names (#N/A for no such
        // sheet, as Microsoft's SHEET("badSheetName")), or of the formula's own sheet; a union or
        // 3-D reference answers its first sheet.
        raw("SHEET", 0, 1) { ev, a in
            if ev.isMissing(a, 0) { return number(Double(ev.engine.sheetNumber(ev.sheet))) }
            switch a[0] {
            case .ref(let r): return number(Double(ev.engine.sheetNumber(r.sheet)))
            case .refs(let rs):
                guard let first = rs.map({ ev.engine.sheetNumber($0.sheet) }).min() else { return .value(.error(.reference)) }
                return number(Double(first))
            default:
                // A number or a boolean is read as a name too, and names no sheet (IronCalc agrees).
                guard let sheet = ev.engine.sheetIndex(named: try ev.str(a[0])) else { return .value(.error(.notAvailable)) }
                return number(Double(ev.engine.sheetNumber(Int32(sheet))))
            }
        },
        // SHEETS: how many sheets a reference spans (a 3-D reference from its first sheet to its
        // last in tab order, chart sheets between them included), or the workbook has; a value
        // that is not a reference is #VALUE! (IronCalc and LibreOffice agree), an error itself.
        raw("SHEETS", 0, 1) { ev, a in
            if ev.isMissing(a, 0) { return number(Double(ev.engine.workbookSheetCount)) }
            switch a[0] {
            case .ref: return number(1)
            case .refs(let rs):
                let numbers = rs.map { ev.engine.sheetNumber($0.sheet) }
                guard let low = numbers.min(), let high = numbers.max() else { return .value(.error(.reference)) }
                return number(Double(high - low + 1))
            default:
                if case .error(let e) = try ev.scalar(a[0]) { return .value(.error(e)) }
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
