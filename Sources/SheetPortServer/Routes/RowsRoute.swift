import SheetPortCore
/// `GET /api/sheets/{id}/rows?start=1&count=500`: an ordered window of rows, cut from the
/// sealed row blocks it spans (only those are unsealed), with the values a write left to store
/// (`SheetOverlay`).
enum RowsRoute {
    /// The most rows one window returns.
    static let maxCount = 5_000

    static func get(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        let sheet = try Router.sheet(id, request, context, needs: .viewer)
        guard let start = Int(request.query["start"] ?? "1"), let count = Int(request.query["count"] ?? "500"),
              start >= 1, start <= ServerConfiguration.maxRows, count >= 1 else {
            return .error(400, .badRequest, "start and count are positive integers")
        }
        let end = min(start + min(count, maxCount) - 1, ServerConfiguration.maxRows) // inclusive
        var body = Array("{\"version\":\(sheet.version),\"rows\":[".utf8)
        var first = true
        // The values a write left to store laid over the stored ones (`SheetOverlay`).
        let blocks = try SheetOverlay.read(id, rows: start...end, context) { overlay in
            try context.database {
                try $0.rowBlocks(of: id, from: RowBlock.block(of: start), to: RowBlock.block(of: end))
            }.map { block in
                let plaintext = try context.sealer.open(block.data, context: RowBlock.context(sheet: id, block: block.block), what: "row block")
                return try overlay?.apply(to: plaintext, block: block.block) ?? plaintext
            }
        }
        // The answer stops before a row that would take it past `maxWindowBytes` (counted as it
        // is built); its first row is always answered, so a client paging on `next` moves on.
        var window = WindowBytes(cap: context.configuration.maxWindowBytes, used: body.count)
        for plaintext in blocks where window.stoppedAt == nil {
            // Each cell with the text Excel shows for it (Docs/Reference/HTTP.md, "Cell objects").
            try RowBlock.apiRows(stored: plaintext, within: start...end) { row, json in
                guard window.admits(json, row: row) else { return false }
                if !first { body.append(UInt8(ascii: ",")) }
                first = false
                body += json
                return true
            }
        }
        let next = window.stoppedAt.map(String.init) ?? (end < sheet.rows ? String(end + 1) : "null")
        body += Array("],\"next\":\(next)}".utf8)
        return Reply(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(body))
    }
}
