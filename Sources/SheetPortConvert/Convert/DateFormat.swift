import SheetPortCore
import SheetPortReader
import SheetPortWriter
/// A user's date pattern for CSV and TSV output (`--date-format`): `%Y` year, `%m` month, `%d`
/// day, `%H` hour, `%M` minute, `%S` second, `%f` milliseconds (3 digits), `%%` a percent sign;
/// everything else is copied.
public struct DateFormat: Sendable, Equatable {
    enum Piece: Sendable, Equatable { case text(String), year, month, day, hour, minute, second, milliseconds }
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
            let piece: Piece
            switch directive {
            case "Y": piece = .year
            case "m": piece = .month
            case "d": piece = .day
            case "H": piece = .hour
            case "M": piece = .minute
            case "S": piece = .second
            case "f": piece = .milliseconds
            case "%": text += "%"; continue
            default:
                throw Invalid(description: "unknown date directive %\(String(directive).visibleControlCharacters); use %Y %m %d %H %M %S %f or %%")
            }
            if !text.isEmpty { pieces.append(.text(text)); text = "" }
            pieces.append(piece)
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        guard pieces.contains(where: { if case .text = $0 { false } else { true } }) else {
            throw Invalid(description: "a date format needs at least one of %Y %m %d %H %M %S %f")
        }
        self.pieces = pieces
    }

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
            }
        }
        return result
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
