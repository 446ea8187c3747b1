import Testing
@testable import SheetPortClient

/// The client's `text/event-stream` parser on what a hostile or odd server may send.
struct EventStreamParserTests {
    @Test func eventsSplitAnywhereAndAnyLineEndingGiveTheSameEvents() throws {
        let text = "retry: 10\r\n: ping\r\nid: 3\revent: version\ndata: {\"a\":1}\r\ndata: two\n\n:\n\nid: 4\ndata:x\n\n"
        let whole = try { var parser = EventStreamParser(); return try parser.feed(Array(text.utf8)) }()
        #expect(whole == [ServerSentEvent(id: "3", name: "version", data: "{\"a\":1}\ntwo"), ServerSentEvent(id: "4", name: "message", data: "x")])
        for split in 1..<text.utf8.count {
            var parser = EventStreamParser()
            let bytes = Array(text.utf8)
            let events = try parser.feed(Array(bytes[..<split])) + parser.feed(Array(bytes[split...]))
            #expect(events == whole, "split at \(split)")
        }
    }

    @Test func anIdWithNULIsIgnoredAndCommentsAreNotEvents() throws {
        var parser = EventStreamParser()
        let events = try parser.feed(Array("id: 1\ndata: a\n\nid: 2\u{0}9\ndata: b\n\n: only a comment\n\n".utf8))
        #expect(events.map(\.id) == ["1", "1"])
        #expect(events.map(\.data) == ["a", "b"])
    }

    @Test(arguments: ["line", "event"])
    func aLineOrEventOverTheCapIsAnErrorNotMemory(_ kind: String) {
        var parser = EventStreamParser()
        parser.maxBytes = 1000
        let bytes = kind == "line" ? [UInt8](repeating: UInt8(ascii: "a"), count: 5000)
                                   : Array(String(repeating: "data: 0123456789\n", count: 200).utf8)
        #expect(throws: EventStreamParser.TooLong.self) { _ = try parser.feed(bytes) }
    }

    @Test func controlCharactersAndInvalidUTF8InDataArriveReplacedNotFatal() throws {
        var parser = EventStreamParser()
        let events = try parser.feed([0x64, 0x61, 0x74, 0x61, 0x3A, 0x20, 0xFF, 0x1B, 0x5B, 0x32, 0x4A, 0x0A, 0x0A])
        #expect(events.count == 1)
        #expect(events.first?.data.unicodeScalars.first == "\u{FFFD}")
    }
}
