import Foundation
import SheetPortCore
import SheetPortConvert
import SheetPortCalc
import SheetPortReader

/// A cell's value as a view sorts and filters it: all the scan keeps of a cell. Text is kept
/// folded to lower case (Excel sorts and filters text ignoring case) and cut to
/// `maxTextLength` characters, so a view's memory is bounded by its rows, not their text.
enum ViewValue: Equatable {
    case number(Double)
    case text(String)
    case boolean(Bool)
    case error(String)
    case blank

    /// Characters of text kept for sorting and filtering; longer texts that agree this far
    /// keep their storage order.
    static let maxTextLength = 256

    /// The value of one stored cell line (`RowBlock`'s cell JSON), read by the cell JSONL
    /// parser without building any dictionary; a date is its serial, as Excel sorts it.
    init(cellLine line: ArraySlice<UInt8>) {
        guard let object = line.withUnsafeBufferPointer(CellObjectParser.parse) else { self = .blank; return }
        switch object.type.string {
        case "number": self = object.value.number.map(ViewValue.number) ?? .blank
        case "string": self = object.value.string.map { .text(Self.fold($0)) } ?? .blank
        case "boolean": self = object.value.bool.map(ViewValue.boolean) ?? .blank
        case "error": self = .error(object.value.string ?? "#N/A")
        case "date":
            self = object.value.string.flatMap(ExcelDateTime.init(iso:)).map { .number($0.serial(in: .excel1900)) } ?? .blank
        default: self = .blank // a formula with no value yet
        }
    }

    /// The value of a binary block's typed cell: what `init(cellLine:)` reads from the line the
    /// block renders for it, without rendering it.
    init(_ block: BinaryBlock, _ cell: BinaryBlock.BlockCell) {
        switch cell.kind {
        case .double: self = .number(cell.number)
        case .integer: self = .number(Double(cell.integer))
        case .string: self = .text(Self.fold(block.text(cell.text) ?? ""))
        case .isTrue: self = .boolean(true)
        case .isFalse: self = .boolean(false)
        case .error: self = .error(block.text(cell.text) ?? "#N/A")
        case .date: self = block.text(cell.text).flatMap(ExcelDateTime.init(iso:)).map { .number($0.serial(in: .excel1900)) } ?? .blank
        case .empty: self = .blank
        }
    }

    /// Calls `body` with each row of a block's plaintext and the values of its cells in
    /// `columns`, with `overlay`'s values laid over them. A binary block's cells are read typed
    /// (a cell the overlay holds, typed as a write stores it). A block of an earlier format, one
    /// holding lines kept whole, or one missing a cell the overlay holds has only the lines of
    /// `columns` rendered and read.
    static func forEachRow(of plaintext: [UInt8], columns: Set<Int>, overlay: SheetOverlay?, block: Int,
                           _ body: (Int, [(column: Int, value: ViewValue)]) throws -> Void) throws {
        var found: [(column: Int, value: ViewValue)] = []
        if plaintext.first == RowBlock.binaryFormat {
            let binary = try BinaryBlock(payload: RowBlock.decompress(plaintext))
            if !binary.hasRawLines, let laid = laid(overlay?.cells(of: block, in: columns) ?? [], over: binary) {
                for row in binary.rows {
                    found.removeAll(keepingCapacity: true)
                    for cell in row.cells where columns.contains(cell.column) {
                        found.append((cell.column, laid.isEmpty ? ViewValue(binary, cell) : laid[CellReference(row: row.row, column: cell.column)] ?? ViewValue(binary, cell)))
                    }
                    try body(row.row, found)
                }
                return
            }
        }
        var entries = try RowBlock.entries(stored: plaintext, columns: columns)
        overlay?.apply(to: &entries, block: block, columns: columns)
        for entry in entries {
            found.removeAll(keepingCapacity: true)
            for cell in entry.cells {
                guard let column = RowBlock.column(of: cell), columns.contains(column) else { continue }
                found.append((column, ViewValue(cellLine: cell)))
            }
            try body(entry.row, found)
        }
    }

    /// The values of `cells` (a block's, from an overlay) as a view reads them once a write has
    /// stored them in `binary`'s cells (typed in each cell's number format, as `StoredCell`
    /// types them); nil when one is not in the block (a write would add it).
    private static func laid(_ cells: [SheetEdit.Touched], over binary: BinaryBlock) -> [CellReference: ViewValue]? {
        guard !cells.isEmpty else { return [:] }
        var values = Dictionary(cells.map { ($0.cell, $0.value) }, uniquingKeysWith: { _, last in last })
        var formats: [String?] = Array(repeating: nil, count: binary.styles.count)
        var laid: [CellReference: ViewValue] = [:]
        laid.reserveCapacity(values.count)
        for row in binary.rows {
            for cell in row.cells {
                let key = CellReference(row: row.row, column: cell.column)
                guard let value = values.removeValue(forKey: key) else { continue }
                laid[key] = ViewValue(value, numberFormat: binary.numberFormat(of: cell, cache: &formats))
            }
        }
        return values.isEmpty ? laid : nil
    }

    /// The value a view reads for `value` stored in a cell of `numberFormat`: typed as
    /// `StoredCell` types it (a number in a date format is a date, to the millisecond).
    init(_ value: CalcValue, numberFormat: String) {
        switch StoredCell.typedValue(value, numberFormat: numberFormat) {
        case ("number", .number(let number)): self = .number(number)
        case ("date", .string(let iso)): self = ExcelDateTime(iso: iso).map { .number($0.serial(in: .excel1900)) } ?? .blank
        case ("string", .string(let text)): self = .text(Self.fold(text))
        case ("boolean", .bool(let bool)): self = .boolean(bool)
        case ("error", .string(let code)): self = .error(code)
        default: self = .blank
        }
    }

    /// Text folded and cut as views keep it.
    static func fold(_ text: String) -> String { String(text.prefix(maxTextLength)).lowercased() }

    /// Where the kind sorts in ascending order, as Excel sorts: numbers, text, booleans,
    /// errors, then blanks.
    private var rank: Int {
        switch self {
        case .number: 0
        case .text: 1
        case .boolean: 2
        case .error: 3
        case .blank: 4
        }
    }

    /// -1, 0 or 1: how `self` sorts against `other`, ascending or not; blanks are last either
    /// way and errors tie among themselves (the row decides, so the sort is stable).
    func compare(_ other: ViewValue, ascending: Bool) -> Int {
        if case .blank = self { if case .blank = other { return 0 }; return 1 }
        if case .blank = other { return -1 }
        let order: Int
        switch (self, other) {
        case let (.number(a), .number(b)): order = a < b ? -1 : a > b ? 1 : 0
        case let (.text(a), .text(b)): order = a < b ? -1 : a > b ? 1 : 0
        case let (.boolean(a), .boolean(b)): order = a == b ? 0 : a ? 1 : -1
        default: order = rank < other.rank ? -1 : rank > other.rank ? 1 : 0
        }
        return ascending ? order : -order
    }

    /// The folded text `contains:` searches: text as kept, a number as it is written, a boolean
    /// as `true` or `false`, an error's code; nil for a blank.
    var text: String? {
        switch self {
        case .number(let number): ValueText.number(number)
        case .text(let text): text
        case .boolean(let flag): flag ? "true" : "false"
        case .error(let code): code.lowercased()
        case .blank: nil
        }
    }

    /// A filter's operand, read once: a number (or an ISO date, as its serial), `TRUE`/`FALSE`,
    /// or text; empty means blank.
    struct Operand {
        let folded: String
        let number: Double?
        let boolean: Bool?

        init(_ text: String) {
            folded = ViewValue.fold(text)
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            // Only plain decimal numbers: `nan`, `inf` and hexadecimal floats are text here.
            if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) || [0x2B, 0x2D, 0x2E, 0x45, 0x65].contains($0) }),
               let number = Double(trimmed), number.isFinite {
                self.number = number
            } else if trimmed.utf8.count >= 8, trimmed.contains("-"), let date = ExcelDateTime(iso: trimmed), date.isValidDay {
                self.number = date.serial(in: .excel1900)
            } else {
                number = nil
            }
            boolean = number == nil ? ["true": true, "false": false][folded] : nil
        }

        /// `=`: a blank for an empty operand, else the same number, boolean or text (ignoring case).
        func equals(_ value: ViewValue) -> Bool {
            if folded.isEmpty { return value == .blank }
            switch value {
            case .number(let n): return number == n
            case .boolean(let flag): return boolean == flag
            case .text(let text): return number == nil && boolean == nil && text == folded
            case .error(let code): return code.lowercased() == folded
            case .blank: return false
            }
        }

        /// The sign of `value` minus the operand when both are numbers, both text or both
        /// booleans; nil when they do not compare (no match for `<`, `>`, ...).
        func order(of value: ViewValue) -> Int? {
            switch value {
            case .number(let n):
                guard let number else { return nil }
                return n < number ? -1 : n > number ? 1 : 0
            case .text(let text):
                guard number == nil, boolean == nil, !folded.isEmpty else { return nil }
                return text < folded ? -1 : text > folded ? 1 : 0
            case .boolean(let flag):
                guard let boolean else { return nil }
                return flag == boolean ? 0 : flag ? 1 : -1
            case .error, .blank:
                return nil
            }
        }
    }
}
