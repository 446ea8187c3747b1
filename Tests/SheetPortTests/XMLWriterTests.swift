import Testing
@testable import SheetPort

/// The in-place markup of `XMLWriter.compose`, against the writer's one-append-each path.
@Suite struct XMLWriterTests {
    @Test func composedReferencesAndNumbersMatchTheAppendedOnes() {
        for column in [1, 2, 25, 26, 27, 52, 701, 702, 703, 18_278, 16_384] {
            for row in [1, 9, 10, 99, 100, 65_536, 1_048_576, Int.max] {
                var composed = XMLWriter(), appended = XMLWriter()
                composed.compose(capacity: 64) { markup in
                    markup.raw("<c r=\""); markup.reference(column: column, row: row); markup.raw("\" s=\""); markup.int(row)
                }
                appended.raw("<c r=\""); appended.reference(column: column, row: row); appended.raw("\" s=\""); appended.int(row)
                #expect(composed.bytes == appended.bytes)
                #expect(String(decoding: composed.bytes, as: UTF8.self).hasPrefix("<c r=\"" + CellReference.columnName(column)))
            }
        }
        var zero = XMLWriter()
        zero.compose(capacity: 32) { $0.int(0) }
        #expect(zero.bytes == Array("0".utf8))
    }
}
