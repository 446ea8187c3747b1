import SheetPortCore

/// The sort and filters of `GET /api/sheets/{id}/view` (Docs/Reference/HTTP.md, "Views"):
/// `sort=B:desc,A:asc` and any number of `filter=C:>100` (`=`, `<>`, `>`, `>=`, `<`, `<=`,
/// `contains:`), checked before the sheet is read.
struct ViewQuery {
    /// One sort key: a column, ascending or not.
    struct SortKey: Equatable {
        var column: Int
        var ascending: Bool
    }

    /// A filter's comparison.
    enum Operator: String, CaseIterable {
        case equal = "=", notEqual = "<>", greater = ">", greaterOrEqual = ">=", less = "<", lessOrEqual = "<="
        case contains = "contains:"
    }

    /// One filter: a column, an operator and its operand as sent.
    struct Filter {
        var column: Int
        var op: Operator
        var operand: ViewValue.Operand
    }

    /// The most sort keys and filters one view takes.
    static let maxSortKeys = 8
    static let maxFilters = 16
    /// The longest operand a filter takes (Excel's criteria are at most 255 characters).
    static let maxOperandLength = 255

    var sort: [SortKey] = []
    var filters: [Filter] = []

    /// The columns whose values the scan keeps or tests.
    var columns: Set<Int> { Set(sort.map(\.column) + filters.map(\.column)) }

    /// Parses the request's `sort` and every `filter`; a 400 `bad-view` naming what is wrong.
    init(_ request: Request) throws(RequestRefusal) {
        if let text = request.query["sort"], !text.isEmpty {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count <= Self.maxSortKeys else { throw Self.refusal("at most \(Self.maxSortKeys) sort keys") }
            for part in parts {
                let fields = part.split(separator: ":", omittingEmptySubsequences: false)
                guard fields.count <= 2, let column = Self.column(fields[0]) else {
                    throw Self.refusal("a sort key is a column and asc or desc, as B:desc")
                }
                let direction = fields.count == 2 ? fields[1].lowercased() : "asc"
                guard direction == "asc" || direction == "desc" else { throw Self.refusal("a sort direction is asc or desc") }
                sort.append(SortKey(column: column, ascending: direction == "asc"))
            }
        }
        let texts = request.queryItems.filter { $0.name == "filter" }.map(\.value)
        let filterTexts = texts.isEmpty ? request.query["filter"].map { [$0] } ?? [] : texts
        guard filterTexts.count <= Self.maxFilters else { throw Self.refusal("at most \(Self.maxFilters) filters") }
        for text in filterTexts {
            guard let colon = text.firstIndex(of: ":"), let column = Self.column(text[..<colon]) else {
                throw Self.refusal("a filter is a column, a colon and a condition, as C:>100 or A:contains:text")
            }
            let condition = text[text.index(after: colon)...]
            // Longest operators first: `>=` before `>`, `<>` and `<=` before `<`.
            guard let op = Operator.allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count })
                .first(where: { condition.hasPrefix($0.rawValue) }) else {
                throw Self.refusal("a filter's condition starts with =, <>, >, >=, <, <= or contains:")
            }
            let operand = String(condition.dropFirst(op.rawValue.count))
            guard operand.utf16.count <= Self.maxOperandLength else {
                throw Self.refusal("a filter's operand holds at most \(Self.maxOperandLength) characters")
            }
            filters.append(Filter(column: column, op: op, operand: ViewValue.Operand(operand)))
        }
    }

    /// The column of letters `A` ... `XFD`, or nil.
    private static func column(_ letters: Substring) -> Int? {
        guard !letters.isEmpty, letters.count <= 3, letters.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return nil }
        return CellReference(String(letters) + "1")?.column
    }

    private static func refusal(_ message: String) -> RequestRefusal {
        RequestRefusal(status: 400, code: .badView, message: message)
    }

    /// Whether a row whose values in the filter columns are `value(column)` passes every filter.
    func passes(_ value: (Int) -> ViewValue) -> Bool {
        filters.allSatisfy { $0.matches(value($0.column)) }
    }
}

extension ViewQuery.Filter {
    /// Whether `value` meets this filter, as Excel's custom AutoFilter tests it: numbers (and
    /// dates) against a numeric operand, text against text ignoring case, a blank only by
    /// `=` with nothing after it (and so `<>` with nothing matches every non-blank).
    func matches(_ value: ViewValue) -> Bool {
        switch op {
        case .equal: return operand.equals(value)
        case .notEqual: return !operand.equals(value)
        case .contains:
            return operand.folded.isEmpty || (value.text.map { $0.contains(operand.folded) } ?? false)
        case .greater, .greaterOrEqual, .less, .lessOrEqual:
            guard let order = operand.order(of: value) else { return false }
            switch op {
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            case .less: return order < 0
            default: return order <= 0
            }
        }
    }
}
