import SheetPortTestSupport
import Foundation
import Testing

/// Each command's options come from one spec: help lists exactly what the parser accepts, and an
/// unknown option names the nearest known one.
@Suite struct CommandOptionsTests {
    static let commands = ["check", "convert", "import", "export", "serve", "token", "demo", "bench"]

    /// The options a help text lists at the start of its lines, with whether each takes a value.
    private func listed(_ help: String) -> [(name: String, takesValue: Bool)] {
        help.split(separator: "\n").compactMap { line -> (String, Bool)? in
            guard line.hasPrefix("  -") else { return nil }
            var words = line.split(separator: " ")
            if words.first?.hasSuffix(",") == true { words.removeFirst() }
            guard let name = words.first, name.hasPrefix("--") else { return nil }
            // `--name VALUE   help`: a placeholder follows with one space.
            let afterName = line[line.range(of: String(name))!.upperBound...]
            let takesValue = afterName.hasPrefix(" ") && !afterName.hasPrefix("  ") && !afterName.isEmpty
            return (String(name), takesValue)
        }
    }

    private func listedOptions(_ help: String) -> [String] { listed(help).map(\.name) }

    @Test(arguments: commands)
    func helpListsEveryAcceptedOptionAndOnlyThose(_ command: String) throws {
        let help = try runSheetport([command, "--help"])
        #expect(help.status == 0)
        let text = String(decoding: help.stdout, as: UTF8.self)
        #expect(text.hasPrefix("USAGE: sheetport"))
        let options = listed(text)
        #expect(options.map(\.name).contains("--help"))
        // Every listed option is accepted: the parse then stops at the unknown option after it,
        // so nothing runs.
        for (option, takesValue) in options where option != "--help" {
            let result = try runSheetport([command, takesValue ? option + "=1" : option, "--zz-not-an-option"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("unknown option --zz-not-an-option"), "\(command) \(option): \(result.stderr)")
        }
    }

    @Test func checkListsTheOptionsItAccepts() throws {
        let text = String(decoding: try runSheetport(["check", "--help"]).stdout, as: UTF8.self)
        for option in ["--retries", "--no-progress", "--server", "--token-file", "--max-cells", "--max-text-size"] {
            #expect(listedOptions(text).contains(option), "\(option)")
        }
    }

    @Test(arguments: [
        (["convert", "a.xlsx", "--exlude-hidden"], nil as String?),
        (["convert", "a.xlsx", "--ouptut", "x"], "--output"),
        (["check", "a.xlsx", "--jsn"], "--json"),
        (["check", "a.xlsx", "--max-entires=3"], "--max-entries"),
        (["export", "--concurency", "3"], "--concurrency"),
    ])
    func unknownOptionNamesTheNearest(_ arguments: [String], _ nearest: String?) throws {
        let result = try runSheetport(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let typed = arguments.first { $0.hasPrefix("--") }!.split(separator: "=")[0]
        #expect(result.stderr.contains("unknown option \(typed)"), "\(result.stderr)")
        if let nearest { #expect(result.stderr.contains("did you mean \(nearest)?"), "\(result.stderr)") }
    }

    @Test func farOffOptionsGetNoGuess() throws {
        let result = try runSheetport(["convert", "a.xlsx", "--zzzzzzzzzzzz"])
        #expect(result.status == 2)
        #expect(!result.stderr.contains("did you mean"))
        #expect(result.stderr.contains("--help"))
    }

    @Test func hostileOptionNamesAreEscapedAndBounded() throws {
        let huge = "--" + String(repeating: "x", count: 100_000)
        for option in ["--\u{1B}[2Jclear", "--a\u{0}b", "--\u{202E}kcab", huge, "--=", "---"] {
            let result = try runSheetport(["convert", "a.xlsx", option])
            #expect(result.status == 2, "\(option.prefix(20))")
            #expect(!result.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{0}" })
        }
    }

    @Test func flagsTakeNoValueAndValuedOptionsNeedOne() throws {
        let flag = try runSheetport(["check", "a.xlsx", "--json=yes"])
        #expect(flag.status == 2 && flag.stderr.contains("--json takes no value"))
        let valued = try runSheetport(["convert", "a.xlsx", "--to"])
        #expect(valued.status == 2 && valued.stderr.contains("--to needs a value"))
        let short = try runSheetport(["convert", "a.xlsx", "-x"])
        #expect(short.status == 2 && short.stderr.contains("unknown option -x"))
    }

    /// Each command the usage lists runs its own code (its help names it); a misspelling that is
    /// as near to two commands gets the one listed first, and a hostile name comes back escaped.
    @Test func everyListedCommandRunsItsOwn() throws {
        let listed = ["check", "convert", "sheets", "import", "export", "cells", "open", "demo", "bench", "serve", "token", "key"]
        for command in listed {
            let help = try runSheetport([command, "--help"])
            #expect(help.status == 0, "\(command)")
            #expect(String(decoding: help.stdout, as: UTF8.self).contains("sheetport \(command) "), "\(command)")
        }
        // Two edits from both import and export.
        let tie = try runSheetport(["port"])
        #expect(tie.status == 2 && tie.stderr.contains("did you mean import?"), "\(tie.stderr)")
        for hostile in ["\u{1B}[2Jconvert", "\u{202E}kcehc", "", "help2", String(repeating: "k", count: 1_000)] {
            let result = try runSheetport([hostile])
            #expect(result.status == 2, "\(hostile.prefix(20))")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("unknown command"))
            #expect(!result.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
        }
    }

    @Test func unknownCommandNamesTheNearest() throws {
        let result = try runSheetport(["conver", "a.xlsx"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean convert?"))
    }
}
