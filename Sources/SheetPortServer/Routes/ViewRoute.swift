import SheetPortCore

/// `GET /api/sheets/{id}/view?sort=B:desc,A:asc&filter=C:>100&start=1&count=500`: a rows
/// window in view order, each row with its source `row` (Docs/Reference/HTTP.md, "Views"). Storage never
/// moves: one pass over the sealed row blocks keeps, per row that passes the filters, only its
/// row number and its sort keys (the sort and filter columns' cells are the only ones parsed);
/// then the window's rows are cut from their blocks as the rows route cuts them (with `display`).
enum ViewRoute {
    /// Blocks unsealed per read of the pass, so at most this many are in memory at once.
    static let blocksPerRead = 256

    static func get(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        let sheet = try Router.sheet(id, request, context, needs: .viewer)
        let query = try ViewQuery(request)
        guard let start = Int(request.query["start"] ?? "1"), let count = Int(request.query["count"] ?? "500"),
              start >= 1, start <= ServerConfiguration.maxRows, count >= 1 else {
            return .error(400, .badRequest, "start and count are positive integers; start is at most \(ServerConfiguration.maxRows)")
        }
        // The values a write left to store laid over the stored ones (`SheetOverlay`).
        let first = start - 1
        let (total, end, window, entries) = try SheetOverlay.read(id, rows: 1...ServerConfiguration.maxRows, context) { overlay in
            var rows = try scan(id, query, overlay, context)
            rows.sort(query.sort)
            let end = min(rows.count, first + min(count, RowsRoute.maxCount)) // exclusive
            let window = first < end ? (first..<end).map { rows.row(at: $0) } : []
            return (rows.count, end, window, try cutRows(window, of: id, overlay, context))
        }
        var body = Array("{\"version\":\(sheet.version),\"total\":\(total),\"rows\":[".utf8)
        // Each row's JSON built as it is answered, up to `maxWindowBytes` (`WindowBytes`):
        // `next` is then the view position of the first row left out.
        var bytes = WindowBytes(cap: context.configuration.maxWindowBytes, used: body.count)
        var next = end < total ? end + 1 : nil
        for (index, row) in window.enumerated() {
            let json = entries[row] ?? RowBlock.apiJSON(RowBlock.Entry(row: row, height: nil, isHidden: false, cells: []))
            guard bytes.admits(json, row: row) else {
                next = start + index
                break
            }
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += json
        }
        body += Array("],\"next\":\(next.map(String.init) ?? "null")}".utf8)
        return Reply(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(body))
    }

    /// The rows passing `query`'s filters, in storage order, with their sort keys.
    private static func scan(_ id: String, _ query: ViewQuery, _ overlay: SheetOverlay?, _ context: ServerContext) throws -> ViewRows {
        var rows = ViewRows(keyCount: query.sort.count)
        let columns = query.columns
        let lastBlock = RowBlock.block(of: ServerConfiguration.maxRows)
        for firstBlock in stride(from: 0, through: lastBlock, by: blocksPerRead) {
            let blocks = try context.database {
                try $0.rowBlocks(of: id, from: firstBlock, to: min(firstBlock + blocksPerRead - 1, lastBlock))
            }
            for block in blocks {
                let plaintext = try context.sealer.open(block.data, context: RowBlock.context(sheet: id, block: block.block), what: "row block")
                try ViewValue.forEachRow(of: plaintext, columns: columns, overlay: overlay, block: block.block) { row, found in
                    let value = { (column: Int) in found.first { $0.column == column }?.value ?? .blank }
                    guard query.passes(value) else { return }
                    rows.append(row: row, keys: query.sort.map { value($0.column) })
                }
            }
        }
        return rows
    }

    /// The API JSON of the stored rows of `rows` (each cell with its `display`, built by the
    /// rows window's own `RowBlock.apiRows`), read from the blocks they are in (each block once).
    private static func cutRows(_ rows: [Int], of id: String, _ overlay: SheetOverlay?, _ context: ServerContext) throws -> [Int: [UInt8]] {
        let wanted = Set(rows)
        var cut: [Int: [UInt8]] = [:]
        for (block, inBlock) in Dictionary(grouping: rows, by: RowBlock.block(of:)).sorted(by: { $0.key < $1.key }) {
            let span = (inBlock.min() ?? 1)...(inBlock.max() ?? 1)   // never empty: grouped rows
            for stored in try context.database({ try $0.rowBlocks(of: id, from: block, to: block) }) {
                let plaintext = try context.sealer.open(stored.data, context: RowBlock.context(sheet: id, block: stored.block), what: "row block")
                let current = try overlay?.apply(to: plaintext, block: stored.block) ?? plaintext
                try RowBlock.apiRows(stored: current, within: span) { row, json in
                    if wanted.contains(row) { cut[row] = json }
                    return true
                }
            }
        }
        return cut
    }
}

/// The rows of a view: row numbers and their sort keys in two flat arrays (no object per row).
struct ViewRows {
    private let keyCount: Int
    private var rows: [Int32] = []
    private var keys: [ViewValue] = []
    /// View position -> index into `rows`.
    private var order: [Int32]?

    init(keyCount: Int) { self.keyCount = keyCount }

    var count: Int { rows.count }

    mutating func append(row: Int, keys rowKeys: [ViewValue]) {
        rows.append(Int32(row))
        keys += rowKeys
    }

    /// Orders the rows by `sort`, ties in storage order (a stable sort).
    mutating func sort(_ sort: [ViewQuery.SortKey]) {
        guard !sort.isEmpty else { return }
        var order = (0..<Int32(rows.count)).map { $0 }
        keys.withUnsafeBufferPointer { keys in
            let stride = keyCount
            order.sort { a, b in
                let (ia, ib) = (Int(a) * stride, Int(b) * stride)
                for (index, key) in sort.enumerated() {
                    let order = keys[ia + index].compare(keys[ib + index], ascending: key.ascending)
                    if order != 0 { return order < 0 }
                }
                return a < b
            }
        }
        self.order = order
    }

    /// The source row at view position `position` (0-based).
    func row(at position: Int) -> Int { Int(rows[Int(order?[position] ?? Int32(position))]) }
}

extension RowBlock {
    /// The column of a stored cell line, read from its leading `{"col":N` without parsing the
    /// rest; nil when the line does not lead with it.
    static func column(of cell: ArraySlice<UInt8>) -> Int? {
        let prefix = Array("{\"col\":".utf8)
        guard cell.count > prefix.count, cell.starts(with: prefix) else { return nil }
        var column = 0
        for byte in cell.dropFirst(prefix.count) {
            guard byte >= 0x30, byte <= 0x39 else { break }
            column = column * 10 + Int(byte - 0x30)
            if column > CellReference.maxColumn { return nil }
        }
        return column > 0 ? column : nil
    }
}
