import Foundation
/// Rewrites the row blocks of the earlier formats (their text lines sealed as they are, or those
/// lines compressed) in the typed binary format (`RowBlock.stored(_:)`), in the background after a start: a batch of 64
/// blocks at a time, each batch one short transaction. A block is replaced only if it is still
/// the bytes that were read (`... AND data = ?`), so an edit or an import that rewrote it
/// meanwhile always wins. When a pass finds no block left it records so in `meta`, and later
/// starts do nothing. Until then old blocks are read as they are (`RowBlock.entries`).
final class RowBlockMigration: @unchecked Sendable {
    /// The `meta` entry that records that every block is in the binary format (a store that
    /// only has the earlier `row-blocks-compressed` mark is rewritten once more).
    static let doneName = "row-blocks-binary"
    /// Blocks read and rewritten in one transaction.
    static let batch = 64

    private let store: StoreLocation
    private let sealer: Sealer
    private let log: ServerLog
    private let thread = StoppableThread()

    init(store: StoreLocation, sealer: Sealer, log: ServerLog) {
        self.store = store
        self.log = log
        self.sealer = sealer
    }

    /// Starts the background pass.
    func start() {
        thread.start(named: "row block migration") { [store, sealer, log] stopAsked in
            do {
                let database = try store.connect()
                let rewritten = try Self.run(database, sealer: sealer) { stopAsked(0) }
                if rewritten > 0 { log.write("storage: \(rewritten) row blocks of an earlier format rewritten") }
            } catch {
                log.write("storage: rewriting row blocks of an earlier format stopped: \(error); the next start goes on")
            }
        }
    }

    /// Stops the pass (between batches) and waits for it.
    func stop() { thread.stop() }

    /// One pass over every block; returns how many were rewritten. `shouldStop` is asked
    /// between batches.
    @discardableResult
    static func run(_ database: Database, sealer: Sealer, shouldStop: () -> Bool = { false }) throws -> Int {
        guard try database.query("SELECT 1 FROM meta WHERE name = ?", [.text(doneName)]).isEmpty else { return 0 }
        var cursor: (sheet: String, block: Int64) = ("", -1)
        var rewritten = 0
        while !shouldStop() {
            let rows = try database.query("""
                SELECT sheet_id, block, data FROM row_blocks WHERE (sheet_id, block) > (?, ?) ORDER BY sheet_id, block LIMIT ?
                """, [.text(cursor.sheet), .integer(cursor.block), .integer(Int64(batch))])
            guard let last = rows.last else {
                try database.query("INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                                   [.text(doneName), .blob([1])])
                return rewritten
            }
            cursor = (last[0].string ?? "", last[1].int.map(Int64.init) ?? 0)
            try database.transaction {
                for row in rows {
                    guard let sheet = row[0].string, let block = row[1].int, let sealed = row[2].bytes else { continue }
                    let context = RowBlock.context(sheet: sheet, block: block)
                    let plaintext = try sealer.open(sealed, context: context, what: "row block")
                    guard plaintext.first != RowBlock.binaryFormat else { continue } // rewritten already
                    try database.query("UPDATE row_blocks SET data = ? WHERE sheet_id = ? AND block = ? AND data = ?",
                                       [.blob(sealer.seal(RowBlock.binary(RowBlock.entries(stored: plaintext)), context: context)), .text(sheet),
                                        .integer(Int64(block)), .blob(sealed)])
                    rewritten += database.changes
                }
            }
        }
        return rewritten
    }
}
