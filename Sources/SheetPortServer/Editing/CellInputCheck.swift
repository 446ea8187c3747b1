import SheetPortCore
import SheetPortCalc

/// What a cell may be given to hold (Docs/Reference/HTTP.md, "Writing"), checked the same whether a
/// request types it or an undo types an earlier input again: no control character (a line break or
/// tab excepted), no longer than a cell holds, and a formula that parses, stays in the workbook and
/// is no longer than Excel allows. A refusal is a `SheetEditError` naming the cell.
enum CellInputCheck {
    /// The longest formula Excel accepts, in characters (with its `=`).
    static let maxFormulaLength = 8_192

    /// `text` read as typed at `cell`; `badInput` or `badFormula` when a cell may not hold it.
    static func typed(_ text: String, at cell: CellReference) throws -> TypedInput {
        if text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" || $0.value == 0x7F }) {
            throw SheetEditError.badInput("the input of \(cell) holds a control character (\(text.prefix(40).visibleControlCharacters))")
        }
        guard text.utf16.count <= ServerConfiguration.maxCellTextLength else {
            throw SheetEditError.badInput("the input of \(cell) is longer than a cell holds (\(ServerConfiguration.maxCellTextLength) characters)")
        }
        let typed = TypedInput(text)
        if case .formula(let formula) = typed.content { try checkFormula(formula, at: cell) }
        return typed
    }

    /// `badFormula` naming the cell and the position when `formula` does not parse, refers to
    /// another workbook, or is longer than Excel allows.
    static func checkFormula(_ formula: String, at cell: CellReference) throws {
        guard formula.count + 1 <= maxFormulaLength else {
            throw SheetEditError.badFormula("the formula in \(cell) is \(formula.count + 1) characters long, over Excel's \(maxFormulaLength)")
        }
        do {
            try CalcEngine.validateFormula(formula, at: cell)
        } catch {
            // Positions count from the `=` the person typed.
            throw SheetEditError.badFormula("the formula in \(cell) does not parse at position \(error.position + 1): \(error.message)")
        }
    }
}
