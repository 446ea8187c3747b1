import SheetPortCore

/// `for try await row in reader`: the rows of `nextRow()` as an asynchronous sequence. A damaged
/// part ends the loop with its error (the rows before the damage come first), never silently.
extension WorksheetReader: AsyncSequence {
    /// A row of the sheet.
    public typealias Element = Row

    /// Takes the reader's rows one by one, on the caller's own isolation.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: WorksheetReader

        /// The next row, or nil at the end of the sheet.
        public mutating func next() async throws -> Row? { try reader.nextRow() }

        /// The next row, read on the caller's isolation (the reader is not shared with any other).
        @available(macOS 15, iOS 18, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Row? {
            try reader.nextRow()
        }
    }

    /// An iterator over the rows not yet read.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: self) }
}
