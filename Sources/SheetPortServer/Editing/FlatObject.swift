import Foundation
import SheetPortCore

/// A member's value in a flat JSON object as `FlatObject` reads it.
enum FlatValue {
    case text(String)
    /// A number spelled as digits alone (`-`? digits) within an `Int`, as a column is.
    case integer(Int)
    case number(Double)
    case flag(Bool)
    case null
    /// An array of strings.
    case texts([String])

    /// The value as `JSONSerialization` gives it (`null` as `NSNull`, so a member set to null
    /// is still there), for readers of its objects.
    var object: Any {
        switch self {
        case .text(let text): text
        case .integer(let integer): integer
        // An NSNumber, so that `as? Int` reads `1.0` as 1 as it does in `JSONSerialization`'s objects.
        case .number(let number): NSNumber(value: number)
        case .flag(let flag): flag
        case .null: NSNull()
        case .texts(let texts): texts
        }
    }
}

/// A flat JSON object the server writes itself (a stored line without a style, a history
/// entry's cell): members of strings, numbers, `true`/`false`, `null` and arrays of strings,
/// read by `JSONScanner` without Foundation. Any other value (an object, a nested array) is
/// refused, for the caller to hand the text to the general parser.
struct FlatObject {
    /// The members in order: a handful, looked up by a scan (no hashing per line).
    var members: [(key: String, value: FlatValue)] = []

    /// The value of `key` (the last, as `JSONSerialization` keeps a repeated key's last).
    subscript(key: String) -> FlatValue? { members.last { $0.key == key }?.value }

    /// The members as `JSONSerialization` gives them.
    var dictionary: [String: Any] {
        var dictionary: [String: Any] = [:]
        for (key, value) in members { dictionary[key] = value.object }
        return dictionary
    }

    /// The object that is all of `bytes` (spaces around it allowed); nil when it is not one flat object.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var scanner = JSONScanner(bytes: bytes)
        guard let object = try? FlatObject(&scanner), (try? scanner.expectEnd()) != nil else { return nil }
        self = object
    }

    /// The flat object at `scanner`'s cursor.
    init(_ scanner: inout JSONScanner) throws(JSONScanner.Malformed) {
        var members: [(key: String, value: FlatValue)] = []
        try scanner.object { (scanner: inout JSONScanner, key: JSONString) throws(JSONScanner.Malformed) in
            members.append((key.text(in: scanner.bytes), try Self.value(&scanner)))
        }
        self.members = members
    }

    private static func value(_ scanner: inout JSONScanner) throws(JSONScanner.Malformed) -> FlatValue {
        guard let byte = scanner.peek() else { throw scanner.failure }
        switch byte {
        case UInt8(ascii: "\""):
            return .text(try scanner.string().text(in: scanner.bytes))
        case UInt8(ascii: "["):
            var texts: [String] = []
            try scanner.array { (scanner: inout JSONScanner) throws(JSONScanner.Malformed) in
                texts.append(try scanner.string().text(in: scanner.bytes))
            }
            return .texts(texts)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = scanner.index
            let (number, isIntegral) = try scanner.number()
            // Digits alone under 10^15 are exact as the double the scanner read: not read again.
            if isIntegral, number.magnitude < 1e15 { return .integer(Int(number)) }
            if isIntegral, let integer = integer(UnsafeBufferPointer(rebasing: scanner.bytes[start..<scanner.index])) {
                return .integer(integer)
            }
            return .number(number)
        case UInt8(ascii: "{"):
            throw scanner.failure // not flat
        default:
            return try scanner.literal().map { .flag($0) } ?? .null
        }
    }

    /// The checked digits `text` (`-`? digits) as an `Int`; nil beyond its range (`-0` is 0, as
    /// `JSONSerialization` reads it).
    private static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = negative ? UnsafeBufferPointer(rebasing: text.dropFirst()) : text
        guard digits.count <= 18 else { return Int(String(decoding: text, as: UTF8.self)) }
        let magnitude = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return negative ? -magnitude : magnitude
    }
}
