import Foundation
import Testing
@testable import SheetPortReader
@testable import SheetPortWriter
import SheetPortBench
import SheetPortTestSupport
@testable import SheetPortCore

/// The worksheet fast path (`WorksheetTokenizer`) against libxml2, the reference: identical
/// rows, metadata and errors on every corpus file, fixture and mutated worksheet, and a
/// hand-over wherever the fast path does not decide itself.
@Suite struct FastPathTests {
    /// Both engines on every worksheet of the workbook at `path`; the readings of the fast path.
    @discardableResult
    private func compare(_ workbook: Workbook, _ label: String) -> [WorksheetReading] {
        var readings: [WorksheetReading] = []
        for sheet in workbook.sheets where sheet.kind == .worksheet {
            let fast = WorksheetReading(sheet, of: workbook, engine: .automatic)
            let reference = WorksheetReading(sheet, of: workbook, engine: .libxml2)
            #expect(fast == reference, "\(label), sheet \(sheet.name): the fast path differs from libxml2")
            if fast != reference {
                #expect(fast.error == reference.error)
                #expect(fast.rows.count == reference.rows.count)
                #expect(fast.metadata == reference.metadata)
                for (left, right) in zip(fast.rows, reference.rows) where left != right {
                    Issue.record("first different row: fast \(left) libxml2 \(right)")
                    break
                }
            }
            readings.append(fast)
        }
        return readings
    }

    private func workbook(_ xml: String) throws -> Workbook {
        try Workbook(bytes: StoredZip.workbook(sheetXML: Array(xml.utf8)), name: "fast.xlsx")
    }

    // The known-bad files are CorpusTests' (their codes); any other that does not open fails
    // here, rather than passing with nothing compared.
    @Test(arguments: Project.corpusFiles().filter { Project.expectedCorpusErrors[$0] == nil })
    func corpusFileReadsTheSame(_ name: String) throws {
        compare(try Workbook(path: Project.corpus.appendingPathComponent(name).path), name)
    }

    @Test func fixturesReadTheSame() throws {
        let folders = ["reader", "producers", "hostile", "fuzz-regressions"]
        var count = 0
        for folder in folders {
            let url = Project.root.appendingPathComponent("Fixtures/\(folder)")
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            where name.hasSuffix(".xlsx") || name.hasSuffix(".xlsm") {
                guard let workbook = try? Workbook(path: url.appendingPathComponent(name).path) else { continue }
                compare(workbook, "\(folder)/\(name)")
                count += 1
            }
        }
        #expect(count >= 20)
    }

    /// Worksheet parts the differential fuzz target found read differently, kept as libFuzzer
    /// wrote them (`*.worksheet.xml`) and wrapped in a workbook here.
    @Test func fuzzRegressionWorksheetsReadTheSame() throws {
        let folder = Project.root.appendingPathComponent("Fixtures/fuzz-regressions")
        var count = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".worksheet.xml") {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            compare(try Workbook(bytes: StoredZip.workbook(sheetXML: bytes), name: name), name)
            count += 1
        }
        #expect(count >= 1)
    }

    /// An error after some rows: both engines return the rows completed before it, then the
    /// error (libxml2 used to drop the rows of the event buffer the error was in, so the fast
    /// path, which had returned a batch before handing over, read differently).
    @Test func rowsBeforeAnErrorComeFirstOnBothEngines() throws {
        var xml = #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#
        for row in 1...300 { xml += #"<row r="\#(row)"><c r="A\#(row)"><v>\#(row)</v></c></row>"# }
        xml += #"<row r="301"><c r="A345C1261"><v>1</v></c></row></sheetData></worksheet>"#
        let book = try workbook(xml)
        let readings = compare(book, "rows then an error")
        #expect(readings.first?.rows.count == 300)
        #expect(readings.first?.error?.contains("is not a cell reference") == true, "\(readings.first?.error ?? "no error")")
        let reference = WorksheetReading(try #require(book.firstWorksheet), of: book, engine: .libxml2)
        #expect(reference.rows.count == 300)
    }

    /// Worksheets the fast path must read itself, each with the grammar it handles.
    static let seeds: [String] = [
        // Strict OOXML with a prefix, an XML declaration, shared strings, formulas, metadata.
        #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#
            + #"<x:worksheet xmlns:x="http://purl.oclc.org/ooxml/spreadsheetml/main" xmlns:r="http://purl.oclc.org/ooxml/officeDocument/relationships">"#
            + #"<x:dimension ref="A1:C3"/><x:sheetFormatPr defaultRowHeight="15"/><x:cols><x:col min="1" max="2" width="12.5" hidden="1"/></x:cols>"#
            + #"<x:sheetData><x:row r="1" ht="20" customHeight="1" hidden="1"><x:c r="A1" t="s"><x:v>1</x:v></x:c><x:c r="B1" s="0"><x:v>2.5</x:v></x:c>"#
            + #"<x:c r="C1"><x:f t="shared" ref="C1:C3" si="0">A1&amp;B1</x:f><x:v>x</x:v></x:c></x:row>"#
            + #"<x:row r="2"><x:c r="C2"><x:f t="shared" si="0"/></x:c><x:c r="D2" t="b"><x:v>1</x:v></x:c><x:c r="E2" t="e"><x:v>#N/A</x:v></x:c></x:row>"#
            + #"<x:row r="3"><x:c r="A3" t="inlineStr"><x:is><x:r><x:t xml:space="preserve"> a&lt;b </x:t></x:r><x:rPh><x:t>p</x:t></x:rPh></x:is></x:c>"#
            + #"<x:c r="B3" t="str"><x:f>"q"</x:f><x:v>q&#10;r&#x1F600;_x000D_</x:v></x:c><x:c r="C3" t="d"><x:v>2024-01-02T03:04:05</x:v></x:c></x:row></x:sheetData>"#
            + #"<x:mergeCells count="1"><x:mergeCell ref="A1:B1"/></x:mergeCells><x:hyperlinks><x:hyperlink ref="A3" r:id="rId9"/></x:hyperlinks>"#
            + #"<x:drawing r:id="rId3"/></x:worksheet>"#,
        // Transitional, default namespace, comments, a processing instruction, CDATA, white
        // space, UTF-8 text, rows and cells without references, an array formula.
        "\u{FEFF}<!-- made by hand --><?producer test?>\n<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">\n"
            + "<sheetData>\n  <row>\n    <c t=\"inlineStr\"><is><t><![CDATA[<b>&amp;</b>]]>é€😀</t></is></c><c><v> 42 </v></c>\n  </row>\n"
            + "  <row r=\"7\" spans=\"1:3\"><!-- c --><c r=\"C7\"><f t=\"array\" ref=\"C7:C8\">SUM(A1:B2)</f><v>3</v></c><?pi x?></row>"
            + "<row r='8'><c r='A8' t='s'><v>0</v></c><c r='B8' t='s'><v>99</v></c></row></sheetData><sheetProtection sheet='1'/>"
            + "<mc:AlternateContent xmlns:mc=\"http://schemas.openxmlformats.org/markup-compatibility/2006\"><mc:Choice Requires=\"x14\"/></mc:AlternateContent>"
            + "</worksheet>\n<!-- after -->\n",
        // No namespace at all, single quotes, empty elements.
        "<worksheet><sheetData><row r=\"1\"/><row r=\"2\"><c r=\"A2\"/><c r=\"B2\" t=\"s\"/><c r=\"C2\"><v/></c><c r=\"D2\"><v>1e3</v></c></row></sheetData></worksheet>",
    ]

    @Test func seedsAreReadByTheFastPathItself() throws {
        for (index, seed) in Self.seeds.enumerated() {
            let readings = compare(try workbook(seed), "seed \(index)")
            #expect(readings.count == 1)
            #expect(readings.first?.handedOver == false, "seed \(index) was handed over")
            #expect(readings.first?.error == nil, "seed \(index): \(readings.first?.error ?? "")")
            #expect((readings.first?.rows.count ?? 0) >= 2)
        }
    }

    /// What the fast path hands over, with the same outcome as libxml2's.
    @Test(arguments: [
        ("<!DOCTYPE worksheet [<!ENTITY x \"y\">]><worksheet><sheetData/></worksheet>", "forbiddenDTD"),
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><worksheet><sheetData><row><c t=\"inlineStr\"><is><t>\u{E9}</t></is></c></row></sheetData></worksheet>", nil),
        ("<worksheet><sheetData><row><c><v>&unknown;</v></c></row></sheetData></worksheet>", "malformedXML"),
        ("<worksheet><sheetData><row><c><v>1</v></c></row></sheetData>", "malformedXML"),
        ("<worksheet><sheetData><row><c><v>1</c></v></row></sheetData></worksheet>", "malformedXML"),
        ("<worksheet><sheetData><row r=\"x\"><c><v>1</v></c></row></sheetData></worksheet>", "malformedXML"),
        ("<worksheet><sheetData><row r=\"1\"><c r=\"A1\" r=\"B1\"><v>1</v></c></row></sheetData></worksheet>", "malformedXML"),
        ("<worksheet><sheetData><row><c><v>a\rb</v></c></row></sheetData></worksheet>", nil),
        ("<worksheet><sheetData><row><c><v>a\u{1}b</v></c></row></sheetData></worksheet>", "malformedXML"),
        ("<y:worksheet><sheetData/></y:worksheet>", nil),
        ("<worksheet><sheetData><row><c r=\"A1\" t=\"inlineStr\"><is><t>a&amp;b</t></is></c><c r=\"XFE1\"/></row></sheetData></worksheet>", "exceedsLimit"),
        ("<worksheet><sheetData><row r=\"-1\"><c><v>1</v></c></row></sheetData></worksheet>", "exceedsLimit"),
        ("<worksheet><sheetData><row r=\"99999999999999999999999\"><c><v>1</v></c></row></sheetData></worksheet>", "malformedXML"),
        ("<worksheet><sheetData><row><c><v>1\u{0}2</v></c></row></sheetData></worksheet>", "malformedXML"),
        ("<worksheet><sheetData><row><c a=\"x\ty\"><v>1</v></c></row></sheetData></worksheet>", nil),
        ("<worksheet><sheetData><row><c><v>1</v></c></row></sheetData></worksheet><worksheet/>", "malformedXML"),
        ("<worksheet><sheetData><row><c" + (0..<65).map { " a\($0)=\"1\"" }.joined() + "><v>1</v></c></row></sheetData></worksheet>", nil),
        ("<worksheet><sheetData>" + String(repeating: "<x>", count: 200) + String(repeating: "</x>", count: 200) + "</sheetData></worksheet>", nil),
        ("<worksheet><sheetData><row><c><v>1</v></c></row></sheetData><!--" + String(repeating: "-x", count: 3 << 20) + "--></worksheet>", nil),
        ("", "malformedXML"),
        ("\u{FEFF}\u{FEFF}<worksheet/>", "malformedXML"),
    ] as [(String, String?)])
    func handsOverAndMatches(_ xml: String, _ code: String?) throws {
        let readings = compare(try workbook(xml), xml)
        #expect(readings.first?.handedOver == true)
        if let code { #expect(readings.first?.error?.hasPrefix(code) == true, "\(readings.first?.error ?? "no error")") }
    }

    /// Errors come after the rows before them, on both paths: the fast path hands over and
    /// libxml2 skips the rows already returned.
    @Test func aLateErrorComesAfterTheSameRows() throws {
        var xml = #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#
        for row in 1...20_000 { xml += #"<row r="\#(row)"><c r="A\#(row)"><v>\#(row)</v></c></row>"# }
        xml += #"<row r="20001"><c r="A20001"><v>1</v></c></rowx></sheetData></worksheet>"#
        let readings = compare(try workbook(xml), "late error")
        #expect(readings.first?.rows.count == 20_000)
        #expect(readings.first?.handedOver == true)
        #expect(readings.first?.error?.hasPrefix("malformedXML") == true)
    }

    /// Mutated seeds (bytes changed, cut, repeated, and tokens the grammar knows inserted):
    /// both engines agree on every one, and both paths are taken.
    @Test func mutatedWorksheetsReadTheSame() throws {
        let snippets = ["&amp;", "&#65;", "&#x1F600;", "&#0;", "&#xFFFE;", "&bogus;", "<!--c-->", "<!-- - -->", "<![CDATA[x<y]]>",
                        "<?pi d?>", "<?xml version=\"1.0\"?>", "<!DOCTYPE x>", "\r\n", "é", "\u{FFFE}", "\u{85}", "x:", " xmlns:x=\"urn:x\"",
                        " xmlns=\"\"", " a=\"1\"", " r=\"B9\"", " t=\"s\"", "</c>", "<c>", "<v>1</v>", "]]>", "<row>", "</row>",
                        "<f t=\"shared\" si=\"0\"/>", "\t", "'", "\"", "<", ">", "&", "/", "=", "\0"]
        var generator = SeededGenerator(state: 16) // the same mutations on every run
        var fast = 0, handedOver = 0
        for round in 0..<400 {
            var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
            for _ in 0..<(1 + Int(generator.next() % 2)) {
                let at = Int(generator.next() % UInt64(bytes.count + 1))
                switch generator.next() % 5 {
                case 0: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: generator.next()) }
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(generator.next() % 8)))
                case 2: bytes.insert(contentsOf: Array(snippets[Int(generator.next() % UInt64(snippets.count))].utf8), at: at)
                case 3: if generator.next() % 4 == 0 { bytes.removeSubrange(at...) }
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + Int(generator.next() % 40))], at: at)
                }
            }
            guard let workbook = try? Workbook(bytes: StoredZip.workbook(sheetXML: bytes), name: "mutation-\(round).xlsx") else { continue }
            for reading in compare(workbook, "mutation \(round): \(String(decoding: bytes, as: UTF8.self).debugDescription)") {
                if reading.handedOver { handedOver += 1 } else { fast += 1 }
            }
        }
        print("fast path: \(fast) mutated worksheets read by the fast path, \(handedOver) handed over to libxml2")
        #expect(fast >= 40)
        #expect(handedOver >= 100)
    }

    /// A big worksheet: many tokenizer refills, and the rows match libxml2's one for one.
    @Test func aBenchmarkSheetReadsTheSame() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bench.xlsx").path
        let writer = try WorkbookWriter(path: path)
        try SyntheticSheet(rows: 30_000).write(into: writer)
        try writer.close()
        let readings = compare(try Workbook(path: path), "bench")
        #expect(readings.first?.rows.count == 30_001)
        #expect(readings.first?.handedOver == false)
    }
}
