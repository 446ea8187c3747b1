extension CalcEngine {
    /// The compiled formula last set in the same column when `text` is that formula copied to
    /// `address` (a filled column): no parse, no intern.
    func reusableFormula(_ text: String, at address: CellIndex, sheet: Int) -> Int32? {
        guard let f = lastFormulaOfColumn[Int64(sheet) << 32 | Int64(address.column)], formulaTemplateVerified[Int(f)],
              let template = formulaTemplates[Int(f)], template.matches(text, at: address) else { return nil }
        return f
    }

    /// Remembers a formula parsed from `text` at `address` as its column's candidate; its template
    /// is used once a parsed text is seen to match it (the renderer is then faithful for its shape).
    func noteFormula(_ f: Int32, text: String, at address: CellIndex, sheet: Int) {
        lastFormulaOfColumn[Int64(sheet) << 32 | Int64(address.column)] = f
        if !formulaTemplateVerified[Int(f)], let template = formulaTemplates[Int(f)], template.matches(text, at: address) {
            formulaTemplateVerified[Int(f)] = true
        }
    }
}
