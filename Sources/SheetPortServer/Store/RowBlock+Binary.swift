import CZstd
import SheetPortCore
import SheetPortConvert

/// The typed binary row-block format (issue 26), format byte `0x02`, then one zstd frame of:
///
///     strings: count, then each as length + bytes (JSON-escaped text without its quotes)
///     styles:  count, then each as length + bytes (a `style` object as JSON)
///     rows:    count, then per row: row number (zig-zag delta from the previous row), flags
///              (1 a height follows as 8 bytes, 2 hidden), the cell count, and each cell
///     cell:    a tag byte, then the column (zig-zag delta from the previous cell's) and the members
///              the tag announces, in this order: the value (a number as 8 bytes, a whole
///              number as a zig-zag varint, a string, error or date as a string index), the
///              formula, the array range, the style index, the input (string indexes)
///
/// Every count, length and index is an unsigned LEB128 varint. Tag bits 0-2: the value kind
/// (`Kind`); 3 formula, 4 array range, 5 style, 6 an input of its own (otherwise the input is
/// the one the value gives: `=` and the formula, the number's text, the string or error, TRUE
/// or FALSE); 7: the cell is a stored line kept whole (the string index follows: a line this
/// format does not model, kept byte for byte).
///
/// A cell's line reads back as the JSON object the text formats stored (`RowBlock.entries`),
/// members in the writers' order; export and the calculation engine decode the values without
/// any JSON (`RowBlock.rows(stored:)`).
extension RowBlock {
    /// The format byte of a typed binary block.
    package static let binaryFormat: UInt8 = 0x02

    /// The value kinds of a cell's tag.
    enum Kind: UInt8 {
        case empty = 0, double, integer, string, isFalse, isTrue, error, date
    }

    enum Tag {
        static let kindMask: UInt8 = 0x07
        static let formula: UInt8 = 0x08
        static let arrayRange: UInt8 = 0x10
        static let style: UInt8 = 0x20
        static let input: UInt8 = 0x40
        static let raw: UInt8 = 0x80
    }

    /// The bytes to seal for a block whose text lines are `text` (`#ROW` headers and cell
    /// objects, as `encode` and the import write them): the format byte and the compressed
    /// binary form.
    package static func stored(_ text: [UInt8]) -> [UInt8] {
        binary(entries(text: text))
    }

    /// The bytes to seal for a block of imported rows, the same as `stored` makes of the lines
    /// `writer` writes for them (`appendHeader`, `append`), without writing most of those lines.
    package static func binary(rows: [Row], writer: StoredCellWriter) -> [UInt8] {
        guard rows.allSatisfy({ isInGrid(row: $0.index) }) else {
            // Rows outside the grid (never imported) are kept as text lines, which read back as they are.
            var text: [UInt8] = []
            for row in rows { writer.appendHeader(row, to: &text); writer.append(row, to: &text) }
            return compressed(text)
        }
        var encoder = BinaryEncoder()
        for row in rows { encoder.add(row, writer: writer) }
        return compress(encoder.payload(), format: binaryFormat)
    }

    /// Whether the binary format holds row `row` (its reader refuses any other).
    static func isInGrid(row: Int) -> Bool { row >= 1 && row <= ServerConfiguration.maxRows }

    /// Whether the binary format holds column `column` as a typed cell (a line of any other is kept whole).
    static func isInGrid(column: Int) -> Bool { column >= 1 && column <= 16_384 }

    /// The bytes to seal for a block of `entries`. The lines `typed` holds typed (decoded from
    /// a block, or rendered by a write from its cells) are encoded from their cells, not read
    /// back: the same bytes, without parsing those lines.
    package static func binary(_ entries: [Entry], typed: TypedLines = TypedLines()) -> [UInt8] {
        guard entries.allSatisfy({ isInGrid(row: $0.row) }) else { return compressed(encode(entries)) }
        var encoder = BinaryEncoder()
        for entry in entries { encoder.add(entry, typed: typed) }
        return compress(encoder.payload(), format: binaryFormat)
    }

    /// `payload` compressed with zstd level 1 after the format byte `format`.
    static func compress(_ payload: [UInt8], format: UInt8) -> [UInt8] {
        let bound = ZSTD_compressBound(payload.count)
        var output = [UInt8](repeating: 0, count: 1 + bound)
        output[0] = format
        let written = output.withUnsafeMutableBytes { out in
            payload.withUnsafeBytes { input in
                ZSTD_compress(out.baseAddress! + 1, bound, input.baseAddress, input.count, zstdLevel)
            }
        }
        // Compressing into a buffer of the bound cannot fail.
        precondition(ZSTD_isError(written) == 0, "zstd failed on a buffer of its bound")
        // A copy of the written bytes alone: the buffer keeps the bound's capacity when cut
        // (an import holding its blocks held each at its uncompressed size).
        return Array(output[..<(1 + written)])
    }

    /// The decompressed bytes after the format byte of a compressed block.
    static func decompress(_ stored: [UInt8]) throws -> [UInt8] {
        try stored.withUnsafeBytes { raw -> [UInt8] in
            let frame = UnsafeRawBufferPointer(rebasing: raw[1...])
            let size = ZSTD_getFrameContentSize(frame.baseAddress, frame.count)
            guard size != ZSTD_CONTENTSIZE_ERROR, size != ZSTD_CONTENTSIZE_UNKNOWN, size <= UInt64(maxPlaintextBytes) else {
                throw FormatError(message: "a zstd frame without a valid content size")
            }
            var text = [UInt8](repeating: 0, count: Int(size))
            let read = text.withUnsafeMutableBytes { ZSTD_decompress($0.baseAddress, $0.count, frame.baseAddress, frame.count) }
            guard ZSTD_isError(read) == 0, read == Int(size) else {
                throw FormatError(message: "zstd: \(ZSTD_isError(read) != 0 ? String(cString: ZSTD_getErrorName(read)) : "short frame")")
            }
            return text
        }
    }

    /// The rows of a block's text lines (no format byte).
    static func entries(text bytes: [UInt8]) -> [Entry] {
        var entries: [Entry] = []
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let line = bytes[start..<end]
            if line.first == UInt8(ascii: "#") {
                entries.append(header(line))
            } else if !line.isEmpty, !entries.isEmpty {
                entries[entries.count - 1].cells.append(line)
            }
            start = end + 1
        }
        return entries
    }
}

/// Builds a binary block's payload from stored lines.
struct BinaryEncoder {
    private var strings = InternedBytes()
    private var styles = InternedBytes()
    /// The rows as the payload holds them, written with no uniqueness check per byte.
    private let rows = ByteSink()
    private var rowCount = 0
    private var previousRow = 0
    /// An imported cell's text escaped as its line holds it, before it is interned.
    private let escaped = ByteSink(capacity: 256)
    /// The style index of each cell format an imported cell has used: its JSON interned once.
    private var styleOfFormat: [Int: Int] = [:]
    /// The texts of each date serial an imported cell has held, formatted once; nil outside the calendar.
    private var datesOfSerial: [UInt64: (input: [UInt8], value: [UInt8])?] = [:]

    /// A row of stored lines; a line `typed` holds typed is encoded from its cell.
    mutating func add(_ entry: RowBlock.Entry, typed: RowBlock.TypedLines = RowBlock.TypedLines()) {
        beginRow(entry.row, height: entry.height, isHidden: entry.isHidden, cells: entry.cells.count)
        var previousColumn = 0
        for line in entry.cells {
            if let cell = typed.cell(of: line) {
                add(cell, previousColumn: &previousColumn)
            } else {
                add(line, row: entry.row, previousColumn: &previousColumn)
            }
        }
    }

    /// An imported row: each cell as `stored` keeps the line `writer` writes for it. Every
    /// constant and normal formula with a finite number, text, boolean, error, empty or calendar
    /// date value is encoded from the cell itself; any other (an array formula, a duration, a
    /// number that is no JSON number) through its line, so both give the same block.
    mutating func add(_ row: Row, writer: StoredCellWriter) {
        // The cells borrowed through their buffer: an array's element would be copied per cell.
        row.cells.withUnsafeBufferPointer { cells in
            // An empty text alone is left out, as the text lines leave it out.
            let kept = cells.reduce(0) { $1.isEmptyText ? $0 : $0 + 1 }
            beginRow(row.index, height: row.height, isHidden: row.isHidden, cells: kept)
            var previousColumn = 0
            var line: [UInt8] = []
            for index in cells.indices where !cells[index].isEmptyText && !add(cells[index], writer: writer, previousColumn: &previousColumn) {
                line.removeAll(keepingCapacity: true)
                writer.append(Row(index: row.index, cells: [cells[index]]), to: &line)
                add(line.dropLast(), row: row.index, previousColumn: &previousColumn) // without its line break
            }
        }
    }

    private mutating func beginRow(_ row: Int, height: Double?, isHidden: Bool, cells: Int) {
        rowCount += 1
        Varint.put(Varint.zigzag(Int64(row - previousRow)), to: rows)
        previousRow = row
        rows.put((height != nil ? 1 : 0) | (isHidden ? 2 : 0))
        if let height { Varint.putDouble(height, to: rows) }
        Varint.put(UInt64(cells), to: rows)
    }

    /// Encodes `cell` from its value when it is one of the kinds above; false, with nothing
    /// written, otherwise. Its strings are interned in the order the line's reading interns
    /// them (value, formula, style, input), so the indexes are the same.
    private mutating func add(_ cell: Cell, writer: StoredCellWriter, previousColumn: inout Int) -> Bool {
        guard RowBlock.isInGrid(column: cell.column) else { return false }
        var kind = RowBlock.Kind.empty
        var number = 0.0
        var integer: Int64 = 0
        var dateText: (input: [UInt8], value: [UInt8])?
        if cell.formula != nil, cell.formulaKind != .normal { return false }
        switch cell.value {
        case .number(let value):
            guard value.isFinite else { return false }
            // As `TypedLine` reads the text `ValueText.number` gives: whole numbers under 10^15 as integers.
            if value == value.rounded(), value.magnitude < 1e15 {
                kind = .integer
                integer = Int64(value)
            } else {
                kind = .double
                number = value
            }
        case .string: kind = .string
        case .date(let serial):
            // Outside the calendar the line holds the serial as a number.
            guard let texts = dateTexts(serial, writer: writer) else { return false }
            kind = .date
            dateText = texts
        case .boolean(let flag): kind = flag ? .isTrue : .isFalse
        case .error: kind = .error
        case .empty: kind = .empty
        case .duration, .isoDate: return false
        }
        // Nothing below refuses the cell: the strings are interned as they are written.
        var text = 0
        var input: Int?
        switch cell.value {
        case .string(let value), .error(let value): text = string(escaping: value)
        case .date:
            text = string(dateText!.value[...])
            // A date constant's input (the date as typed) is its own; a formula's is `=` and the formula.
            if cell.formula == nil, !dateText!.input.isEmpty { input = string(dateText!.input[...]) }
        default: break
        }
        let formula = cell.formula.map { string(escaping: $0) }
        let style = cell.styleIndex > 0 ? self.style(ofFormat: cell.styleIndex, writer: writer) : nil
        putRecord(kind, column: cell.column, previousColumn: &previousColumn, number: number, integer: integer, text: text,
                  formula: formula, arrayRange: nil, style: style, input: input)
        return true
    }

    /// The string index of `text` JSON-escaped without its quotes, as a line holds it.
    private mutating func string(escaping text: String) -> Int {
        escaped.removeAll()
        escaped.putEscaped(text, quoted: false)
        return strings.index(of: UnsafeRawBufferPointer(escaped.bytes))
    }

    /// `writer.dateTexts(serial:)`, formatted once per serial a block holds.
    private mutating func dateTexts(_ serial: Double, writer: StoredCellWriter) -> (input: [UInt8], value: [UInt8])? {
        if let known = datesOfSerial[serial.bitPattern] { return known }
        let texts = writer.dateTexts(serial: serial)
        datesOfSerial[serial.bitPattern] = texts
        return texts
    }

    /// The style index of cell format `format`'s kept style; nil for a plain one.
    private mutating func style(ofFormat format: Int, writer: StoredCellWriter) -> Int? {
        if let known = styleOfFormat[format] { return known }
        guard let object = writer.styleObject(format) else { return nil }
        let index = style(object)
        styleOfFormat[format] = index
        return index
    }

    func payload() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows.count + strings.storage.count + 2 * strings.count + styles.storage.count + 64)
        strings.put(to: &bytes)
        styles.put(to: &bytes)
        Varint.put(UInt64(rowCount), to: &bytes)
        bytes.append(contentsOf: rows.bytes)
        return bytes
    }

    private mutating func string(_ bytes: ArraySlice<UInt8>) -> Int { strings.index(of: bytes) }

    private mutating func style(_ bytes: ArraySlice<UInt8>) -> Int { styles.index(of: bytes) }

    /// The cell of `line` appended, typed when the line is an object this format models, else whole.
    private mutating func add(_ line: ArraySlice<UInt8>, row: Int, previousColumn: inout Int) {
        guard let cell = TypedLine(line, row: row) else {
            rows.put(RowBlock.Tag.raw)
            Varint.put(UInt64(string(line)), to: rows)
            return
        }
        add(cell, previousColumn: &previousColumn)
    }

    /// A typed cell appended.
    private mutating func add(_ cell: TypedLine, previousColumn: inout Int) {
        // Interned in the order of the record's members (text, formula, range, style, input).
        var text = 0
        switch cell.kind {
        case .string, .error, .date: text = string(cell.text)
        default: break
        }
        let formula = cell.formula.map { string($0) }
        let arrayRange = cell.arrayRange.map { string($0) }
        let style = cell.style.map { self.style($0) }
        let input = cell.input.map { string($0) }
        putRecord(cell.kind, column: cell.column, previousColumn: &previousColumn, number: cell.number, integer: cell.integer,
                  text: text, formula: formula, arrayRange: arrayRange, style: style, input: input)
    }

    /// One cell's record: its tag (kind and the members present), its column after the previous
    /// cell's, its value (a double, a zig-zag integer or a string index), then the string indexes
    /// of its formula, array range, style and input when present.
    private mutating func putRecord(_ kind: RowBlock.Kind, column: Int, previousColumn: inout Int, number: Double, integer: Int64,
                                    text: Int, formula: Int?, arrayRange: Int?, style: Int?, input: Int?) {
        var tag = kind.rawValue
        if formula != nil { tag |= RowBlock.Tag.formula }
        if arrayRange != nil { tag |= RowBlock.Tag.arrayRange }
        if style != nil { tag |= RowBlock.Tag.style }
        if input != nil { tag |= RowBlock.Tag.input }
        rows.put(tag)
        Varint.put(Varint.zigzag(Int64(column - previousColumn)), to: rows)
        previousColumn = column
        switch kind {
        case .double: Varint.putDouble(number, to: rows)
        case .integer: Varint.put(Varint.zigzag(integer), to: rows)
        case .string, .error, .date: Varint.put(UInt64(text), to: rows)
        case .empty, .isFalse, .isTrue: break
        }
        if let formula { Varint.put(UInt64(formula), to: rows) }
        if let arrayRange { Varint.put(UInt64(arrayRange), to: rows) }
        if let style { Varint.put(UInt64(style), to: rows) }
        if let input { Varint.put(UInt64(input), to: rows) }
    }
}

/// A stored cell line taken apart into what the binary format keeps; nil when the line is not
/// exactly an object of the members the writers write (it is then kept whole).
struct TypedLine {
    var column = 0
    var kind = RowBlock.Kind.empty
    var number = 0.0
    var integer: Int64 = 0
    /// A string, error or date value: its escaped text without the quotes.
    var text: ArraySlice<UInt8> = []
    var formula: ArraySlice<UInt8>?
    var arrayRange: ArraySlice<UInt8>?
    var style: ArraySlice<UInt8>?
    /// The input when it is not the one the value gives.
    var input: ArraySlice<UInt8>?

    init?(_ line: ArraySlice<UInt8>, row: Int) {
        guard let members = StoredLine.members(of: line) else { return nil }
        var seen: UInt8 = 0
        var inputText: ArraySlice<UInt8>?, reference: ArraySlice<UInt8>?, type: ArraySlice<UInt8>?, value: ArraySlice<UInt8>?
        for member in members {
            let bytes = line[member.value]
            guard let field = Field(member.key), seen & field.rawValue == 0 else { return nil } // another key, or one twice
            seen |= field.rawValue
            switch field {
            case .col:
                guard !bytes.isEmpty, bytes.count <= 5, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), bytes.first != 0x30 else { return nil }
                column = bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            case .value: value = bytes
            case .style:
                guard bytes.first == UInt8(ascii: "{") else { return nil }
                style = bytes
            case .input, .ref, .type, .formula, .arrayRange:
                guard let inner = Self.inner(bytes) else { return nil }
                switch field {
                case .input: inputText = inner
                case .ref: reference = inner
                case .type: type = inner
                case .formula: formula = inner
                default: arrayRange = inner
                }
            }
        }
        guard RowBlock.isInGrid(column: column), let inputText, let reference, let type, let value,
              Self.isReference(reference, column: column, row: row), classify(type: type, value: value, input: inputText) else { return nil }
    }

    /// The cell `cell.line` stores (`StoredCell.typedLine`). Nil for a cell whose line is kept
    /// whole (a spill's).
    init?(_ cell: StoredCell) {
        guard let typed = cell.typedLine.typed else { return nil }
        self = typed
    }

    /// The cell `cell` whose stored line is `line`, with its members where `members` says
    /// (`StoredCell.putLine`'s): slices of the line, not read again.
    init?(_ cell: StoredCell, line: [UInt8], members: StoredCell.LineMembers) {
        guard cell.spill == nil, RowBlock.isInGrid(column: cell.column) else { return nil }
        column = cell.column
        formula = members.formula.map { line[$0] }
        arrayRange = members.arrayRange.map { line[$0] }
        style = members.style.map { line[$0] }
        guard classify(type: line[members.type], value: line[members.value], input: line[members.input], number: members.number) else { return nil }
    }

    /// The cell a binary block holds, its strings the block's own bytes.
    init(_ block: BinaryBlock, _ cell: BinaryBlock.BlockCell) {
        column = cell.column
        kind = cell.kind
        number = cell.number
        integer = cell.integer
        if kind == .string || kind == .error || kind == .date { text = block.string(cell.text) }
        if cell.has(RowBlock.Tag.formula) { formula = block.string(cell.formula) }
        if cell.has(RowBlock.Tag.arrayRange) { arrayRange = block.string(cell.arrayRange) }
        if cell.has(RowBlock.Tag.style) { style = block.style(cell.style) }
        if cell.has(RowBlock.Tag.input) { input = block.string(cell.input) }
    }

    /// Sets the kind and value of the cell whose `type`, `value` (as JSON) and `input`
    /// (escaped, without quotes) members are these, and its own input when the value does not
    /// give it; false when the line is not one this format models. `known`, the number a
    /// number's `value` was rendered from (`ByteSink.putNumber`, which spells what
    /// `ValueText.number` does, shortest round trip): used as is, its text neither parsed nor
    /// rendered again (a copy or an undo types 100,000 such lines).
    private mutating func classify(type: ArraySlice<UInt8>, value: ArraySlice<UInt8>, input inputText: ArraySlice<UInt8>,
                                   number known: Double? = nil) -> Bool {
        // Whether the input is the one the value gives (then it is not stored).
        let implied: Bool
        if type.elementsEqual(Key.number) {
            let negative = value.first == UInt8(ascii: "-")
            let digits = negative ? value.dropFirst() : value
            if !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
               digits.first != 0x30 || (digits.count == 1 && !negative) {
                // A whole number as the writers spell one (no leading zero, no "-0"): its own text back.
                kind = .integer
                integer = digits.reduce(0) { $0 * 10 + Int64($1 - 0x30) } * (negative ? -1 : 1)
                implied = inputText.elementsEqual(value)
            } else {
                guard let parsed = known ?? Double(String(decoding: value, as: UTF8.self)), parsed.isFinite else { return false }
                kind = .double
                number = parsed
                // Rendered from `known`, `value` is `ValueText.number(known)` already.
                implied = known != nil ? inputText.elementsEqual(value) : inputText.elementsEqual(ValueText.number(parsed).utf8)
            }
        } else if type.elementsEqual(Key.string) || type.elementsEqual(Key.error) || type.elementsEqual(Key.date) {
            guard let inner = Self.inner(value) else { return false }
            kind = type.elementsEqual(Key.string) ? .string : type.elementsEqual(Key.error) ? .error : .date
            text = inner
            implied = kind == .date ? inputText.isEmpty : inputText.elementsEqual(inner)
        } else if type.elementsEqual(Key.boolean) {
            if value.elementsEqual(Key.trueLiteral) { kind = .isTrue; implied = inputText.elementsEqual(Key.trueInput) }
            else if value.elementsEqual(Key.falseLiteral) { kind = .isFalse; implied = inputText.elementsEqual(Key.falseInput) }
            else { return false }
        } else if type.elementsEqual(Key.empty) {
            guard value.elementsEqual(Key.null) else { return false }
            kind = .empty
            implied = inputText.isEmpty
        } else {
            return false
        }
        if let formula {
            if !(inputText.first == UInt8(ascii: "=") && inputText.dropFirst().elementsEqual(formula)) { input = inputText }
        } else if !implied {
            input = inputText
        }
        return true
    }

    /// The members a stored line has, each a bit of those seen; named as the writers name them.
    private enum Field: UInt8, CaseIterable {
        case col = 1, input = 2, ref = 4, type = 8, value = 16, formula = 32, arrayRange = 64, style = 128

        private static let keys = allCases.map { (field: $0, key: Array(String(describing: $0).utf8)) }

        /// The member `key` names; nil for any other. Keys compared as bytes: this runs for every
        /// cell a block stores.
        init?(_ key: ArraySlice<UInt8>) {
            guard let known = Self.keys.first(where: { key.elementsEqual($0.key) }) else { return nil }
            self = known.field
        }
    }

    private enum Key {
        static let number = Array("number".utf8), string = Array("string".utf8), error = Array("error".utf8)
        static let date = Array("date".utf8), boolean = Array("boolean".utf8), empty = Array("empty".utf8)
        static let trueLiteral = Array("true".utf8), falseLiteral = Array("false".utf8), null = Array("null".utf8)
        static let trueInput = Array("TRUE".utf8), falseInput = Array("FALSE".utf8)
    }

    /// Whether `bytes` is the reference of the cell at `column` and `row` (`B2`), read as bytes.
    private static func isReference(_ bytes: ArraySlice<UInt8>, column: Int, row: Int) -> Bool {
        var letters = 0, number = 0, position = bytes.startIndex
        while position < bytes.endIndex, bytes[position] >= 0x41, bytes[position] <= 0x5A, letters <= 16_384 {
            letters = letters * 26 + Int(bytes[position] - 0x40)
            position += 1
        }
        guard position > bytes.startIndex, position < bytes.endIndex, bytes[position] != 0x30 else { return false }
        while position < bytes.endIndex, bytes[position] >= 0x30, bytes[position] <= 0x39, number <= 1 << 21 {
            number = number * 10 + Int(bytes[position] - 0x30)
            position += 1
        }
        return position == bytes.endIndex && letters == column && number == row
    }

    /// The bytes between a JSON string's quotes; nil when `bytes` is no string.
    private static func inner(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return nil }
        return bytes.dropFirst().dropLast()
    }
}

/// Unsigned LEB128 varints, zig-zag signed integers and little-endian doubles.
enum Varint {
    static func put(_ value: UInt64, to bytes: inout [UInt8]) {
        put(value) { bytes.append($0) }
    }

    static func put(_ value: UInt64, to sink: ByteSink) {
        put(value) { sink.put($0) }
    }

    @inline(__always)
    private static func put(_ value: UInt64, _ byte: (UInt8) -> Void) {
        var value = value
        while value >= 0x80 {
            byte(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        byte(UInt8(value))
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
    static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

    /// A double's eight bytes, little-endian.
    static func putDouble(_ value: Double, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    static func putDouble(_ value: Double, to sink: ByteSink) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { sink.put($0.bindMemory(to: UInt8.self)) }
    }
}
