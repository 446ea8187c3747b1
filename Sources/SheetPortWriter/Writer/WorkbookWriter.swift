import SheetPortCore
/// How a workbook is written.
public struct WriterOptions: Sendable {
    /// Strings go to the shared-string table, as Excel writes them (memory grows with the
    /// distinct strings); `false` writes inline strings, for constant memory on unique text.
    public var sharedStrings = true
    /// With `sharedStrings`, the most memory the table may take, in bytes (each distinct
    /// string counted as its UTF-8 bytes and 48 bytes of bookkeeping); once it is full, strings
    /// not yet in it are written inline while those in it stay shared. nil: no bound (as Excel,
    /// every distinct string shared). Bounded, a sheet of millions of distinct strings is
    /// written in constant memory and repeated words still share.
    public var sharedStringBudget: Int?
    /// zlib's deflate level, 1 (fastest) to 9 (smallest); 6 is zlib's default.
    public var compressionLevel = 6
    /// Allow worksheet parts over 4 GiB (ZIP64 headers on the streamed parts).
    public var zip64 = false

    /// The defaults.
    public init() {}
}

/// Writes an xlsx workbook, streaming: rows go straight into the package (deflated on a
/// second thread), so memory stays flat however many rows there are.
///
/// The package is built in a private staging directory beside `path` and renamed into place
/// by `close()`; until then, and after an error or `discard()`, nothing is at `path`.
///
///     let writer = try WorkbookWriter(path: "out.xlsx")
///     let bold = try writer.style(CellStyle(isBold: true))
///     let sheet = try writer.addWorksheet(named: "Data")
///     try sheet.append(Row(index: 1, cells: [Cell(column: 1, value: .string("Total"), styleIndex: bold)]))
///     try writer.close()
public final class WorkbookWriter {
    /// Where the workbook is published.
    public let path: String
    /// The options in force.
    public let options: WriterOptions
    @exclusivity(unchecked) var styles = StylesWriter()
    @exclusivity(unchecked) var sharedStrings = SharedStringsWriter()
    private let packager: any Packaging
    private(set) var sheets: [WorksheetWriter] = []
    /// The defined names (`defineName`), in the order they were defined.
    var definedNames: [WrittenName] = []
    private var sheetNames: Set<String> = []
    private(set) var isClosed = false

    /// Starts a workbook that will be published at `path`.
    public init(path: String, options: WriterOptions = WriterOptions()) throws {
        self.path = path
        self.options = options
        packager = try Packager(destination: path, compressionLevel: options.compressionLevel, zip64: options.zip64)
    }

    /// Starts a workbook written front to back to `sink` as it is made, with no file and no
    /// seeking back (zip entries with data descriptors), so its first bytes can be sent while
    /// the rest is written; `name` names it in errors. The bytes are a workbook only once
    /// `close()` returns: after an error or `discard()`, what the sink has is to be dropped.
    /// The same calls give the same bytes.
    public init(streamingTo sink: @escaping (UnsafeRawBufferPointer) throws -> Void, name: String,
                options: WriterOptions = WriterOptions()) throws {
        path = name
        self.options = options
        packager = try StreamPackager(name: name, compressionLevel: options.compressionLevel, zip64: options.zip64, sink: sink)
    }

    deinit { if !isClosed { discard() } }

    /// The style index of `style` for `Cell.styleIndex`; equal styles share one index.
    public func style(_ style: CellStyle) throws -> Int {
        try styles.index(of: style)
    }

    /// Ends the sheet being written, if any, and starts a new one.
    public func addWorksheet(named name: String) throws -> WorksheetWriter {
        guard !isClosed else { throw WriterError.finished }
        try Self.validateSheetName(name)
        guard !sheetNames.contains(name.lowercased()) else { throw WriterError.duplicateSheetName(name) }
        try finishCurrentSheet()
        let number = sheets.count + 1
        let stream = try packager.beginStreamedEntry("xl/worksheets/sheet\(number).xml")
        let sheet = WorksheetWriter(name: name, number: number, workbook: self, stream: stream)
        sheets.append(sheet)
        sheetNames.insert(name.lowercased())
        return sheet
    }

    /// Finishes the last sheet, writes the remaining parts and publishes the workbook at
    /// `path`. A workbook needs at least one sheet; one named `Sheet1` is added if none was.
    public func close() throws {
        guard !isClosed else { throw WriterError.finished }
        do {
            if sheets.isEmpty { _ = try addWorksheet(named: "Sheet1") }
            try finishCurrentSheet()
            isClosed = true
            let parts = parts()
            for part in parts where part.bytes.count >= Self.streamedPartSize { try stream(part) }
            try packager.finish(parts: parts.filter { $0.bytes.count < Self.streamedPartSize })
        } catch {
            discard()
            throw error
        }
    }

    /// Parts this big (a shared-string table of many unique strings is as big as a sheet) are
    /// streamed as a sheet is, deflated in blocks on every core, not deflated in the last pass
    /// on one thread.
    static let streamedPartSize = 1 << 20

    /// Streams `part` into an entry of its own.
    private func stream(_ part: (name: String, bytes: [UInt8])) throws {
        let entry = try packager.beginStreamedEntry(part.name)
        do {
            var start = 0
            while start < part.bytes.count {
                let end = min(start + WorksheetWriter.chunkSize, part.bytes.count)
                var chunk = Array(part.bytes[start..<end])
                try entry.pipe.send(&chunk)
                start = end
            }
        } catch {
            // The packer gave up: its reason, as for a sheet.
            entry.abort()
            try entry.finish()
            throw WriterError.io(file: path, message: "writing \(part.name) failed")
        }
        try entry.finish()
    }

    /// Abandons the workbook: the staging directory is removed and `path` is left as it was.
    public func discard() {
        sheets.last?.abort()
        isClosed = true
        packager.discard()
    }

    /// Ends the sheet being written; throws when it (or the package stream) failed, so
    /// a workbook missing a sheet is never published.
    private func finishCurrentSheet() throws {
        guard let sheet = sheets.last else { return }
        try sheet.finish()
    }

    /// Every part but the worksheets, which are already in the package.
    private func parts() -> [(name: String, bytes: [UInt8])] {
        var parts: [(name: String, bytes: [UInt8])] = []
        var contentTypes = ContentTypesWriter()
        let main = ContentTypesWriter.spreadsheetML
        let relationship = RelationshipsWriter.officeDocument
        contentTypes.add("xl/workbook.xml", type: main + "sheet.main+xml")
        var workbookRelationships = RelationshipsWriter()
        // One person per author of a threaded comment, for the whole workbook.
        var authors: [String] = []
        var people: [String: String] = [:]
        for sheet in sheets {
            for thread in sheet.threads {
                for entry in thread.entries where people[entry.author] == nil {
                    authors.append(entry.author)
                    people[entry.author] = ThreadedCommentsWriter.identifier(scope: 0, authors.count)
                }
            }
        }
        var tableNumber = 0
        for sheet in sheets {
            contentTypes.add("xl/worksheets/sheet\(sheet.number).xml", type: main + "worksheet+xml")
            workbookRelationships.add(type: relationship + "worksheet", target: "worksheets/sheet\(sheet.number).xml")
            var sheetRelationships = RelationshipsWriter()
            if !sheet.comments.isEmpty {
                sheetRelationships.add(type: relationship + "comments", target: "../comments\(sheet.number).xml")
                sheetRelationships.add(type: relationship + "vmlDrawing", target: "../drawings/vmlDrawing\(sheet.number).vml")
                if !sheet.threads.isEmpty {
                    let name = "threadedComments/threadedComment\(sheet.number).xml"
                    sheetRelationships.add(type: ThreadedCommentsWriter.threadRelationship, target: "../" + name)
                    parts.append(("xl/" + name, ThreadedCommentsWriter.part(sheet: sheet.number, threads: sheet.threads, people: people)))
                    contentTypes.add("xl/" + name, type: ThreadedCommentsWriter.threadType)
                }
                parts.append(("xl/comments\(sheet.number).xml", CommentsWriter.part(sheet.comments)))
                let cells = sheet.comments.compactMap { CellReference($0.reference) }.map { (row: $0.row - 1, column: $0.column - 1) }
                parts.append(("xl/drawings/vmlDrawing\(sheet.number).vml", VMLDrawingWriter.part(sheetNumber: sheet.number, cells: cells)))
                contentTypes.add("xl/comments\(sheet.number).xml", type: main + "comments+xml")
                contentTypes.addVML()
            }
            // After the comments' `rId1`..., under ids of their own.
            for (index, table) in sheet.tables.enumerated() {
                tableNumber += 1
                let name = "xl/tables/table\(tableNumber).xml"
                sheetRelationships.add(type: TablePartWriter.relationship, target: "../tables/table\(tableNumber).xml", id: TablePartWriter.relationshipID(index))
                parts.append((name, TablePartWriter.part(table, id: tableNumber)))
                contentTypes.add(name, type: TablePartWriter.contentType)
            }
            if !sheetRelationships.isEmpty { parts.append(("xl/worksheets/_rels/sheet\(sheet.number).xml.rels", sheetRelationships.part())) }
        }
        if !authors.isEmpty {
            workbookRelationships.add(type: ThreadedCommentsWriter.personRelationship, target: "persons/person.xml")
            parts.append(("xl/persons/person.xml", ThreadedCommentsWriter.personsPart(authors, people: people)))
            contentTypes.add("xl/persons/person.xml", type: ThreadedCommentsWriter.personType)
        }
        workbookRelationships.add(type: relationship + "styles", target: "styles.xml")
        contentTypes.add("xl/styles.xml", type: main + "styles+xml")
        parts.append(("xl/styles.xml", styles.part()))
        if !sharedStrings.isEmpty {
            workbookRelationships.add(type: relationship + "sharedStrings", target: "sharedStrings.xml")
            contentTypes.add("xl/sharedStrings.xml", type: main + "sharedStrings+xml")
            parts.append(("xl/sharedStrings.xml", sharedStrings.part()))
        }
        if sheets.contains(where: \.hasDynamicArray) {
            workbookRelationships.add(type: MetadataPartWriter.relationship, target: "metadata.xml")
            contentTypes.add("xl/metadata.xml", type: MetadataPartWriter.contentType)
            parts.append(("xl/metadata.xml", MetadataPartWriter.part()))
        }
        let names = sheets.map(\.name)
        parts.append(("xl/workbook.xml", WorkbookPartWriter.part(sheetNames: names, definedNames: definedNames,
                                                                 recalculateOnLoad: sheets.contains(where: \.hasUncachedFormula))))
        parts.append(("xl/_rels/workbook.xml.rels", workbookRelationships.part()))
        contentTypes.add("docProps/core.xml", type: "application/vnd.openxmlformats-package.core-properties+xml")
        contentTypes.add("docProps/app.xml", type: "application/vnd.openxmlformats-officedocument.extended-properties+xml")
        parts.append(("docProps/core.xml", DocPropsWriter.core()))
        parts.append(("docProps/app.xml", DocPropsWriter.app(sheetNames: names)))
        var rootRelationships = RelationshipsWriter()
        rootRelationships.add(type: relationship + "officeDocument", target: "xl/workbook.xml")
        rootRelationships.add(type: "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
                              target: "docProps/core.xml")
        rootRelationships.add(type: relationship + "extended-properties", target: "docProps/app.xml")
        parts.append(("_rels/.rels", rootRelationships.part()))
        parts.append(("[Content_Types].xml", contentTypes.part()))
        return parts
    }

    /// Excel's rules (`SheetName`): 1 to 31 characters, none of `[ ] : * ? / \` or control
    /// characters, not starting or ending with `'`, and not `History`, which Excel reserves.
    static func validateSheetName(_ name: String) throws {
        if let violation = SheetName.violation(of: name) {
            throw WriterError.invalidSheetName(name.visibleControlCharacters, reason: violation.description)
        }
    }
}
