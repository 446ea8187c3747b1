extension RowBlock {
    /// The typed cells (`TypedLine`) of lines a write already holds typed: the lines a binary
    /// block decoded into, and the lines a write rendered from its cells. `binary` encodes such
    /// a line from its cell instead of reading it back.
    ///
    /// A line is known by its own bytes' buffer, which this keeps alive: no other line can have
    /// that address, and a line changed since (spliced, replaced, another array) is not found,
    /// so it is read as any line is.
    package struct TypedLines {
        /// A line's cell: typed, or a decoded block's cell (made typed only when encoded: most
        /// lines of a block read are never encoded again).
        private enum Cell {
            case typed(TypedLine)
            case decoded(block: Int, BinaryBlock.BlockCell)
        }

        private var cells: [UnsafeRawPointer: (line: ArraySlice<UInt8>, cell: Cell)] = [:]
        private var blocks: [BinaryBlock] = []

        package init() {}

        /// Registers `cell` as the typed form of `line`.
        mutating func add(_ line: ArraySlice<UInt8>, _ cell: TypedLine) {
            guard let key = Self.key(line) else { return }
            cells[key] = (line, .typed(cell))
        }

        /// Registers the lines `block` decoded into, as `each` gives them with their cells.
        mutating func add(_ block: BinaryBlock, _ lines: ((ArraySlice<UInt8>, BinaryBlock.BlockCell) -> Void) -> Void) {
            blocks.append(block)
            let index = blocks.count - 1
            lines { line, cell in
                guard !cell.has(RowBlock.Tag.raw), let key = Self.key(line) else { return }
                cells[key] = (line, .decoded(block: index, cell))
            }
        }

        /// The typed form of `line` when it is a line registered here, the same bytes in the same buffer.
        func cell(of line: ArraySlice<UInt8>) -> TypedLine? {
            guard !cells.isEmpty, let key = Self.key(line), let known = cells[key], known.line.count == line.count else { return nil }
            switch known.cell {
            case .typed(let cell): return cell
            case .decoded(let block, let cell): return TypedLine(blocks[block], cell)
            }
        }

        private static func key(_ line: ArraySlice<UInt8>) -> UnsafeRawPointer? {
            line.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        }
    }
}
