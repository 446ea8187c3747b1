/// The F3 menu's entries, in the order drawn: the functions to insert, then the panels.
public enum GridMenuEntry: Sendable, Equatable, CaseIterable {
    case function(InsertableFunction)
    case panel(PanelKind)

    public static var allCases: [GridMenuEntry] {
        InsertableFunction.allCases.map(GridMenuEntry.function) + PanelKind.allCases.map(GridMenuEntry.panel)
    }

    /// The entry as drawn: `SUM`, `History`.
    public var title: String {
        switch self {
        case .function(let function): function.rawValue
        case .panel(let kind): kind.title
        }
    }
}
