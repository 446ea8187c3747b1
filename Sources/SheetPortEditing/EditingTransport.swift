import SheetPortCore

/// How the editing core reaches a server (Docs/Reference/HTTP.md). SheetPortClient's libcurl
/// client implements it for Linux, an app's URLSession one would for macOS and iOS; the calls
/// block, one at a time (the core serializes its writes), except `followEvents`, which runs on a
/// thread of its own.
public protocol EditingTransport: AnyObject {
    /// `GET /api/limits`: the batch caps a paste is checked against.
    func limits() throws -> EditingLimits
    /// `GET /api/sheets/{id}`'s `names`: the sheet's defined names for ranges (`Prices` -> `B2:B4`).
    func names(sheet: String) throws -> [String: CellRange]
    /// `GET /api/sheets/{id}/rows?start=&count=`: a rows window.
    func rows(sheet: String, start: Int, count: Int) throws -> RowsWindow
    /// `POST /api/sheets/{id}/cells`: inputs written as one atomic batch.
    func writeCells(sheet: String, _ cells: [CellEdit]) throws -> WriteResult
    /// `POST /api/sheets/{id}/copy`: the server translates the formulas of `source` at `target`.
    func copy(sheet: String, source: CellRange, target: CellRange) throws -> WriteResult
    /// `POST /api/sheets/{id}/clear` with `what` `contents`, `formats` or `all`.
    func clear(sheet: String, range: CellRange, what: String) throws -> WriteResult
    /// `GET /api/sheets/{id}`'s `columnWidths` and `defaultRowHeight`.
    func sizes(sheet: String) throws -> CellSizes
    /// `POST /api/sheets/{id}/sizes`: row heights (points) and column widths (characters); nil
    /// returns one to the default.
    func setSizes(sheet: String, rows: [Int: Double?], columns: [Int: Double?]) throws -> WriteResult
    /// `POST /api/sheets/{id}/format`: sets format members on every cell of `range`, or clears
    /// the formats of the cells stored there.
    func format(sheet: String, range: CellRange, _ change: FormatChange) throws -> WriteResult
    /// `POST /api/sheets/{id}/undo`: takes back the caller's own last write (never another
    /// subject's); a 409 `nothing-to-undo` when none is left.
    func undo(sheet: String) throws -> WriteResult
    /// `GET /api/sheets/{id}/view?sort=&filter=&start=&count=`: rows in view order, each with its
    /// source row; storage never moves.
    func view(sheet: String, _ query: TableViewQuery, start: Int, count: Int) throws -> ViewWindow
    /// `GET /api/sheets/{id}/cells/{ref}/history`: the cell's inputs over time, newest first.
    func history(sheet: String, ref: CellReference) throws -> [CellHistoryEntry]
    /// `POST /api/sheets/{id}/cells/{ref}/restore`: the cell's input and format at `version`
    /// become its own again (a new version).
    func restore(sheet: String, ref: CellReference, version: Int) throws -> WriteResult
    /// `GET /api/sheets/{id}/comments`: every comment of the sheet, threads and replies.
    func comments(sheet: String) throws -> [CellComment]
    /// `POST /api/sheets/{id}/comments`: a thread on `ref`, or a reply to the thread `replyTo`.
    func addComment(sheet: String, ref: CellReference, text: String, replyTo: Int?) throws
    /// `POST /api/sheets/{id}/comments/{cid}/resolve`: resolves (or reopens) the thread of `comment`.
    func resolveComment(sheet: String, comment: Int, resolved: Bool) throws
    /// `GET /api/sheets/{id}/grants` (owner only).
    func grants(sheet: String) throws -> [SheetGrant]
    /// `POST /api/sheets/{id}/grants`: gives `subject` a role (owner only).
    func grant(sheet: String, subject: String, role: SheetRole) throws
    /// `DELETE /api/sheets/{id}/grants/{subject}` (owner only).
    func revokeGrant(sheet: String, subject: String) throws
    /// `GET /api/sheets/{id}/links`: the share links, without tokens (owner only).
    func links(sheet: String) throws -> [ShareLink]
    /// `POST /api/sheets/{id}/links`: a new share link with `role`, its `url` shown this once.
    func createLink(sheet: String, role: SheetRole) throws -> ShareLink
    /// `DELETE /api/sheets/{id}/links/{lid}`: revokes the link (owner only).
    func deleteLink(sheet: String, id: String) throws
    /// `GET /api/sheets/{id}/export.xlsx?minVersion=N`: the workbook's bytes.
    func export(sheet: String, minVersion: Int) throws -> [UInt8]
    /// `GET /api/sheets/{id}/events` from after `version`: hands each event to `event` until the
    /// stream ends or `stop` answers true (asked at least every second); blocks meanwhile.
    func followEvents(sheet: String, after version: Int?, stop: @escaping () -> Bool, event: @escaping (SheetEvent) -> Void) throws
}

/// The caps of `GET /api/limits` that editing checks before sending.
public struct EditingLimits: Sendable, Equatable {
    /// The most cells one write may carry (`maxBatchCells`).
    public var maxBatchCells: Int
    /// The most bytes one write's body may have (`maxBatchBytes`).
    public var maxBatchBytes: Int
    /// The grid's rows and columns (`maxRows`, `maxColumns`).
    public var maxRows: Int, maxColumns: Int

    /// Limits; the grid defaults to Excel's.
    public init(maxBatchCells: Int, maxBatchBytes: Int, maxRows: Int = CellReference.maxRow, maxColumns: Int = CellReference.maxColumn) {
        self.maxBatchCells = maxBatchCells
        self.maxBatchBytes = maxBatchBytes
        self.maxRows = maxRows
        self.maxColumns = maxColumns
    }
}

/// An edit of one cell as a person typed it, one item of `POST /api/sheets/{id}/cells` (`""`
/// clears the cell); the server reads the text as Excel reads typing (a number, a date, a formula).
public struct CellEdit: Sendable, Equatable {
    /// The cell.
    public var ref: CellReference
    /// What a person typed: `12`, `=SUM(A1:A3)`, `'0123`.
    public var input: String

    /// An edit of `ref`.
    public init(ref: CellReference, input: String) {
        self.ref = ref
        self.input = input
    }

    /// The bytes this input adds to a request body, `{"ref":"B2","input":"..."},` with JSON
    /// escapes counted, for the `maxBatchBytes` check before sending.
    var encodedSize: Int {
        var size = 21 + ref.description.utf8.count
        for byte in input.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x09, 0x0A, 0x0C, 0x0D: size += 2
            case ..<0x20: size += 6
            default: size += 1
            }
        }
        return size
    }
}

/// A cell as the server shows it: in a rows window or a write's `changed` list.
public struct CellSnapshot: Sendable, Equatable {
    /// The input (`=A1*2`, `12`); empty for a cell with a style only.
    public var input: String
    /// The text Excel shows for the value in its number format.
    public var display: String
    /// `number`, `string`, `boolean`, `error`, `date`, `empty`.
    public var type: String
    /// The fill colour (`#RRGGBB`), if authored.
    public var fill: String?
    /// The text colour (`#RRGGBB`), if authored.
    public var color: String?
    /// Bold text.
    public var bold: Bool
    /// Italic text.
    public var italic: Bool
    /// The authored horizontal alignment; nil for the value kind's own.
    public var alignment: CellAlignment?
    /// The number format code, if authored (`0.00%`).
    public var numberFormat: String?
    /// The value when it is a number (dates too: their serial), for the number format preview.
    public var number: Double?

    /// A cell.
    public init(input: String, display: String, type: String, fill: String? = nil, color: String? = nil, bold: Bool = false,
                italic: Bool = false, alignment: CellAlignment? = nil, numberFormat: String? = nil, number: Double? = nil) {
        self.input = input
        self.display = display
        self.type = type
        self.fill = fill
        self.color = color
        self.bold = bold
        self.italic = italic
        self.alignment = alignment
        self.numberFormat = numberFormat
        self.number = number
    }

    /// Whether the value is a number (the insert-function menu's argument runs are numbers).
    public var isNumber: Bool { type == "number" }
}

/// One row of a rows window.
public struct WindowRow: Sendable, Equatable {
    /// 1-based row.
    public var row: Int
    /// The row's cells by 1-based column.
    public var cells: [Int: CellSnapshot]
    /// The row's height in points; nil for the sheet's default.
    public var height: Double?

    /// A row.
    public init(row: Int, cells: [Int: CellSnapshot], height: Double? = nil) {
        self.row = row
        self.cells = cells
        self.height = height
    }
}

/// A rows window: every row from `start` to `start + count - 1` that has cells, at `version`.
public struct RowsWindow: Sendable, Equatable {
    /// The sheet's version the window shows.
    public var version: Int
    /// The first row asked for.
    public var start: Int
    /// How many rows were asked for.
    public var count: Int
    /// The rows that have cells (the others are empty).
    public var rows: [WindowRow]

    /// A window.
    public init(version: Int, start: Int, count: Int, rows: [WindowRow]) {
        self.version = version
        self.start = start
        self.count = count
        self.rows = rows
    }
}

/// A write's answer: the new version and the cells that changed (at most 1,000: `more` then).
public struct WriteResult: Sendable, Equatable {
    /// The sheet's version after the write.
    public var version: Int
    /// The changed cells, the inputs written and what recalculation changed.
    public var changed: [CellReference: CellSnapshot]
    /// More cells changed than listed: the windows shown are refetched.
    public var more: Bool

    /// A result.
    public init(version: Int, changed: [CellReference: CellSnapshot], more: Bool = false) {
        self.version = version
        self.changed = changed
        self.more = more
    }
}

/// An error of a transport call: `retryable` when the same call may succeed later (a dropped
/// connection, a 5xx answer), not for a refusal (400 `bad-formula`, 403, 413).
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status (0 when no answer came).
    public var status: Int
    /// The server's error code (`bad-formula`, `batch-too-large`, ...), or nil when it gave none.
    public var code: ServerErrorCode?
    /// The message, safe to show.
    public var message: String
    /// Whether trying again may succeed.
    public var retryable: Bool

    /// An error.
    public init(status: Int, code: ServerErrorCode?, message: String, retryable: Bool) {
        self.status = status
        self.code = code
        self.message = message
        self.retryable = retryable
    }

    /// The message and the code.
    public var description: String { code.map { "\(message) (\($0))" } ?? message }
}
