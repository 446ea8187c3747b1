import CLibXML2
import Foundation
import SheetPortCore

/// Parses one large part with libxml2 on a thread of its own while the caller's thread
/// handles the events, so that libxml2's tokenizing and SheetPort's cell decoding each get a
/// core (the worksheet: libxml2 alone is about half of reading it).
///
/// The parser thread records events into 256 KiB buffers (element and attribute names and
/// namespace URIs as libxml2's interned pointers, which live as long as the parser; values
/// and text copied) and
/// hands them over through a `ChunkPipe`; `replay(into:)` gives them to the handler on the
/// caller's thread as the same `XMLName` and `XMLAttributes` that `XMLPushParser` gives. The
/// same hostile-input rules hold: libxml2 pulls the bytes (no DTD, no entities, no network,
/// default limits), a DOCTYPE stops it, and errors arrive after the events before them.
final class XMLEventThread {
    private let pipe = ChunkPipe(depth: 4)
    private let recorder: Recorder
    private let done = DispatchSemaphore(value: 0)
    private let file: String
    private let part: String
    // Touched per event by the caller's thread alone: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var current: [UInt8]?
    @exclusivity(unchecked) private var attributes = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 5 * 64)
    @exclusivity(unchecked) private var namespaces = UnsafeMutablePointer<Namespace>.allocate(capacity: 64)
    /// URIs are resolved here, not on the parser thread, which is the busier one.
    @exclusivity(unchecked) private var uris = NamespaceCache()
    @exclusivity(unchecked) private var attributeCapacity = 64

    /// Bytes of the part that libxml2 had read when the events replayed so far were recorded.
    private(set) var bytesRead: Int64 = 0

    /// Starts parsing the bytes of `source` (the part `part` of `file`, for errors).
    init(source: BackgroundInflater, file: String, part: String) {
        _ = XMLPushParser.initialized
        self.file = file
        self.part = part
        recorder = Recorder(source: source, pipe: pipe, file: file, part: part)
        let job = Job(recorder: recorder, done: done)
        let thread = Thread { job.run() }
        thread.stackSize = 4 << 20 // libxml2 recurses per nesting level
        thread.start()
    }

    /// Parses all of `entry` into `handler` on the caller's thread, libxml2 on its own: for
    /// parts that can be large (shared strings) and are read whole before the sheet.
    static func parse(_ entry: ZipArchive.Entry, in archive: ZipArchive, with handler: XMLHandler) throws {
        try archive.parsing(entry) {
            let events = XMLEventThread(source: BackgroundInflater(try archive.stream(entry)), file: archive.file, part: entry.name)
            while try events.replay(into: handler) {}
        }
    }

    deinit {
        // A reader that stops early stops the parser before its dictionary goes away.
        pipe.abort()
        done.wait()
        attributes.deallocate()
        namespaces.deallocate()
    }

    /// Replays the next buffer of events into `handler`; false once every event has been
    /// replayed. Throws the handler's errors, and the parser's after the events before them.
    func replay(into handler: XMLHandler) throws -> Bool {
        if let previous = current.take() { pipe.recycle(previous) }
        guard let events = try pipe.receive() else {
            if let failure = recorder.failure { throw failure }
            return false
        }
        current = events
        do {
            try events.withUnsafeBytes { try replay($0, into: handler) }
        } catch {
            throw XMLPushParser.readerError(error, file: file, part: part)
        }
        return true
    }

    private func replay(_ events: UnsafeRawBufferPointer, into handler: XMLHandler) throws {
        var reader = EventReader(bytes: events)
        bytesRead = Int64(reader.integer(UInt64.self))
        while !reader.isAtEnd {
            switch reader.integer(UInt8.self) {
            case Event.start:
                let namespace = uris.namespace(of: reader.optionalPointer())
                let local = reader.pointer()
                let count = Int(reader.integer(UInt16.self))
                reserveAttributes(count)
                for index in 0..<count {
                    let field = attributes + index * 5 // localname, prefix, URI, value, end (libxml2's layout)
                    field[0] = reader.pointer()
                    field[1] = nil
                    field[2] = reader.optionalPointer()
                    namespaces[index] = uris.namespace(of: field[2])
                    let length = Int(reader.integer(UInt32.self))
                    let value = reader.bytes(length)
                    field[3] = value
                    field[4] = value + length
                }
                try handler.startElement(XMLName(namespace: namespace, local: local),
                                         attributes: XMLAttributes(base: attributes, count: count, namespaces: namespaces))
            case Event.end:
                let namespace = uris.namespace(of: reader.optionalPointer())
                try handler.endElement(XMLName(namespace: namespace, local: reader.pointer()))
            default: // Event.characters
                let length = Int(reader.integer(UInt32.self))
                handler.characters(UnsafeBufferPointer(start: reader.bytes(length), count: length))
            }
        }
    }

    private func reserveAttributes(_ count: Int) {
        guard count > attributeCapacity else { return }
        attributes.deallocate()
        namespaces.deallocate()
        attributeCapacity = count
        attributes = .allocate(capacity: 5 * count)
        namespaces = .allocate(capacity: count)
    }

    /// The record kinds.
    fileprivate enum Event {
        static let start: UInt8 = 1
        static let end: UInt8 = 2
        static let characters: UInt8 = 3
    }

    /// The parser thread's work.
    private struct Job: @unchecked Sendable {
        let recorder: Recorder
        let done: DispatchSemaphore

        func run() {
            recorder.parse()
            done.signal()
        }
    }
}

/// Runs libxml2 in pull mode over the inflated bytes and records its events. Lives on the
/// parser thread; `failure` is written before the pipe finishes, so the reader sees it after.
private final class Recorder: @unchecked Sendable {
    private let source: BackgroundInflater
    private let pipe: ChunkPipe
    private let file: String
    private let part: String
    // Touched on every event by the parser thread alone: dynamic exclusivity checks cost
    // more than the recording itself.
    @exclusivity(unchecked) private var context: xmlParserCtxtPtr?
    @exclusivity(unchecked) private var events = EventWriter(capacity: Recorder.bufferSize + (64 << 10))
    @exclusivity(unchecked) private var outgoing: [UInt8] = []
    @exclusivity(unchecked) private var sourceError: Error?
    @exclusivity(unchecked) private var sawDoctype = false
    @exclusivity(unchecked) private var stopped = false
    private static let bufferSize = 256 << 10

    /// Why the parse failed, if it did.
    private(set) var failure: Error?

    init(source: BackgroundInflater, pipe: ChunkPipe, file: String, part: String) {
        self.source = source
        self.pipe = pipe
        self.file = file
        self.part = part
    }

    deinit {
        // The interned names in the replayed events point into this context's dictionary.
        if let context { xmlFreeParserCtxt(context) }
        events.deallocate()
    }

    func parse() {
        // The same table as XMLPushParser's, but calling this final class directly: shared
        // through a protocol, the dispatch cost 8% more instructions on this, the critical, thread.
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { context, local, _, uri, _, _, count, _, attributes in
            Unmanaged<Recorder>.fromOpaque(context!)._withUnsafeGuaranteedRef {
                $0.recordStart(local: local!, uri: uri, attributes: attributes, count: Int(count))
            }
        }
        sax.endElementNs = { context, local, _, uri in
            Unmanaged<Recorder>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.recordEnd(local: local!, uri: uri) }
        }
        let characters: charactersSAXFunc = { context, text, count in
            Unmanaged<Recorder>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.recordCharacters(text!, count: Int(count)) }
        }
        sax.characters = characters
        sax.ignorableWhitespace = characters
        sax.cdataBlock = characters
        sax.internalSubset = { context, _, _, _ in
            let recorder = Unmanaged<Recorder>.fromOpaque(context!).takeUnretainedValue()
            recorder.sawDoctype = true
            xmlStopParser(recorder.context)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let read: xmlInputReadCallback = { context, buffer, length in
            Unmanaged<Recorder>.fromOpaque(context!).takeUnretainedValue().read(into: buffer!, length: Int(length))
        }
        guard let context = xmlCreateIOParserCtxt(&sax, me, read, nil, me, XML_CHAR_ENCODING_NONE) else {
            failure = ReaderError(.io, file: file, part: part, "libxml2 could not create a parser")
            pipe.finish()
            return
        }
        self.context = context
        xmlCtxtUseOptions(context, XMLPushParser.options)
        startBuffer()
        xmlParseDocument(context)
        guard !stopped else { return } // the reader gave up: nobody listens
        if let sourceError {
            failure = sourceError
        } else if sawDoctype {
            failure = XMLPushParser.doctypeError(file: file, part: part)
        } else if context.pointee.wellFormed == 0 {
            failure = XMLPushParser.malformedError(context, file: file, part: part)
        }
        if events.count > MemoryLayout<UInt64>.size { send() } // the events before an error, too
        pipe.finish()
    }

    /// libxml2's input callback: the inflated bytes, in the sizes it asks for.
    private func read(into buffer: UnsafeMutablePointer<CChar>, length: Int) -> Int32 {
        do {
            return Int32(try source.read(into: buffer, count: length))
        } catch {
            sourceError = error
            return -1
        }
    }

    // MARK: recording

    private func recordStart(local: UnsafePointer<UInt8>, uri: UnsafePointer<UInt8>?,
                             attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int) {
        guard !stopped else { return }
        let count = min(count, Int(UInt16.max))
        var size = 19
        for index in 0..<count {
            let field = attributes! + index * 5
            size += 20 + (field[4]! - field[3]!)
        }
        events.reserve(size)
        events.write(XMLEventThread.Event.start)
        events.write(pointer: uri)
        events.write(pointer: local)
        events.write(UInt16(count))
        for index in 0..<count {
            let field = attributes! + index * 5 // localname, prefix, URI, value, end
            events.write(pointer: field[0])
            events.write(pointer: field[2])
            let length = field[4]! - field[3]!
            events.write(UInt32(length))
            events.write(bytes: field[3]!, count: length)
        }
        if events.count >= Self.bufferSize { send() }
    }

    private func recordEnd(local: UnsafePointer<UInt8>, uri: UnsafePointer<UInt8>?) {
        guard !stopped else { return }
        events.reserve(17)
        events.write(XMLEventThread.Event.end)
        events.write(pointer: uri)
        events.write(pointer: local)
        if events.count >= Self.bufferSize { send() }
    }

    private func recordCharacters(_ text: UnsafePointer<UInt8>, count: Int) {
        guard !stopped else { return }
        events.reserve(5 + count)
        events.write(XMLEventThread.Event.characters)
        events.write(UInt32(count))
        events.write(bytes: text, count: count)
        if events.count >= Self.bufferSize { send() }
    }

    /// Hands the buffer over; a reader that gave up stops the parse.
    private func send() {
        outgoing.removeAll(keepingCapacity: true)
        outgoing.append(contentsOf: UnsafeRawBufferPointer(start: events.base, count: events.count))
        do {
            try pipe.send(&outgoing)
            startBuffer()
        } catch {
            stopped = true
            xmlStopParser(context)
        }
    }

    /// Every buffer starts with how many bytes libxml2 had read: the reader's progress.
    private func startBuffer() {
        events.count = 0
        events.reserve(8)
        events.write(UInt64(source.bytesRead))
    }
}

/// The buffer events are recorded into: raw stores, no per-byte bounds or uniqueness checks.
private struct EventWriter {
    private(set) var base: UnsafeMutableRawPointer
    private var capacity: Int
    var count = 0

    init(capacity: Int) {
        base = .allocate(byteCount: capacity, alignment: 16)
        self.capacity = capacity
    }

    func deallocate() { base.deallocate() }

    /// Makes room for `size` more bytes (one event: a huge text grows the buffer once).
    @inline(__always)
    mutating func reserve(_ size: Int) {
        guard count + size > capacity else { return }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: max(capacity * 2, count + size), alignment: 16)
        grown.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = grown
        capacity = max(capacity * 2, count + size)
    }

    @inline(__always)
    mutating func write<Integer: FixedWidthInteger>(_ value: Integer) {
        base.storeBytes(of: value.littleEndian, toByteOffset: count, as: Integer.self)
        count += MemoryLayout<Integer>.size
    }

    @inline(__always)
    mutating func write(pointer: UnsafePointer<UInt8>?) { write(UInt64(UInt(bitPattern: pointer))) }

    @inline(__always)
    mutating func write(bytes: UnsafePointer<UInt8>, count length: Int) {
        (base + count).copyMemory(from: bytes, byteCount: length)
        count += length
    }
}

/// Reads the records of one event buffer in order.
private struct EventReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var isAtEnd: Bool { offset >= bytes.count }

    @inline(__always)
    mutating func integer<Integer: FixedWidthInteger>(_: Integer.Type) -> Integer {
        defer { offset += MemoryLayout<Integer>.size }
        return Integer(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Integer.self))
    }

    @inline(__always)
    mutating func optionalPointer() -> UnsafePointer<UInt8>? {
        UnsafePointer(bitPattern: UInt(integer(UInt64.self)))
    }

    @inline(__always)
    mutating func pointer() -> UnsafePointer<UInt8> { optionalPointer()! }

    /// `length` bytes of value or text, in place.
    @inline(__always)
    mutating func bytes(_ length: Int) -> UnsafePointer<UInt8> {
        defer { offset += length }
        return (bytes.baseAddress! + offset).assumingMemoryBound(to: UInt8.self)
    }
}

extension Optional {
    /// The value, leaving nil behind.
    fileprivate mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
