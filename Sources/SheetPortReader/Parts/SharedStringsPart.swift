import SheetPortCore
/// The shared-string table, stored compactly: all strings' UTF-8 in one buffer, with offsets.
public struct SharedStrings: Sendable, Equatable {
    private var storage: [UInt8] = []
    private var ends: [Int] = []
    /// Indexes of the items with rich-text runs (formatting Sheets does not keep), ascending.
    private var richIndexes: [Int] = []

    /// How many items had rich-text runs.
    public var richTextCount: Int { richIndexes.count }

    /// Whether the item at `index` has rich-text runs.
    public func isRich(at index: Int) -> Bool {
        guard let last = richIndexes.last, index <= last else { return false }
        // The indexes were appended in order.
        let low = richIndexes.partitionPoint { $0 >= index }
        return low < richIndexes.count && richIndexes[low] == index
    }

    /// The number of strings.
    public var count: Int { ends.count }

    /// The string at `index`, or nil when out of range.
    public subscript(index: Int) -> String? {
        guard index >= 0, index < ends.count else { return nil }
        let start = index == 0 ? 0 : ends[index - 1]
        return storage.withUnsafeBufferPointer { String(decoding: $0[start..<ends[index]], as: UTF8.self) }
    }

    /// UTF-8 bytes of all strings.
    var textSize: Int { storage.count }

    mutating func append(_ text: String, isRich: Bool) {
        storage.append(contentsOf: text.utf8)
        ends.append(storage.count)
        if isRich { richIndexes.append(ends.count - 1) }
    }

    /// Appends an item's collected text, `_xHHHH_` escapes decoded, without making a `String`
    /// of it: both XML parsers hand over valid UTF-8 only, so the bytes are the string's.
    mutating func append(_ text: TextCollector, isRich: Bool) {
        text.withBytes { OOXMLText.append(decoding: $0, to: &storage) }
        ends.append(storage.count)
        if isRich { richIndexes.append(ends.count - 1) }
    }

    /// Reads `sharedStrings.xml`; an empty table when there is none.
    ///
    /// A table is as big as its sheet: the worksheet fast path (`WorksheetTokenizer`) reads it,
    /// handing over to libxml2, from the start, whatever it does not take (errors included).
    static func read(_ entry: ZipArchive.Entry?, in archive: ZipArchive,
                     engine: WorksheetReader.Engine = .standard) throws -> SharedStrings {
        guard let entry else { return SharedStrings() }
        if engine == .automatic {
            let fast = SharedStringsPart(maxTextSize: archive.limits.maxTextSize)
            let tokenizer = WorksheetTokenizer(source: BackgroundInflater(try archive.stream(entry)), handler: fast)
            // The table is taken whole (`completedCount` is 0): the part ends, or is handed over.
            if case .end = tokenizer.advance() { return fast.table }
        }
        let handler = SharedStringsPart(maxTextSize: archive.limits.maxTextSize)
        do {
            try XMLEventThread.parse(entry, in: archive, with: handler) // a million strings are tens of MB
        } catch is SharedStringsPart.TooMuchText {
            throw ReaderError(.exceedsLimit, file: archive.file, part: entry.name,
                              "the shared strings hold more than \(archive.limits.maxTextSize) bytes of text (--max-text-size)")
        }
        return handler.table
    }
}

/// Reads a string item (`<si>`, `<is>`, a comment's `<text>`): plain `<t>` or rich-text
/// runs `<r><t>` joined, phonetic runs `<rPh>` skipped, `_xHHHH_` decoded, spaces kept.
struct StringItemReader {
    private(set) var text = TextCollector()
    private(set) var isRich = false
    private var phoneticDepth = 0

    /// Starts a new item.
    mutating func begin() {
        text.clear()
        isRich = false
        phoneticDepth = 0
    }

    /// Collects all character data from here on (for plain-text elements such as `<author>`).
    mutating func collectText() { text.resume() }

    /// Handles an element start inside the item.
    mutating func start(_ name: XMLName) {
        if name.isSpreadsheet("rPh") { phoneticDepth += 1 }
        else if name.isSpreadsheet("r") { isRich = true }
        else if name.isSpreadsheet("t"), phoneticDepth == 0 { text.resume() }
    }

    /// Handles an element end inside the item.
    mutating func end(_ name: XMLName) throws {
        if name.isSpreadsheet("rPh") { phoneticDepth -= 1 }
        else if name.isSpreadsheet("t") { try text.end() }
    }

    /// Ends the item (`</si>`, `</is>`, `</text>`, `</author>`).
    mutating func finish() throws { try text.end() }

    /// Adds character data.
    @inline(__always)
    mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>) { text.append(bytes) }

    /// The item's text.
    var string: String { text.decodedString }
}

final class SharedStringsPart: XMLHandler {
    /// The table grew past the text limit.
    struct TooMuchText: Error {}

    // Touched on every event by the one thread replaying them, never re-entered: dynamic
    // exclusivity checks cost a tenth of the table's reading and buy nothing.
    @exclusivity(unchecked) private(set) var table = SharedStrings()
    private let maxTextSize: Int
    @exclusivity(unchecked) private var item = StringItemReader()
    @exclusivity(unchecked) private var inItem = false

    init(maxTextSize: Int = .max) { self.maxTextSize = maxTextSize }

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        if name.isSpreadsheet("si") {
            item.begin()
            inItem = true
        } else if inItem {
            item.start(name)
        }
    }

    func endElement(_ name: XMLName) throws {
        if name.isSpreadsheet("si") {
            try item.finish()
            table.append(item.text, isRich: item.isRich)
            if table.textSize > maxTextSize { throw TooMuchText() }
            inItem = false
        } else if inItem {
            try item.end(name)
        }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) { item.characters(text) }
}
