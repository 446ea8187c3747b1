extension Functions {
    static let statistical: [FunctionSpec] = []
    static let text: [FunctionSpec] = []
    static let dateTime: [FunctionSpec] = []
    static let lookup: [FunctionSpec] = []
    static let financial: [FunctionSpec] = []
}
struct LookupCache {}
/// Renders numbers in a number format for TEXT.
public protocol NumberFormatting: Sendable {
    /// The text of `value` in `format`.
    func format(_ value: Double, _ format: String, dateSystem: DateSystem) -> String?
}
/// The built-in renderer.
public struct BuiltInNumberFormatting: NumberFormatting {
    /// A renderer.
    public init() {}
    public func format(_ value: Double, _ format: String, dateSystem: DateSystem) -> String? { nil }
}
