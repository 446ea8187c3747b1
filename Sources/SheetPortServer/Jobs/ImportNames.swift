import Foundation
import SheetPortCore
import SheetPortReader

/// A defined name of an imported sheet that stands for one range of it (`Prices` -> `B2:B4`):
/// what the range address field of an editing client resolves a typed name with.
package struct SheetDefinedName: Sendable, Equatable {
    /// The name as the workbook spells it.
    package var name: String
    /// The range without `$` (`B2:B4`, `A:A`, `3:3`).
    package var ref: String
}

/// The defined names an import keeps: visible, not built-in (`_xlnm.`), of workbook scope or
/// local to the imported sheet, and standing for one range of that sheet. A name for a
/// constant, a formula, another sheet's cells or a union stays out: the server holds the first
/// worksheet only, and the address field goes to ranges.
enum ImportNames {
    /// The longest name Excel accepts.
    static let maxNameLength = 255

    static func ranges(_ names: [DefinedName], of sheet: Sheet) -> [SheetDefinedName] {
        var kept: [SheetDefinedName] = []
        var seen: Set<String> = []
        // A local name hides a workbook one of the same name, as in Excel: locals first.
        let ordered = names.filter { $0.localSheet == sheet.position - 1 } + names.filter { $0.localSheet == nil }
        for name in ordered {
            guard !name.isHidden, !name.name.hasPrefix("_xlnm."), name.name.count <= maxNameLength,
                  !name.name.isEmpty, !name.name.unicodeScalars.contains(where: \.isUnsafeControl),
                  let ref = range(name.formula, sheet: sheet.name),
                  seen.insert(name.name.uppercased()).inserted else { continue }
            kept.append(SheetDefinedName(name: name.name, ref: ref))
        }
        return kept
    }

    /// `Sheet1!$B$2:$B$4` or `'My sheet'!$A:$A` as `B2:B4` / `A:A` when it names `sheet`; else nil.
    static func range(_ formula: String, sheet: String) -> String? {
        var text = Substring(formula.hasPrefix("=") ? String(formula.dropFirst()) : formula)
        guard let bang = text.lastIndex(of: "!") else { return nil }
        var sheetPart = String(text[..<bang])
        text = text[text.index(after: bang)...]
        if sheetPart.hasPrefix("'") {
            guard sheetPart.count >= 2, sheetPart.hasSuffix("'") else { return nil }
            sheetPart = String(sheetPart.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        guard sheetPart.uppercased() == sheet.uppercased() else { return nil }
        return CellRange(String(text), in: .excel)?.description(in: .excel)
    }
}
