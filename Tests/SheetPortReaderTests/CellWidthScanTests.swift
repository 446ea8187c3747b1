import Foundation
import Testing
import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport

/// `CellWidthScanner` finds the used range's width from the cells' tags alone: the width a
/// full read finds, on every corpus worksheet, whatever the chunks it is fed are cut into, and
/// on XML that tries to mislead a scanner (comments, CDATA, prefixes, cells without `r`, styled
/// cells with no value, a tag longer than the carry).
@Suite struct CellWidthScanTests {
    /// The width of `xml` scanned in chunks of `size` bytes.
    static func width(_ xml: String, chunk size: Int) -> Int {
        let bytes = Array(xml.utf8)
        var scanner = CellWidthScanner()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            bytes[start..<end].withUnsafeBytes { scanner.scan($0) }
            start = end
        }
        return scanner.finish()
    }

    static func sheet(_ data: String) -> String {
        #"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#
            + #"<dimension ref="A1"/><sheetData>"# + data + "</sheetData></worksheet>"
    }

    @Test(arguments: [
        // A lying dimension; the last value in D.
        (#"<row r="1"><c r="A1"><v>1</v></c><c r="D1" t="s"><v>0</v></c></row>"#, 4),
        // Styled cells with no value after the last value do not widen it (the reader drops them).
        (#"<row r="1"><c r="B1"><v>1</v></c><c r="Z1" s="3"/><c r="Y1" s="2"></c></row>"#, 2),
        // Cells without `r` follow the one before; a formula without a value counts; so does a shared formula's follower.
        (#"<row><c><v>1</v></c><c/><c><f>A1+1</f></c></row><row r="5"><c r="E5"><f t="shared" si="0"/></c></row>"#, 5),
        // A prefixed namespace, an inline string, whitespace and single quotes in attributes.
        (#"<x:row r="2"><x:c r = 'G2' t="inlineStr"><x:is><x:t>a&lt;b</x:t></x:is></x:c></x:row>"#, 7),
        // A comment and CDATA holding cells, a processing instruction, text holding `>`.
        (#"<!-- <c r="ZZ1"><v>1</v></c> --><row r="1"><c r="B1" t="str"><f>A1&gt;0</f><v><![CDATA[<c r="ZZ9"><v>9</v></c>]]></v></c><?pi <c r="ZZ2"><v>1</v></c> ?></row>"#, 2),
        // Values the reader drops: an empty inline string, a `<v>` of spaces, `<v/>`; a `t="str"` value is kept even empty.
        (#"<row r="1"><c r="A1"><v>1</v></c><c r="C1" t="inlineStr"><is><t></t></is></c><c r="D1"><v> </v></c><c r="E1" t="b"><v/></c></row>"#, 1),
        (#"<row r="1"><c r="A1"><v>1</v></c><c r="C1" t="str"><v></v></c></row><row r="2"><c r="B2" t="inlineStr"><is><r><t> </t></r></is></c></row>"#, 3),
        // No cells at all.
        ("", 0),
    ])
    func scannedWidth(data: String, expected: Int) {
        let xml = Self.sheet(data)
        for size in [1, 2, 3, 7, 64, 1 << 16] {
            #expect(Self.width(xml, chunk: size) == expected, "chunks of \(size)")
        }
    }

    /// Cells outside `<sheetData>` (another namespace's `c` in an extension list) do not count.
    @Test func onlyTheSheetDataCounts() {
        let xml = #"<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData>"#
            + #"<extLst><ext><y:c r="Q1"><y:v>1</y:v></y:c></ext></extLst></worksheet>"#
        #expect(Self.width(xml, chunk: 5) == 1)
    }

    /// A tag over the carry's bound is skipped, not held: memory stays bounded.
    @Test func anEndlessTagIsSkipped() {
        let xml = "<worksheet><sheetData><row r=\"1\"><c r=\"C1\"><v>1</v></c><c r=\"A1\" x=\""
            + String(repeating: "a", count: CellWidthScanner.maxTagLength + 10) + "\"><v>2</v></c></row></sheetData></worksheet>"
        #expect(Self.width(xml, chunk: 1 << 16) == 3)
    }

    /// On every corpus worksheet that reads, the scan's width is the full read's.
    @Test func agreesWithTheFullReadOnTheCorpus() throws {
        var compared = 0
        var unreadable = 0 // UTF-16 parts, read in full instead
        for name in Project.corpusFiles() where name.hasSuffix(".xlsx") || name.hasSuffix(".xlsm") {
            guard let workbook = try? Workbook(path: Project.corpus.appendingPathComponent(name).path) else { continue }
            for sheet in workbook.sheets where sheet.kind == .worksheet {
                guard let used = try? workbook.usedRange(of: sheet) else { continue }
                guard let scanned = try workbook.usedWidth(of: sheet) else { unreadable += 1; continue }
                #expect(scanned == used.columns, "\(name) \(sheet.name)")
                compared += 1
            }
        }
        #expect(compared > 100)
        #expect(unreadable < 5)
    }

    /// A UTF-16 part is not scanned: the caller reads it in full.
    @Test func aUTF16PartIsNotScanned() {
        var scanner = CellWidthScanner()
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("<c r=\"B1\"><v>1</v></c>".utf8).flatMap { [$0, 0] }
        bytes.withUnsafeBytes { scanner.scan($0) }
        #expect(!scanner.isReadable)
    }
}
