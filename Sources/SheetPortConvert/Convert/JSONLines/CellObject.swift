/// One member of a cell JSONL object as the reader sees it: the JSON types it tells apart,
/// with the values of the scalars it uses. Arrays and objects it has no use for are checked
/// and skipped, so only their kind is kept.
package enum CellJSONValue: Equatable {
    /// The key is not in the object.
    case absent
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, read exactly (correctly rounded).
    case number(Double)
    /// A string, escapes decoded.
    case string(String)
    /// An array.
    case array
    /// An object.
    case object

    /// The string, or nil for any other type.
    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A boolean, as `as? Bool` on a `JSONSerialization` value gave it (the reader this one
    /// replaced): `true`/`false`, and also a number equal to 1 or 0.
    package var bool: Bool? {
        switch self {
        case .bool(let flag): return flag
        case .number(let number) where number == 1: return true
        case .number(let number) where number == 0: return false
        default: return nil
        }
    }

    /// A number, as `as? NSNumber` on a `JSONSerialization` value gave it: a number, and
    /// also `true` (1) or `false` (0).
    package var number: Double? {
        switch self {
        case .number(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        default: return nil
        }
    }

    /// Whether the member is there and not `null`.
    package var isPresent: Bool { self != .absent && self != .null }
}

/// The members of one cell JSONL line that `CellJSONLReader` reads (Docs/Reference/Formats.md):
/// other keys are checked as JSON and skipped. A key given twice keeps its last value, as
/// `JSONSerialization` did.
package struct CellObject {
    /// `ref`.
    package var ref = CellJSONValue.absent
    /// `type`.
    package var type = CellJSONValue.absent
    /// `value`.
    package var value = CellJSONValue.absent
    /// `formula`.
    var formula = CellJSONValue.absent
    /// `arrayRange`.
    var arrayRange = CellJSONValue.absent
    /// `spill`: the anchor of the dynamic array the cell belongs to (the server's stored cells).
    var spill = CellJSONValue.absent
    /// `style`: when it is `.object`, its members are `styleMembers`.
    var style = CellJSONValue.absent
    /// The members of `style`, when it is an object.
    var styleMembers = StyleMembers()

    /// The members of a cell's `style` object.
    struct StyleMembers {
        /// `bold`.
        var bold = CellJSONValue.absent
        /// `italic`.
        var italic = CellJSONValue.absent
        /// `horizontal`.
        var horizontal = CellJSONValue.absent
        /// `numFmt`.
        var numFmt = CellJSONValue.absent
        /// `fill`.
        var fill = CellJSONValue.absent
        /// `color`.
        var color = CellJSONValue.absent
    }
}
