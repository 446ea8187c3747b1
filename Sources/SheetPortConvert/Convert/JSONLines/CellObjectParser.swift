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
            switch CellKey.top(key, in: scanner.bytes) {
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
            switch CellKey.style(key, in: scanner.bytes) {
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

    static func top(_ key: JSONString, in bytes: UnsafeBufferPointer<UInt8>) -> Top? {
        if key.equals("ref", in: bytes) { return .ref }
        if key.equals("type", in: bytes) { return .type }
        if key.equals("value", in: bytes) { return .value }
        if key.equals("formula", in: bytes) { return .formula }
        if key.equals("arrayRange", in: bytes) { return .arrayRange }
        if key.equals("spill", in: bytes) { return .spill }
        if key.equals("style", in: bytes) { return .style }
        return nil
    }

    static func style(_ key: JSONString, in bytes: UnsafeBufferPointer<UInt8>) -> Style? {
        if key.equals("bold", in: bytes) { return .bold }
        if key.equals("italic", in: bytes) { return .italic }
        if key.equals("horizontal", in: bytes) { return .horizontal }
        if key.equals("numFmt", in: bytes) { return .numFmt }
        if key.equals("fill", in: bytes) { return .fill }
        if key.equals("color", in: bytes) { return .color }
        return nil
    }
}
