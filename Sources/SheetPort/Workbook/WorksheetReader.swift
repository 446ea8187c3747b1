/// Reads one worksheet row by row, inflating and parsing only as far as the rows asked for.
///
/// Three threads share the work: zlib inflates the part (`BackgroundInflater`), libxml2
/// parses it (`XMLEventThread`), and the caller's thread turns the events into rows. Memory
/// is bounded by a few inflated chunks (64 KiB each), a few event buffers (256 KiB each) and
/// the rows one buffer holds, whatever the size of the sheet.
public final class WorksheetReader {
    /// The sheet being read.
    public let sheet: Sheet
    private let handler: WorksheetPart
    private let events: XMLEventThread
    private var nextIndex = 0
    private var finished = false
    private let entrySize: Int64
    private let entry: ZipArchive.Entry
    private let archive: ZipArchive

    init(sheet: Sheet, entry: ZipArchive.Entry, archive: ZipArchive, sharedStrings: SharedStrings, styles: Styles) throws {
        self.sheet = sheet
        handler = WorksheetPart(sharedStrings: sharedStrings, styles: styles, file: archive.file, part: entry.name)
        events = XMLEventThread(source: BackgroundInflater(try archive.stream(entry)), file: archive.file, part: entry.name)
        entrySize = entry.size
        self.entry = entry
        self.archive = archive
    }

    /// Bytes of the worksheet part parsed so far, and its declared size: how far the read is.
    /// Each event buffer carries the count from its start, so once the part is read to its end
    /// the whole part counts (a small part, one buffer, would otherwise read 0).
    public var progress: (bytesRead: Int64, totalBytes: Int64) { (finished ? entrySize : events.bytesRead, entrySize) }

    /// Everything but the cells; complete after `nextRow()` has returned nil.
    public var metadata: WorksheetMetadata { handler.metadata }

    /// The next row in document order (rows with no cells included, for their heights),
    /// or nil at the end of the sheet.
    public func nextRow() throws -> Row? {
        while nextIndex == handler.completedRows.count {
            handler.completedRows.removeAll(keepingCapacity: true)
            nextIndex = 0
            if finished { return nil }
            if try !archive.parsing(entry, { try events.replay(into: handler) }) { finished = true }
        }
        defer { nextIndex += 1 }
        return handler.completedRows[nextIndex]
    }

    /// Calls `body` with every remaining row.
    public func forEachRow(_ body: (Row) throws -> Void) throws {
        while let row = try nextRow() { try body(row) }
    }
}
