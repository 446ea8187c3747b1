import SheetPortCore

/// The format menu's entries (Alt-F), in the order drawn.
public enum FormatMenuEntry: Sendable, Equatable, CaseIterable {
    case alignLeft, alignCenter, alignRight, alignGeneral
    case numberFormat, fill, color
    case columnWidth, rowHeight
    case clearFormatting

    /// The entry as drawn; `…` marks the ones that ask for a value.
    public var title: String {
        switch self {
        case .alignLeft: "Align left"
        case .alignCenter: "Center"
        case .alignRight: "Align right"
        case .alignGeneral: "Align by kind"
        case .numberFormat: "Number format…"
        case .fill: "Fill colour…"
        case .color: "Text colour…"
        case .columnWidth: "Column width…"
        case .rowHeight: "Row height…"
        case .clearFormatting: "Clear formatting"
        }
    }

    /// The field the entry opens, if it asks for a value.
    var field: FormatField? {
        switch self {
        case .numberFormat: .numberFormat
        case .fill: .fill
        case .color: .color
        case .columnWidth: .columnWidth
        case .rowHeight: .rowHeight
        default: nil
        }
    }
}

/// A value the format menu asks for.
public enum FormatField: Sendable, Equatable {
    case numberFormat, fill, color, columnWidth, rowHeight

    /// The field's prompt.
    public var prompt: String {
        switch self {
        case .numberFormat: "Number format (General removes it)"
        case .fill: "Fill colour #RRGGBB (empty removes it)"
        case .color: "Text colour #RRGGBB (empty removes it)"
        case .columnWidth: "Column width in characters, 0 to 255 (empty: the default)"
        case .rowHeight: "Row height in points, 0 to 409 (empty: the default)"
        }
    }
}

/// Why a format field's text was refused (nothing is sent).
public struct FormatFieldError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence naming what was wrong.
    public var description: String
}

extension FormatField {
    /// `text` without leading and trailing spaces.
    static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// A colour as the server takes it: `#RRGGBB` (a leading `#` optional; upper-cased).
    static func colour(_ text: String) throws(FormatFieldError) -> String? {
        let trimmed = trimmed(text)
        if trimmed.isEmpty { return nil }
        let hex = trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit) else {
            throw FormatFieldError(description: "\"\(trimmed.prefix(20).visibleControlCharacters)\" is not a colour #RRGGBB")
        }
        return "#" + hex.uppercased()
    }

    /// A size from 0 to `maximum`, nil (the default) for empty text.
    static func size(_ text: String, maximum: Double, unit: String) throws(FormatFieldError) -> Double? {
        let trimmed = trimmed(text)
        if trimmed.isEmpty { return nil }
        guard let value = Double(trimmed), value.isFinite, value >= 0, value <= maximum else {
            throw FormatFieldError(description: "\"\(trimmed.prefix(20).visibleControlCharacters)\" is not a number of \(unit) from 0 to \(Int(maximum))")
        }
        return value
    }
}
