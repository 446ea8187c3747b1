/// One comment of a thread, read or rewritten under the sheet's lock (resolving a thread
/// reseals its first comment).
extension Database {
    /// The sealed comment `seq` of a sheet, or nil.
    package func comment(of sheet: String, seq: Int) throws -> [UInt8]? {
        try query("SELECT data FROM comments WHERE sheet_id = ? AND seq = ?", [.text(sheet), .integer(Int64(seq))]).first?.first?.bytes
    }

    /// Replaces the sealed comment `seq` of a sheet.
    package func updateComment(sheet: String, seq: Int, data: [UInt8]) throws {
        try query("UPDATE comments SET data = ? WHERE sheet_id = ? AND seq = ?", [.blob(data), .text(sheet), .integer(Int64(seq))])
    }
}
