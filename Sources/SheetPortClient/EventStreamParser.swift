/// One event of a `text/event-stream` answer.
package struct ServerSentEvent: Sendable, Equatable {
    /// Its `id:` (the last one seen on the stream), for `Last-Event-ID`.
    package var id: String?
    /// Its `event:` name (`message` when none).
    package var name: String
    /// Its `data:` lines, joined with line breaks.
    package var data: String

    /// An event.
    package init(id: String?, name: String, data: String) {
        self.id = id
        self.name = name
        self.data = data
    }
}

/// Splits a `text/event-stream` body, fed in chunks as it arrives, into events (the WHATWG
/// rules: lines end in LF, CRLF or CR; `:` starts a comment; an empty line dispatches). A
/// server is not trusted: a line or an event longer than `maxBytes` is an error, not memory.
package struct EventStreamParser {
    /// A stream's line or event data over this is refused.
    package var maxBytes = 1 << 20
    private var line: [UInt8] = []
    private var afterCR = false
    private var data: [String] = []
    private var dataBytes = 0
    private var name = ""
    private var lastID: String?

    /// The event line or data that passed `maxBytes`.
    package struct TooLong: Error, CustomStringConvertible {
        /// The cap.
        package let limit: Int
        /// What it says.
        package var description: String { "the event stream sent a line or an event over \(limit) bytes" }
    }

    /// A parser at the start of a stream.
    package init() {}

    /// The events that `bytes` completes.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(TooLong) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR && byte == 0x0A {
                afterCR = false
                continue
            }
            afterCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                if let event = try take(line) { events.append(event) }
                line.removeAll(keepingCapacity: true)
            } else {
                guard line.count < maxBytes else { throw TooLong(limit: maxBytes) }
                line.append(byte)
            }
        }
        return events
    }

    /// Feeds an array of bytes.
    package mutating func feed(_ bytes: [UInt8]) throws -> [ServerSentEvent] {
        try bytes.withUnsafeBytes { try feed($0) }
    }

    private mutating func take(_ line: [UInt8]) throws(TooLong) -> ServerSentEvent? {
        if line.isEmpty {
            defer {
                data = []
                dataBytes = 0
                name = ""
            }
            guard !data.isEmpty else { return nil }
            return ServerSentEvent(id: lastID, name: name.isEmpty ? "message" : name, data: data.joined(separator: "\n"))
        }
        if line.first == UInt8(ascii: ":") { return nil } // a comment: a heartbeat
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = String(decoding: line[..<colon], as: UTF8.self)
        var value = colon < line.endIndex ? line[(colon + 1)...] : []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        let text = String(decoding: value, as: UTF8.self)
        switch field {
        case "data":
            dataBytes += value.count + 1
            guard dataBytes <= maxBytes else { throw TooLong(limit: maxBytes) }
            data.append(text)
        case "event": name = text
        case "id" where !value.contains(0): lastID = text
        default: break // `retry` and unknown fields
        }
        return nil
    }
}
