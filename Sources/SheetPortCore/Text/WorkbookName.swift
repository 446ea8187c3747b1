/// Excel's rules for the names of defined names and tables (`TaxRate`, `Table1`, `_xlnm.Print_Area`).
public enum WorkbookName {
    /// The longest name Excel accepts.
    public static let maxLength = 255
    /// The prefix of Excel's built-in names (`_xlnm.Print_Area`, `_xlnm._FilterDatabase`).
    package static let builtInPrefix = "_xlnm."

    /// Whether `name` is one Excel accepts for a defined name or a table: 1 to 255 characters,
    /// starting with a letter, `_` or `\`, then letters, digits, `_`, `.`, `?` and `\`, and not
    /// shaped like a cell reference (`A1`, `R1C1`, `R`, `C`). A built-in name is valid.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.count <= maxLength else { return false }
        guard first.properties.isAlphabetic || first == "_" || first == "\\" else { return false }
        for scalar in name.unicodeScalars {
            guard scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                    || "_.?\\".unicodeScalars.contains(scalar) else { return false }
        }
        return !isCellReferenceShaped(name)
    }

    /// Whether `name` reads as a cell reference in A1 (`A1`, `xfd1048576`) or R1C1 (`R1C1`, `R`,
    /// `C`, `RC`, `R2C`) notation; Excel refuses such names.
    package static func isCellReferenceShaped(_ name: String) -> Bool {
        let upper = name.uppercased()
        if CellReference(upper) != nil { return true }
        var rest = Substring(upper)
        guard rest.first == "R" || rest.first == "C" else { return false }
        func skipDigits() { while let c = rest.first, c.isASCII, c.isNumber { rest.removeFirst() } }
        if rest.first == "R" { rest.removeFirst(); skipDigits() }
        if rest.first == "C" { rest.removeFirst(); skipDigits() }
        return rest.isEmpty
    }
}
