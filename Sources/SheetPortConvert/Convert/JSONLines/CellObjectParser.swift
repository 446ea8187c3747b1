import SheetPortCore

/// A strict JSON parser made for one cell JSONL line (RFC 8259, UTF-8): it reads the object
/// straight into a `CellObject`, keeping only the members the reader uses, without building a
/// dictionary of `Any` per cell as `JSONSerialization` did.
///
/// Every member must still be valid JSON, skipped ones included: the line is read by
/// `JSONScanner`, whose choices (surrogates, numbers, nesting, trailing commas) it makes. Also,
/// as `JSONSerialization`: a key given twice keeps its last value, and a UTF-8 byte order mark
/// may open the line.
package struct CellObjectParser {
    /// The cell members of `line`, or nil when it is not exactly one valid JSON object.
    package static func parse(_ line: UnsafeBufferPointer<UInt8>) -> CellObject? {
        var scanner = JSONScanner(bytes: line)
        return try? scanner.lineObject()
    }
}

extension JSONScanner {
    /// The whole line: an optional byte order mark, spaces, one object, spaces.
    fileprivate mutating func lineObject() throws(Malformed) -> CellObject {
        skipByteOrderMark()
        var object = CellObject()
        try self.object { (scanner: inout JSONScanner, key: JSONString) throws(Malformed) in
            switch CellKey.named(key, in: scanner.bytes, among: CellKey.tops) {
            case .ref: object.ref = try scanner.cellValue(level: 2)
            case .type: object.type = try scanner.cellValue(level: 2)
            case .value: object.value = try scanner.cellValue(level: 2)
            case .formula: object.formula = try scanner.cellValue(level: 2)
            case .arrayRange: object.arrayRange = try scanner.cellValue(level: 2)
            case .spill: object.spill = try scanner.cellValue(level: 2)
            case .style:
                // The last `style` replaces the whole object, as a dictionary's last key does.
                object.styleMembers = CellObject.StyleMembers()
                if scanner.peek() == UInt8(ascii: "{") {
                    object.style = .object
                    object.styleMembers = try scanner.styleObject()
                } else {
                    object.style = try scanner.cellValue(level: 2)
                }
            case nil: try scanner.skipValue(level: 2)
            }
        }
        try expectEnd()
        return object
    }

    /// A `style` object (level 2) with its members.
    private mutating func styleObject() throws(Malformed) -> CellObject.StyleMembers {
        var style = CellObject.StyleMembers()
        try object { (scanner: inout JSONScanner, key: JSONString) throws(Malformed) in
            switch CellKey.named(key, in: scanner.bytes, among: CellKey.styles) {
            case .bold: style.bold = try scanner.cellValue(level: 3)
            case .italic: style.italic = try scanner.cellValue(level: 3)
            case .horizontal: style.horizontal = try scanner.cellValue(level: 3)
            case .numFmt: style.numFmt = try scanner.cellValue(level: 3)
            case .fill: style.fill = try scanner.cellValue(level: 3)
            case .color: style.color = try scanner.cellValue(level: 3)
            case nil: try scanner.skipValue(level: 3)
            }
        }
        return style
    }

    /// A member's value: scalars are read, arrays and objects checked and skipped.
    private mutating func cellValue(level: Int) throws(Malformed) -> CellJSONValue {
        guard let byte = peek() else { throw failure }
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try string().text(in: bytes))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number().value)
        case UInt8(ascii: "{"):
            try skipValue(level: level)
            return .object
        case UInt8(ascii: "["):
            try skipValue(level: level)
            return .array
        default:
            return try literal().map { .bool($0) } ?? .null
        }
    }
}

/// The keys the reader uses.
private enum CellKey {
    /// The top-level keys.
    enum Top { case ref, type, value, formula, arrayRange, spill, style }
    /// The keys of `style`.
    enum Style { case bold, italic, horizontal, numFmt, fill, color }

    static let tops: [(name: StaticString, key: Top)] = [("ref", .ref), ("type", .type), ("value", .value), ("formula", .formula),
                                                         ("arrayRange", .arrayRange), ("spill", .spill), ("style", .style)]
    static let styles: [(name: StaticString, key: Style)] = [("bold", .bold), ("italic", .italic), ("horizontal", .horizontal),
                                                             ("numFmt", .numFmt), ("fill", .fill), ("color", .color)]

    /// The key of `names` that `key` spells, nil for any other.
    static func named<Key>(_ key: JSONString, in bytes: UnsafeBufferPointer<UInt8>, among names: [(name: StaticString, key: Key)]) -> Key? {
        for (name, known) in names where key.equals(name, in: bytes) { return known }
        return nil
    }
}
