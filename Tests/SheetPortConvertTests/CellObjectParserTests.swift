import Testing
@testable import SheetPortCore
@testable import SheetPortConvert
import SheetPortTestSupport

/// `CellObjectParser` behind `CellJSONLReader`: differential against the reader it replaced
/// (`JSONSerialization`), hostile lines, and the choices it makes on purpose.
@Suite struct CellObjectParserTests {
    /// What reading `text` gives: each cell with its exact number bits, or the error.
    static func outcome(_ text: String, legacy: Bool) -> String {
        outcome(Array(text.utf8), legacy: legacy)
    }

    /// What reading `bytes` gives.
    static func outcome(_ bytes: [UInt8], legacy: Bool) -> String {
        let input = ByteInput(bytes: bytes, name: "cells.jsonl")
        var lines: [String] = []
        do {
            if legacy {
                var reader = try JSONSerializationCellReader(input: input)
                while let (row, styles) = try reader.nextRow() { lines.append(describe(row, styles)) }
            } else {
                var reader = try CellJSONLReader(input: input)
                while let (row, styles) = try reader.nextRow() { lines.append(describe(row, styles)) }
            }
        } catch {
            lines.append("error: \(error)")
        }
        return lines.joined(separator: "\n")
    }

    private static func describe(_ row: Row, _ styles: [CellStyle?]) -> String {
        zip(row.cells, styles).map { cell, style in
            let value: String
            switch cell.value {
            case .number(let number): value = "number \(number) bits \(number.bitPattern)"
            case .date(let serial): value = "date \(serial) bits \(serial.bitPattern)"
            case .duration(let days): value = "duration \(days) bits \(days.bitPattern)"
            default: value = "\(cell.value)"
            }
            return "row \(row.index) col \(cell.column) \(value) formula \(cell.formula.debugDescription) "
                + "\(cell.formulaKind) style \(style.map { "\($0)" } ?? "plain")"
        }.joined(separator: "; ")
    }

    @Test func agreesWithJSONSerializationOnGeneratedCells() {
        var generator = CellJSONGenerator(seed: 14)
        var mismatches: [String] = []
        var read = 0, refused = 0
        for _ in 0..<20_000 {
            let line = generator.line()
            let expected = Self.outcome(line, legacy: true)
            let actual = Self.outcome(line, legacy: false)
            if expected != actual { mismatches.append("\(line)\n  JSONSerialization: \(expected)\n  parser: \(actual)") }
            if actual.hasPrefix("error:") { refused += 1 } else { read += 1 }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, first: \(mismatches.prefix(5).joined(separator: "\n"))")
        // Both kinds of line are common, so neither half of the comparison is empty.
        #expect(read > 5_000 && refused > 2_000, "read \(read), refused \(refused)")
    }

    @Test func agreesWithJSONSerializationOnMutatedLines() {
        var generator = CellJSONGenerator(seed: 2026)
        var mismatches: [String] = []
        var compared = 0
        for _ in 0..<20_000 {
            var bytes = Array(generator.line().utf8)
            for _ in 0..<generator.int(1...3) where !bytes.isEmpty {
                let at = generator.int(0...(bytes.count - 1))
                switch generator.int(0...2) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes.remove(at: at)
                default: bytes.insert(generator.pick(Array("{}[]\",:\\-.0e ntf".utf8)), at: at)
                }
            }
            bytes.removeAll { $0 == 0x0A }
            // JSONSerialization takes trailing commas, and reads text with zero bytes as UTF-16.
            let squeezed = bytes.filter { !ASCII.isSpace($0) }
            let trailingComma = squeezed.indices.dropLast().contains { index in
                squeezed[index] == UInt8(ascii: ",")
                    && (squeezed[index + 1] == UInt8(ascii: "}") || squeezed[index + 1] == UInt8(ascii: "]"))
            }
            if bytes.contains(0) || trailingComma { continue }
            let expected = Self.outcome(bytes, legacy: true)
            let actual = Self.outcome(bytes, legacy: false)
            if expected != actual {
                mismatches.append("\(String(decoding: bytes, as: UTF8.self))\n  JSONSerialization: \(expected)\n  parser: \(actual)")
            }
            compared += 1
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, first: \(mismatches.prefix(5).joined(separator: "\n"))")
        #expect(compared > 15_000)
    }

    @Test(arguments: CellJSONGenerator.edgeNumbers + ["1e-320", "2.5e-310", "0.000001", "1e22", "1e23", "8.98846567431158e307"])
    func readsNumbersExactly(_ text: String) {
        let line = "{\"ref\":\"A1\",\"type\":\"number\",\"value\":\(text)}"
        let actual = Self.outcome(line, legacy: false)
        #expect(actual == Self.outcome(line, legacy: true))
        let expected = Double(text)!
        #expect(actual.contains("bits \(expected.bitPattern) "), "\(actual)")
    }

    @Test func decodesEveryEscape() throws {
        let line = #"{"ref":"A1","type":"string","value":"\"\\\/\b\f\n\r\t\u0000\u00e9\u00E9\u4E2D\ud83d\ude00\uD83D\uDE00é😀"}"#
        var reader = try CellJSONLReader(input: ByteInput(bytes: Array(line.utf8), name: "cells.jsonl"))
        let value = try #require(try reader.nextRow()).row.cells[0].value
        #expect(value == .string("\"\\/\u{8}\u{C}\n\r\t\u{0}éé中😀😀é😀"))
        #expect(Self.outcome(line, legacy: false) == Self.outcome(line, legacy: true))
    }

    /// Lines that are not one JSON object: each is refused with the line's number, never a crash.
    static let hostileLines: [String] = [
        "not json", "{", "}", "{\"ref\":\"A1\"", "{\"ref\":\"A1\",", "{\"ref\"}", "{\"ref\":}", "{\"ref\" \"A1\"}",
        "{\"ref\":\"A1\"} x", "{\"ref\":\"A1\"}{}", "{\"ref\":\"A1\"}]", "[]", "[{\"ref\":\"A1\"}]", "\"A1\"", "1", "null",
        "{'ref':'A1'}", "{ref:\"A1\"}", "{\"ref\":\"A1\",}", "{,\"ref\":\"A1\"}", "{\"a\":[1,]}", "{\"a\":[,1]}", "{\"a\":{\"b\":1,}}",
        "{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":-Infinity}", "{\"a\":nan}", "{\"a\":01}", "{\"a\":-01}", "{\"a\":00}",
        "{\"a\":1.}", "{\"a\":.5}", "{\"a\":-}", "{\"a\":+1}", "{\"a\":1e}", "{\"a\":1e+}", "{\"a\":1.e5}", "{\"a\":0x10}",
        "{\"a\":1e400}", "{\"a\":-1e400}", "{\"value\":1e309,\"ref\":\"A1\",\"type\":\"number\"}",
        "{\"a\":tru}", "{\"a\":True}", "{\"a\":nul}", "{\"a\":undefined}", "{\"a\":truex}", "{\"a\":bare}",
        "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12G4\"}", "{\"a\":\"\\U0041\"}", "{\"a\":\"\\'\"}", "{\"a\":\"\\\"}",
        "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800x\"}", "{\"a\":\"\\ud800\\u0041\"}", "{\"a\":\"\\ud800\\ud800\"}",
        "{\"a\":\"tab\there\"}", "{\"a\":\"\u{01}\"}", "{\"a\":\"\u{1F}\"}", "{\"a\":\"open}", "{\"a\u{0}\":1}",
        "{\"a\":1}\u{0B}", "{\"a\":1}\u{0C}", "\u{A0}{\"a\":1}", "{\"a\":1 2}", "{\"a\" : [1 2]}", "{\"a\":{\"b\"}}",
        "{\"a\":[}", "{\"a\":{]}", "{\"a\":[1}", "{\"a\":{\"b\":1]}", "{\"style\":{\"bold\":true,}}", "{\"style\":{\"bold\"}}",
        String(repeating: "[", count: 10_000), "{\"a\":" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}",
        "{\"a\":" + String(repeating: "{\"a\":", count: 10_000) + "1" + String(repeating: "}", count: 10_001),
        "{\"style\":" + String(repeating: "[", count: 100_000),
        "{\"a\":1e" + String(repeating: "9", count: 600) + "}",
    ]

    @Test(arguments: hostileLines)
    func refusesHostileLines(_ line: String) {
        let text = "{\"ref\":\"A1\",\"type\":\"number\",\"value\":1}\n" + line + "\n"
        #expect(Self.outcome(text, legacy: false).hasSuffix("error: cells.jsonl: line 2: not a JSON object"))
    }

    @Test func refusesInvalidUTF8() {
        let prefix = Array("{\"ref\":\"A1\",\"type\":\"string\",\"value\":\"".utf8), suffix = Array("\"}".utf8)
        let sequences: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xC3], [0xC3, 0x41], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
                                    [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98], [0x80], [0xF5, 0x80, 0x80, 0x80]]
        for sequence in sequences {
            #expect(Self.outcome(prefix + sequence + suffix, legacy: false) == "error: cells.jsonl: line 1: not a JSON object")
            #expect(Self.outcome(Array("{\"".utf8) + sequence + Array("\":1}".utf8), legacy: false)
                    == "error: cells.jsonl: line 1: not a JSON object")
        }
    }

    @Test func refusesEveryTruncationOfACell() {
        let line = #"{"col":2,"input":"=A2*2","ref":"B2","type":"number","value":-1.5e-3,"formula":"IF(A2=\"x\",1,2)","style":{"bold":true,"numFmt":"0.00","x":[null,{"y":false}]}}"#
        #expect(!Self.outcome(line, legacy: false).hasPrefix("error"))
        let bytes = Array(line.utf8)
        for count in 1..<bytes.count {
            #expect(Self.outcome(Array(bytes[..<count]), legacy: false) == "error: cells.jsonl: line 1: not a JSON object",
                    "\(String(decoding: bytes[..<count], as: UTF8.self))")
        }
    }

    @Test func nestsAsDeepAsJSONSerialization() {
        for depth in [1, 63, 64, 510, 511, 512, 513] {
            let line = "{\"ref\":\"A1\",\"type\":\"empty\",\"formula\":\"NOW()\",\"x\":"
                + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
            let actual = Self.outcome(line, legacy: false)
            #expect(actual == Self.outcome(line, legacy: true), "depth \(depth)")
            #expect(actual.hasPrefix("error") == (depth >= 512), "depth \(depth)")
        }
    }

    @Test func keepsTheLastOfADuplicateKey() {
        let line = #"{"ref":"A1","type":"string","value":1,"value":2,"ref":"B3","type":"number","style":{"bold":true},"style":{"italic":true}}"#
        #expect(Self.outcome(line, legacy: false)
                == "row 3 col 2 number 2.0 bits \(2.0.bitPattern) formula nil normal style \(CellStyle(isItalic: true))")
    }

    @Test func takesJSONSerializationsLooseBooleansAndNumbers() {
        // A boolean cell or style flag takes 0 and 1; a number cell takes true and false.
        for (value, expected) in [("1", "true"), ("0.0", "false"), ("-0", "false"), ("1e0", "true")] {
            let line = "{\"ref\":\"A1\",\"type\":\"boolean\",\"value\":\(value),\"style\":{\"bold\":\(value)}}"
            let actual = Self.outcome(line, legacy: false)
            #expect(actual == Self.outcome(line, legacy: true))
            #expect(actual.contains("boolean(\(expected))"), "\(actual)")
        }
        let number = "{\"ref\":\"A1\",\"type\":\"number\",\"value\":true}"
        #expect(Self.outcome(number, legacy: false) == Self.outcome(number, legacy: true))
        #expect(Self.outcome(number, legacy: false).contains("number 1.0"))
        let two = "{\"ref\":\"A1\",\"type\":\"boolean\",\"value\":2}"
        #expect(Self.outcome(two, legacy: false) == "error: cells.jsonl: line 1: a boolean cell needs true or false")
    }

    @Test func keepsEveryZeroWidthNoBreakSpace() {
        // JSONSerialization dropped a U+FEFF that opened a string or followed an escape.
        let line = "{\"ref\":\"A1\",\"type\":\"string\",\"value\":\"\u{FEFF}a\\n\u{FEFF}b\u{FEFF}\\u00e9\u{FEFF}\"}"
        #expect(Self.outcome(line, legacy: false).contains("string(\"\u{FEFF}a\\n\u{FEFF}b\u{FEFF}é\u{FEFF}\")"),
                "\(Self.outcome(line, legacy: false))")
        #expect(Self.outcome(line, legacy: true).contains("string(\"a\\nb\u{FEFF}é\")"), "\(Self.outcome(line, legacy: true))")
    }

    @Test(arguments: ["0.30000000000000004", "-451346011692687230e-106", "347528180523892.2330419989631590769"])
    func readsTheNumberOfAnEscapedValueKeyExactly(_ text: String) {
        // JSONSerialization's reader re-read only a plainly spelled `value` exactly.
        let line = "{\"ref\":\"A1\",\"type\":\"number\",\"v\\u0061lue\":\(text)}"
        #expect(Self.outcome(line, legacy: false).contains("bits \(Double(text)!.bitPattern) "), "\(Self.outcome(line, legacy: false))")
    }

    @Test func acceptsAByteOrderMarkOnAnyLine() {
        let text = "{\"ref\":\"A1\",\"type\":\"number\",\"value\":1}\n\u{FEFF}{\"ref\":\"B1\",\"type\":\"number\",\"value\":2}\n"
        #expect(Self.outcome(text, legacy: false) == Self.outcome(text, legacy: true))
        #expect(!Self.outcome(text, legacy: false).contains("error"))
    }
}
