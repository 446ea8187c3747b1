/// The kind of each column of a CSV or TSV input, decided over the whole column (Docs/Reference/Formats.md,
/// section 6): a column is numbers only if every non-empty field is a number, booleans only if
/// every one is a boolean, dates only if every one is a date, times only if every one is a
/// time; otherwise text, so that one `007` makes a ZIP-code column text, all of it. It keeps one
/// state a column, whatever the number of rows.
///
/// The first record that is not blank is the header unless `hasHeader` is false (`--no-header`):
/// its fields are stored as text and take no part in the columns' kinds, so a header `2024`,
/// `#` or `%` leaves a column of numbers numbers.
///
/// A number written with an exponent (`1E5`, a product code as often as a quantity) makes a
/// column numbers only when every field of it is written so; mixed with plain numbers the
/// column is text. Null fields (`--null`) and error values (`#N/A`) are skipped; declared columns (`--types`) take their
/// declared kind and are not inferred, and with `infer` false the others stay text.
struct ColumnTypes {
    private enum State: Equatable {
        /// No field counted yet.
        case unseen
        /// Every field counted so far is of this kind (numbers: written without an exponent).
        case kind(TypeInference.Kind)
        /// Every field counted so far is a number written with an exponent (`1.5E-3`).
        case exponentNumbers
        /// Some field is text, or two kinds were seen.
        case text
    }

    let rules: TypeInference.Rules
    let declarations: ColumnDeclarations
    /// Whether undeclared columns are inferred (false: text).
    let infer: Bool
    private var states: [State] = []
    /// Whether the header is still to come.
    private var headerPending: Bool
    /// The declared columns' kinds, by 0-based index, once the header (if any) is read.
    private(set) var declared: [Int: ColumnDeclarations.Kind] = [:]

    /// Column kinds for fields read with `rules`; the first non-blank record is a header unless
    /// not `hasHeader`. Throws when a declared column is not a column letter (and, with no header,
    /// cannot be a header name).
    init(rules: TypeInference.Rules, hasHeader: Bool = true, declarations: ColumnDeclarations = ColumnDeclarations(),
         infer: Bool = true) throws(ColumnDeclarationError) {
        self.rules = rules
        self.declarations = declarations
        self.infer = infer
        headerPending = hasHeader
        if !hasHeader { declared = try declarations.resolve(header: nil) }
    }

    /// Counts the fields of the next record (the header's names resolve the declared columns).
    mutating func count(_ record: DelimitedRecord) throws(ColumnDeclarationError) {
        if Self.isHeader(record, pending: &headerPending) {
            declared = try declarations.resolve(header: (0..<record.count).map(record.string(at:)))
            return
        }
        if record.count > states.count {
            let first = states.count
            states += repeatElement(.unseen, count: record.count - states.count)
            // Declared and (without inference) undeclared columns are decided already.
            for column in first..<states.count where !infer || declared[column] != nil { states[column] = .text }
        }
        let nulls = !declarations.nullFields.isEmpty
        for column in 0..<record.count where !record.isEmpty(at: column) {
            if case .text = states[column] { continue }
            record.withField(column) { field in
                if nulls, declarations.isNull(field) { return }
                if TypeInference.errorCode(field) != nil { return }
                switch states[column] {
                case .text:
                    break
                case .unseen:
                    let kind = TypeInference.kind(of: field, rules: rules)
                    states[column] = kind == .number && TypeInference.hasExponent(field) ? .exponentNumbers : kind.map(State.kind) ?? .text
                case .kind(let kind):
                    if !TypeInference.matches(field, kind, rules: rules) || (kind == .number && TypeInference.hasExponent(field)) {
                        states[column] = .text
                    }
                case .exponentNumbers:
                    if !TypeInference.isNumber(field, rules: rules) || !TypeInference.hasExponent(field) { states[column] = .text }
                }
            }
        }
    }

    /// How many columns were counted (the widest record's fields); later ones are text.
    var columnCount: Int { states.count }

    /// The kind of `column` (0-based), nil when it stays text (or held only the header's
    /// names, which are text).
    func kind(of column: Int) -> TypeInference.Kind? {
        guard column < states.count else { return nil }
        switch states[column] {
        case .kind(let kind): return kind
        case .exponentNumbers: return .number
        case .unseen, .text: return nil
        }
    }
}
