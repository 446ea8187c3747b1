import Foundation

/// `GET /api/sheets/{id}/export.xlsx[?minVersion=N]`: the sheet written by the project's
/// `WorkbookWriter` into sealed block files (`SealedPackageStorage`), then streamed to the
/// client, unsealed block by block; the sealed file is unlinked as soon as it is open, so an
/// export leaves nothing behind. `minVersion` waits briefly for the sheet to reach that
/// version, else 409 `version-not-reached`.
enum ExportRoute {
    /// How long `minVersion` waits.
    static let versionWait: Double = 2
    /// Blocks unsealed per database read.
    static let blocksPerRead = 64

    static func get(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        var sheet = try Router.sheet(id, request, context, needs: .viewer)
        if let text = request.query["minVersion"] {
            guard let wanted = Int(text) else { return .error(400, "bad-request", "minVersion is an integer") }
            let deadline = Date().addingTimeInterval(versionWait)
            while sheet.version < wanted {
                guard Date() < deadline else {
                    return .error(409, "version-not-reached", "the sheet is at version \(sheet.version), not yet \(wanted)")
                }
                // Woken by a notice of the change from any instance; read again at least every 50 ms.
                _ = context.sheetChanges.wait(sheet: id, version: wanted, until: min(deadline, Date().addingTimeInterval(0.05)))
                sheet.version = try context.database { try $0.version(of: id) }
            }
        }
        let identity = Sodium.identifier()
        let destination = context.directory.exports + "/" + identity + ".xlsx"
        try write(sheet, to: destination, identity: identity, context)
        let file = try SealedBlockFile(opening: destination, identity: identity, sealer: context.sealer)
        unlink(destination) // the open descriptor keeps it readable; nothing stays on disk
        // A quoted-string holds printable ASCII only; FileNames.safe has removed quotes, backslashes and controls.
        let name = FileNames.safe(sheet.name).unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }
        return Reply(status: 200, headers: [
            ("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            ("Content-Disposition", "attachment; filename=\"\(String(String.UnicodeScalarView(name))).xlsx\""),
            ("X-Sheet-Version", String(sheet.version)),
        ], body: .stream(ExportStream(file: file), length: file.size))
    }

    /// Writes the sheet's cells, row heights, column widths and comments as a workbook.
    private static func write(_ sheet: SheetRecord, to destination: String, identity: String, _ context: ServerContext) throws {
        let writer = try WorkbookWriter(path: destination, options: WriterOptions(),
                                        storage: SealedPackageStorage(sealer: context.sealer, identity: identity))
        do {
            // Names are made valid when stored; one stored by an earlier version is made valid here.
            let worksheet = try writer.addWorksheet(named: SheetName.valid(sheet.name))
            for column in try SheetLayout.load(sheet: sheet.id, context).columns {
                if let width = column.width { try worksheet.setColumnWidth(width, for: column.first...column.last) }
            }
            var nextBlock = 0
            while true {
                let blocks = try context.database {
                    try $0.rowBlocks(of: sheet.id, from: nextBlock, to: nextBlock + blocksPerRead - 1)
                }
                for block in blocks {
                    let plaintext = try context.sealer.open(block.data, context: RowBlock.context(sheet: sheet.id, block: block.block), what: "row block")
                    try append(RowBlock.entries(plaintext), to: worksheet, writer)
                }
                nextBlock += blocksPerRead
                if nextBlock > RowBlock.block(of: max(sheet.rows, 1)) { break }
            }
            var byCell: [String: [CommentRecord]] = [:]
            var order: [String] = []
            for comment in try CommentRecord.all(sheet: sheet.id, context) {
                if byCell[comment.reference] == nil { order.append(comment.reference) }
                byCell[comment.reference, default: []].append(comment)
            }
            for reference in order {
                guard let cell = CellReference(reference), let comments = byCell[reference] else { continue }
                // The writer keeps one note per cell: a thread becomes one note, each entry with its author.
                let text = comments.count == 1 ? comments[0].text : comments.map { "\($0.author): \($0.text)" }.joined(separator: "\n")
                try worksheet.addComment(text, author: comments[0].author, row: cell.row, column: cell.column)
            }
            try writer.close()
        } catch {
            writer.discard()
            throw error
        }
    }

    /// Appends a block's rows, reading each cell's object back with `CellJSONLReader`.
    private static func append(_ entries: [RowBlock.Entry], to worksheet: WorksheetWriter, _ writer: WorkbookWriter) throws {
        var jsonl: [UInt8] = []
        for entry in entries {
            for cell in entry.cells { jsonl += cell; jsonl.append(0x0A) }
        }
        var reader = try CellJSONLReader(input: ByteInput(bytes: jsonl, name: "row block"))
        var pending = try reader.nextRow()
        for entry in entries {
            var row = Row(index: entry.row, height: entry.height, isHidden: entry.isHidden)
            if let (read, styles) = pending, read.index == entry.row {
                row.cells = read.cells
                for index in row.cells.indices { row.cells[index].styleIndex = try styles[index].map(writer.style) ?? 0 }
                pending = try reader.nextRow()
            }
            try worksheet.append(row)
        }
    }
}

/// Streams a sealed file from its start, unsealing one block at a time.
final class ExportStream: ReplyStream {
    private let file: SealedBlockFile
    private var position: Int64 = 0

    init(file: SealedBlockFile) { self.file = file }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        let read = try file.read(into: buffer, count: count, at: position)
        position += Int64(read)
        return read
    }
}
