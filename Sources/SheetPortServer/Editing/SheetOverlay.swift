import Foundation
import SheetPortCore
import SheetPortCalc

/// What a read lays over a sheet's stored row blocks while a write's dependents are not all
/// stored yet (`sheets.values_pending`): the cells of the rows read whose value the instance's
/// graph changed and the store does not hold, with their values, at the store's `version`.
/// The graph computes only as far as the rows read need; the rest stays to the background
/// (`SheetSettle`). A read (`SheetOverlay.read`) takes it, reads its blocks without holding the
/// sheet, lays it over each (`apply`), then checks the version is still the same: a write in
/// between (this instance's or another's) changes it, and the read runs again from a level store.
struct SheetOverlay {
    /// The sheet version the values are of.
    let version: Int
    /// The cells, sorted, each once.
    let cells: [SheetEdit.Touched]

    /// Runs `read` over rows `rows` of sheet `id` with the overlay it lays over the stored blocks
    /// (nil when the store holds every value); when a write came in while it ran, brings the
    /// store level and runs it again without one.
    static func read<T>(_ id: String, rows: ClosedRange<Int>, _ context: ServerContext, _ read: (SheetOverlay?) throws -> T) throws -> T {
        let overlay = try take(id, rows: rows, context)
        let result = try read(overlay)
        guard let overlay, try context.database({ try $0.versionAndValues(of: id).version }) != overlay.version else { return result }
        try SheetSettle.ensure(id, context)
        return try read(nil)
    }

    /// The overlay of rows `rows` of sheet `id`, or nil when the store holds every value (then,
    /// or after bringing it level: no instance's graph is this one's, as after another
    /// instance's write or a restart).
    private static func take(_ id: String, rows: ClosedRange<Int>, _ context: ServerContext) throws -> SheetOverlay? {
        guard try context.database({ try $0.valuesPending(of: id) }) else { return nil }
        let overlay = try context.engines.withSheet(id) { slot -> SheetOverlay? in
            let (version, valuesPending) = try context.database { try $0.versionAndValues(of: id) }
            guard valuesPending else { return SheetOverlay(version: version, cells: []) }
            guard let model = slot, model.version == version else { return nil }
            let range = CellRange(CellReference(row: rows.lowerBound, column: 1), CellReference(row: rows.upperBound, column: CellReference.maxColumn))
            model.noteUnstored(model.engine.continueRecalculation(until: range, sheet: 0))
            return SheetOverlay(version: version, cells: model.unstoredCells(in: rows))
        }
        if let overlay { return overlay }
        _ = try SheetSettle.step(id, context, whole: true)
        return nil
    }

    /// The overlay's cells of row block `block` in `columns`.
    func cells(of block: Int, in columns: Set<Int>) -> [SheetEdit.Touched] {
        cells[cells(of: block)].filter { columns.contains($0.cell.column) }
    }

    /// Row block `block`'s stored plaintext with the overlay's values of its cells.
    func apply(to plaintext: [UInt8], block: Int) throws -> [UInt8] {
        guard !cells(of: block).isEmpty else { return plaintext }
        var entries = try RowBlock.entries(stored: plaintext)
        apply(to: &entries, block: block)
        return RowBlock.binary(entries)
    }

    /// Row block `block`'s `entries` with the overlay's values of its cells (of `columns` only,
    /// when given: the entries hold only those).
    func apply(to entries: inout [RowBlock.Entry], block: Int, columns: Set<Int>? = nil) {
        let touched = columns.map { cells(of: block, in: $0)[...] } ?? cells[cells(of: block)]
        guard !touched.isEmpty else { return }
        var applied = SheetEdit.Applied()
        var written: [WrittenCell] = []
        var typed = RowBlock.TypedLines()
        SheetEdit.rewrite(touched, updates: [:], spills: [:], in: &entries, into: &applied, written: &written, typed: &typed, showing: 0)
    }

    /// The positions of the cells in row block `block` (binary searches: blocks come in any order).
    private func cells(of block: Int) -> Range<Int> {
        func first(from block: Int) -> Int { cells.partitionPoint { RowBlock.block(of: $0.cell.row) >= block } }
        return first(from: block)..<first(from: block + 1)
    }
}
