import SheetPortCore
import SheetPortReader
import SheetPortWriter
/// The kind of each column of a CSV or TSV input, decided over the whole column (CONTRACTS
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

    /// Whether `fields` is the header, given whether it is still to come: the first record
    /// with a non-empty field.
    static func isHeader(_ fields: [String], pending: inout Bool) -> Bool {
        guard pending, fields.contains(where: { !$0.isEmpty }) else { return false }
        pending = false
        return true
    }

    /// Counts the fields of the next record.
    mutating func count(_ fields: [String]) {
        if Self.isHeader(fields, pending: &headerPending) { return }
        if fields.count > states.count { states += repeatElement(.unseen, count: fields.count - states.count) }
        for (column, field) in fields.enumerated() where !field.isEmpty {
            switch states[column] {
            case .text:
                continue
            case .unseen:
                if let kind = TypeInference.kind(of: field, rules: rules) {
                    states[column] = .kind(kind)
                } else {
                    states[column] = .text
                }
            case .kind(let kind):
                if TypeInference.value(of: field, as: kind, rules: rules) == nil { states[column] = .text }
            }
        }
    }

    /// The value of a non-empty `field` in `column` (0-based) and its number format; nil when
    /// it stays text.
    func value(of field: String, column: Int) -> (value: CellValue, numberFormat: String?)? {
        switch column < states.count ? states[column] : .unseen {
        case .text, .unseen: return nil // unseen: only the header's names, which are text
        case .kind(let kind): return TypeInference.value(of: field, as: kind, rules: rules)
        }
    }
}
