import Foundation
import Testing
import SheetPortCore
import SheetPortCalc
@testable import SheetPortConvert
@testable import SheetPortServer

/// The readers of the server's stored cell line and of cell JSONL lines share one scanner
/// (`JSONScanner`): each of them, fed hostile lines, must read what the general parser
/// (`JSONSerialization`) reads, or refuse the line (for that parser to read it).
@Suite struct JSONScannerReadersTests {
    /// Member values that stress strings, numbers and nesting.
    static let values: [String] = [
        #""x""#, #""a\"b""#, #""a\\b""#, #""\/""#, #""\b\f\n\r\t""#, "\"a\u{1}b\"", "\"a\u{7F}b\"",
        "\"\u{2028}\u{2029}\"", #""\u2028\u2029""#, "\"é😀\"", #""\ud83d\ude00""#, #""\ud83d""#, #""\ude00x""#,
        #""\ud83dx""#, #""\u00e9\u0000""#, #""\x""#, #""\u12""#, #""open"#, "\"=\\\"}{\\\"\"",
        "1", "0", "-0", "-0.0", "1.5", "-1e-7", "1E+2", "1e400", "-1e400", "1e-400", "12345678901234567890",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "123456789012345678",
        "01", "1.", ".5", "+1", "NaN", "-", "1e", String(repeating: "9", count: 400), "0.5" + String(repeating: "0", count: 600),
        "true", "false", "null", "tru", "nul",
        "[]", #"["a","b\n"]"#, "[1,2]", #"["a",1]"#, "[[\"a\"]]", "{}", #"{"numFmt":"0.00","bold":true}"#,
        #"{"a":[1,{"b":null}]}"#, String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ]

    /// Whole lines: stored lines with each value in each member, duplicate keys, spaces,
    /// escaped keys, broken objects.
    static var lines: [[UInt8]] {
        var lines: [String] = []
        for value in values {
            lines.append(#"{"col":2,"input":\#(value),"ref":"B1","type":"string","value":"x"}"#)
            lines.append(#"{"col":2,"input":"1","ref":"B1","type":"number","value":\#(value)}"#)
            lines.append(#"{"col":2,"input":"x","ref":"B1","type":"string","value":\#(value)}"#)
            lines.append(#"{"col":\#(value),"input":"","ref":"B1","type":"empty","value":null}"#)
            lines.append(##"{"col":3,"formula":\##(value),"input":"=A1","ref":"C1","type":"error","value":"#DIV/0!"}"##)
            lines.append(#"{"col":2,"input":"","ref":"B1","type":"empty","value":null,"style":\#(value)}"#)
            lines.append(#"{"col":2,"row":5,"changed":\#(value),"before":"{\"col\":2}"}"#)
        }
        lines += [
            #"{"col":2,"col":3,"input":"a","ref":"C1","type":"string","value":"a"}"#,
            #"{"col":2,"input":"a","ref":"B1","type":"string","value":"a","value":"b","type":"number","value":7}"#,
            #"{ "col" : 2 , "input" : "a" , "ref" : "B1" , "type" : "string" , "value" : "a" }  "#,
            #"{"\u0063ol":2,"input":"a","ref":"B1","type":"string","value":"a"}"#,
            #"{"col":2,"input":"a","ref":"B1","type":"string","value":"a",}"#,
            #"{"col":2,"input":"a","ref":"B1","type":"string","value":"a"}x"#,
            #"{"col":2,"input":"a","ref":"B1","type":"string","value":"a""#,
            #"{"col":2 "input":"a"}"#, #"{"col":2,"input"}"#, "{}", "[]", "", " ", "{", #"{"col":2}{"col":3}"#,
            "\u{FEFF}" + #"{"col":2,"input":"a","ref":"B1","type":"string","value":"a"}"#,
            #"{"col":2,"input":"a","ref":"B1","type":"date","value":"2024-02-29T12:00:00"}"#,
            #"{"col":2,"input":"TRUE","ref":"B1","type":"boolean","value":true}"#,
            #"{"col":2,"input":"","ref":"B1","type":"boolean","value":1}"#,
        ]
        var bytes = lines.map { Array($0.utf8) }
        // Bytes that are not UTF-8: a stray continuation, an overlong form, an encoded surrogate.
        for bad: [UInt8] in [[0xFF], [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            bytes.append(Array(#"{"col":2,"input":"a"#.utf8) + bad + Array(#"","ref":"B1","type":"string","value":"a"}"#.utf8))
        }
        return bytes
    }

    /// A value as text that tells types and number bits apart, for comparing two readings.
    static func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "nil"
        case let text as String: return "text \(text.debugDescription)"
        case let texts as [String]: return "texts \(texts)"
        case let dictionary as [String: Any]:
            return "{" + dictionary.keys.sorted().map { "\($0): \(describe(dictionary[$0]!))" }.joined(separator: ", ") + "}"
        case let array as [Any]: return "[" + array.map { describe($0) }.joined(separator: ", ") + "]"
        case is NSNull: return "null"
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" { return "flag \(number.boolValue)" }
            return "number \(number.doubleValue.bitPattern) int \(String(describing: number as? Int))"
        default: return "other \(value!)"
        }
    }

    @Test func everyReaderAgreesWithTheGeneralParserOrRefuses() throws {
        var accepted = (members: 0, flat: 0, stored: 0, cellObject: 0, history: 0)
        for line in Self.lines {
            let text = String(decoding: line, as: UTF8.self).debugDescription
            let general = JSON.parseObject(line)

            // The members `TypedLine` and `StoredLine.replacingValue` take a line apart into.
            if let members = StoredLine.members(of: line[...]) {
                accepted.members += 1
                let object = try #require(general, "members of a line the general parser refuses: \(text)")
                var last: [String: Range<Int>] = [:]
                for member in members { last[String(decoding: member.key, as: UTF8.self)] = member.value }
                for (key, range) in last where !key.contains("\\") {
                    let alone = JSON.parseObject(Array("{\"v\":".utf8) + line[range] + [UInt8(ascii: "}")])
                    #expect(Self.describe(alone?["v"]) == Self.describe(object[key]), "\(key) of \(text)")
                }
                #expect(Set(last.keys.filter { !$0.contains("\\") }).isSubset(of: Set(object.keys)), "\(text)")
            }

            // A flat object (a stored line without style, a history entry's cell).
            let flat = line.withUnsafeBufferPointer { FlatObject($0) }
            if let flat {
                accepted.flat += 1
                let object = try #require(general, "a flat object the general parser refuses: \(text)")
                #expect(Self.describe(flat.dictionary) == Self.describe(object), "\(text)")
            }

            // A stored cell read the fast way and the general way.
            if let fast = line.withUnsafeBufferPointer({ StoredCell.parsedFlat($0, row: 1) }) {
                accepted.stored += 1
                let slow = try #require(StoredCell(parsing: line, row: 1), "\(text)")
                #expect(fast.column == slow.column && fast.input == slow.input && fast.formula == slow.formula
                        && fast.arrayRange == slow.arrayRange && fast.spill == slow.spill, "\(text)")
                #expect(Self.describe(fast.value) == Self.describe(slow.value), "\(text)")
            }

            // A cell JSONL line.
            if let cell = line.withUnsafeBufferPointer(CellObjectParser.parse) {
                accepted.cellObject += 1
                let bomless = line.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(line.dropFirst(3)) : line
                let object = try #require(JSON.parseObject(bomless), "a cell line the general parser refuses: \(text)")
                for (key, value) in [("ref", cell.ref), ("type", cell.type), ("value", cell.value), ("formula", cell.formula)] {
                    #expect(Self.describe(value) == cellValue(object, key), "\(key) of \(text)")
                }
            }

            // A history entry of a row block: its cells.
            let entry = Array(#"{"cells":["#.utf8) + line + [UInt8(ascii: ",")] + line + Array("]}".utf8)
            if let cells = CellHistory.batchCells(entry) {
                accepted.history += 1
                let object = try #require(JSON.parseObject(entry), "a history entry the general parser refuses: \(text)")
                #expect(Self.describe(cells.map(\.dictionary)) == Self.describe(object["cells"]), "\(text)")
            }
        }
        // Each reader read many lines, so no comparison above is empty.
        #expect(accepted.members > 100 && accepted.flat > 100 && accepted.stored > 50 && accepted.cellObject > 100 && accepted.history > 100,
                "\(accepted)")
    }

    /// A long number is read correctly rounded by every reader (where `JSONSerialization` is
    /// one unit in the last place off for this one, so it is left out of the comparison above).
    @Test func aLongNumberIsReadCorrectlyRounded() throws {
        let line = Array(#"{"col":2,"input":"x","ref":"B1","type":"number","value":0.\#(String(repeating: "1", count: 600))}"#.utf8)
        let flat = try #require(line.withUnsafeBufferPointer { FlatObject($0) })
        guard case .number(let number)? = flat["value"] else { Issue.record("not a number: \(String(describing: flat["value"]))"); return }
        #expect(number.bitPattern == (1.0 / 9).bitPattern)
        let cell = try #require(line.withUnsafeBufferPointer(CellObjectParser.parse))
        #expect(cell.value == .number(1.0 / 9))
    }

    /// A `CellJSONValue` described as `describe` describes the general parser's value.
    private static func describe(_ value: CellJSONValue) -> String {
        switch value {
        case .absent: "nil"
        case .null: "null"
        case .bool(let flag): "flag \(flag)"
        case .number(let number): describe(number: number)
        case .string(let text): "text \(text.debugDescription)"
        case .array: "array"
        case .object: "object"
        }
    }

    /// A number's bits, zero's sign aside: cell JSONL reads a number's text exactly, `-0` as
    /// -0.0, where `JSONSerialization` gives 0 (`CellObjectParserTests` checks that choice).
    private static func describe(number: Double) -> String { "number \(number == 0 ? 0 : number.bitPattern)" }

    /// The general parser's member as a `CellJSONValue` would describe it.
    private func cellValue(_ object: [String: Any], _ key: String) -> String {
        switch object[key] {
        case nil: "nil"
        case is [Any]: "array"
        case is [String: Any]: "object"
        case let number as NSNumber where String(cString: number.objCType) != "c": Self.describe(number: number.doubleValue)
        case let other: Self.describe(other)
        }
    }

    /// A calculated value with its number's bits.
    private static func describe(_ value: CalcValue) -> String {
        if case .number(let number) = value { return "number \(number.bitPattern)" }
        return "\(value)"
    }
}
