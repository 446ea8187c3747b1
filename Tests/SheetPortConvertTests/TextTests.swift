import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
import SheetPortTestSupport

/// `_xHHHH_` escapes, numbers, JSON strings, CSV and TSV fields, part names and references.
@Suite struct TextTests {
    @Test(arguments: [
        ("a_x000D_b", "a\rb"),
        ("_x0009_", "\t"),
        ("_x005F_x0041_", "_x0041_"),
        ("_x000a_", "\n"),
        ("_x00G1_", "_x00G1_"),
        ("_x41_", "_x41_"),
        ("_xD83D__xDE00_", "😀"),
        ("_xD83D_", "\u{FFFD}"),
        ("plain_text_", "plain_text_"),
    ])
    func decodesEscapes(_ raw: String, _ expected: String) {
        #expect(OOXMLText.decode(Array(raw.utf8)[...]) == expected)
    }

    @Test(arguments: [
        (3.0, "3"), (-0.5, "-0.5"), (0.1, "0.1"), (1e-05, "1e-05"), (0.30000000000000004, "0.30000000000000004"),
        (1e16, "1e+16"), (123456789012.0, "123456789012"), (Double.leastNonzeroMagnitude, "5e-324"),
    ])
    func numbersRoundTrip(_ value: Double, _ text: String) {
        #expect(ValueText.number(value) == text)
        #expect(Double(text) == value)
    }

    @Test func jsonStringsEscapeOnlyWhatTheyMust() {
        var bytes: [UInt8] = []
        JSON.appendQuoted("a\"b\\c\n\t\u{1}/é", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "\"a\\\"b\\\\c\\n\\t\\u0001/é\"")
    }

    @Test func csvQuotingAndPadding() throws {
        let text = try convert(Project.fixture("shared_strings_rich.xlsx"), to: .csv)
        #expect(text.contains("\"line one\nline two\""))
        #expect(text.hasSuffix("\r\n"))
        let tsv = try convert(Project.fixture("shared_strings_rich.xlsx"), to: .tsv)
        #expect(tsv.contains("line one\\nline two"))
        #expect(!tsv.contains("\r"))
    }

    @Test func csvLineNumbersAreRowNumbers() throws {
        let text = try convert(Project.fixture("no_cell_refs.xlsx"), to: .csv)
        let lines = text.components(separatedBy: "\r\n")
        let jsonl = try jsonObjects(convert(Project.fixture("no_cell_refs.xlsx"), to: .jsonl))
        let lastRow = jsonl.compactMap { ($0["ref"] as? String).flatMap(CellReference.init)?.row }.max()
        #expect(lines.count - 1 == lastRow)
    }

    @Test(arguments: [
        ("worksheets/sheet1.xml", "xl/workbook.xml", "xl/worksheets/sheet1.xml"),
        ("/xl/worksheets/sheet1.xml", "xl/workbook.xml", "xl/worksheets/sheet1.xml"),
        ("../media/image1.png", "xl/drawings/drawing1.xml", "xl/media/image1.png"),
        ("xl\\styles.xml", "", "xl/styles.xml"),
        ("sheet%201.xml", "xl/workbook.xml", "xl/sheet 1.xml"),
        ("./a.xml", "b.xml", "a.xml"),
    ])
    func resolvesRelationshipTargets(_ target: String, _ source: String, _ expected: String) {
        #expect(PartName.resolve(target, from: source) == expected)
    }

    @Test func partNames() {
        #expect(PartName.relationshipsPart(of: "xl/workbook.xml") == "xl/_rels/workbook.xml.rels")
        #expect(PartName.relationshipsPart(of: "") == "_rels/.rels")
        #expect(PartName.key("\\XL\\Workbook.xml") == "xl/workbook.xml")
        #expect(PartName.resolve("sheet%201.xml", from: "xl/workbook.xml", decodingPercent: false) == "xl/sheet%201.xml")
    }

    @Test func references() {
        #expect(CellReference("XFD1048576") == CellReference(row: 1_048_576, column: 16_384))
        #expect(CellReference("$B$2") == CellReference(row: 2, column: 2))
        #expect(CellReference("XFE1") == nil)
        #expect(CellReference("A0") == nil)
        #expect(CellReference("A1048577") == nil)
        #expect(CellReference.columnName(28) == "AB")
        #expect(CellRange("C3:A1")?.description == "A1:C3")
        #expect(CellRange("B2")?.rowCount == 1)
    }

    @Test func tintAndPalette() {
        #expect(ColorSpec.apply(tint: 0, to: 0x4472C4) == 0x4472C4)
        #expect(ColorSpec.hex(ColorSpec.apply(tint: -0.5, to: 0xFFFFFF)) == "#808080")
        #expect(ColorSpec.hex(ColorSpec.apply(tint: 1, to: 0x000000)) == "#FFFFFF")
        #expect(ColorSpec.defaultPalette.count == 66)
    }
}

/// Element text is capped, so a hostile part cannot make the reader hold gigabytes.
@Suite struct TextLimitTests {
    @Test func textPastTheLimitIsRefused() throws {
        var collector = TextCollector()
        let chunk = [UInt8](repeating: UInt8(ascii: "7"), count: 1 << 16)
        collector.begin()
        for _ in 0..<(TextCollector.limit >> 16) {
            chunk.withUnsafeBufferPointer { collector.append($0) }
        }
        #expect(throws: Never.self) { var copy = collector; try copy.end() }
        [UInt8(ascii: "7")].withUnsafeBufferPointer { collector.append($0) }
        #expect(throws: TextTooLong.self) { try collector.end() }
        #expect(collector.bytes.count == TextCollector.limit)
    }
}

/// libxml2 as the parts see it: attribute entities, namespaces by URI, refused DTDs.
@Suite struct XMLParserTests {
    final class Recorder: XMLHandler {
        var names: [String] = []
        var attribute: String?
        var text = ""
        func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
            names.append((name.namespace == .spreadsheet ? "main:" : "") + name.localName)
            if let value = attributes.string("name") { attribute = value }
        }
        func endElement(_ name: XMLName) throws {}
        func characters(_ text: UnsafeBufferPointer<UInt8>) { self.text += String(decoding: text, as: UTF8.self) }
    }

    private func parse(_ xml: String, chunk: Int = 7) throws -> Recorder {
        let recorder = Recorder()
        let parser = XMLPushParser(handler: recorder, file: "test.xlsx", part: "xl/test.xml")
        let bytes = Array(xml.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            try bytes[start..<min(start + chunk, bytes.count)].withUnsafeBytes { try parser.feed($0) }
        }
        try parser.finish()
        return recorder
    }

    @Test func attributeEntitiesAreDecoded() throws {
        let recorder = try parse(#"<s name="R&amp;D &lt;x&gt; &#38; &quot;q&quot; &#x41;"/>"#)
        #expect(recorder.attribute == "R&D <x> & \"q\" A")
    }

    @Test func textEntitiesAndCDATAAreText() throws {
        let recorder = try parse("<t>a &amp; b &#60; <![CDATA[<c>]]></t>")
        #expect(recorder.text == "a & b < <c>")
    }

    @Test func namespacesMatchByURINotPrefix() throws {
        let recorder = try parse(#"<x:a xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><b xmlns="http://purl.oclc.org/ooxml/spreadsheetml/main"/><c/></x:a>"#)
        #expect(recorder.names == ["main:a", "main:b", "c"])
    }

    @Test func doctypeIsRefused() {
        #expect {
            _ = try parse(#"<!DOCTYPE a [<!ENTITY x "xxxxxxxx">]><a>&x;</a>"#)
        } throws: { ($0 as? ReaderError)?.code == .forbiddenDTD }
    }

    @Test func malformedXMLNamesThePart() {
        #expect {
            _ = try parse("<a><b></a>")
        } throws: { error in
            guard let error = error as? ReaderError else { return false }
            return error.code == .malformedXML && error.part == "xl/test.xml" && error.file == "test.xlsx"
        }
    }

    @Test func utf16WithBOMIsRead() throws {
        let recorder = Recorder()
        let parser = XMLPushParser(handler: recorder, file: "f", part: "p")
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<?xml version=\"1.0\" encoding=\"UTF-16\"?><t>é</t>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try bytes.withUnsafeBytes { try parser.feed($0) }
        try parser.finish()
        #expect(recorder.text == "é")
    }
}

/// Number parsing agrees with the standard library's correctly rounded conversion.
@Suite struct NumberParsingTests {
    private func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer(ASCII.parseDouble)
    }

    @Test(arguments: ["0", "-0", "1", "42", "0.1", "0.30000000000000004", "123456789012345", "1234567890123456789",
                      "3.14159265358979", "-7.25", " 12 ", "1.5E+3", "1e-05", "2.2250738585072014E-308",
                      "9007199254740993", "0.000000000000000000001", "45322.572916666664", "1.7976931348623157E+308",
                      "00012.5000", "1.", ".5"])
    func matchesStandardLibrary(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        #expect(parse(text) == Double(trimmed), "\(text)")
        if let value = parse(text) { #expect(value.sign == Double(trimmed)!.sign) }
    }

    @Test func randomDecimalsRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF) // finite
            let scaled = (value.truncatingRemainder(dividingBy: 1e9) * 1000).rounded() / 1000
            for text in [value.description, scaled.description, String(Int64(scaled))] {
                #expect(parse(text) == Double(text), "\(text)")
            }
        }
    }

    @Test(arguments: ["", "abc", "1,5", "1.2.3", "--1", "NaN", "inf", "1e999"])
    func rejectsWhatIsNoNumber(_ text: String) {
        #expect(parse(text) == nil)
    }
}
