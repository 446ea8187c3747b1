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

extension GridMenuEntry {
    /// The menu as one line of at most `width` characters, the `selected` entry in brackets:
    /// every entry when they fit, else the ones around the selected entry with `…` where some
    /// are left out, so the selected one is always seen on a narrow terminal.
    package static func line(selected: Int, width: Int) -> String {
        let titles = allCases.enumerated().map { $0.offset == selected ? "[\($0.element.title)]" : $0.element.title }
        guard width > 0, titles.indices.contains(selected) else { return "" }
        func text(_ first: Int, _ last: Int) -> String {
            (first > 0 ? "… " : "") + titles[first...last].joined(separator: " ") + (last < titles.count - 1 ? " …" : "")
        }
        var first = selected, last = selected
        var grew = true
        while grew {
            grew = false
            if last + 1 < titles.count, text(first, last + 1).count <= width { last += 1; grew = true }
            if first > 0, text(first - 1, last).count <= width { first -= 1; grew = true }
        }
        let shown = text(first, last)
        // Too narrow for the markers: the chosen entry alone.
        return shown.count <= width ? shown : String(titles[selected].prefix(width))
    }
}
