extension RowBlock {
    /// A block's plaintext from its rows (the inverse of `entries`): each row's header, then its
    /// cell lines in column order.
    package static func encode(_ entries: [Entry]) -> [UInt8] {
        var bytes: [UInt8] = []
        for entry in entries {
            bytes += header(row: entry.row, height: entry.height, isHidden: entry.isHidden)
            for cell in entry.cells {
                bytes += cell
                bytes.append(0x0A)
            }
        }
        return bytes
    }

    /// The rows `first...last` of the grid that block `block` holds.
    package static func rows(of block: Int) -> ClosedRange<Int> { (block * rowsPerBlock + 1)...((block + 1) * rowsPerBlock) }
}

extension Database {
    /// One sealed row block of a sheet, or nil when the block holds nothing.
    package func rowBlock(of sheet: String, block: Int) throws -> [UInt8]? {
        try query("SELECT data FROM row_blocks WHERE sheet_id = ? AND block = ?", [.text(sheet), .integer(Int64(block))]).first?.first?.bytes
    }

    /// Stores a sealed row block in place of the one there (an edit), or removes it when it has no rows left.
    package func replaceRowBlock(sheet: String, block: Int, firstRow: Int, lastRow: Int, data: [UInt8]?) throws {
        guard let data else {
            try query("DELETE FROM row_blocks WHERE sheet_id = ? AND block = ?", [.text(sheet), .integer(Int64(block))])
            return
        }
        try query("""
            INSERT INTO row_blocks (sheet_id, block, first_row, last_row, data) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (sheet_id, block) DO UPDATE SET first_row = excluded.first_row, last_row = excluded.last_row, data = excluded.data
            """, [.text(sheet), .integer(Int64(block)), .integer(Int64(firstRow)), .integer(Int64(lastRow)), .blob(data)])
    }
}
