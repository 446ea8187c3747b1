import Foundation
import SheetPortCore

/// The row blocks a write changes only through recalculated dependents (a running total's
/// blocks, every one of them on a write of its first cell): no update, no history, nothing but
/// each dependent's new value spliced into its line. They are independent of each other, so
/// they are opened, spliced, encoded, compressed and sealed side by side, on as many threads as
/// there are cores; the statements that store them stay on the write's connection, in order.
extension SheetEdit {
    /// Blocks waiting for `flush`: at most `SheetModel.blocksPerRead` block numbers apart, so one
    /// statement reads them.
    struct PendingBlocks {
        /// Each block and its cells' range in `touched`.
        var blocks: [(block: Int, cells: Range<Int>)] = []
        /// The write's cells, sorted.
        var touched: [Touched]
    }

    /// What rewriting one block made: its rows, its sealed bytes, and its share of `Applied`.
    private struct Rewritten {
        var firstRow = 0
        var lastRow = 0
        var data: [UInt8]?
        var applied = Applied()
        var error: (any Error)?
    }

    /// Rewrites the pending blocks (in block order, so `applied.cells` stays in row order) and
    /// stores them; empties `pending.blocks`.
    func flush(_ pending: inout PendingBlocks, into applied: inout Applied, showing shown: Int) throws {
        guard let first = pending.blocks.first?.block, let last = pending.blocks.last?.block else { return }
        defer { pending.blocks = [] }
        let sealed = Dictionary(try database.rowBlocks(of: sheet, from: first, to: last), uniquingKeysWith: { a, _ in a })
        // How many cells each block may still add to the answer's first `shown`.
        var listed = applied.cells.count
        let budgets = pending.blocks.map { _, cells in
            defer { listed += cells.count }
            return max(0, shown - listed)
        }
        let jobs = pending.blocks
        let touched = pending.touched
        let sheet = sheet
        let sealer = context.sealer
        let spills = spills
        var results = [Rewritten](repeating: Rewritten(), count: jobs.count)
        results.withUnsafeMutableBufferPointer { buffer in
            let out = Slots(buffer: buffer)
            let rewrite: @Sendable (Int) -> Void = { k in
                let (block, cells) = jobs[k]
                var result = Rewritten()
                do {
                    var entries: [RowBlock.Entry] = []
                    var typed = RowBlock.TypedLines()
                    if let data = sealed[block] {
                        entries = try RowBlock.entries(stored: sealer.open(data, context: RowBlock.context(sheet: sheet, block: block), what: "row block"), typed: &typed)
                    }
                    var written: [WrittenCell] = []
                    Self.rewrite(touched[cells], updates: [:], spills: spills, in: &entries, into: &result.applied, written: &written, typed: &typed, showing: budgets[k])
                    result.firstRow = entries.first?.row ?? 0
                    result.lastRow = entries.last?.row ?? 0
                    result.data = entries.isEmpty ? nil : sealer.seal(RowBlock.binary(entries, typed: typed), context: RowBlock.context(sheet: sheet, block: block))
                } catch {
                    result.error = error
                }
                out.buffer[k] = result
            }
            if parallel {
                DispatchQueue.concurrentPerform(iterations: jobs.count, execute: rewrite)
            } else {
                for k in jobs.indices { rewrite(k) }
            }
        }
        for (k, result) in results.enumerated() {
            if let error = result.error { throw error }
            try database.replaceRowBlock(sheet: sheet, block: jobs[k].block, firstRow: result.firstRow, lastRow: result.lastRow, data: result.data)
            applied.count += result.applied.count
            applied.lastRow = max(applied.lastRow, result.applied.lastRow)
            applied.lastColumn = max(applied.lastColumn, result.applied.lastColumn)
            applied.cells += result.applied.cells
        }
    }
}

/// The results of a concurrent loop: each iteration writes its own slot, none reads another's.
private struct Slots<T>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<T>
}
