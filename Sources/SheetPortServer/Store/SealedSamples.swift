/// The first sealed record of each kind a store holds, with what it is bound to: a store
/// without a recorded key check proves with one which key opens it (`SealedProbe`).
extension Database {
    /// Any sealed row block.
    func anyRowBlock() throws -> (sheet: String, block: Int, data: [UInt8])? {
        try query("SELECT sheet_id, block, data FROM row_blocks LIMIT 1").first.map { ($0[0].string ?? "", $0[1].int ?? 0, $0[2].bytes ?? []) }
    }

    /// Any sealed comment.
    func anyComment() throws -> (sheet: String, seq: Int, data: [UInt8])? {
        try query("SELECT sheet_id, seq, data FROM comments LIMIT 1").first.map { ($0[0].string ?? "", $0[1].int ?? 0, $0[2].bytes ?? []) }
    }

    /// Any sheet's sealed layout that is not empty.
    func anyLayout() throws -> (sheet: String, data: [UInt8])? {
        guard let row = try query("SELECT id, layout FROM sheets WHERE layout IS NOT NULL LIMIT 1").first,
              let layout = row[1].bytes, !layout.isEmpty else { return nil }
        return (row[0].string ?? "", layout)
    }

    /// The first piece of any staged upload kept in the store (a shared store's; the embedded
    /// store keeps them as files).
    func anyStagedUploadStart() throws -> (job: String, data: [UInt8])? {
        try query("SELECT job_id, data FROM staged_uploads WHERE piece = 0 LIMIT 1").first.map { ($0[0].string ?? "", $0[1].bytes ?? []) }
    }
}
