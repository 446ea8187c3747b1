import SheetPortCore
import SheetPortConvert
import SheetPortTestSupport
import Foundation
import Testing

/// Docs/Reference is the project's reference of its interfaces, and code comments cite it: these
/// tests keep it true to the code. The command line's option tables against each command's
/// `--help`, the server's error codes and routes against its source, the finding codes against
/// their enums, and every relative link of the documentation against the files it names.
@Suite struct ReferenceTests {
    static let reference = Project.root.appendingPathComponent("Docs/Reference")

    static func text(_ path: String) throws -> String {
        try String(contentsOf: Project.root.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: the command line

    /// The commands `sheetport --help` lists under COMMANDS.
    static func commands() throws -> [String] {
        let help = String(decoding: try runSheetport(["--help"]).stdout, as: UTF8.self)
        let listing = try #require(help.components(separatedBy: "COMMANDS:\n").dropFirst().first)
        return listing.split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// CLI.md's sections, `### \`sheetport NAME\``, by command name.
    static func sections() throws -> [String: String] {
        let parts = try text("Docs/Reference/CLI.md").components(separatedBy: "\n### `sheetport ").dropFirst()
        var sections: [String: String] = [:]
        for part in parts {
            let name = String(part.prefix { $0 != "`" })
            sections[name] = part.components(separatedBy: "\n## ").first
        }
        return sections
    }

    /// The options a section's tables name in their first column; a row linking to a shared
    /// group (`[client options](#client-options)`) stands for that group's own table.
    static func documentedOptions(_ section: String, groups: [String: Set<String>]) -> Set<String> {
        var options: Set<String> = []
        for row in tableRows(section) {
            let first = row[0]
            if let group = groups.first(where: { first.contains("](#\($0.key))") }) {
                options.formUnion(group.value)
            } else {
                options.formUnion(longOptions(in: first))
            }
        }
        return options
    }

    /// The shared option groups of CLI.md, by their anchor.
    static func groups() throws -> [String: Set<String>] {
        let cli = try text("Docs/Reference/CLI.md")
        var groups: [String: Set<String>] = [:]
        for (anchor, heading) in [("client-options", "### Client options"), ("reader-limits", "### Reader limits")] {
            let part = try #require(cli.components(separatedBy: "\n" + heading + "\n").dropFirst().first)
            let section = part.components(separatedBy: "\n### ").first ?? ""
            groups[anchor] = Set(tableRows(section).flatMap { longOptions(in: $0[0]) })
        }
        return groups
    }

    /// The long options a help text lists at the start of its lines (`  -o, --output OUT  ...`).
    static func helpOptions(_ help: String) -> Set<String> {
        Set(help.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  -") else { return nil }
            return line.split(separator: " ").prefix(2).first { $0.hasPrefix("--") }.map(String.init)
        })
    }

    @Test func everyCommandHasASectionAndEverySectionACommand() throws {
        let commands = Set(try Self.commands())
        #expect(commands.count >= 12, "\(commands)")
        #expect(Set(try Self.sections().keys) == commands)
    }

    @Test(arguments: ["check", "convert", "sheets", "import", "export", "cells", "open", "demo", "bench", "serve", "token", "key"])
    func theSectionNamesExactlyTheOptionsOfHelp(_ command: String) throws {
        let section = try #require(try Self.sections()[command], "CLI.md has no section for \(command)")
        let documented = Self.documentedOptions(section, groups: try Self.groups())
        let help = try runSheetport([command, "--help"])
        #expect(help.status == 0)
        let listed = Self.helpOptions(String(decoding: help.stdout, as: UTF8.self))
        #expect(listed.contains("--help"))
        #expect(documented.subtracting(listed).isEmpty, "CLI.md names options `\(command) --help` does not: \(documented.subtracting(listed).sorted())")
        #expect(listed.subtracting(documented).isEmpty, "`\(command) --help` lists options CLI.md does not: \(listed.subtracting(documented).sorted())")
    }

    // MARK: the server

    /// Every error code the server's source emits: a `ServerErrorCode` after a status
    /// (`.error(404, .notFound`, `RequestRefusal(status: 400, code: .badRef`, `refused(414, .uriTooLong`),
    /// a `code:` argument (a job's error) or a `ServerErrorCode.storageFull`, each read through
    /// the code's declaration in Core, and a JSON literal's `{"code":"internal"`. Comment lines
    /// are skipped.
    static func emittedServerCodes() throws -> Set<String> {
        let spelled = try serverErrorCodes()
        let named = [
            #"\(\s*(?:status:\s*)?\d{3}\s*,\s*(?:code:\s*)?\.([A-Za-z]+)"#,
            #"\bcode:\s*\.([A-Za-z]+)"#,
            #"\bServerErrorCode\.([A-Za-z]+)"#,
        ].map { try! NSRegularExpression(pattern: $0) }
        let literal = try NSRegularExpression(pattern: #"\{"code":"([a-z][a-z0-9-]*)""#)
        var codes: Set<String> = []
        let folder = Project.root.appendingPathComponent("Sources/SheetPortServer")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let code = String(line)
                guard !code.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
                for pattern in named {
                    for match in pattern.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                        let name = String(code[Range(match.range(at: 1), in: code)!])
                        codes.insert(try #require(spelled[name], "\(file.lastPathComponent): .\(name) is no ServerErrorCode"))
                    }
                }
                for match in literal.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                    codes.insert(String(code[Range(match.range(at: 1), in: code)!]))
                }
            }
        }
        return codes
    }

    /// `ServerErrorCode`'s codes by name, from its declaration: `static let badRef = Self(rawValue: "bad-ref")`,
    /// and a reader's code, `static let exceedsLimit = Self(.exceedsLimit)`, through `ReaderError.Code`.
    static func serverErrorCodes() throws -> [String: String] {
        let source = try String(contentsOf: Project.root.appendingPathComponent("Sources/SheetPortCore/Wire/ServerErrorCode.swift"), encoding: .utf8)
        let declaration = try NSRegularExpression(pattern: #"static let `?([A-Za-z]+)`? = Self\((?:rawValue: "([a-z][a-z0-9-]*)"|\.([A-Za-z]+))\)"#)
        var codes: [String: String] = [:]
        for match in declaration.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
            let group = { (index: Int) in Range(match.range(at: index), in: source).map { String(source[$0]) } }
            let name = try #require(group(1))
            if let raw = group(2) {
                codes[name] = raw
            } else {
                let reader = try #require(group(3))
                codes[name] = try #require(ReaderError.Code.allCases.first { "\($0)" == reader }?.rawValue, "ReaderError.Code has no \(reader)")
            }
        }
        return codes
    }

    /// The codes in the first column of the table under `heading` in `file`.
    static func tableCodes(_ file: String, under heading: String) throws -> Set<String> {
        let part = try #require(try text(file).components(separatedBy: "\n" + heading + "\n").dropFirst().first, "\(file) has no \(heading)")
        let section = part.components(separatedBy: "\n#").first ?? ""
        return Set(tableRows(section).compactMap { row in
            let cell = row[0].trimmingCharacters(in: .whitespaces)
            return cell.hasPrefix("`") && cell.hasSuffix("`") ? String(cell.dropFirst().dropLast()) : nil
        })
    }

    @Test func everyErrorCodeTheServerEmitsIsInTheReference() throws {
        let emitted = try Self.emittedServerCodes()
        #expect(emitted.count >= 20, "\(emitted.sorted())")
        let requestCodes = try Self.tableCodes("Docs/Reference/HTTP.md", under: "## Error codes")
        let jobCodes = try Self.tableCodes("Docs/Reference/HTTP.md", under: "#### Job error codes")
        let findings = try Self.tableCodes("Docs/Reference/Formats.md", under: "### Findings")
        let documented = requestCodes.union(jobCodes).union(findings)
        #expect(emitted.subtracting(documented).isEmpty, "the server emits codes HTTP.md does not list: \(emitted.subtracting(documented).sorted())")
        #expect(requestCodes.subtracting(emitted).isEmpty, "HTTP.md lists codes the server never emits: \(requestCodes.subtracting(emitted).sorted())")
        #expect(jobCodes.subtracting(emitted).isEmpty, "HTTP.md lists job codes the server never emits: \(jobCodes.subtracting(emitted).sorted())")
    }

    /// The router's cases, `case ("GET", "sheets", 5, "cells") where path[4] == "history"`, as
    /// `GET /api/sheets/{}/cells/{}/history`.
    static func routedPaths() throws -> Set<String> {
        let pattern = try NSRegularExpression(pattern: #"case \("([A-Z]+)", "([a-z]+)", (\d), (?:"([a-z.]+)"|_)\)(?: where path\[4\] == "([a-z]+)"| where id == "([a-z]+)")?"#)
        let source = try text("Sources/SheetPortServer/SheetServer.swift")
        var routes: Set<String> = []
        for match in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
            func group(_ index: Int) -> String? { Range(match.range(at: index), in: source).map { String(source[$0]) } }
            let count = Int(group(3)!)!
            var path = "/api/" + group(2)!
            if count >= 2 { path += group(6).map { "/" + $0 } ?? "/{}" }
            if count >= 3, let sub = group(4) { path += "/" + sub }
            if count >= 4 { path += "/{}" }
            if count >= 5, let last = group(5) { path += "/" + last }
            routes.insert(group(1)! + " " + path)
        }
        return routes
    }

    @Test func everyRouteIsInTheReference() throws {
        let routed = try Self.routedPaths()
        #expect(routed.count >= 30, "\(routed.sorted())")
        let placeholder = try NSRegularExpression(pattern: #"\{[a-z]+\}"#)
        let documented = Set(try Self.tableCodes("Docs/Reference/HTTP.md", under: "## Routes").map { route in
            placeholder.stringByReplacingMatches(in: route, range: NSRange(route.startIndex..., in: route), withTemplate: "{}")
        })
        #expect(routed.subtracting(documented).isEmpty, "routes HTTP.md does not list: \(routed.subtracting(documented).sorted())")
        #expect(documented.subtracting(routed).isEmpty, "HTTP.md lists routes the server does not have: \(documented.subtracting(routed).sorted())")
    }

    // MARK: the formats

    @Test func everyFindingCodeIsInTheReference() throws {
        let codes = Set(ReaderError.Code.allCases.map(\.rawValue) + Finding.Code.allCases.map(\.rawValue))
        let documented = try Self.tableCodes("Docs/Reference/Formats.md", under: "### Findings")
        #expect(codes.subtracting(documented).isEmpty, "finding codes Formats.md does not list: \(codes.subtracting(documented).sorted())")
        #expect(documented.subtracting(codes).isEmpty, "Formats.md lists codes no enum has: \(documented.subtracting(codes).sorted())")
    }

    // MARK: the documents themselves

    /// Nothing in Sources points outside the repository: no `../shared` path, no CONTRACTS
    /// section (comments cite Docs/Reference, which a clone has).
    @Test func theSourcesCiteOnlyWhatIsInTheRepository() throws {
        let folder = Project.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var read = 0
        for case let file as URL in files where ["swift", "md", "h", "c", "modulemap"].contains(file.pathExtension) {
            let text = try String(contentsOf: file, encoding: .utf8)
            read += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("../shared") || line.contains("CONTRACTS") {
                Issue.record("\(file.path.dropFirst(Project.root.path.count + 1)):\(number + 1): \(line)")
            }
        }
        #expect(read > 100)
    }

    /// README.md is a first page, not the manual: at most 300 lines of at most 120 characters.
    @Test func theReadmeIsShort() throws {
        let lines = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 301, "README.md has \(lines.count) lines") // the last is the empty one after the final newline
        for (number, line) in lines.enumerated() where line.count > 120 {
            Issue.record("README.md:\(number + 1) has \(line.count) characters")
        }
    }

    /// Every relative link of the documentation leads to a file that exists, and a `#fragment`
    /// to a heading of it (GitHub's anchors: lower case, punctuation dropped, spaces as `-`).
    @Test(arguments: ["README.md", "CONTRIBUTING.md", "Benchmarks/README.md", "Benchmarks/write/README.md",
                      "Docs/Reference/README.md", "Docs/Reference/CLI.md", "Docs/Reference/HTTP.md", "Docs/Reference/Formats.md"])
    func everyLinkLeadsSomewhere(_ document: String) throws {
        let text = try Self.text(document)
        // Inline links, `[text](target)`, and reference definitions, `[name]: target`.
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)|^\[[^\]]+\]: (\S+)"#, options: .anchorsMatchLines)
        let folder = Project.root.appendingPathComponent(document).deletingLastPathComponent()
        for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let range = match.range(at: 1).location != NSNotFound ? match.range(at: 1) : match.range(at: 2)
            let target = String(text[Range(range, in: text)!])
            guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let file = parts[0].isEmpty ? Project.root.appendingPathComponent(document) : folder.appendingPathComponent(parts[0]).standardized
            #expect(FileManager.default.fileExists(atPath: file.path), "\(document): \(target) leads nowhere")
            guard parts.count == 2, file.pathExtension == "md", let linked = try? String(contentsOf: file, encoding: .utf8) else { continue }
            let anchors = Set(linked.split(separator: "\n").filter { $0.hasPrefix("#") }.map { Self.anchor(String($0.drop { $0 == "#" })) })
            #expect(anchors.contains(parts[1]), "\(document): \(target): no such heading")
        }
    }

    /// GitHub's anchor of a heading.
    static func anchor(_ heading: String) -> String {
        String(heading.trimmingCharacters(in: .whitespaces).lowercased().unicodeScalars.compactMap { scalar -> Character? in
            if scalar == " " { return "-" }
            if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { return Character(scalar) }
            return nil
        })
    }
}

/// The cells of a Markdown table's body rows in `text` (header and separator rows left out);
/// `\|` inside a cell stays in it.
func tableRows(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var previous = ""
    for line in text.split(separator: "\n").map(String.init) {
        defer { previous = line }
        guard line.hasPrefix("|"), !line.hasPrefix("|---") else { continue }
        // The first row of a table (its header) follows a line that is not a row.
        guard previous.hasPrefix("|") else { continue }
        let cells = line.replacingOccurrences(of: "\\|", with: "\u{0}").split(separator: "|", omittingEmptySubsequences: false)
            .dropFirst().dropLast().map { $0.replacingOccurrences(of: "\u{0}", with: "|").trimmingCharacters(in: .whitespaces) }
        rows.append(cells)
    }
    return rows
}

/// The long options (`--name`) written in `text`.
func longOptions(in text: String) -> [String] {
    let pattern = try! NSRegularExpression(pattern: #"--[a-z0-9][a-z0-9-]*"#)
    return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range, in: text)!]) }
}
