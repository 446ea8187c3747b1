import SheetPortCore
/// One command-line option, declared once with its help: a command's `CommandSpec` builds both
/// its parser and its `--help` text from these, so help cannot drift from what is accepted.
struct Option: Sendable {
    /// The long name, `--output`.
    let name: String
    /// A short alias, `-o`.
    let short: String?
    /// The value's placeholder in help (`OUT`, `N`); nil for a flag.
    let placeholder: String?
    /// What the option does; a second line is indented under the first.
    let help: String

    /// An option that takes no value.
    static func flag(_ name: String, short: String? = nil, _ help: String) -> Option {
        Option(name: name, short: short, placeholder: nil, help: help)
    }

    /// An option that takes a value, `--name VALUE` or `--name=VALUE`.
    static func valued(_ name: String, short: String? = nil, _ placeholder: String, _ help: String) -> Option {
        Option(name: name, short: short, placeholder: placeholder, help: help)
    }

    /// `-h, --help`, which every command has.
    static let help = flag("--help", short: "-h", "show this help")
    /// `--no-progress`.
    static let noProgress = flag("--no-progress", "no progress bar (it is shown only when standard error is a terminal)")
    /// `--json`.
    static let json = flag("--json", "machine output: JSON on standard output")
}

/// Options shown together in help under one heading (`OPTIONS:`, the reader's limits, ...).
struct OptionGroup: Sendable {
    /// The heading, `OPTIONS` or a sentence for a shared group.
    let title: String
    /// The options, in the order help lists them.
    let options: [Option]
}

/// A command's usage, description and options: the one source of its parser and its help.
struct CommandSpec: Sendable {
    /// The `USAGE:` line(s) without the word `USAGE:`.
    let usage: String
    /// What the command does, exit statuses: paragraphs printed before the options.
    let about: String
    /// The options, by group.
    let groups: [OptionGroup]
    /// Text printed after the options.
    var footer: String = ""

    /// Every option, in declaration order.
    var options: [Option] { groups.flatMap(\.options) }

    /// The `--help` text.
    var help: String {
        var text = "USAGE: " + usage
        if !about.isEmpty { text += "\n\n" + about }
        for group in groups where !group.options.isEmpty {
            text += "\n\n" + group.title + ":"
            for option in group.options { text += "\n" + Self.helpLines(option) }
        }
        if !footer.isEmpty { text += "\n\n" + footer }
        return text
    }

    /// Parses `arguments`; a usage error on an option this spec does not declare.
    func parse(_ arguments: [String]) throws(UsageError) -> Arguments {
        try Arguments(arguments, spec: self)
    }

    private static let helpColumn = 27

    /// `  -o, --output OUT          where to write`, the help wrapped under its column.
    private static func helpLines(_ option: Option) -> String {
        var left = "  " + (option.short.map { $0 + ", " } ?? "") + option.name
        if let placeholder = option.placeholder { left += " " + placeholder }
        let indent = String(repeating: " ", count: helpColumn)
        let lines = option.help.split(separator: "\n", omittingEmptySubsequences: false)
        var text = left.count < helpColumn - 1 ? left + String(repeating: " ", count: helpColumn - left.count)
                                               : left + "\n" + indent
        text += lines.map(String.init).joined(separator: "\n" + indent)
        return text
    }
}

/// Parsed command-line arguments: `--flag`, `--option value`, `--option=value`, `-o value`
/// and positional arguments, `--` ending the options. Only options of the spec are accepted;
/// an unknown one is a usage error that names the nearest known option.
struct Arguments {
    /// Positional arguments in order.
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    private let declared: Set<String>

    /// Parses `arguments` against the options `spec` declares.
    init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
        let options = spec.options
        var byName: [String: Option] = [:]
        for option in options {
            byName[option.name] = option
            if let short = option.short { byName[short] = option }
        }
        declared = Set(options.map(\.name))
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inlineValue = String(argument[argument.index(after: equals)...])
                name = String(argument[..<equals])
            }
            guard let option = byName[name] else {
                throw UsageError(Self.unknown(name, among: options))
            }
            if option.placeholder != nil {
                guard let value = inlineValue ?? (index < arguments.count ? arguments[index] : nil) else {
                    throw UsageError("\(option.name) needs a value (\(option.name) \(option.placeholder!))")
                }
                if inlineValue == nil { index += 1 }
                values[option.name, default: []].append(value)
            } else {
                guard inlineValue == nil else { throw UsageError("\(option.name) takes no value") }
                flags.insert(option.name)
            }
        }
    }

    /// The last value given for an option.
    func value(_ option: String) -> String? {
        assert(declared.contains(option), "\(option) is read but not declared in the command's spec")
        return values[option]?.last
    }

    /// Every value given for an option, in order.
    func values(_ option: String) -> [String] {
        assert(declared.contains(option), "\(option) is read but not declared in the command's spec")
        return values[option] ?? []
    }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool {
        assert(declared.contains(flag), "\(flag) is read but not declared in the command's spec")
        return flags.contains(flag)
    }

    /// `unknown option --exlude-hidden; did you mean --exclude-hidden?`; the name is shown with
    /// control characters escaped, as it may be anything.
    static func unknown(_ name: String, among options: [Option]) -> String {
        let shown = name.unicodeScalars.count > 80 ? String(String.UnicodeScalarView(name.unicodeScalars.prefix(80))) + "..." : name
        let message = "unknown option \(shown.visibleControlCharacters)"
        let names = options.map(\.name)
        guard let nearest = Suggestion.nearest(to: name, among: names) else {
            return message + " (run with --help for the options)"
        }
        return message + "; did you mean \(nearest)?"
    }
}

/// The nearest of a few known words to a mistyped one, by edit distance.
enum Suggestion {
    /// The known word closest to `word`, when it is close enough to be what was meant.
    static func nearest(to word: String, among known: [String]) -> String? {
        let typed = Array(word.lowercased().unicodeScalars.prefix(64))
        guard !typed.isEmpty else { return nil }
        var best: (word: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(typed, Array(candidate.unicodeScalars))
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        // A third of the word may be wrong (two edits at least), so `--exlude-hiden` still finds
        // `--exclude-hidden` but `--x` finds nothing.
        return best.distance <= max(2, best.word.unicodeScalars.count / 3) ? best.word : nil
    }

    /// Levenshtein distance, transpositions counted as one edit.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](0...b.count), previous = before
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], before[j - 2] + 1)
                }
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }
}

/// A usage error: wrong arguments. Exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
