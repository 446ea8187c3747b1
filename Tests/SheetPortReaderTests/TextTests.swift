import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader

/// `_xHHHH_` escapes in the text of the parts.
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
