import SheetPortCore
/// An open xlsx/xlsm workbook: the package, its sheets, styles and shared strings, and
/// streaming access to each worksheet's rows.
///
/// ```swift
/// let workbook = try Workbook(path: "book.xlsx")
/// let rows = try workbook.rows(of: workbook.firstWorksheet!)
/// while let row = try rows.nextRow() { ... }
/// ```
public final class Workbook {
    /// The package.
    public let archive: ZipArchive
    /// The workbook part (`xl/workbook.xml` in most packages).
    public let workbookPart: String
    /// Every sheet in workbook (tab) order.
    public let sheets: [Sheet]
    /// The date system serials are counted in.
    public let dateSystem: DateSystem
    /// Iterative calculation, when the workbook turns it on (`calcPr iterate="1"`); nil otherwise.
    public let iterativeCalculation: IterativeCalculation?
    /// Whether the producer asks for every formula to be computed when the workbook is opened
    /// (`calcPr fullCalcOnLoad="1"`, as openpyxl and XlsxWriter write): the values it stores
    /// for formulas are placeholders (XlsxWriter stores 0), not results.
    public let recalculatesOnLoad: Bool
    /// The workbook's defined names.
    public let definedNames: [DefinedName]
    /// The package's content types.
    public let contentTypes: ContentTypes
    /// Relationships of the workbook part.
    public let relationships: [Relationship]
    /// `<externalReference>` entries (links to other workbooks).
    public let externalReferenceCount: Int
    /// The relationship ids of the `<externalReference>` entries, in order.
    package let externalReferenceIDs: [String]
    /// Whether the workbook part uses Strict OOXML namespaces.
    public let isStrict: Bool

    /// The package relationships (`_rels/.rels`), read once when the workbook is located.
    let packageRelationships: [Relationship]
    private var loadedStyles: Styles?
    private var loadedSharedStrings: SharedStrings?
    private var loadedCellMetadata: CellMetadata?
    private var loadedApplication: String??
    /// How many row readers were opened on this workbook's worksheets: tests hold the
    /// server's import to one pass over its worksheet.
    package private(set) var worksheetPasses = 0

    /// The file name used in errors.
    public var file: String { archive.file }

    /// Opens the workbook at `path`.
    public convenience init(path: String, limits: ArchiveLimits = ArchiveLimits()) throws {
        try self.init(archive: ZipArchive(path: path, limits: limits))
    }

    /// Opens a workbook held in memory; `name` is used in errors.
    public convenience init(bytes: [UInt8], name: String, limits: ArchiveLimits = ArchiveLimits()) throws {
        try self.init(archive: ZipArchive(bytes: bytes, name: name, limits: limits))
    }

    /// Opens the workbook of an open package.
    public init(archive: ZipArchive) throws {
        self.archive = archive
        contentTypes = try ContentTypes.read(in: archive)
        packageRelationships = try Self.packageRelationships(in: archive)
        workbookPart = try Self.locateWorkbook(archive: archive, contentTypes: contentTypes, package: packageRelationships)
        guard let entry = archive.entry(named: workbookPart) else {
            throw ReaderError(.missingPart, file: archive.file, part: workbookPart, "the workbook part is missing")
        }
        let handler = WorkbookPart()
        isStrict = try XMLPushParser.parse(entry, in: archive, with: handler)
        relationships = try RelationshipsPart.read(of: workbookPart, in: archive)
        dateSystem = handler.dateSystem
        iterativeCalculation = handler.iterativeCalculation
        recalculatesOnLoad = handler.recalculatesOnLoad
        definedNames = handler.definedNames
        externalReferenceCount = handler.externalReferenceCount
        externalReferenceIDs = handler.externalReferenceIDs
        let byID = Dictionary(relationships.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let folder = PartName.directory(of: workbookPart)
        sheets = handler.sheets.enumerated().map { offset, entry in
            let relationship = byID[entry.relationshipID]
            var part = relationship.flatMap { archive.contains($0.target) ? $0.target : nil }
            var kind = Self.kind(of: relationship)
            // Without workbook relationships at all, fall back on the conventional sheet names.
            if relationship == nil, byID.isEmpty {
                let guess = folder + "worksheets/sheet\(offset + 1).xml"
                if archive.contains(guess) { part = guess; kind = .worksheet }
            }
            return Sheet(name: entry.name, position: offset + 1, kind: kind,
                         state: entry.state, part: part, relationshipID: entry.relationshipID)
        }
    }

    /// The first worksheet in workbook order (chartsheets and others skipped; hidden ones count).
    public var firstWorksheet: Sheet? { sheets.first { $0.kind == .worksheet } }

    /// The sheet named `name`, or else at 1-based `position` when `name` is a number.
    public func sheet(named name: String) -> Sheet? {
        if let sheet = sheets.first(where: { $0.name == name }) { return sheet }
        if let sheet = sheets.first(where: { $0.name.lowercased() == name.lowercased() }) { return sheet }
        if let position = Int(name), position >= 1, position <= sheets.count { return sheets[position - 1] }
        return nil
    }

    /// The resolved cell formats (read on first use).
    public func styles() throws -> Styles {
        if let loadedStyles { return loadedStyles }
        var theme: [UInt32?] = []
        if let themePart = target(ofType: "theme"), let entry = archive.entry(named: themePart) {
            let handler = ThemePart()
            try XMLPushParser.parse(entry, in: archive, with: handler)
            theme = handler.indexedColors
        }
        let styles = try Styles.read(archive.entry(named: part(ofType: "styles", conventionalName: "styles.xml")),
                                     theme: theme, in: archive)
        loadedStyles = styles
        return styles
    }

    /// The shared-string table (read on first use).
    public func sharedStrings() throws -> SharedStrings {
        if let loadedSharedStrings { return loadedSharedStrings }
        let strings = try sharedStrings(engine: .standard)
        loadedSharedStrings = strings
        return strings
    }

    /// The shared-string table read afresh by `engine` (tests compare the two).
    func sharedStrings(engine: WorksheetReader.Engine) throws -> SharedStrings {
        let part = part(ofType: "sharedStrings", conventionalName: "sharedStrings.xml")
        return try SharedStrings.read(archive.entry(named: part), in: archive, engine: engine)
    }

    /// The application that saved the package, as its extended properties (`docProps/app.xml`)
    /// name it (`Microsoft Excel`, `Microsoft Macintosh Excel`, `LibreOffice/...`); nil when the part
    /// is missing or damaged (it describes the file, the cells do not depend on it).
    public func application() -> String? {
        if let loadedApplication { return loadedApplication }
        let name = packageRelationships.first { $0.type == "extended-properties" && !$0.isExternal }?.target ?? "docProps/app.xml"
        let handler = PropertyPart("Application", limit: 256)
        guard let entry = archive.entry(named: name), (try? XMLPushParser.parse(entry, in: archive, with: handler)) != nil else {
            loadedApplication = .some(nil)
            return nil
        }
        loadedApplication = .some(handler.value)
        return handler.value
    }

    /// The meaning of cells' `vm` and `cm` indexes (read on first use). These parts only refine
    /// what a cell holds anyway (the stored `#VALUE!` of a `#CALC!`; an array formula that is
    /// dynamic): a damaged one is passed over and the cells read as stored.
    private func cellMetadata() -> CellMetadata {
        if let loadedCellMetadata { return loadedCellMetadata }
        var result = CellMetadata()
        let directory = PartName.directory(of: workbookPart)
        let metadata = MetadataPart()
        if let entry = archive.entry(named: part(ofType: "sheetMetadata", conventionalName: "metadata.xml")),
           (try? XMLPushParser.parse(entry, in: archive, with: metadata)) != nil {
            var errorTypes: [Int?] = []
            let structures = RichValueStructurePart()
            if let structureEntry = archive.entry(named: target(ofType: "rdRichValueStructure") ?? directory + "richData/rdrichvaluestructure.xml"),
               let valueEntry = archive.entry(named: target(ofType: "rdRichValue") ?? directory + "richData/rdrichvalue.xml"),
               (try? XMLPushParser.parse(structureEntry, in: archive, with: structures)) != nil {
                let values = RichValuePart(errorTypePositions: structures.errorTypePositions)
                if (try? XMLPushParser.parse(valueEntry, in: archive, with: values)) != nil { errorTypes = values.errorTypes }
            }
            result = CellMetadata(metadata: metadata, errorTypes: errorTypes)
        }
        loadedCellMetadata = result
        return result
    }

    /// A row-by-row reader of a worksheet.
    public func rows(of sheet: Sheet) throws -> WorksheetReader {
        try rows(of: sheet, engine: .standard)
    }

    /// A row-by-row reader of a worksheet parsed by `engine` (tests compare the two).
    package func rows(of sheet: Sheet, engine: WorksheetReader.Engine) throws -> WorksheetReader {
        let entry = try worksheetEntry(sheet)
        worksheetPasses += 1
        return try WorksheetReader(sheet: sheet, entry: entry, archive: archive, sharedStrings: sharedStrings(),
                                   styles: styles(), cellMetadata: cellMetadata(), engine: engine)
    }

    /// The legacy comments (notes) of a worksheet, from its comments part.
    public func comments(of sheet: Sheet) throws -> [Comment] {
        let entry = try worksheetEntry(sheet)
        var comments: [Comment] = []
        for relationship in try relationships(of: sheet) where relationship.type == "comments" && !relationship.isExternal {
            guard let part = archive.entry(named: relationship.target) else {
                throw ReaderError(.missingPart, file: file, part: entry.name,
                                  "comments relationship \(relationship.id) points to \(relationship.target), which is missing")
            }
            let handler = CommentsPart()
            try XMLPushParser.parse(part, in: archive, with: handler)
            comments += handler.comments
        }
        return comments
    }

    /// The relationships of a sheet's part.
    public func relationships(of sheet: Sheet) throws -> [Relationship] {
        guard let part = sheet.part else { return [] }
        return try RelationshipsPart.read(of: part, in: archive)
    }

    /// The relationships of any part of the package (a pivot table's to its cache, ...).
    package func relationships(ofPart part: String) throws -> [Relationship] {
        try RelationshipsPart.read(of: part, in: archive)
    }

    package func worksheetEntry(_ sheet: Sheet) throws -> ZipArchive.Entry {
        guard sheet.kind == .worksheet || sheet.kind == .macrosheet || sheet.kind == .dialogsheet else {
            throw ReaderError(.usage, file: file, part: sheet.part,
                              "sheet \"\(sheet.name)\" is a \(sheet.kind.rawValue), not a worksheet")
        }
        guard let part = sheet.part, let entry = archive.entry(named: part) else {
            throw ReaderError(.missingPart, file: file, part: workbookPart,
                              "sheet \"\(sheet.name)\" (relationship \(sheet.relationshipID)) points to no part")
        }
        return entry
    }

    private func target(ofType type: String) -> String? {
        relationships.first { $0.type == type && !$0.isExternal && archive.contains($0.target) }?.target
    }

    /// A workbook-level part by relationship, else by content type, else by its usual name
    /// beside the workbook part: some generators leave the relationship out.
    private func part(ofType type: String, conventionalName: String) -> String {
        if let target = target(ofType: type) { return target }
        let contentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.\(type)+xml"
        if let declared = contentTypes.parts(ofType: [contentType]).sorted().first(where: archive.contains) { return declared }
        return PartName.directory(of: workbookPart) + conventionalName
    }

    private static func kind(of relationship: Relationship?) -> SheetKind {
        switch relationship?.type {
        case "worksheet": .worksheet
        case "chartsheet": .chartsheet
        case "dialogsheet": .dialogsheet
        case "xlMacrosheet", "xlIntlMacrosheet": .macrosheet
        default: .unknown
        }
    }

    /// `_rels/.rels`; empty when it is damaged: the content types still name the workbook
    /// (`check` reports it).
    private static func packageRelationships(in archive: ZipArchive) throws -> [Relationship] {
        do {
            return try RelationshipsPart.read(of: "", in: archive)
        } catch let error as ReaderError where error.code == .malformedXML {
            return []
        }
    }

    /// The workbook part: the package's `officeDocument` relationship, else (also when
    /// `_rels/.rels` is damaged) the part whose content type is a SpreadsheetML workbook,
    /// else the usual names.
    private static func locateWorkbook(archive: ZipArchive, contentTypes: ContentTypes, package: [Relationship]) throws -> String {
        // An Excel Binary Workbook is a zip too, with the same layout but BIFF12 parts.
        if archive.contains("xl/workbook.bin")
            || package.contains(where: { $0.type == "officeDocument" && $0.target.lowercased().hasSuffix(".bin") }) {
            throw ReaderError(.xlsbWorkbook, file: archive.file,
                              "an Excel Binary Workbook (.xlsb), not an xlsx workbook: its parts are binary records, not XML; "
                              + "open it in Excel and save it as .xlsx (Excel Workbook)")
        }
        if let main = package.first(where: { $0.type == "officeDocument" && archive.contains($0.target) }) {
            return main.target
        }
        let workbookTypes: Set<String> = [
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
            "application/vnd.ms-excel.sheet.macroEnabled.main+xml",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml",
            "application/vnd.ms-excel.template.macroEnabled.main+xml",
        ]
        if let part = contentTypes.parts(ofType: workbookTypes).sorted().first(where: archive.contains) { return part }
        if let part = ["xl/workbook.xml", "workbook.xml"].first(where: archive.contains) { return part }
        if archive.contains("content.xml") || archive.contains("mimetype") {
            throw ReaderError(.odsWorkbook, file: archive.file,
                              "an OpenDocument spreadsheet (.ods), not an xlsx workbook; open it in LibreOffice Calc or Excel "
                              + "and save it as .xlsx (Excel 2007-365)")
        }
        throw ReaderError(.missingPart, file: archive.file, "no workbook part: not an xlsx/xlsm package")
    }
}
