import Foundation
import SheetPortCore
import SheetPortReader
import SheetPortCalc

/// The workbook's links to other workbooks, loaded into the engine with the values the file
/// caches for them: `[1]Sheet1!A1` reads them as Excel does before the link is updated.
enum ExternalLinks {
    /// Holds each linked book's cached sheets and names in `engine`. A workbook without links, or
    /// with a link part that does not read, leaves the engine as it was: formulas into other
    /// workbooks then keep their cached values (`unsupported-formula`).
    static func load(_ workbook: Workbook, into engine: CalcEngine) {
        guard workbook.externalReferenceCount > 0, let books = try? workbook.externalBooks() else { return }
        engine.resolveExternalReferences()
        for (offset, book) in books.enumerated() {
            guard let book else { continue }
            let number = offset + 1
            let fileName = book.fileName
            for (index, name) in book.sheetNames.enumerated() {
                let values = (book.cachedCells[index] ?? []).map {
                    ($0.reference, WorkbookCalculation.calcValue($0.value, dateSystem: workbook.dateSystem))
                }
                engine.addExternalSheet(book: number, fileName: fileName, name: name, values: values)
            }
            for name in book.definedNames where name.sheetIndex == nil {
                guard let refersTo = name.refersTo, let formula = formula(refersTo, book: number) else { continue }
                engine.defineExternalName(book: number, fileName: fileName, name: name.name, formula: formula)
            }
        }
    }

    /// A linked book's name formula (`=Sheet1!$A$1`) in this workbook's terms (`'[2]Sheet1'!$A$1`):
    /// a constant is kept; a reference into one sheet is rewritten; anything else is nil.
    static func formula(_ refersTo: String, book: Int) -> String? {
        var text = Substring(refersTo)
        if text.first == "=" { text = text.dropFirst() }
        guard let bang = text.lastIndex(of: "!") else { return text.isEmpty ? nil : String(text) }
        var sheet = text[..<bang]
        let reference = text[text.index(after: bang)...]
        if sheet.count >= 2, sheet.first == "'", sheet.last == "'" {
            sheet = Substring(sheet.dropFirst().dropLast().replacingOccurrences(of: "''", with: "'"))
        }
        guard !sheet.isEmpty, !sheet.contains("!"), !sheet.contains("["),
              reference.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "$" || $0 == ":" }) else { return nil }
        return "'[\(book)]\(sheet.replacingOccurrences(of: "'", with: "''"))'!" + reference
    }
}
