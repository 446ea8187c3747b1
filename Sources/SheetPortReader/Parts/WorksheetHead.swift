/// The elements of a worksheet part before `<sheetData>` that a pre-flight reads without the
/// cells: the parse stops at `<sheetData>`, so a sheet of a million rows costs what its head costs.
final class WorksheetHead: XMLHandler {
    /// Thrown at `<sheetData>` to stop the parse (not an error of the part).
    struct Reached: Error {}

    /// `<dimension ref>` as written.
    private(set) var dimension: String?

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        guard name.namespace == .spreadsheet || name.namespace == .none else { return }
        if name.is("sheetData") { throw Reached() }
        if name.is("dimension") { dimension = attributes.string("ref") }
    }

    func endElement(_ name: XMLName) throws {}

    func characters(_ text: UnsafeBufferPointer<UInt8>) {}
}

extension Workbook {
    /// The `<dimension ref>` a worksheet declares (`A1:J20`), as its producer wrote it: often
    /// wrong, never trusted for allocation. Only the part's head is read, up to `<sheetData>`,
    /// through the same hardened parser as every part; nil when it declares none.
    public func declaredDimension(of sheet: Sheet) throws -> String? {
        let head = WorksheetHead()
        do {
            try XMLPushParser.parse(worksheetEntry(sheet), in: archive, with: head)
        } catch is WorksheetHead.Reached {}
        return head.dimension
    }
}
