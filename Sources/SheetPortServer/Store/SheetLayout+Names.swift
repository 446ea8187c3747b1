import Foundation
import SheetPortCore

/// The stored form of a layout's defined names and tables (inside the sealed layout).
extension SheetLayout {
    static func object(_ name: SheetDefinedName) -> [String: Any] {
        var object: [String: Any] = ["name": name.name, "formula": name.formula]
        if let ref = name.ref { object["ref"] = ref }
        if name.isLocal { object["local"] = true }
        if name.isHidden { object["hidden"] = true }
        return object
    }

    static func name(_ object: [String: Any]) -> SheetDefinedName? {
        guard let name = object["name"] as? String else { return nil }
        let ref = object["ref"] as? String
        // A layout stored before names kept their formulas has the range alone.
        guard let formula = object["formula"] as? String ?? ref.flatMap(absolute) else { return nil }
        return SheetDefinedName(name: name, formula: formula, ref: ref, isLocal: object["local"] as? Bool ?? false,
                                isHidden: object["hidden"] as? Bool ?? false)
    }

    /// `B2:B4` as `$B$2:$B$4` (`A:A` as `$A:$A`): a name's range is absolute.
    private static func absolute(_ ref: String) -> String? {
        guard CellRange(ref, in: .excel) != nil else { return nil }
        var output = ""
        var previous: Character = ":"
        for c in ref {
            if (c.isLetter && !previous.isLetter) || (c.isNumber && !previous.isNumber && !previous.isLetter) || (c.isNumber && previous.isLetter) {
                output.append("$")
            }
            output.append(c)
            previous = c
        }
        return output
    }

    static func object(_ table: WorksheetTable) -> [String: Any] {
        var object: [String: Any] = ["name": table.name, "ref": table.range.description, "header": table.hasHeaderRow,
                                     "totals": table.hasTotalsRow]
        if let style = table.styleName { object["style"] = style }
        object["columns"] = table.columns.map { column -> [String: Any] in
            var object: [String: Any] = ["name": column.name]
            if let function = column.totalsRowFunction { object["totalsRowFunction"] = function }
            if let label = column.totalsRowLabel { object["totalsRowLabel"] = label }
            if let formula = column.totalsRowFormula { object["totalsRowFormula"] = formula }
            if let formula = column.calculatedColumnFormula { object["formula"] = formula }
            return object
        }
        return object
    }

    static func table(_ object: [String: Any]) -> WorksheetTable? {
        guard let name = object["name"] as? String, let ref = object["ref"] as? String, let range = CellRange(ref),
              let columns = object["columns"] as? [[String: Any]], columns.count == range.columnCount else { return nil }
        return WorksheetTable(name: name, range: range, hasHeaderRow: object["header"] as? Bool ?? true,
                              hasTotalsRow: object["totals"] as? Bool ?? false,
                              columns: columns.map {
                                  WorksheetTable.Column(name: $0["name"] as? String ?? "", totalsRowFunction: $0["totalsRowFunction"] as? String,
                                                        totalsRowLabel: $0["totalsRowLabel"] as? String,
                                                        totalsRowFormula: $0["totalsRowFormula"] as? String,
                                                        calculatedColumnFormula: $0["formula"] as? String)
                              },
                              styleName: object["style"] as? String)
    }
}
