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

    /// One top-level member: where its quoted key starts, the key's bytes (as written: an
    /// escaped key matches no name, and its line goes the slow way) and its value's bytes.
    struct Member {
        var keyStart: Int
        var key: ArraySlice<UInt8>
        var value: Range<Int>
    }

    /// The top-level members of a JSON object line, nil when it is not exactly one valid
    /// object (read by `JSONScanner`, every value checked, nested ones skipped).
    static func members(of line: ArraySlice<UInt8>) -> [Member]? {
        line.withUnsafeBufferPointer { bytes in
            var scanner = JSONScanner(bytes: bytes)
            var members: [Member] = []
            let offset = line.startIndex
            do throws(JSONScanner.Malformed) {
                try scanner.object { (scanner: inout JSONScanner, key: JSONString) throws(JSONScanner.Malformed) in
                    let valueStart = scanner.index
                    try scanner.skipValue(level: 2)
                    members.append(Member(keyStart: offset + key.start - 1, key: line[(offset + key.start)..<(offset + key.end)],
                                          value: (offset + valueStart)..<(offset + scanner.index)))
                }
                try scanner.expectEnd()
            } catch {
                return nil
            }
            return members
        }
    }
}
