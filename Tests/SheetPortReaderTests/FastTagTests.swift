import Testing
@testable import SheetPortReader
import SheetPortTestSupport

/// The fast tags of `WorksheetTokenizer` (plain text, short end tags, prefix-free start tags) at
/// their edges: every worksheet reads as libxml2 reads it, what the fast path reads itself stays
/// with it (a fast tag declining falls back to the general path, not to libxml2), and what libxml2
/// must decide is handed over.
@Suite struct FastTagTests {
    private static let head = #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#
    private static let tail = "</sheetData></worksheet>"

    /// The fast path's reading of `bytes`, checked against libxml2's.
    @discardableResult
    private func compare(_ bytes: [UInt8], _ label: String) throws -> WorksheetReading {
        let workbook = try Workbook(bytes: StoredZip.workbook(sheetXML: bytes), name: "fast-tags.xlsx")
        let sheet = try #require(workbook.firstWorksheet)
        let fast = WorksheetReading(sheet, of: workbook, engine: .automatic)
        let reference = WorksheetReading(sheet, of: workbook, engine: .libxml2)
        #expect(fast == reference, "\(label): the fast path reads \(fast.rows.count) rows, \(fast.error ?? "no error"); libxml2 \(reference.rows.count), \(reference.error ?? "no error")")
        return fast
    }

    /// Tags near the fast tags' limits, which the tokenizer still reads itself: white space
    /// around `=` and before `>`, 8 and 9 attributes, names of 7 and 8 bytes, a namespace
    /// declared and undone on a short element, single quotes and the other quote in a value,
    /// attribute names alike but distinct, empty and self-closing elements, tab and line feed.
    @Test(arguments: [
        #"<row r="1"><c r = "A1" t ="n"><v>1</v></c><c r="B1"   ><v >2</v ></c ></row >"#,
        #"<row r="1"><c r="A1" a1="1" a2="2" a3="3" a4="4" a5="5" a6="6" a7="7"><v>1</v></c><c r="B1" a1="1" a2="2" a3="3" a4="4" a5="5" a6="6" a7="7" a8="8"><v>2</v></c></row>"#,
        #"<row r="1"><abcdefg x="1"><c r="A1"><v>1</v></c></abcdefg><abcdefgh><c r="B1"><v>2</v></c></abcdefgh></row>"#,
        #"<row r="1" xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2" xmlns="urn:other"><v>2</v></c><c r="B2"><v>3</v></c></row><row r="3"><c r="A3"><v>4</v></c></row>"#,
        #"<row r='1' spans='1"2'><c r='A1' s="0" t='n'><v>1</v></c><c r="B1" t="inlineStr"><is><t a='"' b="'">q</t></is></c></row>"#,
        #"<row r="1" ht="20" hidden="0"><c r="A1" s="0" st="1" sx="2" sxy="3" sxz="4"><v>1</v></c></row>"#,
        #"<row r="1"><c r="A1" t="n"/><c r="B1"><v/></c><c r="C1" t="inlineStr"><is><t></t></is></c><c r="D1"><v>\#t5\#n</v></c></row><row r="2"/><row r="3"><c r="A3"><f>A1</f><v>5</v></c></row>"#,
        #"<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>"# + "\n \t",
    ])
    func tagsAtTheEdgesAreReadByTheTokenizer(_ rows: String) throws {
        let reading = try compare(Array((Self.head + rows + Self.tail).utf8), rows)
        #expect(!reading.handedOver, "\(rows) was handed over")
        #expect(reading.error == nil, "\(reading.error ?? "")")
        #expect(!reading.rows.isEmpty)
    }

    /// Tags the fast tags must not take: end tags that are not the open element's (a prefix of
    /// its name, longer, another case), attributes without white space between them, alike
    /// duplicates, `<` and `&` in values, a NUL or non-ASCII byte after a name, a start tag after the root.
    @Test(arguments: [
        #"<row r="1"><cc r="A1"><v>1</v></c></row>"#,
        #"<row r="1"><c r="A1"><v>1</v></cc></row>"#,
        #"<row r="1"><c r="A1"><v>1</V></c></row>"#,
        #"<row r="1"><abcdefgh><v>1</v></abcdefgi></row>"#,
        #"<row r="1"><c r="A1"t="n"><v>1</v></c></row>"#,
        #"<row r="1"><c r="A1" ab="1" ab="2"><v>1</v></c></row>"#,
        #"<row r="1"><c r="A1" ab="1" ba="2" ab='3'><v>1</v></c></row>"#,
        #"<row r="1"><c r="A<1"><v>1</v></c></row>"#,
        #"<row r="1"><c r="A1" t="&#110;"><v>1</v></c></row>"#,
        "<row r=\"1\"><c\u{0} r=\"A1\"><v>1</v></c></row>",
        "<row r=\"1\"><c\u{E9} r=\"A1\"><v>1</v></c></row>",
        "<row r=\"1\"><c r\u{E9}=\"A1\"><v>1</v></c></row>",
        #"<row r="1"><c r="A1"><v>1</v></c></row>"# + Self.tail + "<c/>",
    ])
    func tagsTheFastTagsDeclineAreDecidedAsLibxml2Does(_ rows: String) throws {
        let reading = try compare(Array((Self.head + rows + Self.tail).utf8), rows)
        #expect(reading.handedOver, "\(rows) was not handed over")
    }

    /// A worksheet cut after every byte: the fast tags meet the end of the bytes (and the
    /// sentinel past them) everywhere in a tag or text, and each cut reads as libxml2 reads it.
    @Test func everyCutReadsTheSame() throws {
        let rows = #"<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><f>A1</f><v>2.5</v></c></row><row r="2"><c r="A2"/></row>"#
        let bytes = Array((Self.head + rows + Self.tail).utf8)
        for cut in 0..<bytes.count {
            try compare(Array(bytes[..<cut]), "cut at \(cut)")
        }
        #expect(try !compare(bytes, "whole").handedOver)
    }

    /// The first refill boundary (the tokenizer's 256 KiB buffer) moved across a row byte by
    /// byte by a comment of growing length: tags and text split there read the same, by the
    /// tokenizer itself.
    @Test func tagsSplitByARefillReadTheSame() throws {
        var rows = ""
        for row in 1...6 { rows += #"<row r="\#(row)"><c r="A\#(row)" t="n"><v>\#(row)</v></c><c r="B\#(row)"><v>1.5</v></c></row>"# }
        let boundary = 256 << 10
        for shift in 0..<90 {
            let comment = "<!--" + String(repeating: "x", count: boundary - Self.head.utf8.count - 7 - 60 + shift) + "-->"
            let reading = try compare(Array((Self.head + comment + rows + Self.tail).utf8), "the boundary at byte \(60 - shift) of the rows")
            #expect(!reading.handedOver)
            #expect(reading.rows.count == 6)
        }
    }
}
