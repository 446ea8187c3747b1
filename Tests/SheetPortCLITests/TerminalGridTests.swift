import Foundation
import Testing
import SheetPortCore
import SheetPortClient
import SheetPortTestSupport

/// `sheetport open` driven through tmux as a person would drive it (`send-keys`, then the screen
/// read with `capture-pane`), against a real server with an imported sheet; every change is
/// checked on the server too. Needs the editing routes of CONTRACTS section 8 (cells, copy).
@Suite(.serialized) struct TerminalGridTests {
    /// A tmux server of the test's own (its own socket), one session running the grid.
    final class Pane {
        let socket = "sheetport-grid-\(UUID().uuidString.prefix(8))"

        init(command: [String], width: Int = 120, height: Int = 30) throws {
            let line = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", "grid", line + "; sleep 30"])
        }

        /// Runs tmux with a clean signal mask (posix_spawn and waitpid: the test process's own
        /// mask and Foundation's child reaping stay out of it); returns what it printed.
        @discardableResult
        func tmux(_ arguments: [String]) throws -> String {
            let starts = arguments.first == "new-session"
            // The tmux server that `new-session` starts keeps what it inherits: it gets /dev/null.
            let output = starts ? "/dev/null" : FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out").path
            defer { if !starts { unlink(output) } }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t(), defaults = sigset_t()
            sigemptyset(&none)
            sigemptyset(&defaults)
            for number in [SIGTERM, SIGHUP, SIGINT, SIGCHLD, SIGPIPE] { sigaddset(&defaults, number) }
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var environment = ProcessInfo.processInfo.environment
            environment["TERM"] = "xterm-256color"
            let argv = (["tmux", "-L", socket, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, argv, envp)
            guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return starts ? "" : ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        }

        /// Keys by tmux's names (`Enter`, `BTab`, `M-Enter`, `C-g`).
        func keys(_ names: String...) throws { try tmux(["send-keys", "-t", "grid"] + names) }
        /// Text typed literally.
        func type(_ text: String) throws { try tmux(["send-keys", "-t", "grid", "-l", text]) }
        /// The screen's lines.
        func screen() throws -> [String] { try tmux(["capture-pane", "-p", "-t", "grid"]).components(separatedBy: "\n") }

        /// Waits (at most `seconds`) until `condition` holds for the screen; returns the screen.
        @discardableResult
        func wait(_ what: String, seconds: Double = 5, _ condition: ([String]) -> Bool) throws -> [String] {
            let deadline = Date().addingTimeInterval(seconds)
            var lines = try screen()
            while !condition(lines) {
                guard Date() < deadline else {
                    Issue.record("screen never showed \(what):\n\(lines.joined(separator: "\n"))")
                    throw CancellationError()
                }
                usleep(50_000)
                lines = try screen()
            }
            return lines
        }

        /// Waits for the formula bar (the first line) to read `bar`.
        @discardableResult
        func bar(_ bar: String, seconds: Double = 5) throws -> [String] {
            try wait("the formula bar \"\(bar)\"", seconds: seconds) { $0.first?.trimmingCharacters(in: .whitespaces) == bar }
        }

        /// The status line: the last line that is not blank.
        func status(_ lines: [String]) -> String { lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "" }

        deinit { _ = try? tmux(["kill-server"]) }
    }

    /// The server's cells of rows 1-20 as ref -> (input, value text).
    func serverCells(_ api: API, _ sheet: String) throws -> [String: (input: String, value: String)] {
        let window = try api.object("/api/sheets/\(sheet)/rows?start=1&count=20")
        var cells: [String: (String, String)] = [:]
        for row in window["rows"] as? [[String: Any]] ?? [] {
            for cell in row["cells"] as? [[String: Any]] ?? [] {
                let ref = (cell["ref"] as? String) ?? (cell["col"] as? Int).map { CellReference.columnName($0) + "\(row["row"] as? Int ?? 0)" } ?? "?"
                cells[ref] = (cell["input"] as? String ?? "", (cell["display"] as? String) ?? (cell["value"].map { "\($0)" } ?? ""))
            }
        }
        return cells
    }

    func serverVersion(_ api: API, _ sheet: String) throws -> Int {
        let object = try api.object("/api/sheets/\(sheet)")
        return (object["version"] as? Int) ?? ((object["sheet"] as? [String: Any])?["version"] as? Int) ?? -1
    }

    @Test func editsThroughTheTerminal() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("prices.xlsx").path
        let convert = try runSheetport(["convert", "-", "--from", "csv", "--to", "xlsx", "-o", book, "--no-progress"],
                                       input: Data("Qty,Price\n1,10\n2,20\n3,30\n".utf8))
        try #require(convert.status == 0, "\(convert.stderr)")
        let sheet = try fixture.api.importSheet(book)
        let tokenFile = fixture.folder.appendingPathComponent("ann.token").path
        try fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)

        let pane = try Pane(command: [Project.executable.path, "open", sheet, "--server", fixture.server.base, "--token-file", tokenFile])
        try pane.bar("A1 | Qty", seconds: 15)

        // Arrows, a number, Enter moves down; a formula, Tab moves right; Shift-Tab left; Alt-Enter up.
        try pane.keys("Right", "Right", "Right", "Down")
        try pane.bar("D2 |")
        try pane.type("42")
        try pane.bar("D2 | 42")
        try pane.keys("Enter")
        try pane.bar("D3 |")
        try pane.type("=D2+1")
        try pane.keys("Tab")
        try pane.bar("E3 |")
        try pane.keys("BTab")
        try pane.bar("D3 | =D2+1")
        try pane.keys("M-Enter")
        try pane.bar("D2 | 42")
        var cells = try serverCells(fixture.api, sheet)
        #expect(cells["D2"]?.input == "42")
        #expect(cells["D3"]?.input == "=D2+1")
        #expect(cells["D3"]?.value == "43")
        try pane.wait("D3's value 43") { $0.contains { $0.contains("43") } }

        // Escape abandons a draft: the screen and the server keep 42.
        try pane.type("999")
        try pane.bar("D2 | 999")
        try pane.keys("Escape")
        try pane.bar("D2 | 42")
        #expect(try serverCells(fixture.api, sheet)["D2"]?.input == "42")

        // Another client's write appears within a second, without a key.
        let other = try fixture.api.call("POST", "/api/sheets/\(sheet)/cells", json: ["cells": [["ref": "F2", "input": "31337"]]])
        #expect(other.status == 200, "\(other.text)")
        try pane.wait("another client's 31337 within a second", seconds: 1.5) { $0.contains { $0.contains("31337") } }

        // Formulas with relative references, copied as a block and pasted: translated by the server.
        try pane.keys("C-g"); try pane.type("C2"); try pane.keys("Enter")
        try pane.bar("C2 |")
        try pane.type("=A2*B2"); try pane.keys("Enter")
        try pane.type("=A3*B3"); try pane.keys("Enter")
        try pane.bar("C4 |")
        try pane.keys("C-g"); try pane.type("C2:C3"); try pane.keys("Enter")
        try pane.keys("C-c")
        try pane.keys("C-g"); try pane.type("H5"); try pane.keys("Enter")
        try pane.bar("H5 |")
        try pane.keys("C-v")
        try pane.bar("H5 | =F5*G5")
        cells = try serverCells(fixture.api, sheet)
        #expect(cells["C2"]?.value == "10")
        #expect(cells["H5"]?.input == "=F5*G5")
        #expect(cells["H6"]?.input == "=F6*G6")

        // SUM below a column: Alt-= on B5 totals B2:B4.
        try pane.keys("C-g"); try pane.type("B5"); try pane.keys("Enter")
        try pane.bar("B5 |")
        try pane.keys("M-=")
        try pane.bar("B5 | =SUM(B2:B4)")
        cells = try serverCells(fixture.api, sheet)
        #expect(cells["B5"]?.input == "=SUM(B2:B4)")
        #expect(cells["B5"]?.value == "60")
        try pane.wait("the total 60") { $0.contains { $0.contains(" 60 ") } }

        // The version on screen is the server's, and Ctrl-Q (no draft) closes the grid.
        let version = try serverVersion(fixture.api, sheet)
        #expect(version > 1)
        let lines = try pane.wait("the status line's v\(version)") { pane.status($0).contains("v\(version) ") }
        #expect(!pane.status(lines).contains("error"), "\(pane.status(lines))")
        try pane.type("5")
        try pane.keys("C-q")
        try pane.wait("the save, discard or cancel question") { pane.status($0).contains("[s]ave, [d]iscard, [c]ancel") }
        try pane.type("d")
        try pane.wait("the grid closed") { !$0.contains { $0.contains("v\(version)") } }
        #expect(try serverCells(fixture.api, sheet)["B6"] == nil)
    }

    /// The process named `name` below `pid` (the pane's shell started it: this test's own).
    static func descendant(of pid: String, named name: String) -> Int32? {
        var queue = [pid]
        while !queue.isEmpty {
            let next = queue.removeFirst()
            let comm = (try? String(contentsOfFile: "/proc/\(next)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            if comm == name, next != pid { return Int32(next) }
            let children = (try? String(contentsOfFile: "/proc/\(next)/task/\(next)/children", encoding: .utf8)) ?? ""
            queue += children.split(separator: " ").map(String.init)
        }
        return nil
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("one.xlsx").path
        try #require(try runSheetport(["convert", "-", "--from", "csv", "--to", "xlsx", "-o", book, "--no-progress"],
                                      input: Data("Name\nzebra\n".utf8)).status == 0)
        let sheet = try fixture.api.importSheet(book)
        let tokenFile = fixture.folder.appendingPathComponent("ann.token").path
        try fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let pane = try Pane(command: ["sh", "-c", "\"$0\" \"$@\"; echo exit=$?; stty -a | grep -q -- ' icanon' && stty -a | grep -q -- ' echo ' && echo restored=yes || echo restored=no", Project.executable.path,
                                      "open", sheet, "--server", fixture.server.base, "--token-file", tokenFile])
        try pane.bar("A1 | Name", seconds: 15)
        // A hostile sheet name or id on the command line is refused before the screen is taken.
        let refused = try runSheetport(["open", "no\u{1B}[2Jsuch", "--server", fixture.server.base, "--token-file", tokenFile])
        #expect(refused.status == 2)
        #expect(!refused.stderr.contains("\u{1B}"))
        let pid = try pane.tmux(["list-panes", "-t", "grid", "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let grid = try #require(Self.descendant(of: pid, named: "sheetport"))
        kill(grid, SIGTERM)
        let lines = try pane.wait("the exit status and the terminal's modes") { $0.contains { $0.contains("restored=") } }
        #expect(lines.contains { $0.contains("exit=143") }, "\(lines)")
        #expect(lines.contains { $0.contains("restored=yes") }, "\(lines)")
    }
}
