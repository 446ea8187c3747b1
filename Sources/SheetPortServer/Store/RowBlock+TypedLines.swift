extension RowBlock {
    /// The typed cells (`TypedLine`) of lines a write already holds typed: the lines a binary
    /// block decoded into, and the lines a write rendered from its cells. `binary` encodes such
    /// a line from its cell instead of reading it back.
    ///
    /// A line is known by its own bytes' address, in a buffer this keeps alive: no other line
    /// can have that address, and a line changed since (spliced, replaced, another array) is
    /// not found, so it is read as any line is.
    package struct TypedLines {
        /// The lines of one decoded block, all slices of one buffer: each typed cell by where
        /// its line starts there (found by a binary search, not a dictionary entry per cell).
        private struct Decoded {
            let block: BinaryBlock
            let buffer: [UInt8]
            let base: UnsafeRawPointer
            /// Where each line starts (ascending) and ends.
            let starts: [Int]
            let ends: [Int]
            let cells: [BinaryBlock.BlockCell]

            /// The cell whose line is `count` bytes at `address`, nil when no line starts there.
            func cell(at address: UnsafeRawPointer, count: Int) -> BinaryBlock.BlockCell? {
                guard address >= base, address < base + buffer.count else { return nil }
                let offset = address - base
                var low = 0, high = starts.count
                while low < high {
                    let middle = (low + high) / 2
                    if starts[middle] < offset { low = middle + 1 } else { high = middle }
                }
                guard low < starts.count, starts[low] == offset, ends[low] - offset == count else { return nil }
                return cells[low]
            }
        }

        private var cells: [UnsafeRawPointer: (line: ArraySlice<UInt8>, cell: TypedLine)] = [:]
        private var decoded: [Decoded] = []

        package init() {}

        /// Registers `cell` as the typed form of `line`.
        mutating func add(_ line: ArraySlice<UInt8>, _ cell: TypedLine) {
            guard let key = Self.key(line) else { return }
            cells[key] = (line, cell)
        }

        /// Makes room for `count` more lines rendered by a write (a block's whole rewrite adds them at once).
        mutating func reserveCapacity(_ count: Int) {
            cells.reserveCapacity(cells.count + count)
        }

        /// Registers the typed cells `block` decoded into lines of `lines`, each at its range of
        /// `ranges` (ascending).
        mutating func add(_ block: BinaryBlock, lines: [UInt8], ranges: [Range<Int>], cells: [BinaryBlock.BlockCell]) {
            guard let base = lines.withUnsafeBufferPointer({ $0.baseAddress.map(UnsafeRawPointer.init) }) else { return }
            decoded.append(Decoded(block: block, buffer: lines, base: base, starts: ranges.map(\.lowerBound), ends: ranges.map(\.upperBound), cells: cells))
        }

        /// The typed form of `line` when it is a line registered here, the same bytes in the same buffer.
        func cell(of line: ArraySlice<UInt8>) -> TypedLine? {
            guard let key = Self.key(line) else { return nil }
            for block in decoded {
                guard let cell = block.cell(at: key, count: line.count) else { continue }
                return TypedLine(block.block, cell)
            }
            guard !cells.isEmpty, let known = cells[key], known.line.count == line.count else { return nil }
            return known.cell
        }

        private static func key(_ line: ArraySlice<UInt8>) -> UnsafeRawPointer? {
            line.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        }
    }
}
