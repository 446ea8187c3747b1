import SheetPortCore
import SheetPortReader
import SheetPortWriter

/// Writes a stored sheet as a workbook: its cells (unsealed block by block, decoded by
/// `RowBlock.rows(stored:name:)`), kept formatting, row heights, column widths,
/// comments (several on one cell as a thread), defined names and tables. The writer streams, with inline strings, so the
/// export's memory stays flat; the same sheet version and comments give the same bytes.
struct ExportBuild {
    /// The sheet as it was read when the export began.
    let sheet: SheetRecord
    /// Its comments, in the order they were added.
    let comments: [CommentRecord]

    /// Blocks unsealed per database read.
    static let blocksPerRead = 64

    /// The export of `sheet`, its comments read now.
    init(sheet: SheetRecord, _ context: ServerContext) throws {
        self.sheet = sheet
        comments = try CommentRecord.all(sheet: sheet.id, context)
    }

    /// The package's format: raised whenever the same sheet would export to other bytes (2:
    /// deflate level 1; 3: names and tables), so that a download begun on an older server is not resumed with them.
    static let packageFormat = 3

    /// The export's validator: the sheet, its version and its comments written (comments are
    /// only added), and the package's format, which fix the bytes.
    var entityTag: String { "\"\(sheet.id).\(sheet.version).\(comments.count).\(Self.packageFormat)\"" }

    /// Writes the workbook to `sink` as it is made; throws the sink's error or the build's.
    func write(to sink: @escaping (UnsafeRawBufferPointer) throws -> Void, _ context: ServerContext) throws {
        // Inline strings: a shared-string table would hold every distinct string in memory
        // until the end, and hold back the strings' bytes until the last part.
        var options = WriterOptions()
        options.sharedStrings = false
        // Deflate level 1: the streamed package is deflated on one thread (libarchive), where
        // level 6 took twice the time the rows' reading and writing did; level 1 costs a
        // fraction of it for a slightly larger download.
        options.compressionLevel = 1
        let writer = try WorkbookWriter(streamingTo: sink, name: "export of sheet \(sheet.id)", options: options)
        do {
            try fill(writer, context)
            try writer.close()
        } catch {
            writer.discard()
            throw error
        }
    }

    private func fill(_ writer: WorkbookWriter, _ context: ServerContext) throws {
        // Names are made valid when stored; one stored by an earlier version is made valid here.
        let worksheet = try writer.addWorksheet(named: SheetName.valid(sheet.name))
        let layout = try SheetLayout.load(sheet: sheet.id, context)
        for column in layout.columns {
            if let width = column.width { try worksheet.setColumnWidth(width, for: column.first...column.last) }
        }
        var nextBlock = 0
        while true {
            // Each batch with the sheet still there, in one transaction: a sheet deleted while its
            // export runs fails the export (a cut connection), never a workbook missing its rows.
            let blocks = try context.database { database in
                try database.transaction {
                    guard try database.version(of: sheet.id) > 0 else { throw ExportFailure.sheetDeleted(sheet.id) }
                    return try database.rowBlocks(of: sheet.id, from: nextBlock, to: nextBlock + Self.blocksPerRead - 1)
                }
            }
            for block in blocks {
                let plaintext = try context.sealer.open(block.data, context: RowBlock.context(sheet: sheet.id, block: block.block), what: "row block")
                try append(RowBlock.rows(stored: plaintext, name: "row block \(block.block) of sheet \(sheet.id)"), to: worksheet, writer)
            }
            nextBlock += Self.blocksPerRead
            if nextBlock > RowBlock.block(of: max(sheet.rows, 1)) { break }
        }
        var byCell: [String: [CommentRecord]] = [:]
        var order: [String] = []
        for comment in comments {
            if byCell[comment.reference] == nil { order.append(comment.reference) }
            byCell[comment.reference, default: []].append(comment)
        }
        for reference in order {
            guard let cell = CellReference(reference), let comments = byCell[reference] else { continue }
            // Several comments on a cell are a thread: Excel's threaded comments, with the legacy note.
            try worksheet.addThread(comments.map { ($0.author, $0.text) }, row: cell.row, column: cell.column)
        }
        try addNamesAndTables(layout, to: worksheet, writer)
    }

    /// The names and tables the sheet keeps, their references to the sheet under its name now.
    /// Both were checked when the import kept them; one the writer still refuses is left out
    /// rather than failing the export.
    private func addNamesAndTables(_ layout: SheetLayout, to worksheet: WorksheetWriter, _ writer: WorkbookWriter) throws {
        for name in layout.names {
            let formula = layout.sheetName.map { FormulaSheets.renaming(name.formula, from: $0, to: worksheet.name) } ?? name.formula
            try? writer.defineName(name.name, formula: formula, localTo: name.isLocal ? worksheet : nil, isHidden: name.isHidden)
        }
        for table in layout.tables { try? worksheet.addTable(table) }
    }

    /// Appends a block's rows, each cell's kept style as the writer's style index.
    private func append(_ rows: [RowBlock.TypedRow], to worksheet: WorksheetWriter, _ writer: WorkbookWriter) throws {
        for var typed in rows {
            for index in typed.row.cells.indices {
                if let style = typed.styles[index] { typed.row.cells[index].styleIndex = try writer.style(style) }
            }
            try worksheet.append(typed.row)
        }
    }
}

/// Why an export could not be completed.
enum ExportFailure: Error, CustomStringConvertible {
    /// The sheet was deleted while its export ran.
    case sheetDeleted(String)

    var description: String {
        switch self {
        case .sheetDeleted(let id): "sheet \(id) was deleted while its export ran"
        }
    }
}
