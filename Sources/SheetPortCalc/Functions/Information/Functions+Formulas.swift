
extension Evaluator {
    /// The formula of a cell as the formula bar shows it (`=` and no storage prefixes), or nil for
    /// a constant or an empty cell. Reads the cell's formula, never its value: FORMULATEXT of a
    /// cell that reads FORMULATEXT's own cell is no circular reference.
    func formulaText(_ s: Int32, _ r: Int32, _ c: Int32) -> String? {
        guard s >= 0, Int(s) < engine.sheets.count, let id = engine.sheets[Int(s)].find(row: r, column: c) else { return nil }
        let i = Int(id)
        switch engine.cellKind[i] {
        case .formula:
            let text = engine.formulas[Int(engine.cellFormula[i])].text(at: CellIndex(row: r, column: c))
            return "=" + FormulaText.displayed(text)
        case .unparsed:
            return engine.unparsed[id].map { "=" + FormulaText.displayed($0.text) }
        case .arrayMember:
            guard let anchor = engine.arrayAnchorOf[id], anchor != id else { return nil }
            let a = Int(anchor)
            return formulaText(engine.cellSheet[a], engine.cellRow[a], engine.cellColumn[a])
        case .constant:
            return nil
        }
    }
}

extension FormulaText {
    static let storagePrefixes = ["_xlfn.", "_xlws.", "_xlpm.", "_xlop.", "_xleta."]

    /// Formula text without the storage prefixes (outside string literals): `_xlfn.` and `_xlws.`
    /// of functions, `_xlpm.` of LET and LAMBDA names, `_xleta.` of a built-in passed as a lambda;
    /// an optional LAMBDA parameter `_xlop.b` shows as `[b]`, as Excel shows it.
    static func displayed(_ text: String) -> String {
        guard text.contains("_xl") else { return text }
        var out = ""
        var quoted = false
        var rest = Substring(text)
        while let ch = rest.first {
            if ch == "\"" { quoted.toggle() }
            if !quoted, let prefix = storagePrefixes.first(where: { rest.hasPrefix($0) }) {
                rest = rest.dropFirst(prefix.count)
                if prefix == "_xlop." {
                    let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
                    out += "[" + name + "]"
                    rest = rest.dropFirst(name.count)
                }
                continue
            }
            out.append(ch)
            rest = rest.dropFirst()
        }
        return out
    }
}

extension Functions {
    /// The top-left cell of a reference argument; #VALUE! for a value that is no reference.
    static func referenceCell(_ ev: Evaluator, _ op: Operand) throws -> SheetRange {
        switch op {
        case .ref(let r): return r
        case .refs(let rs): guard let r = rs.first else { throw EvalInterrupt.error(.value) }; return r
        default:
            if case .error(let e) = try ev.scalar(op) { throw EvalInterrupt.error(e) }
            throw EvalInterrupt.error(.value)
        }
    }

    static let formulaInformation: [FunctionSpec] = [
        // FORMULATEXT(reference): the formula of the reference's first cell; #N/A for none.
        raw("FORMULATEXT", 1, 1) { ev, a in
            let r = try referenceCell(ev, a[0])
            guard let text = ev.formulaText(r.sheet, r.r1, r.c1), text.utf16.count <= 8_192 else { return .value(.error(.notAvailable)) }
            return .value(.text(text))
        },
        // ISFORMULA(reference): whether the reference's first cell holds a formula.
        raw("ISFORMULA", 1, 1) { ev, a in
            let r = try referenceCell(ev, a[0])
            return .value(.boolean(ev.formulaText(r.sheet, r.r1, r.c1) != nil))
        },
        // INFO(type_text): what the engine can say about its environment; "directory" (no file
        // path here) and the types Excel dropped (memavail, memused, totmem) are #N/A.
        scalar("INFO", 1, 1, volatile: true) { ev, a in
            switch try ev.str(a[0]).lowercased() {
            case "numfile": return .value(.number(Double(ev.engine.workbookSheetCount)))
            case "origin": return .value(.text("$A:$A$1"))
            case "osversion": return .value(.text("Windows (64-bit) NT 10.00"))
            case "recalc": return .value(.text("Automatic"))
            case "release": return .value(.text("16.0"))
            case "system": return .value(.text("pcdos"))
            case "directory", "memavail", "memused", "totmem": return .value(.error(.notAvailable))
            default: return .value(.error(.value))
            }
        },
    ]
}
