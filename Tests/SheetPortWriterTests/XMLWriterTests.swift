import Testing
@testable import SheetPortCore
@testable import SheetPortWriter
@testable import SheetPortReader

/// The in-place markup of `XMLWriter.compose` (cell references, integers), the one path the
/// writer's references and integers take.
@Suite struct XMLWriterTests {
    @Test func composedReferencesAndNumbersAreTheirText() {
        for column in [1, 2, 25, 26, 27, 52, 701, 702, 703, 18_278, 16_384] {
            for row in [0, 1, 9, 10, 99, 100, 65_536, 1_048_576, Int.max] {
                var composed = XMLWriter()
                composed.compose(capacity: 64) { markup in
                    markup.raw("<c r=\""); markup.reference(column: column, row: row); markup.raw("\" s=\""); markup.int(row)
                }
                let expected = "<c r=\"" + CellReference.columnName(column) + String(row) + "\" s=\"" + String(row)
                #expect(String(decoding: composed.bytes, as: UTF8.self) == expected)
            }
        }
        var xml = XMLWriter()
        xml.compose(capacity: 32) { $0.reference(column: 16_384, row: 1_048_576) }
        #expect(String(decoding: xml.bytes, as: UTF8.self) == "XFD1048576")
    }

    @Test func integersAndDoublesAreTheirText() {
        for value in [0, 1, 9, 10, -1, -10, 1_048_576, Int.max, Int.min, Int.min + 1] {
            var xml = XMLWriter()
            xml.int(value)
            #expect(String(decoding: xml.bytes, as: UTF8.self) == String(value))
        }
        for (value, text) in [(3.0, "3"), (-0.0, "0"), (-42.0, "-42"), (0.1, "0.1"), (1e-5, "1e-05"), (999_999_999_999_999, "999999999999999"),
                              (1e15, 1e15.description), (2.5, "2.5")] as [(Double, String)] {
            var xml = XMLWriter()
            xml.double(value)
            #expect(String(decoding: xml.bytes, as: UTF8.self) == text, "\(value)")
        }
    }
}
