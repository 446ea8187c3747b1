extension RowBlock {
    /// The typed cells (`TypedLine`) of lines a write already holds typed: the lines a binary
    /// block decoded into, and the lines a write rendered from its cells. `binary` encodes such
    /// a line from its cell instead of reading it back.
    ///
    /// A line is known by its own bytes' buffer, which this keeps alive: no other line can have
    /// that address, and a line changed since (spliced, replaced, another array) is not found,
    /// so it is read as any line is.
    package struct TypedLines {
        private var cells: [UnsafeRawPointer: (line: ArraySlice<UInt8>, cell: TypedLine)] = [:]

        package init() {}

        /// Registers `cell` as the typed form of `line`.
        mutating func add(_ line: ArraySlice<UInt8>, _ cell: TypedLine) {
            guard let key = Self.key(line) else { return }
            cells[key] = (line, cell)
        }

        /// The typed form of `line` when it is a line registered here, the same bytes in the same buffer.
        func cell(of line: ArraySlice<UInt8>) -> TypedLine? {
            guard !cells.isEmpty, let key = Self.key(line), let known = cells[key], known.line.count == line.count else { return nil }
            return known.cell
        }

        private static func key(_ line: ArraySlice<UInt8>) -> UnsafeRawPointer? {
            line.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        }
    }
}
