import SheetPortCore

/// The floor of the worksheet fast path: its tokenizer alone over a worksheet (inflated on its
/// own thread, as when reading), driving a part reader that only counts elements; what the
/// read costs beyond it is the decoding of cells (`sheetport bench read --to tokens`).
///
/// The one piece of `sheetport bench` kept in the library, on purpose: compiled here, the
/// tokenizer is specialized for its counter as it is for `WorksheetPart`; from another module
/// the generic tokenizer runs unspecialized, and the floor took a third more instructions
/// (callgrind, 100,000 rows: 817 million against 616 million on the tokenizing thread).
package enum TokenizerFloor {
    /// Tokenizes the worksheet `sheet` of `workbook`: the elements seen and the bytes of XML.
    /// Throws when the fast path would hand the part over to libxml2 (no floor to measure).
    package static func run(_ workbook: Workbook, sheet: Sheet) throws -> (elements: Int, xmlBytes: Int64) {
        let entry = try workbook.worksheetEntry(sheet)
        let counter = ElementCounter()
        let tokenizer = WorksheetTokenizer(source: BackgroundInflater(try workbook.archive.stream(entry)), handler: counter)
        guard case .end = tokenizer.advance() else {
            throw ReaderError(.malformedXML, file: workbook.archive.file, part: entry.name,
                              "the worksheet fast path hands this part over to libxml2")
        }
        return (counter.elements, entry.size)
    }

    /// Counts elements and nothing else.
    private final class ElementCounter: FastPathPart {
        var elements = 0
        var completedCount: Int { 0 }
        func startElement(_ name: XMLName, attributes: XMLAttributes) throws { elements += 1 }
        func endElement(_ name: XMLName) throws {}
        func characters(_ text: UnsafeBufferPointer<UInt8>) {}
    }
}
