/// The kind of each column of a CSV or TSV input, decided over the whole column (Docs/Reference/Formats.md,
/// section 6): a column is numbers only if every non-empty field is a number, booleans only if
/// every one is a boolean, dates only if every one is a date, times only if every one is a
/// time; otherwise text, so that one `007` makes a ZIP-code column text, all of it. It keeps one
/// state a column, whatever the number of rows.
///
/// The first record that is not blank is the header unless `hasHeader` is false (`--no-header`):
/// its fields are stored as text and take no part in the columns' kinds, so a header `2024`,
/// `#` or `%` leaves a column of numbers numbers.
struct ColumnTypes {
    private enum State: Equatable {
        /// No field counted yet.
        case unseen
        /// Every field counted so far is of this kind.
        case kind(TypeInference.Kind)
        /// Some field is text, or two kinds were seen.
        case text
    }

    let rules: TypeInference.Rules
    private var states: [State] = []
    /// Whether the header is still to come.
    private var headerPending: Bool

    /// Column kinds for fields read with `rules`; the first non-blank record is a header unless not `hasHeader`.
    init(rules: TypeInference.Rules, hasHeader: Bool = true) {
        self.rules = rules
        headerPending = hasHeader
    }

    /// Counts the fields of the next record.
    mutating func count(_ record: DelimitedRecord) {
        if Self.isHeader(record, pending: &headerPending) { return }
        if record.count > states.count { states += repeatElement(.unseen, count: record.count - states.count) }
        for column in 0..<record.count where !record.isEmpty(at: column) {
            switch states[column] {
            case .text:
                continue
            case .unseen:
                let kind = record.withField(column) { TypeInference.kind(of: $0, rules: rules) }
                states[column] = kind.map(State.kind) ?? .text
            case .kind(let kind):
                if !record.withField(column, { TypeInference.matches($0, kind, rules: rules) }) { states[column] = .text }
            }
        }
    }

    /// How many columns were counted (the widest record's fields); later ones are text.
    var columnCount: Int { states.count }

    /// The kind of `column` (0-based), nil when it stays text (or held only the header's
    /// names, which are text).
    func kind(of column: Int) -> TypeInference.Kind? {
        guard column < states.count, case .kind(let kind) = states[column] else { return nil }
        return kind
    }
}
