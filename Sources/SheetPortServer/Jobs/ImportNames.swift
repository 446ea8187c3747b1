import Foundation
import SheetPortCore
import SheetPortReader

/// A defined name an imported sheet keeps: of the workbook or local to the sheet, for a range
/// (`Prices` -> `B2:B4`), a constant (`Rate` -> `0.2`) or any formula (a LAMBDA too). The
/// engine evaluates it on every edit and the export writes it back.
package struct SheetDefinedName: Sendable, Equatable {
    /// The name as the workbook spells it.
    package var name: String
    /// What it stands for, as the workbook stores it (no leading `=`).
    package var formula: String
    /// The range without `$` (`B2:B4`, `A:A`, `3:3`) when the name stands for one range of the
    /// sheet (what the range address field of an editing client resolves a typed name with).
    package var ref: String?
    /// Local to the sheet (`localSheetId`), not the workbook's.
    package var isLocal = false
    /// Hidden in the workbook (`hidden="1"`): kept and exported, not listed.
    package var isHidden = false

    /// Whether the sheet's metadata lists it: a visible name that is not one of Excel's
    /// built-in ones (`_xlnm.Print_Area` and the like are kept as they are, for the export).
    package var isListed: Bool { !isHidden && !isBuiltIn }

    /// Whether it is one of Excel's built-in names (`_xlnm.`), which formulas do not use.
    package var isBuiltIn: Bool { name.lowercased().hasPrefix(WorkbookName.builtInPrefix.lowercased()) }
}

/// The defined names an import keeps: of workbook scope or local to the imported sheet, with a
/// name Excel accepts (`WorkbookName`), one per name and scope (the first), and not standing
/// for cells of another sheet (the server holds the first worksheet only). Built-in names
/// (`_xlnm.`) local to the sheet are kept for the export.
enum ImportNames {
    static func kept(_ names: [DefinedName], of sheet: Sheet, otherSheets: [String]) -> [SheetDefinedName] {
        var kept: [SheetDefinedName] = []
        var seen: Set<String> = []
        let others = Set(otherSheets.map { $0.uppercased() })
        for name in names {
            let isLocal = name.localSheet != nil
            guard !isLocal || name.localSheet == sheet.position - 1 else { continue }
            var formula = name.formula
            if formula.hasPrefix("=") { formula.removeFirst() }
            guard WorkbookName.isValid(name.name), !formula.isEmpty, formula.utf16.count <= 8_192,
                  !formula.unicodeScalars.contains(where: \.isUnsafeControl),
                  !FormulaSheets.referenced(in: formula).contains(where: { others.contains($0.uppercased()) }),
                  seen.insert((isLocal ? "L" : "W") + name.name.uppercased()).inserted else { continue }
            kept.append(SheetDefinedName(name: name.name, formula: formula, ref: range(formula, sheet: sheet.name),
                                         isLocal: isLocal, isHidden: name.isHidden))
        }
        return kept
    }

    /// The tables an import keeps: the ones Excel would take (`WorksheetTable.violation(beside:)`),
    /// in order, each beside those kept before it.
    static func tables(_ tables: [WorksheetTable]) -> [WorksheetTable] {
        var kept: [WorksheetTable] = []
        for table in tables where table.violation(beside: kept) == nil { kept.append(table) }
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
