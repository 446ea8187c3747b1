import Testing
@testable import SheetPortCore

/// The types the server and the client both speak: JSON as written, the job statuses and the
/// error codes.
@Suite struct WireTests {
    /// Strings a request or a workbook may carry: quotes, backslashes, every kind of control
    /// character, the two line separators JavaScript breaks on, non-BMP text.
    static let hostileStrings = [
        "", "plain", "a\"b\\c", "\u{0}nul", "\u{1B}[2J", "tab\tcr\rlf\n", "\u{8}\u{C}\u{1F}\u{7F}",
        "\u{2028}\u{2029}", "\u{2030}€é", "😀 \u{FEFF}", String(repeating: "\"\\", count: 1_000),
    ]

    /// Every string reads back as itself, with no raw control character or line separator left.
    @Test(arguments: hostileStrings)
    func stringsAreEscaped(_ text: String) throws {
        let rendered = JSON.object([(text, .string(text)), ("list", .array([.string(text)]))]).text
        #expect(!rendered.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" }, "\(rendered.debugDescription)")
        let object = try #require(JSON.parseObject(Array(rendered.utf8)))
        #expect(object[text] as? String == text)
        #expect((object["list"] as? [String])?.first == text)
    }

    @Test func escapesAreTheShortOnes() {
        #expect(JSON.quoted("a\"b\\c\n\r\t\u{8}\u{C}\u{1}\u{2028}\u{2029}é") == #""a\"b\\c\n\r\t\b\f\u0001\u2028\u2029é""#)
        #expect(JSON.string("x").text == #""x""#)
    }

    /// Integral values under 2^53 without a fraction, others in Swift's shortest form, as
    /// `ByteSink.putNumber` writes them without a `String`.
    @Test(arguments: [
        (3.0, "3"), (-0.0, "0"), (-12.0, "-12"), (0.1, "0.1"), (1e-05, "1e-05"), (12.5, "12.5"),
        (9_007_199_254_740_991, "9007199254740991"), (9_007_199_254_740_992, "9007199254740992.0"), (1e16, "1e+16"),
        (1e300, "1e+300"), (-1.7976931348623157e308, "-1.7976931348623157e+308"),
        (Double.infinity, "inf"), (Double.nan, "nan"),
    ])
    func numbersAreShortest(_ value: Double, _ text: String) {
        #expect(JSON.numberText(value) == text)
        #expect(JSON.number(value).text == text)
        let sink = ByteSink()
        sink.putNumber(value)
        #expect(String(decoding: sink.bytes, as: UTF8.self) == text)
    }

    @Test func objectsKeepTheirOrder() {
        let value = JSON.object([("z", .int(-1)), ("a", .bool(true)), ("m", .null), ("r", .raw(#"{"x":[1]}"#)), ("f", .bool(false))])
        #expect(value.text == #"{"z":-1,"a":true,"m":null,"r":{"x":[1]},"f":false}"#)
        #expect(JSON.array([]).text == "[]" && JSON.object([]).text == "{}")
    }

    @Test(arguments: ["", "[1,2]", "\"text\"", "{", "nul", "\u{0}"])
    func onlyAnObjectParses(_ body: String) {
        #expect(JSON.parseObject(Array(body.utf8)) == nil)
    }

    /// The codes read as sent, a newer server's unknown code included; the job codes a reader
    /// failure gives are the reader's own.
    @Test func errorCodesAreAnOpenSet() {
        #expect(ServerErrorCode(rawValue: "bad-request") == .badRequest)
        #expect(ServerErrorCode.internal.description == "internal")
        let unknown = ServerErrorCode(rawValue: "quota-exceeded\u{1B}")
        #expect(unknown.rawValue == "quota-exceeded\u{1B}" && unknown != .badRequest)
        for code in ReaderError.Code.allCases {
            #expect(ServerErrorCode(code).rawValue == code.rawValue)
        }
        #expect(ServerErrorCode.exceedsLimit == ServerErrorCode(rawValue: "exceeds-limit"))
        #expect(ServerErrorCode.missingPart == ServerErrorCode(rawValue: "missing-part"))
        #expect(Set([ServerErrorCode.tooLarge, .batchTooLarge, .tooLarge]).count == 2)
    }

    @Test func jobStatusesAreTheContracts() {
        #expect(ImportJobStatus.allCases.map(\.rawValue) == ["queued", "running", "succeeded", "failed", "cancelled"])
        #expect(ImportJobStatus.allCases.filter(\.isFinal) == [.succeeded, .failed, .cancelled])
        #expect(ImportJobStatus(rawValue: "Queued") == nil && ImportJobStatus(rawValue: "") == nil)
    }

    /// The changes Docs/Reference/HTTP.md lists, spelled as sent; one a newer server sends, or
    /// a hostile one, reads as itself and equals none of them.
    @Test(arguments: hostileStrings + ["Cells", "cells "])
    func sheetChangesAreAnOpenSet(_ text: String) {
        let listed: [SheetChangeKind] = [.create, .import, .rename, .comment, .grant, .cells, .clear, .copy, .format, .sizes, .restore, .undo]
        #expect(listed.map(\.rawValue) == ["create", "import", "rename", "comment", "grant", "cells", "clear", "copy", "format", "sizes",
                                           "restore", "undo"])
        let change = SheetChangeKind(rawValue: text)
        #expect(change.description == text && !listed.contains(change))
        let event = SheetEvent(version: 3, change: change)
        #expect(event.refs == nil && event != SheetEvent(version: 3, change: change, refs: []))
    }
}
