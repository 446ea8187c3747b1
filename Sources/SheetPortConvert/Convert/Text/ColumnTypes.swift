import SheetPortCore
import SheetPortReader
import SheetPortWriter
/// The kind of each column of a CSV or TSV input, decided over the whole column (CONTRACTS
/// section 6): a column is numbers only if every non-empty field is a number, booleans only if
/// every one is a boolean, dates only if every one is a date, times only if every one is a
/// time; otherwise text, so that one `007` makes a ZIP-code column text, all of it. It keeps one
/// state a column, whatever the number of rows.
///
/// The first record that is not blank is usually a header: a field of it that is text with a
/// letter in it (a name like `zip` or `Amount`) does not count against its column, and stays text.
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
    private var isFirst = true

    /// Column kinds for fields read with `rules`.
    init(rules: TypeInference.Rules) { self.rules = rules }

    /// Counts the fields of the next record.
    mutating func count(_ fields: [String]) {
        defer { if isFirst { isFirst = fields.allSatisfy(\.isEmpty) } }
        if fields.count > states.count { states += repeatElement(.unseen, count: fields.count - states.count) }
        for (column, field) in fields.enumerated() where !field.isEmpty {
            switch states[column] {
            case .text:
                continue
            case .unseen:
                if let kind = TypeInference.kind(of: field, rules: rules) {
                    states[column] = .kind(kind)
                } else if !(isFirst && field.unicodeScalars.contains(where: \.properties.isAlphabetic)) {
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
        case .text, .unseen: return nil // unseen: only header names, which are text
        case .kind(let kind): return TypeInference.value(of: field, as: kind, rules: rules)
        }
    }
}
