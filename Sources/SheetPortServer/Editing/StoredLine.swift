import SheetPortCore
import SheetPortCalc
import SheetPortConvert

/// A stored cell line (`RowBlock`) edited as bytes: a recalculated dependent's new value is
/// spliced into its `"type":..,"value":..` members, every other byte kept as it is. A write whose
/// dependents are a long running total rewrites each of them: parsing each line into a
/// `StoredCell` and rendering it again cost most of such a write.
enum StoredLine {
    /// `line` with its `type` and `value` members replaced by those of `value` (a number in a
    /// date format is a date, as `StoredCell.typedValue`); nil when the line is not an object
    /// whose `type` member is followed by its `value` member (the caller then goes the slow way).
    static func replacingValue(in line: ArraySlice<UInt8>, with value: CalcValue) -> [UInt8]? {
        guard let members = members(of: line) else { return nil }
        guard let typeIndex = members.firstIndex(where: { $0.key.elementsEqual("type".utf8) }),
              typeIndex + 1 < members.count, members[typeIndex + 1].key.elementsEqual("value".utf8) else { return nil }
        var numberFormat = "General"
        if let style = members.first(where: { $0.key.elementsEqual("style".utf8) }) {
            // Only a styled cell pays for parsing its style object, to learn its number format.
            guard let object = JSON.parseObject(Array(line[style.value])) else { return nil }
            numberFormat = object["numFmt"] as? String ?? "General"
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count + 16)
        bytes += line[line.startIndex..<members[typeIndex].keyStart]
        appendTypedValue(value, numberFormat: numberFormat, to: &bytes)
        bytes += line[members[typeIndex + 1].value.upperBound...]
        return bytes
    }

    /// `"type":..,"value":..` of `value` in a cell of `numberFormat`, as `StoredCell.line` writes them.
    private static func appendTypedValue(_ value: CalcValue, numberFormat: String, to bytes: inout [UInt8]) {
        // The common case, a plain number, without building a `JSON` or a `String` for the member.
        if case .number(let number) = value, numberFormat == "General" {
            bytes += numberPrefix
            bytes += ValueText.number(number).utf8
            return
        }
        let (type, json) = StoredCell.typedValue(value, numberFormat: numberFormat)
        bytes += "\"type\":\(JSON.string(type).text),\"value\":\(json.text)".utf8
    }

    private static let numberPrefix = Array("\"type\":\"number\",\"value\":".utf8)

    /// One top-level member: where its quoted key starts, the key's bytes (unescaped keys only:
    /// stored lines have plain keys) and its value's bytes.
    struct Member {
        var keyStart: Int
        var key: ArraySlice<UInt8>
        var value: Range<Int>
    }

    /// The top-level members of a JSON object line, nil when it is not one (strings are skipped
    /// with their escapes, nested objects and arrays by depth, so no byte inside them is taken
    /// for a member).
    static func members(of line: ArraySlice<UInt8>) -> [Member]? {
        var members: [Member] = []
        var position = skipSpace(line, line.startIndex)
        guard position < line.endIndex, line[position] == UInt8(ascii: "{") else { return nil }
        position = skipSpace(line, position + 1)
        if position < line.endIndex, line[position] == UInt8(ascii: "}") {
            return skipSpace(line, position + 1) == line.endIndex ? members : nil
        }
        while true {
            guard position < line.endIndex, line[position] == UInt8(ascii: "\"") else { return nil }
            let keyStart = position
            guard let keyEnd = endOfString(line, position) else { return nil }
            let key = line[(keyStart + 1)..<(keyEnd - 1)]
            position = skipSpace(line, keyEnd)
            guard position < line.endIndex, line[position] == UInt8(ascii: ":") else { return nil }
            let valueStart = skipSpace(line, position + 1)
            guard let valueEnd = endOfValue(line, valueStart) else { return nil }
            members.append(Member(keyStart: keyStart, key: key, value: valueStart..<valueEnd))
            position = skipSpace(line, valueEnd)
            guard position < line.endIndex else { return nil }
            if line[position] == UInt8(ascii: "}") {
                return skipSpace(line, position + 1) == line.endIndex ? members : nil
            }
            guard line[position] == UInt8(ascii: ",") else { return nil }
            position = skipSpace(line, position + 1)
        }
    }

    private static func skipSpace(_ line: ArraySlice<UInt8>, _ start: Int) -> Int {
        var position = start
        while position < line.endIndex, isSpace(line[position]) { position += 1 }
        return position
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The index after the closing quote of the string opening at `start`, nil when it does not close.
    private static func endOfString(_ line: ArraySlice<UInt8>, _ start: Int) -> Int? {
        var position = start + 1
        while position < line.endIndex {
            switch line[position] {
            case UInt8(ascii: "\\"): position += 2
            case UInt8(ascii: "\""): return position + 1
            default: position += 1
            }
        }
        return nil
    }

    /// The index after the value starting at `start`: a string, an object or array (to its
    /// matching close), or a literal or number (to the next `,`, `}` or `]`); nil when it does not end.
    private static func endOfValue(_ line: ArraySlice<UInt8>, _ start: Int) -> Int? {
        guard start < line.endIndex else { return nil }
        switch line[start] {
        case UInt8(ascii: "\""):
            return endOfString(line, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var position = start
            while position < line.endIndex {
                switch line[position] {
                case UInt8(ascii: "\""):
                    guard let end = endOfString(line, position) else { return nil }
                    position = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return position + 1 }
                default: break
                }
                position += 1
            }
            return nil
        default:
            var position = start
            while position < line.endIndex, !isSpace(line[position]),
                  line[position] != UInt8(ascii: ","), line[position] != UInt8(ascii: "}"), line[position] != UInt8(ascii: "]") {
                position += 1
            }
            return position > start ? position : nil
        }
    }
}
