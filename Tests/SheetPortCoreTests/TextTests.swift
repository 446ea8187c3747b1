import Foundation
import Testing
@testable import SheetPortCore

/// Part names, cell references and colours: the text forms every module reads and writes.
@Suite struct TextTests {
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
