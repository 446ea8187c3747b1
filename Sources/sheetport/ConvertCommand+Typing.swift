import SheetPortConvert

extension ConvertCommand {
    /// `--null` and `--types`: how CSV/TSV columns are typed beyond inference.
    static let typingOptions: [Option] = [
        .valued("--null", "TOKENS", """
            CSV/TSV input: fields equal to one of these comma-separated tokens (NA,null,)
            are empty cells and do not decide their column's type
            """),
        .valued("--types", "SPEC", """
            CSV/TSV input: column kinds by header name or column letter
            (id=text,score=number,when=date; also boolean, time); a field that does not
            fit is an error naming its row and column. Without it, 1E5-shaped fields are
            text unless the whole column is written so
            """),
    ]

    /// Reads `--null` and `--types` into `settings`, checked against the input `format`.
    static func applyTyping(_ options: Arguments, format: TextFormat, to settings: inout TextToWorkbook.Options) throws {
        for name in ["--null", "--types"] where options.value(name) != nil && format == .jsonl {
            throw UsageError("\(name) is for CSV and TSV input; cell JSONL values are typed already")
        }
        if let spec = options.value("--null") {
            settings.declarations.nullFields = ColumnDeclarations.parseNullFields(spec)
        }
        if let spec = options.value("--types") {
            do {
                settings.declarations.declarations = try ColumnDeclarations.parseTypes(spec)
            } catch {
                throw UsageError("--types: \(error.message)")
            }
        }
    }
}
