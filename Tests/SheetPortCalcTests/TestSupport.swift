@testable import SheetPortCalc
import SheetPortCore

/// A one-sheet engine with constants and formulas from A1 text, recalculated.
func engine(_ cells: [String: Any], sheetName: String = "Sheet1", system: DateSystem = .excel1900) -> CalcEngine {
    let e = CalcEngine(dateSystem: system, clock: .fixed(unixTime: 1_767_225_600 + 3600 * 13.5), randomSeed: 42)
    let s = e.addSheet(sheetName)
    for (ref, content) in cells {
        guard let a = CellReference(ref) else { fatalError("bad ref \(ref)") }
        switch content {
        case let f as String where f.hasPrefix("="): e.setFormula(String(f.dropFirst()), at: a, sheet: s)
        case let t as String: e.setValue(.text(t), at: a, sheet: s)
        case let n as Double: e.setValue(.number(n), at: a, sheet: s)
        case let n as Int: e.setValue(.number(Double(n)), at: a, sheet: s)
        case let b as Bool: e.setValue(.boolean(b), at: a, sheet: s)
        case let v as CalcValue: e.setValue(v, at: a, sheet: s)
        default: fatalError("bad content")
        }
    }
    e.recalculate()
    return e
}

/// The value of one formula over the given cells (the formula is put in ZZ1000).
func eval(_ formula: String, _ cells: [String: Any] = [:], system: DateSystem = .excel1900) -> CalcValue {
    var all = cells
    all["ZZ1000"] = "=" + formula
    return engine(all, system: system).value(at: CellReference("ZZ1000")!, sheet: 0)
}

extension CalcValue {
    /// The number, or nil.
    var number: Double? { if case .number(let x) = self { return x }; return nil }
}

/// Equal to 15 significant digits.
func close(_ v: CalcValue, _ x: Double) -> Bool {
    guard case .number(let y) = v else { return false }
    if x == y { return true }
    return Swift.abs(x - y) <= Swift.abs(x) * 1e-14 + 1e-300
}
