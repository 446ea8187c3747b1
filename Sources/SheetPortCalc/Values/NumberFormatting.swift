import SheetPortCore
/// Renders a number in an Excel number format, for TEXT (and DOLLAR/FIXED-like results).
/// The toolkit's shared renderer can be plugged in through this protocol.
public protocol NumberFormatting: Sendable {
    /// The text of `value` in `format` (en-US), or nil when the format cannot be rendered.
    func format(_ value: Double, _ format: String, dateSystem: DateSystem) -> String?
}

/// The toolkit's renderer (`NumberFormatRenderer` in SheetPortCore: what Excel en-US shows),
/// the one convert's `--values displayed` and the server's `display` use.
public struct BuiltInNumberFormatting: NumberFormatting {
    /// The toolkit's renderer.
    public init() {}

    /// The text of `value` in `format`; nil where Excel's TEXT gives #VALUE! (a date format
    /// for a number outside the calendar, which a cell shows as `####`).
    public func format(_ value: Double, _ format: String, dateSystem: DateSystem) -> String? {
        let text = NumberFormatRenderer.text(number: value, code: format, system: dateSystem)
        return !text.isEmpty && text.allSatisfy({ $0 == "#" }) ? nil : text
    }

    /// Text in the format's text section (`@` stands for it), as TEXT shows a string: not cut
    /// to a cell's 32,767 characters (the renderer stops just past them), so TEXT can refuse it.
    static func text(_ text: String, _ format: String, dateSystem: DateSystem) -> String {
        NumberFormatRenderer.text(text: text, code: format)
    }

    /// `x` with `decimals` places, grouped by thousands or not (FIXED, DOLLAR).
    static func fixed(_ x: Double, decimals: Int, grouping: Bool) -> String {
        let code = (grouping ? "#,##0" : "0") + (decimals > 0 ? "." + String(repeating: "0", count: decimals) : "")
        return NumberFormatRenderer.text(number: x, code: code)
    }
}
