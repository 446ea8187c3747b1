import SheetPortCore
/// The text of the first element named `name` in a part, cut at `limit` bytes (a hostile part's
/// megabytes of text are not kept): the application that saved a package in `docProps/app.xml`
/// (`<Application>`: Excel for Mac computes CHAR and CODE in the Macintosh character set, Excel
/// for Windows in its ANSI code page), the moment it was saved in `docProps/core.xml`
/// (`<dcterms:modified>`, a W3CDTF date-time).
final class PropertyPart: XMLHandler {
    private let name: StaticString
    private let limit: Int
    private(set) var value: String?
    private var inside = false
    private var text: [UInt8] = []

    init(_ name: StaticString, limit: Int) {
        self.name = name
        self.limit = limit
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        if name.is(self.name), value == nil {
            inside = true
            text.removeAll()
        }
    }

    func endElement(_ name: XMLName) throws {
        guard inside, name.is(self.name) else { return }
        inside = false
        value = String(decoding: text, as: UTF8.self).trimmingSpaces
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        if inside, self.text.count < limit { self.text.append(contentsOf: text.prefix(limit - self.text.count)) }
    }
}

/// A W3CDTF date-time (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a date with `Thh:mm`, `Thh:mm:ss`,
/// `Thh:mm:ss.s` and a zone `Z` or `±hh:mm`), the profile of ISO 8601 `dcterms` dates use.
enum W3CDateTime {
    /// Seconds since 1970-01-01 UTC, or nil when `text` is no W3CDTF date-time.
    static func unixTime(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        func skip(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = digits(4) else { return nil }
        var month = 1, day = 1, seconds = 0.0, offset = 0
        if skip("-") {
            guard let m = digits(2), (1...12).contains(m) else { return nil }
            month = m
            if skip("-") {
                guard let d = digits(2), d >= 1, d <= daysIn(month: month, year: year) else { return nil }
                day = d
                if skip("T") {
                    guard let hour = digits(2), hour < 24, skip(":"), let minute = digits(2), minute < 60 else { return nil }
                    seconds = Double(hour * 3600 + minute * 60)
                    if skip(":") {
                        guard let second = digits(2), second < 60 else { return nil }
                        seconds += Double(second)
                        if skip(".") {
                            var scale = 0.1, any = false
                            while index < bytes.count, let digit = digits(1) {
                                seconds += Double(digit) * scale
                                scale /= 10
                                any = true
                            }
                            guard any else { return nil }
                        }
                    }
                    // A time carries its zone (W3CDTF): Z, or +hh:mm / -hh:mm ahead of UTC.
                    if skip("Z") {
                    } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                        let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                        index += 1
                        guard let hours = digits(2), hours <= 14, skip(":"), let minutes = digits(2), minutes < 60 else { return nil }
                        offset = sign * (hours * 3600 + minutes * 60)
                    } else {
                        return nil
                    }
                }
            }
        }
        guard index == bytes.count else { return nil }
        return Double(ExcelDateTime.daysFromCivil(year, month, day)) * 86_400 + seconds - Double(offset)
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
