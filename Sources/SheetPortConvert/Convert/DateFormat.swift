import SheetPortCore
/// A user's date pattern for CSV and TSV output (`--date-format`) and input
/// (`--input-date-format`): `%Y` year, `%m` month, `%d` day, `%H` hour, `%M` minute, `%S`
/// second, `%f` milliseconds (3 digits), `%y` two-digit year, `%b` month abbreviation (`Jan`),
/// `%B` month name (`January`), `%I` hour of a 12-hour clock, `%p` `AM` or `PM`, `%%` a percent
/// sign; everything else is copied (and, reading, must be there as written).
///
/// Reading, numbers may have one digit fewer than written (`1/2/2024` for `%m/%d/%Y`), `%f`
/// any number of digits, names and `AM`/`PM` any case; a two-digit year is 2000-2029 for 00-29
/// and 1930-1999 for 30-99, as Excel reads it.
public struct DateFormat: Sendable, Equatable {
    enum Piece: Sendable, Equatable {
        case text(String), year, month, day, hour, minute, second, milliseconds
        case shortYear, monthAbbreviation, monthName, hour12, meridiem
    }
    let pieces: [Piece]

    /// Why a pattern was refused.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        /// The reason, naming the directive.
        public let description: String
    }

    /// Parses `pattern`; throws on an unknown directive, a trailing `%`, or a pattern with no directive.
    public init(_ pattern: String) throws(Invalid) {
        var pieces: [Piece] = []
        var text = ""
        var scalars = pattern.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "%" else { text.unicodeScalars.append(scalar); continue }
            guard let directive = scalars.next() else { throw Invalid(description: "a date format cannot end in %") }
            if directive == "%" { text += "%"; continue }
            guard let piece = Self.directives.first(where: { $0.letter == directive })?.piece else {
                throw Invalid(description: "unknown date directive %\(String(directive).visibleControlCharacters); use \(Self.directiveList) or %%")
            }
            if !text.isEmpty { pieces.append(.text(text)); text = "" }
            pieces.append(piece)
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        guard pieces.contains(where: { if case .text = $0 { false } else { true } }) else {
            throw Invalid(description: "a date format needs at least one of \(Self.directiveList)")
        }
        self.pieces = pieces
    }

    /// The directives other than `%%`, by letter, in the order the messages list them.
    static let directives: [(letter: Unicode.Scalar, piece: Piece)] = [
        ("Y", .year), ("m", .month), ("d", .day), ("H", .hour), ("M", .minute), ("S", .second), ("f", .milliseconds),
        ("y", .shortYear), ("b", .monthAbbreviation), ("B", .monthName), ("I", .hour12), ("p", .meridiem),
    ]
    /// `%Y %m %d ... %p`.
    static let directiveList = directives.map { "%\($0.letter)" }.joined(separator: " ")

    /// `dateTime` in this pattern.
    public func text(_ dateTime: ExcelDateTime) -> String {
        var result = ""
        let seconds = dateTime.millisecondOfDay / 1000
        for piece in pieces {
            switch piece {
            case .text(let text): result += text
            case .year: result += Self.pad(dateTime.year, 4)
            case .month: result += Self.pad(dateTime.month, 2)
            case .day: result += Self.pad(dateTime.day, 2)
            case .hour: result += Self.pad(seconds / 3600, 2)
            case .minute: result += Self.pad(seconds / 60 % 60, 2)
            case .second: result += Self.pad(seconds % 60, 2)
            case .milliseconds: result += Self.pad(dateTime.millisecondOfDay % 1000, 3)
            default: result += Self.text(of: piece, dateTime)
            }
        }
        return result
    }

    /// The text of one of the directives `%y %b %B %I %p`.
    static func text(of piece: Piece, _ dateTime: ExcelDateTime) -> String {
        let hour = dateTime.millisecondOfDay / 3_600_000
        switch piece {
        case .shortYear: return pad(dateTime.year % 100, 2)
        case .monthAbbreviation: return String(monthNames[(dateTime.month - 1) % 12].prefix(3))
        case .monthName: return monthNames[(dateTime.month - 1) % 12]
        case .hour12: return pad(hour % 12 == 0 ? 12 : hour % 12, 2)
        case .meridiem: return hour < 12 ? "AM" : "PM"
        default: return ""
        }
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    /// Whether the pattern has a time of day.
    public var hasTime: Bool {
        pieces.contains { [.hour, .minute, .second, .milliseconds, .hour12, .meridiem].contains($0) }
    }

    /// The date-time `field` holds in this pattern, nil when it does not match it all or is no
    /// real date (a 31 February, a 13th month, hour 24).
    public func parse(_ field: String) -> ExcelDateTime? {
        var rest = Substring(field)
        var year = 1900, month = 1, day = 1, hour = 0, minute = 0, second = 0, milliseconds = 0
        var hour12: Int?, afternoon: Bool?
        func number(_ maxDigits: Int, minDigits: Int = 1) -> Int? {
            let digits = rest.prefix(maxDigits).prefix { $0.isASCII && $0.isNumber }
            guard digits.count >= minDigits, let value = Int(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            return value
        }
        func name(_ full: Bool) -> Int? {
            for (index, monthName) in Self.monthNames.enumerated() {
                let candidate = full ? monthName : String(monthName.prefix(3))
                if rest.prefix(candidate.count).lowercased() == candidate.lowercased() {
                    rest = rest.dropFirst(candidate.count)
                    return index + 1
                }
            }
            return nil
        }
        for piece in pieces {
            switch piece {
            case .text(let text):
                guard rest.hasPrefix(text) else { return nil }
                rest = rest.dropFirst(text.count)
            case .year: guard let value = number(4, minDigits: 4) else { return nil }; year = value
            case .shortYear: guard let value = number(2, minDigits: 2) else { return nil }; year = value < 30 ? 2000 + value : 1900 + value
            case .month: guard let value = number(2) else { return nil }; month = value
            case .monthAbbreviation: guard let value = name(false) else { return nil }; month = value
            case .monthName: guard let value = name(true) else { return nil }; month = value
            case .day: guard let value = number(2) else { return nil }; day = value
            case .hour: guard let value = number(2), value < 24 else { return nil }; hour = value
            case .hour12: guard let value = number(2), (1...12).contains(value) else { return nil }; hour12 = value
            case .minute: guard let value = number(2), value < 60 else { return nil }; minute = value
            case .second: guard let value = number(2), value < 60 else { return nil }; second = value
            case .milliseconds:
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, digits.count <= 9, let fraction = Double("0." + digits) else { return nil }
                rest = rest.dropFirst(digits.count)
                milliseconds = min(999, Int((fraction * 1000).rounded()))
            case .meridiem:
                let marker = rest.prefix(2).uppercased()
                guard marker == "AM" || marker == "PM" else { return nil }
                afternoon = marker == "PM"
                rest = rest.dropFirst(2)
            }
        }
        guard rest.isEmpty else { return nil }
        if let hour12 { hour = hour12 % 12 + ((afternoon ?? false) ? 12 : 0) } else if afternoon == true, hour < 12 { hour += 12 }
        let dateTime = ExcelDateTime(year: year, month: month, day: day,
                                     millisecondOfDay: ((hour * 60 + minute) * 60 + second) * 1000 + milliseconds)
        guard (1...12).contains(month), dateTime.isValidDay, year >= 1900, year <= 9999 else { return nil }
        return dateTime
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
