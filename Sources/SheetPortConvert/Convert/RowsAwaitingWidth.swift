import SheetPortCore
import SheetPortReader

/// Rows read while the used range's width is still being scanned (`UsedWidthScan`): CSV and
/// TSV records need the width, and rather than wait for the scan with a core idle, the
/// conversion reads on and holds the rows, up to `cellLimit` cells (memory stays bounded;
/// past it the read waits for the scan).
struct RowsAwaitingWidth {
    /// Cells held at most (about 5 MB of `Cell`s: `convert` of the 200,000-row benchmark sheet
    /// peaks 5.5 MiB higher than with the scan first, so on a busy machine it fills before the
    /// scan ends, and the read then waits).
    static let cellLimit = 1 << 16

    private var scan: UsedWidthScan?
    private let holds: Bool
    private var rows: [Row] = []
    private var cells = 0

    /// Rows held while `scan`, if any, runs; none when not `holds` (the first record waits for the scan).
    init(scan: UsedWidthScan?, holds: Bool) {
        self.scan = scan
        self.holds = holds
    }

    /// Holds `row` when the scan is still running and there is room; false when the row is to
    /// be written now, after `end()`.
    mutating func hold(_ row: Row) -> Bool {
        guard holds, let scan, cells < Self.cellLimit, !scan.isDone else { return false }
        rows.append(row)
        cells += row.cells.count + 1
        return true
    }

    /// Waits for the scan's end, the first time: its width (nil: a part it cannot read) and
    /// the rows held, in order; nil after the first time, or with no scan.
    mutating func end() throws -> (columns: Int?, rows: [Row])? {
        guard let scan else { return nil }
        self.scan = nil
        let columns = try scan.width()
        defer { rows = []; cells = 0 }
        return (columns, rows)
    }

    /// Throws the scan's error, if it has not ended yet and ends with one.
    func scanFailure() throws {
        _ = try scan?.width()
    }
}
