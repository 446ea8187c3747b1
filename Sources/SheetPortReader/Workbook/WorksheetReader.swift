import Foundation
import SheetPortCore

/// Reads one worksheet row by row, inflating and parsing only as far as the rows asked for.
///
/// ISA-L (zlib as the fallback) inflates the part on one thread (`BackgroundInflater`), the
/// worksheet fast path (`WorksheetTokenizer`) tokenizes the inflated bytes on another and a
/// third decodes the cells' values (`RowProducer`), and the caller's thread takes the rows in
/// batches. Whatever the fast path does not handle, it hands over:
/// the part is then read again from its start by libxml2 (`XMLEventThread`, on another
/// thread), the rows already returned are skipped, and libxml2 decides on the rest (errors
/// included). Memory is bounded by a few inflated chunks (64 KiB each), the tokenizer's
/// buffer (256 KiB, up to 4 MiB for one huge token) and the rows of one batch.
public final class WorksheetReader {
    /// How the worksheet XML is parsed.
    package enum Engine: Sendable {
        /// The fast path, handing over to libxml2 when it must.
        case automatic
        /// libxml2 from the start (the reference the fast path is tested against).
        case libxml2

        /// `SHEETPORT_WORKSHEET_XML=libxml2` selects libxml2, to compare the two in benchmarks.
        static let standard: Engine = ProcessInfo.processInfo.environment["SHEETPORT_WORKSHEET_XML"] == "libxml2" ? .libxml2 : .automatic
    }

    /// The sheet being read.
    public let sheet: Sheet
    private var handler: WorksheetPart
    private var producer: RowProducer?
    private var events: XMLEventThread?
    /// The current batch of rows, and on the fast path its metadata and progress (the
    /// producing threads' own copies change under them).
    private var batch: [Row] = []
    /// Decodes the libxml2 path's rows (the fast path decodes on a thread of its own).
    private var decoder: CellDecoder
    private var batchMetadata = WorksheetMetadata()
    private var batchBytesRead: Int64 = 0
    private var nextIndex = 0
    private var finished = false
    /// Rows returned so far, and rows libxml2 still has to skip after a hand-over.
    private var returned = 0
    private var skipping = 0
    private let entry: ZipArchive.Entry
    private let archive: ZipArchive
    private let sharedStrings: SharedStrings
    private let styles: Styles
    private let cellMetadata: CellMetadata

    /// The libxml2 path's error, thrown once the rows completed before it are returned.
    private var pendingFailure: (any Error)?

    /// Whether the fast path handed the part over to libxml2 (for tests).
    package private(set) var handedOver = false

    init(sheet: Sheet, entry: ZipArchive.Entry, archive: ZipArchive, sharedStrings: SharedStrings, styles: Styles,
         cellMetadata: CellMetadata = CellMetadata(), engine: Engine = .standard) throws {
        self.sheet = sheet
        self.entry = entry
        self.archive = archive
        self.sharedStrings = sharedStrings
        self.styles = styles
        self.cellMetadata = cellMetadata
        handler = WorksheetPart(file: archive.file, part: entry.name, cellMetadata: cellMetadata)
        decoder = CellDecoder(sharedStrings: sharedStrings, styles: styles, cellMetadata: cellMetadata)
        let source = BackgroundInflater(try archive.stream(entry))
        switch engine {
        case .automatic: producer = RowProducer(source: source, handler: handler, decoder: decoder)
        case .libxml2: events = XMLEventThread(source: source, file: archive.file, part: entry.name)
        }
    }

    /// Bytes of the worksheet part parsed so far, and its declared size: how far the read is.
    /// Once the part is read to its end the whole part counts (a small part's one event buffer,
    /// or batch, would otherwise read 0 after a job ends).
    public var progress: (bytesRead: Int64, totalBytes: Int64) {
        (finished ? entry.size : producer != nil ? batchBytesRead : events?.bytesRead ?? 0, entry.size)
    }

    /// Everything but the cells; complete after `nextRow()` has returned nil.
    public var metadata: WorksheetMetadata { producer != nil ? batchMetadata : decoder.completing(handler.metadata) }

    /// The next row in document order (rows with no cells included, for their heights),
    /// or nil at the end of the sheet. Consecutive `<row>` elements with the same number are
    /// one row: their cells are merged in column order (a later cell of a column already seen
    /// replaces it). Rows out of order are not sorted (Excel never writes them, and the read
    /// streams): a row numbered below the one before it comes where the document has it.
    public func nextRow() throws -> Row? {
        if let failure = lookAheadFailure { lookAheadFailure = nil; throw failure }
        guard var row = try lookAhead.take() ?? nextRowAsWritten() else { return nil }
        var merged = false
        while true {
            let next: Row?
            do { next = try nextRowAsWritten() } catch {
                lookAheadFailure = error // the row so far comes first, then the error
                break
            }
            guard let next else { break }
            guard next.index == row.index else { lookAhead = next; break }
            row.cells.append(contentsOf: next.cells)
            row.height = row.height ?? next.height
            row.isHidden = row.isHidden || next.isHidden
            merged = true
        }
        if merged { Self.orderCells(&row.cells) }
        return row
    }

    /// Sorts merged cells by column; of two cells in one column the later one stays.
    static func orderCells(_ cells: inout [Cell]) {
        let ordered = cells.enumerated().sorted { $0.element.column != $1.element.column ? $0.element.column < $1.element.column : $0.offset < $1.offset }
        var result: [Cell] = []
        result.reserveCapacity(ordered.count)
        for (_, cell) in ordered {
            if let last = result.last, last.column == cell.column { result[result.count - 1] = cell } else { result.append(cell) }
        }
        cells = result
    }

    /// The row read after the one returned, when it had another number.
    private var lookAhead: Row?
    /// An error met while looking ahead, thrown on the next call.
    private var lookAheadFailure: (any Error)?

    /// The next `<row>` element as the document has it.
    private func nextRowAsWritten() throws -> Row? {
        if let producer {
            while nextIndex == batch.count {
                nextIndex = 0
                batch = []
                if finished { return nil }
                let next = producer.next()
                batchMetadata = next.metadata
                batchBytesRead = next.bytesRead
                switch next.step {
                case .rows: batch = next.rows
                case .end: batch = next.rows; finished = true
                case .handOver: try handOver(); return try nextRowAsWritten()
                }
            }
            defer { nextIndex += 1; returned += 1 }
            return batch[nextIndex]
        }
        while nextIndex == batch.count {
            batch.removeAll(keepingCapacity: true)
            nextIndex = 0
            if finished {
                if let failure = pendingFailure { pendingFailure = nil; throw failure }
                return nil
            }
            // A parse error caused by damaged compressed data is reported as the damage (`corrupt-zip`).
            let events = self.events!
            do {
                if try !archive.parsing(entry, { try events.replay(into: handler) }) {
                    finished = true
                }
            } catch {
                // The rows completed before the error come first, as on the fast path, then the error.
                finished = true
                pendingFailure = error
            }
            decoder.decode(handler.completedRows.takeComplete(), into: &batch)
            if skipping > 0 { // rows the fast path returned before it handed over
                nextIndex = Swift.min(skipping, batch.count)
                skipping -= nextIndex
            }
        }
        defer { nextIndex += 1; returned += 1 }
        return batch[nextIndex]
    }

    /// Calls `body` with every remaining row.
    public func forEachRow(_ body: (Row) throws -> Void) throws {
        while let row = try nextRow() { try body(row) }
    }

    /// Reads the part again from its start with libxml2, skipping the rows already returned.
    private func handOver() throws {
        producer = nil // stops its threads
        batch = []
        nextIndex = 0
        handedOver = true
        handler = WorksheetPart(file: archive.file, part: entry.name, cellMetadata: cellMetadata)
        decoder = CellDecoder(sharedStrings: sharedStrings, styles: styles, cellMetadata: cellMetadata)
        events = XMLEventThread(source: BackgroundInflater(try archive.stream(entry)), file: archive.file, part: entry.name)
        skipping = returned
    }
}
