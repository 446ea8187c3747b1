import SheetPortCore

/// The table view panel (Alt-T): the server sorts and filters (`GET .../view`), storage never
/// moves, and an edit goes to the source row the view shows.
extension SheetEditor {
    /// The view rows one table view reads (the panel scrolls through them).
    public static let tableViewRows = 200
    /// The most columns a table view line shows, from the edit column's neighbourhood.
    static let tableViewColumns = 8
    /// The most characters of a value in a table view line.
    static let tableViewCellWidth = 14
    /// The most sort keys and filters the server takes.
    static let maxSortKeys = 8, maxFilters = 16

    /// The sort and filter lines, then one line a row: `row 7: 3 | [30] | =A4*B4`, the edit
    /// column in brackets; Enter on a row edits its cell there (editors and owners).
    static func tablePanel(_ ref: CellReference, _ window: ViewWindow, query: TableViewQuery, column: Int, role: SheetRole) -> Panel {
        var lines = [PanelLine("Sort: " + (query.sort.isEmpty ? "storage order" : query.sort) + "…", action: .sortView),
                     PanelLine("Filter: " + (query.filters.isEmpty ? "none" : query.filters.joined(separator: "; ")) + "…", action: .filterView)]
        let first = max(1, column - tableViewColumns / 2)
        let columns = first..<(first + tableViewColumns)
        lines.append(PanelLine("row    " + columns.map { $0 == column ? "[\(CellReference.columnName($0))]" : CellReference.columnName($0) }.joined(separator: " | ")))
        for row in window.rows {
            let values = columns.map { index -> String in
                let shown = String((row.cells[index]?.display ?? "").prefix(tableViewCellWidth))
                return index == column ? "[\(shown)]" : shown
            }
            lines.append(PanelLine("row \(row.row): " + values.joined(separator: " | "), action: role.writes ? .editViewCell(row: row.row) : nil))
        }
        if window.rows.count < window.total { lines.append(PanelLine("… \(window.total - window.rows.count) more rows: narrow the filter")) }
        if window.rows.isEmpty { lines.append(PanelLine("no rows match")) }
        let edits = role.writes ? ", Enter edits column \(CellReference.columnName(column)) (Left/Right)" : " (read-only)"
        var panel = Panel(kind: .table, ref: ref, title: "Table view: \(window.total) rows\(edits)", lines: lines)
        panel.query = query
        panel.column = column
        panel.viewRows = window.rows
        return panel
    }

    /// Moves the edit column and draws the view again.
    func moveTableColumn(_ step: Int) {
        guard var open = panel else { return }
        open.column = min(max(open.column + step, 1), grid.columns)
        panel = open
        reloadTable(keeping: open)
    }

    /// Reads the view with `query`; a refusal (400 `bad-view`) keeps the panel and its field as
    /// they were and throws the sentence to show.
    func applyView(_ query: TableViewQuery) throws(PanelInputError) {
        guard var open = panel else { return }
        let keys = query.sort.split(separator: ",").count
        guard keys <= Self.maxSortKeys, query.filters.count <= Self.maxFilters else {
            throw PanelInputError(description: "a view takes at most \(Self.maxSortKeys) sort keys and \(Self.maxFilters) filters")
        }
        guard !query.sort.containsControlCharacters, !query.filters.contains(where: \.containsControlCharacters) else {
            throw PanelInputError(description: "a sort or filter holds no control characters")
        }
        open.query = query
        open.input = nil
        let before = panel
        panel = open
        if !reloadTable(keeping: open) { panel = before }
    }

    /// Writes `input` to `row`'s cell in the edit column (the source row: storage never moves),
    /// then reads the view again (the row may move or leave it).
    func saveViewCell(row: Int, _ input: String) {
        guard let open = panel else { return }
        let ref = CellReference(row: row, column: open.column)
        guard enqueue(.cells([CellEdit(ref: ref, input: input)], draft: nil)) else { return }
        var closed = open
        closed.input = nil
        panel = closed
        reloadTable(keeping: closed, notice: "\(ref) saved")
    }

    /// Reads the view of `open`'s query again, keeping its choice; false (the error shown) when it failed.
    @discardableResult
    private func reloadTable(keeping open: Panel, notice: String? = nil) -> Bool {
        do {
            let window = try transport.view(sheet: sheet, open.query, start: 1, count: Self.tableViewRows)
            var fresh = Self.tablePanel(open.ref, window, query: open.query, column: open.column, role: role)
            fresh.choose(open.chosenAction, near: open.chosen)
            fresh.notice = notice
            panel = fresh
            lastError = nil
            return true
        } catch {
            fail(error, doing: "read the table view")
            return false
        }
    }
}
