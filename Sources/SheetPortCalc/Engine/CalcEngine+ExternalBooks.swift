import SheetPortCore
extension CalcEngine {
    /// Makes formulas referring to other workbooks (`[1]Sheet1!A1`, `'[Book.xlsx]Sheet 1'!A1:B2`,
    /// `[2]!Name`) compile and read what `addExternalSheet` and `defineExternalName` hold, as Excel
    /// reads links it has not updated: a sheet or name of another workbook the engine does not hold
    /// is `#REF!` (`#NAME?` for a name). Call it before setting the formulas. Without it such
    /// formulas keep their cached values (`unsupported-formula`).
    package func resolveExternalReferences() {
        resolvesExternalReferences = true
    }

    /// Holds a sheet of another workbook with the values this workbook caches for it (its
    /// externalLink part). `book` is the link's 1-based number (`[1]`); `fileName` the linked
    /// file's name, as a formula typed with it names the book (`[Book.xlsx]Sheet!A1`). A sheet
    /// without cached values is not held: references to it are `#REF!`.
    package func addExternalSheet(book: Int, fileName: String?, name: String, values: [(CellReference, CalcValue)]) {
        resolveExternalReferences()
        guard !values.isEmpty else { return }
        let sheet = addSheet("[\(book)]" + name)
        if let fileName, !fileName.isEmpty, sheetByName["[\(fileName)]\(name)".uppercased()] == nil {
            sheetByName["[\(fileName)]\(name)".uppercased()] = Int32(sheet)
        }
        for (cell, value) in values { setValue(value, at: cell, sheet: sheet) }
    }

    /// Defines a workbook-level name of another workbook (`[2]!Rate`) as `formula`, which names
    /// that workbook's sheets as this engine holds them (`'[2]Sheet1'!$A$1`).
    package func defineExternalName(book: Int, fileName: String?, name: String, formula: String) {
        resolveExternalReferences()
        defineName("[\(book)]!" + name, formula: formula)
        if let fileName, !fileName.isEmpty { defineName("[\(fileName)]!" + name, formula: formula) }
    }
}
