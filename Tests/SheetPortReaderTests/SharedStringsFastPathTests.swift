import Foundation
import Testing
@testable import SheetPortReader
import SheetPortTestSupport
@testable import SheetPortCore

/// The shared-string table read by the worksheet fast path (`WorksheetTokenizer` driving
/// `SharedStringsPart`) against libxml2: the same table, or the same error, on every corpus
/// file, fixture and hostile table.
@Suite struct SharedStringsFastPathTests {
    private static func reading(_ workbook: Workbook, _ engine: WorksheetReader.Engine) -> String {
        do { return String(describing: try workbook.sharedStrings(engine: engine)) } catch { return "error: \(error)" }
    }

    private static func expectSame(_ workbook: Workbook, _ label: String) {
        let fast = reading(workbook, .automatic), reference = reading(workbook, .libxml2)
        #expect(fast == reference, "\(label): the fast path's table differs from libxml2's")
    }

    @Test(arguments: Project.corpusFiles())
    func corpusTablesReadTheSame(_ name: String) throws {
        let workbook: Workbook
        do {
            workbook = try Workbook(path: Project.corpus.appendingPathComponent(name).path)
        } catch {
            // Only a known-bad file may fail to open, and with its own code; any other fails
            // here rather than passing with nothing compared.
            let expected = try #require(Project.expectedCorpusErrors[name], "\(name) does not open: \(error)")
            #expect((error as? ReaderError)?.code == expected, "\(name): \(error)")
            return
        }
        Self.expectSame(workbook, name)
    }

    @Test func fixtureTablesReadTheSame() throws {
        var count = 0
        for folder in ["reader", "producers", "hostile", "heldout"] {
            let url = Project.root.appendingPathComponent("Fixtures/\(folder)")
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            for name in names.sorted() where name.hasSuffix(".xlsx") || name.hasSuffix(".xlsm") {
                // Only the hostile and held-out folders hold workbooks made not to open.
                guard let workbook = try? Workbook(path: url.appendingPathComponent(name).path) else {
                    #expect(["hostile", "heldout"].contains(folder), "\(folder)/\(name) does not open")
                    continue
                }
                Self.expectSame(workbook, "\(folder)/\(name)")
                count += 1
            }
        }
        #expect(count >= 20)
    }

    @Test(arguments: [
        // Plain, rich with phonetic runs, escapes, spaces, an empty item, references.
        "<sst xmlns=\"M\"><si><t>a</t></si><si><r><rPr><b/></rPr><t>b</t></r><r><t xml:space=\"preserve\"> c </t></r><rPh><t>x</t></rPh></si><si><t/></si></sst>",
        "<sst xmlns=\"M\"><si><t>_x000D_ _x005F_x0041_ &amp;&lt;&#65;&#x1F600;</t></si></sst>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<sst xmlns=\"M\" count=\"1\"><si><t>é€😀</t></si></sst>",
        // What the fast path hands over: a DOCTYPE, an entity, CR, another encoding, prefixes.
        "<!DOCTYPE sst [<!ENTITY e \"boom\">]><sst xmlns=\"M\"><si><t>&e;</t></si></sst>",
        "<sst xmlns=\"M\"><si><t>&e;</t></si></sst>",
        "<sst xmlns=\"M\"><si><t>a\r\nb</t></si></sst>",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><sst xmlns=\"M\"><si><t>\u{E9}</t></si></sst>",
        "<x:sst xmlns:x=\"M\"><x:si><x:t>p</x:t></x:si></x:sst>",
        // Malformed: unclosed, mismatched, two roots, text after the root, NUL, bad UTF-8 below.
        "<sst xmlns=\"M\"><si><t>a</si></sst>",
        "<sst xmlns=\"M\"><si><t>a</t></si>",
        "<sst xmlns=\"M\"/><sst/>",
        "<sst xmlns=\"M\"/>text",
        "<sst xmlns=\"M\"><si><t>a\u{0}b</t></si></sst>",
        "",
    ])
    func hostileTablesReadTheSame(_ xml: String) throws {
        let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
        var bytes = Array(xml.replacingOccurrences(of: "\"M\"", with: "\"\(main)\"").utf8)
        if xml.contains("ISO-8859-1") { bytes = bytes.map { $0 == 0xC3 ? 0xE9 : $0 }.filter { $0 != 0xA9 } }
        let sheet = Array("<worksheet xmlns=\"\(main)\"><sheetData/></worksheet>".utf8)
        let workbook = try Workbook(bytes: StoredZip.workbook(sheetXML: sheet, sharedStringsXML: bytes), name: "sst.xlsx")
        Self.expectSame(workbook, xml)
    }

    @Test func invalidUTF8AndTheTextLimitReadTheSame() throws {
        let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
        let sheet = Array("<worksheet xmlns=\"\(main)\"><sheetData/></worksheet>".utf8)
        let invalid = Array("<sst xmlns=\"\(main)\"><si><t>a".utf8) + [0xFF, 0xC3] + Array("</t></si></sst>".utf8)
        Self.expectSame(try Workbook(bytes: StoredZip.workbook(sheetXML: sheet, sharedStringsXML: invalid), name: "utf8.xlsx"), "invalid UTF-8")
        let big = "<sst xmlns=\"\(main)\">" + String(repeating: "<si><t>" + String(repeating: "x", count: 1_000) + "</t></si>", count: 2_000) + "</sst>"
        var limits = ArchiveLimits()
        limits.maxTextSize = 1_000_000
        let workbook = try Workbook(bytes: StoredZip.workbook(sheetXML: sheet, sharedStringsXML: Array(big.utf8)), name: "big.xlsx", limits: limits)
        Self.expectSame(workbook, "over the text limit")
        #expect(Self.reading(workbook, .automatic).contains("--max-text-size"))
    }
}
