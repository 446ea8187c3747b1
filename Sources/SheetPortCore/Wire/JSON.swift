import Foundation

/// A JSON value built for output (server responses, `check --json`), rendered compactly with
/// keys in the order given.
public indirect enum JSON: Sendable {
    /// Members in order.
    case object([(String, JSON)])
    /// Values in order.
    case array([JSON])
    /// A string, escaped when rendered.
    case string(String)
    /// An integer.
    case int(Int)
    /// A number, in the shortest form that reads back as the same double.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// Text that already is JSON (pre-rendered rows, findings).
    case raw(String)

    /// The compact JSON text.
    public var text: String {
        var output = ""
        render(into: &output)
        return output
    }

    private func render(into output: inout String) {
        switch self {
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                output += Self.quoted(key) + ":"
                value.render(into: &output)
            }
            output += "}"
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.render(into: &output)
            }
            output += "]"
        case .string(let text): output += Self.quoted(text)
        case .int(let number): output += String(number)
        case .number(let number): output += Self.numberText(number)
        case .bool(let flag): output += flag ? "true" : "false"
        case .null: output += "null"
        case .raw(let text): output += text
        }
    }

    /// Parses a request body as a JSON object; nil when it is not one.
    public static func parseObject(_ bytes: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }
}
