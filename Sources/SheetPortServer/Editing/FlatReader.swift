import SheetPortCore

/// A member's value in a flat JSON object as `FlatReader` reads it.
enum FlatValue {
    case text(String)
    /// A number spelled as digits alone (`-`? digits), as a column is.
    case integer(Int)
    case number(Double)
    case flag(Bool)
    case null
    /// An array of strings.
    case texts([String])

    /// The value as `JSONSerialization` gives it (`null` as nil), for readers of its objects.
    var object: Any? {
        switch self {
        case .text(let text): text
        case .integer(let integer): integer
        case .number(let number): number
        case .flag(let flag): flag
        case .null: nil
        case .texts(let texts): texts
        }
    }
}

/// A flat object's members in order: a handful, looked up by a scan (no hashing per line).
struct FlatObject {
    var members: [(key: String, value: FlatValue)] = []

    /// The value of `key` (the last, as `JSONSerialization` keeps a repeated key's last).
    subscript(key: String) -> FlatValue? { members.last { $0.key == key }?.value }

    /// The members as `JSONSerialization` gives them.
    var dictionary: [String: Any] {
        var dictionary: [String: Any] = [:]
        for (key, value) in members { dictionary[key] = value.object }
        return dictionary
    }
}

/// Reads the flat JSON objects the server writes itself (stored lines, history entries' cells)
/// without Foundation: members of strings, numbers, `true`/`false`, `null` and arrays of
/// strings, no whitespace. Anything else answers nil, for the caller to hand to the general parser.
/// A cursor over one flat object's bytes.
struct FlatReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    /// The object's members; nil when the bytes are not one flat object with nothing after it.
    mutating func members() -> FlatObject? {
        guard let members = object(), position == bytes.count else { return nil }
        return members
    }

    /// The members of the flat object at the cursor (a `style` member refused: a stored line's
    /// is an object); nil when there is none.
    mutating func object() -> FlatObject? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var object = FlatObject()
        if take(UInt8(ascii: "}")) { return object }
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")), key != "style", let value = value() else { return nil }
            object.members.append((key, value))
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) ? object : nil
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { position == bytes.count }

    /// Takes `byte` when it is the next one.
    mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Takes `text` when it comes next.
    mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - position >= count,
              (0..<count).allSatisfy({ bytes[position + $0] == text.utf8Start[$0] }) else { return false }
        position += count
        return true
    }

    private mutating func value() -> FlatValue? {
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "\""): return string().map { .text($0) }
        case UInt8(ascii: "t"): return literal("true") ? .flag(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .flag(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "["): return texts().map { .texts($0) }
        default: return number()
        }
    }

    /// An array of strings (a history entry's `changed`), nil for any other array.
    private mutating func texts() -> [String]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var texts: [String] = []
        if take(UInt8(ascii: "]")) { return texts }
        repeat {
            guard let text = string() else { return nil }
            texts.append(text)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? texts : nil
    }

    /// A JSON number (`-`? digits, `.` digits?, exponent?), nil for anything else (or past a double's range).
    private mutating func number() -> FlatValue? {
        let start = position
        func digits() -> Int {
            let first = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            return position - first
        }
        _ = take(UInt8(ascii: "-"))
        let whole = position
        guard digits() > 0, bytes[whole] != 0x30 || position - whole == 1 else { return nil }
        var integral = true
        if take(UInt8(ascii: ".")) {
            integral = false
            guard digits() > 0 else { return nil }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            integral = false
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if integral, let integer = Int(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else { return nil }
        return .number(number)
    }

    /// A JSON string's text; nil when it holds a raw control character, a bad escape, a
    /// lone surrogate or bytes that are not UTF-8.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var decoded: [UInt8] = []
        var start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if decoded.isEmpty { return String(validating: run, as: UTF8.self) }
                decoded += run
                return String(validating: decoded, as: UTF8.self)
            }
            if byte < 0x20 { return nil }
            guard byte == UInt8(ascii: "\\") else { position += 1; continue }
            decoded += UnsafeBufferPointer(rebasing: bytes[start..<position])
            position += 1
            guard position < bytes.count else { return nil }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4() else { return nil }
                if scalar >= 0xD800, scalar < 0xDC00 {
                    guard literal("\\u"), let low = hex4(), low >= 0xDC00, low < 0xE000 else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let character = Unicode.Scalar(scalar) else { return nil }
                decoded += Array(String(Character(character)).utf8)
            default: return nil
            }
            start = position
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - position >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
