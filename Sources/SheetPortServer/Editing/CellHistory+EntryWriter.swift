import SheetPortCore
import SheetPortConvert

extension CellHistory {
    /// Writes a cell's entry JSON text straight into bytes, as the `JSON` tree of its members
    /// would render it (`{"row"?,"col"?,"input","previous","changed","before","after"}`, the
    /// cell before and after as their stored lines in JSON strings): a write of many cells
    /// renders each line once into a scratch buffer and escapes it from there, with no
    /// `String` per line and no tree.
    final class EntryWriter {
        /// The entry (or a row block's entry) being written.
        let sink = ByteSink()
        /// Where a stored line is rendered before it is escaped into `sink`.
        private let scratch = ByteSink(capacity: 256)

        /// Appends one cell's entry object; `at` (a row block's entry) adds its row and column.
        func putCell(_ before: StoredCell, _ after: StoredCell, changed: [String], at cell: CellReference?) {
            putCell(WrittenCell(before: before, after: after), changed: changed, at: cell)
        }

        /// Appends one cell's entry object, its lines the ones the write holds where it holds them.
        func putCell(_ written: WrittenCell, changed: [String], at cell: CellReference?) {
            let (before, after) = (written.before, written.after)
            sink.put(UInt8(ascii: "{"))
            if let cell {
                sink.put("\"row\":" as StaticString)
                sink.putDecimal(Int64(cell.row))
                sink.put(",\"col\":" as StaticString)
                sink.putDecimal(Int64(cell.column))
                sink.put(UInt8(ascii: ","))
            }
            sink.put("\"input\":" as StaticString)
            sink.putEscaped(after.isVacant ? "" : after.input)
            sink.put(",\"previous\":" as StaticString)
            sink.putEscaped(before.isVacant || before.isSpilled ? "" : before.retypeableInput)
            sink.put(",\"changed\":[" as StaticString)
            for (index, member) in changed.enumerated() {
                if index > 0 { sink.put(UInt8(ascii: ",")) }
                sink.putEscaped(member)
            }
            sink.put("],\"before\":" as StaticString)
            putLine(before, written.beforeLine)
            sink.put(",\"after\":" as StaticString)
            putLine(after, written.afterLine)
            sink.put(UInt8(ascii: "}"))
        }

        /// A stored line as a JSON string, `null` for a vacant cell: `line` when given (the
        /// cell's line as stored), else the cell's line rendered.
        private func putLine(_ stored: StoredCell, _ line: ArraySlice<UInt8>?) {
            guard !stored.isVacant else { return sink.put("null" as StaticString) }
            if let line { return line.withUnsafeBufferPointer { sink.putEscaped(utf8: $0) } }
            scratch.removeAll()
            stored.putLine(into: scratch)
            sink.putEscaped(utf8: scratch.bytes)
        }

        /// The bytes written, the writer emptied for the next entry.
        func take() -> [UInt8] {
            defer { sink.removeAll() }
            return Array(sink.bytes)
        }
    }
}
