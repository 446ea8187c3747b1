/// A small command-line parser: `--flag`, `--option value`, `--option=value`, `-o value`
/// and positional arguments, `--` ending the options. Unknown options are usage errors.
struct Arguments {
    /// Positional arguments in order.
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` for options that take a value (`valued`) and options that don't (`flags`).
    /// Short names map to long ones through `aliases` (`["-o": "--output"]`).
    init(_ arguments: [String], valued: Set<String>, flags allowed: Set<String>,
         aliases: [String: String] = [:]) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inlineValue = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            argument = aliases[argument] ?? argument
            if valued.contains(argument) {
                guard let value = inlineValue ?? (index < arguments.count ? arguments[index] : nil) else {
                    throw UsageError("\(argument) needs a value")
                }
                if inlineValue == nil { index += 1 }
                values[argument, default: []].append(value)
            } else if allowed.contains(argument), inlineValue == nil {
                flags.insert(argument)
            } else {
                throw UsageError("unknown option \(argument)")
            }
        }
    }

    /// The last value given for an option.
    func value(_ option: String) -> String? { values[option]?.last }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A usage error: wrong arguments. Exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
