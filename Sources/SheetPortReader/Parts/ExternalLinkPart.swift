import SheetPortCore
/// Another workbook a workbook links to (an externalLink part), with the values the workbook
/// caches for it: what Excel shows in formulas like `[1]Sheet1!A1` until the link is updated.
package struct ExternalBook: Sendable, Equatable {
    /// The linked file as the part's relationship writes it (a path or URL); nil when it has none.
    package var target: String?
    /// The linked workbook's sheets, in its order (`sheetId` indexes them).
    package var sheetNames: [String] = []
    /// The cached cells of each sheet, by its index in `sheetNames`.
    package var cachedCells: [Int: [ExternalCell]] = [:]
    /// The linked workbook's names that formulas here use (`[1]!Rate`).
    package var definedNames: [ExternalDefinedName] = []

    /// The linked file's name without its folders (`Book.xlsx`), as a formula typed with it names the book.
    package var fileName: String? {
        guard let target else { return nil }
        // Resolved as a part name: `\` read as `/`, `%20` decoded.
        return PartName.resolve(target, from: "").split(separator: "/").last.map(String.init)
    }
}

/// One cached cell of a sheet of another workbook.
package struct ExternalCell: Sendable, Equatable {
    package var reference: CellReference
    package var value: CellValue
}

/// A name of another workbook: `refersTo` is its formula in that workbook's terms (`=Sheet1!$A$1`),
/// nil when the link part does not give it.
package struct ExternalDefinedName: Sendable, Hashable {
    package var name: String
    package var refersTo: String?
    /// The index of the sheet the name is scoped to, nil for a workbook-level name.
    package var sheetIndex: Int?
}

/// Reads an externalLink part (`xl/externalLinks/externalLink1.xml`): `externalBook` with its
/// `sheetNames`, `definedNames` and `sheetDataSet`. DDE and OLE links hold no workbook: `book` is nil.
final class ExternalLinkPart: XMLHandler {
    /// The most cached cells read from one part by default: a part holding more is refused (a
    /// real link caches the cells its formulas read, far fewer).
    static let maxCells = 1 << 20
    private let maxCells: Int

    private(set) var book: ExternalBook?
    /// The `r:id` of `externalBook`: the relationship naming the linked file.
    private(set) var relationshipID: String?
    private var sheet: Int?
    private var cell: (reference: CellReference, type: String)?
    private var cellCount = 0
    private var text = TextCollector()
    private let part: String
    private let file: String

    init(part: String, file: String, maxCells: Int = ExternalLinkPart.maxCells) {
        self.part = part
        self.file = file
        self.maxCells = maxCells
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        if name.isSpreadsheet("externalBook") {
            book = ExternalBook()
            relationshipID = attributes.string("id", in: .relationships)
        } else if name.isSpreadsheet("sheetName") {
            book?.sheetNames.append(attributes.string("val") ?? "")
        } else if name.isSpreadsheet("definedName") {
            guard let defined = attributes.string("name"), !defined.isEmpty else { return }
            book?.definedNames.append(ExternalDefinedName(name: defined, refersTo: attributes.string("refersTo"),
                                                          sheetIndex: attributes.int("sheetId")))
        } else if name.isSpreadsheet("sheetData") {
            sheet = attributes.int("sheetId")
        } else if name.isSpreadsheet("cell"), sheet != nil {
            // A cell whose reference does not read is passed over, as a cell off the grid.
            guard let reference = attributes.string("r").flatMap(CellReference.init) else { return }
            cellCount += 1
            guard cellCount <= maxCells else {
                throw ReaderError(.exceedsLimit, file: file, part: part, "the link caches more than \(maxCells) cells")
            }
            cell = (reference, attributes.string("t") ?? "n")
        } else if name.isSpreadsheet("v"), cell != nil {
            text.begin()
        }
    }

    func endElement(_ name: XMLName) throws {
        if name.isSpreadsheet("v"), let cell, text.isActive {
            try text.end()
            guard let sheet, sheet >= 0 else { return }
            book?.cachedCells[sheet, default: []].append(ExternalCell(reference: cell.reference, value: Self.value(text.string, type: cell.type)))
        } else if name.isSpreadsheet("cell") {
            cell = nil
        } else if name.isSpreadsheet("sheetData") {
            sheet = nil
        }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) { self.text.append(text) }

    /// A cached value by its cell type (`t`): numbers, text (`str`, `s`, `inlineStr`), booleans, errors.
    static func value(_ text: String, type: String) -> CellValue {
        switch type {
        case "b": return .boolean(text == "1" || text.lowercased() == "true")
        case "e": return .error(text)
        case "str", "s", "inlineStr": return .string(text)
        default: return Double(text).map { .number($0) } ?? .string(text)
        }
    }
}
