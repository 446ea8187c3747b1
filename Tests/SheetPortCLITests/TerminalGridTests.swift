import Foundation
import Testing
import SheetPortCore
import SheetPortClient
import SheetPortTestSupport

/// `sheetport open` driven through tmux as a person would drive it (`send-keys`, then the screen
/// read with `capture-pane`), against a real server with an imported sheet; every change is
/// checked on the server too. Needs the editing routes of Docs/Reference/HTTP.md (cells, copy).
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

        /// The screen's lines with their colours and attributes as SGR escapes (`capture-pane -e`).
        func coloredScreen() throws -> String { try tmux(["capture-pane", "-p", "-e", "-t", "grid"]) }

        /// Waits (at most `seconds`, or until `deadline`) until `condition` holds for the screen;
        /// returns the screen.
        @discardableResult
        func wait(_ what: String, seconds: Double = 5, deadline: Date? = nil, _ condition: ([String]) -> Bool) throws -> [String] {
            let deadline = deadline ?? Date().addingTimeInterval(seconds)
            var lines = try screen()
            while !condition(lines) {
                guard Date() < deadline else {
                    Issue.record("screen never showed \(what):\n\(lines.joined(separator: "\n"))")
                    throw CancellationError()
                }
                usleep(20_000)
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
        try writeWithOpenpyxl(Self.workbookScript, to: book)
        let sheet = try fixture.api.importSheet(book)
        let tokenFile = fixture.folder.appendingPathComponent("ann.token").path
        try fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)

        // The sheet's names as the server lists them: ranges of the imported sheet by ref, a
        // constant and a union by formula, each with its scope; not another sheet's, a hidden
        // one or the print area. The address field goes to the ranges (the local Qtys first).
        let metadata = try fixture.api.object("/api/sheets/\(sheet)")
        let names = (metadata["names"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "")=\($0["ref"] ?? $0["formula"] ?? "")@\($0["scope"] ?? "")" }.sorted()
        #expect(names == ["Both=='Price list'!$A$1,'Price list'!$B$2@workbook", "Cased=C1@workbook", "Header=1:1@workbook",
                          "Prices=B2:B4@workbook", "Qtys=A2:A4@sheet", "Qtys=C9@workbook", "Rate==0.2@workbook", "Totals=D:D@workbook"], "\(metadata)")
        // A column width set later rewrites the sheet's layout: the names stay.
        let sized = try fixture.api.call("POST", "/api/sheets/\(sheet)/sizes", json: ["columns": ["B": 18.0]])
        #expect(sized.status == 200, "\(sized.text)")
        let resized = try fixture.api.object("/api/sheets/\(sheet)")
        #expect((resized["names"] as? [[String: Any]])?.count == names.count, "\(resized)")

        // A terminal that announces 24-bit colour (COLORTERM) with a 256-colour TERM: the grid
        // takes the family's direct-colour description (here compiled by the test, as Debian's
        // ncurses-term has it).
        let terminfo = try Self.compileDirectTerminfo(in: fixture.folder)
        let pane = try Pane(command: ["env", "TERM=xterm-256color", "COLORTERM=truecolor", "TERMINFO_DIRS=\(terminfo):/etc/terminfo:/lib/terminfo:/usr/share/terminfo",
                                      Project.executable.path, "open", sheet, "--server", fixture.server.base, "--token-file", tokenFile])
        try pane.bar("A1 | Qty", seconds: 15)

        // Authored colours in 24 bits: J2's fill #FFEE00 and text #112233 exactly.
        let colored = try pane.coloredScreen()
        #expect(colored.contains("48;2;255;238;0"), "\(colored.debugDescription)")
        #expect(colored.contains("38;2;17;34;51"), "\(colored.debugDescription)")
        // J3's text #262626 on the dark theme's background reads badly: the status line says so.
        try pane.keys("C-g"); try pane.type("j3"); try pane.keys("Enter")
        var lines = try pane.bar("J3 | dim")
        #expect(pane.status(lines).contains("warning: J3's colours are hard to read in the dark theme"), "\(pane.status(lines))")
        try pane.keys("Up")
        lines = try pane.bar("J2 | bright")
        #expect(!pane.status(lines).contains("warning"), "\(pane.status(lines))")

        // A defined name typed in lower case in the address field selects its range.
        try pane.keys("C-g"); try pane.type("prices"); try pane.keys("Enter")
        lines = try pane.bar("B2 | 10")
        #expect(pane.status(lines).contains("B2:B4"), "\(pane.status(lines))")
        try pane.keys("C-g"); try pane.type("elsewhere"); try pane.keys("Enter")
        try pane.wait("the unknown name refused") { pane.status($0).contains("\"elsewhere\" is not a cell, a range or a defined name") }
        try pane.keys("Escape")
        try pane.keys("C-g"); try pane.type("A1"); try pane.keys("Enter")
        try pane.bar("A1 | Qty")

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

        // Another client's write appears within a second of being sent, without a key; three
        // writes, each timed from before its request to the screen showing it.
        for (ref, value) in [("F2", "31337"), ("F3", "27182"), ("G4", "16180")] {
            let sent = Date()
            let other = try fixture.api.call("POST", "/api/sheets/\(sheet)/cells", json: ["cells": [["ref": ref, "input": value]]])
            #expect(other.status == 200, "\(other.text)")
            try pane.wait("another client's \(value) within a second", deadline: sent.addingTimeInterval(1)) { $0.contains { $0.contains(value) } }
            print("TerminalGridTests: another client's write to \(ref) on screen after \(Int(Date().timeIntervalSince(sent) * 1000)) ms")
        }

        // Formulas with relative references, copied as a block and pasted: translated by the server.
        try pane.keys("C-g"); try pane.type("C2"); try pane.keys("Enter")
        try pane.bar("C2 |")
        try pane.type("=A2*B2"); try pane.keys("Enter")
        try pane.type("=A3*B3"); try pane.keys("Enter")
        try pane.bar("C4 |")
        try pane.keys("C-g"); try pane.type("C2"); try pane.keys("Enter")
        try pane.keys("S-Down")
        try pane.wait("C2:C3 selected with Shift-Down") { pane.status($0).contains("C2:C3") }
        try pane.keys("C-c")
        try pane.keys("C-g"); try pane.type("H5"); try pane.keys("Enter")
        try pane.bar("H5 |")
        try pane.keys("C-v")
        try pane.bar("H5 | =F5*G5")
        cells = try serverCells(fixture.api, sheet)
        #expect(cells["C2"]?.value == "10")
        #expect(cells["H5"]?.input == "=F5*G5")
        #expect(cells["H6"]?.input == "=F6*G6")

        // With a range still copied, words that start with `p` and `y` are typed, not pasted or
        // copied (issue 38: `paid` pasted the block and stored `aid`).
        try pane.keys("C-g"); try pane.type("J2"); try pane.keys("Enter")
        try pane.type("paid"); try pane.bar("J2 | paid"); try pane.keys("Enter")
        try pane.type("yearly"); try pane.bar("J3 | yearly"); try pane.keys("Enter")
        try pane.type("pizza"); try pane.bar("J4 | pizza"); try pane.keys("Enter")
        try pane.bar("J5 |")
        cells = try serverCells(fixture.api, sheet)
        #expect(cells["J2"]?.input == "paid")
        #expect(cells["J3"]?.input == "yearly")
        #expect(cells["J4"]?.input == "pizza")
        #expect(cells["K2"] == nil && cells["J5"] == nil)
        // Ctrl-Z takes back the person's own last write: J4's pizza goes, the others stay.
        try pane.keys("C-z")
        try pane.wait("J4 empty again after Ctrl-Z") { _ in (try? serverCells(fixture.api, sheet)).map { $0["J4"] == nil } == true }
        #expect(try serverCells(fixture.api, sheet)["J3"]?.input == "yearly")

        // Alt-H: J3's history over the grid, newest first, old -> new; Enter on the imported
        // entry restores its `dim`; Escape closes the panel.
        try pane.keys("C-g"); try pane.type("J3"); try pane.keys("Enter")
        try pane.bar("J3 | yearly")
        try pane.keys("M-h")
        lines = try pane.wait("J3's history") { $0.contains { $0.contains("History of J3: Enter restores") } && $0.contains { $0.contains("dim -> yearly") } }
        #expect(lines.contains { $0.contains("(empty) -> dim") }, "\(lines.joined(separator: "\n"))")
        try pane.keys("Down", "Enter")
        try pane.wait("J3 restored on the server") { _ in (try? serverCells(fixture.api, sheet))?["J3"]?.input == "dim" }
        try pane.wait("the restore said and listed") { $0.contains { $0.contains("J3 restored to its input at v1") } && $0.contains { $0.contains("yearly -> dim") } }
        try pane.keys("Escape")
        try pane.bar("J3 | dim")
        try pane.wait("the panel closed") { !$0.contains { $0.contains("History of J3") } }

        // Alt-M: a comment on J3, then resolved, through the panel; the server has both.
        func comments() throws -> [[String: Any]] { try fixture.api.object("/api/sheets/\(sheet)/comments")["comments"] as? [[String: Any]] ?? [] }
        try pane.keys("M-m")
        try pane.wait("the comments panel") { $0.contains { $0.contains("Comments on J3") } && $0.contains { $0.contains("no comments on J3") } }
        try pane.keys("Enter")
        try pane.type("check the rate")
        try pane.wait("the comment typed") { $0.contains { $0.contains("Comment on J3: check the") } }
        try pane.keys("Enter")
        lines = try pane.wait("the comment listed") { $0.contains { $0.contains("ann: check the") } && $0.contains { $0.contains("Resolve") } }
        let stored = try comments()
        #expect(stored.count == 1 && stored.first?["ref"] as? String == "J3" && stored.first?["text"] as? String == "check the rate", "\(stored)")
        try pane.keys("Down", "Enter")
        try pane.type("on it"); try pane.keys("Enter")
        try pane.wait("the reply listed") { $0.contains { $0.contains("  ann: on it") } }
        #expect(try comments().last.map { $0["replyTo"] as? Int == stored.first?["id"] as? Int && $0["ref"] as? String == "J3" } == true)
        try pane.keys("Down", "Enter")
        try pane.wait("the thread resolved on the server") { _ in (try? comments())?.first?["resolved"] as? Bool == true }
        try pane.wait("the thread shown resolved") { $0.contains { $0.contains("[resolved] ann: check the") } && $0.contains { $0.contains("Reopen") } }
        try pane.keys("Escape")
        try pane.bar("J3 | dim")

        // Alt-S: the owner grants bob the viewer role and makes a viewer link (its URL shown).
        try pane.keys("M-s")
        try pane.wait("the sharing panel") { $0.contains { $0.contains("People:") } && $0.contains { $0.contains("New viewer link") } }
        try pane.keys("Enter")
        try pane.type("bob viewer"); try pane.keys("Enter")
        try pane.wait("bob's grant listed") { $0.contains { $0.contains("bob  viewer  (Enter revokes)") } }
        let grants = try fixture.api.object("/api/sheets/\(sheet)/grants")["grants"] as? [[String: Any]] ?? []
        #expect(grants.contains { $0["subject"] as? String == "bob" && $0["role"] as? String == "viewer" }, "\(grants)")
        try pane.keys("Down", "Enter")
        try pane.wait("the link's URL") { $0.contains { $0.contains("viewer link:") } && $0.contains { $0.contains("\(fixture.server.base)/l/") } }
        #expect((try fixture.api.object("/api/sheets/\(sheet)/links")["links"] as? [[String: Any]])?.count == 1)
        try pane.keys("Escape")
        try pane.bar("J3 | dim")

        // Alt-T: a table view sorted by the server (B descending: the header's text, then the
        // numbers, blanks last), each row with its source row; Enter on the view's second row,
        // storage row 4, edits B4 there, and the view is read again.
        try pane.keys("C-g"); try pane.type("B2"); try pane.keys("Enter")
        try pane.bar("B2 | 10")
        try pane.keys("M-t")
        try pane.wait("the table view") { $0.contains { $0.contains("Table view:") && $0.contains("Enter edits column B") } && $0.contains { $0.contains("Sort: storage order…") } }
        try pane.keys("Enter"); try pane.type("B:desc"); try pane.keys("Enter")
        lines = try pane.wait("the view sorted") { $0.contains { $0.contains("Sort: B:desc…") } }
        let viewRows = lines.filter { $0.hasPrefix("row ") && !$0.hasPrefix("row  ") }.map { String($0.prefix(6)) }
        #expect(Array(viewRows.prefix(4)) == ["row 1:", "row 4:", "row 3:", "row 2:"], "\(lines.joined(separator: "\n"))")
        try pane.keys("Down", "Down", "Down", "Enter")
        try pane.wait("B4's input asked") { $0.contains { $0.contains("B4: 30") } }
        try pane.keys("BSpace", "BSpace"); try pane.type("35"); try pane.keys("Enter")
        try pane.wait("B4 saved on the server") { _ in (try? serverCells(fixture.api, sheet))?["B4"]?.input == "35" }
        try pane.wait("the view read again") { $0.contains { $0.contains("B4 saved") } && $0.contains { $0.hasPrefix("row 4:") && $0.contains("[35]") } }
        #expect(try serverCells(fixture.api, sheet)["A4"]?.input == "3")
        try pane.keys("Escape")
        try pane.bar("B2 | 10")
        // Ctrl-Z takes the view's edit back as any other write.
        try pane.keys("C-z")
        try pane.wait("B4 back to 30") { _ in (try? serverCells(fixture.api, sheet))?["B4"]?.input == "30" }

        // Bob, a viewer, gets a read-only screen: typing says why and sends nothing; the
        // history and comments read, sharing is refused on screen.
        let bobToken = fixture.folder.appendingPathComponent("bob.token").path
        try fixture.server.token("bob").write(toFile: bobToken, atomically: true, encoding: .utf8)
        let viewer = try Pane(command: [Project.executable.path, "open", sheet, "--server", fixture.server.base, "--token-file", bobToken])
        try viewer.bar("A1 | Qty", seconds: 15)
        // The status line is drawn once the session's role is known, which may be a frame after the bar.
        lines = try viewer.wait("the read-only status") { viewer.status($0).contains("read-only") }
        #expect(viewer.status(lines).contains("read-only"), "\(viewer.status(lines))")
        let viewedAt = try serverVersion(fixture.api, sheet)
        try viewer.type("x")
        lines = try viewer.wait("typing refused") { viewer.status($0).contains("error: read-only") }
        #expect(lines.first?.trimmingCharacters(in: .whitespaces) == "A1 | Qty")
        try viewer.keys("C-g"); try viewer.type("J3"); try viewer.keys("Enter")
        try viewer.bar("J3 | dim")
        try viewer.keys("M-m")
        try viewer.wait("the viewer reads the thread") {
            $0.contains { $0.contains("[resolved] ann: check the rate") } && $0.contains { $0.contains("read-only: a viewer cannot comment") }
        }
        try viewer.keys("Escape", "M-s")
        try viewer.wait("sharing refused") { $0.contains { $0.contains("only the sheet's owner can share it (you are a viewer)") } }
        try viewer.keys("Escape", "Delete")
        try viewer.wait("Delete refused") { viewer.status($0).contains("error: read-only") }
        #expect(try serverVersion(fixture.api, sheet) == viewedAt)
        #expect(try serverCells(fixture.api, sheet)["J3"]?.input == "dim")

        // SUM below a column: Alt-= on B5 totals B2:B4.
        try pane.keys("C-g"); try pane.type("B5"); try pane.keys("Enter")
        try pane.bar("B5 |")
        try pane.keys("M-=")
        try pane.bar("B5 | =SUM(B2:B4)")
        cells = try serverCells(fixture.api, sheet)
        #expect(cells["B5"]?.input == "=SUM(B2:B4)")
        #expect(cells["B5"]?.value == "60")
        try pane.wait("the total 60") { $0.contains { $0.contains(" 60 ") } }

        // Ctrl-B bolds the total (a format write) and the screen draws it bold; Alt-I italic.
        func style(_ ref: String) throws -> [String: Any] {
            let window = try fixture.api.object("/api/sheets/\(sheet)/rows?start=1&count=20")
            for row in window["rows"] as? [[String: Any]] ?? [] {
                for cell in row["cells"] as? [[String: Any]] ?? [] where cell["ref"] as? String == ref { return cell["style"] as? [String: Any] ?? [:] }
            }
            return [:]
        }
        try pane.keys("C-b")
        try pane.wait("B5 bold on the server") { _ in (try? style("B5"))?["bold"] as? Bool == true }
        try pane.keys("M-i")
        try pane.wait("B5 italic on the server") { _ in (try? style("B5"))?["italic"] as? Bool == true }
        try pane.keys("Up")
        try pane.bar("B4 | 30")
        let boldScreen = try pane.coloredScreen()
        #expect(boldScreen.contains("\u{1B}[1m") || boldScreen.contains(";1m") || boldScreen.contains("[1;"), "bold drawn: \(boldScreen)")

        // Ctrl-D fills C2's formula down over C2:C4: C4 gets the translated =A4*B4.
        try pane.keys("C-g"); try pane.type("C2:C4"); try pane.keys("Enter")
        try pane.wait("C2:C4 selected") { pane.status($0).contains("C2:C4") }
        try pane.keys("C-d")
        try pane.wait("C4 filled on the server") { _ in (try? serverCells(fixture.api, sheet))?["C4"]?.input == "=A4*B4" }
        #expect(try serverCells(fixture.api, sheet)["C4"]?.value == "90")
        try pane.wait("the filled 90 on screen") { $0.contains { $0.contains(" 90 ") } }

        // Alt-F opens the format menu over the grid; Right moves it as Down does; Enter on
        // "Align right" formats the selection; Escape closes it with nothing sent.
        try pane.keys("M-f")
        try pane.wait("the format menu") { pane.status($0).contains("Format: Align left") && $0.contains { $0.contains("| Clear formatting") } }
        try pane.keys("Right", "Right")
        try pane.wait("Align right highlighted") { pane.status($0).contains("Format: Align right") }
        try pane.keys("Enter")
        try pane.wait("C2:C4 aligned right on the server") { _ in (try? style("C3"))?["horizontal"] as? String == "right" }
        let before = try serverVersion(fixture.api, sheet)
        try pane.keys("M-f")
        try pane.wait("the format menu again") { pane.status($0).contains("Format:") }
        try pane.keys("Escape")
        try pane.wait("the menu closed") { !pane.status($0).contains("Format:") && !$0.contains { $0.contains("| Clear formatting") } }
        #expect(try serverVersion(fixture.api, sheet) == before)

        // Another client makes empty row 12 45 points tall: drawn three lines high (its number on
        // the last), though the row has no cell.
        let tall = try fixture.api.call("POST", "/api/sheets/\(sheet)/sizes", json: ["rows": ["12": 45.0]])
        #expect(tall.status == 200, "\(tall.text)")
        func gutterLine(_ lines: [String], _ row: Int) -> Int? { lines.dropFirst(2).firstIndex { $0.prefix(8).trimmingCharacters(in: .whitespaces) == "\(row)" } }
        lines = try pane.wait("row 12 three lines tall") { lines in
            guard let eleven = gutterLine(lines, 11), let twelve = gutterLine(lines, 12), let thirteen = gutterLine(lines, 13) else { return false }
            return twelve - eleven == 3 && thirteen - twelve == 1
        }

        // The version on screen is the server's, and Ctrl-Q (no draft) closes the grid.
        let version = try serverVersion(fixture.api, sheet)
        #expect(version > 1)
        lines = try pane.wait("the status line's v\(version)") { pane.status($0).contains("v\(version) ") }
        #expect(!pane.status(lines).contains("error"), "\(pane.status(lines))")
        try pane.type("5")
        try pane.keys("C-q")
        try pane.wait("the save, discard or cancel question") { pane.status($0).contains("[s]ave, [d]iscard, [c]ancel") }
        try pane.type("d")
        try pane.wait("the grid closed") { !$0.contains { $0.contains("v\(version)") } }
        #expect(try serverCells(fixture.api, sheet)["B6"] == nil)
    }

    /// The workbook the editing test imports: the prices, colours in J2 (readable) and J3 (dim
    /// text, unreadable on the dark theme), and defined names of every kind: ranges of the sheet
    /// (a whole column, a whole row, the sheet named in other case, one local to the sheet that
    /// hides a workbook name of the same name), and names the server must leave out (another
    /// sheet's cell, a hidden one, a constant, a union, one local to another sheet, the print
    /// area).
    static let workbookScript = """
        from openpyxl.workbook.defined_name import DefinedName
        from openpyxl.styles import PatternFill, Font
        ws.title = "Price list"
        for row in [["Qty", "Price"], [1, 10], [2, 20], [3, 30]]:
            ws.append(row)
        ws["J2"] = "bright"
        ws["J2"].fill = PatternFill("solid", fgColor="FFEE00")
        ws["J2"].font = Font(color="112233")
        ws["J3"] = "dim"
        ws["J3"].font = Font(color="262626")
        other = wb.create_sheet("Other")
        other["A1"] = 5
        wb.defined_names["Prices"] = DefinedName("Prices", attr_text="'Price list'!$B$2:$B$4")
        wb.defined_names["Totals"] = DefinedName("Totals", attr_text="'Price list'!$D:$D")
        wb.defined_names["Elsewhere"] = DefinedName("Elsewhere", attr_text="Other!$A$1")
        wb.defined_names["Secret"] = DefinedName("Secret", attr_text="'Price list'!$A$1", hidden=True)
        wb.defined_names["Rate"] = DefinedName("Rate", attr_text="0.2")
        wb.defined_names["Both"] = DefinedName("Both", attr_text="'Price list'!$A$1,'Price list'!$B$2")
        wb.defined_names["Header"] = DefinedName("Header", attr_text="'Price list'!$1:$1")
        wb.defined_names["Cased"] = DefinedName("Cased", attr_text="'PRICE LIST'!$C$1")
        wb.defined_names["Qtys"] = DefinedName("Qtys", attr_text="'Price list'!$C$9")
        ws.defined_names["Qtys"] = DefinedName("Qtys", attr_text="'Price list'!$A$2:$A$4")
        other.defined_names["OtherLocal"] = DefinedName("OtherLocal", attr_text="'Price list'!$A$1")
        ws.print_area = "A1:B4"
        """

    /// Compiles an `xterm-direct` description (24-bit colour: `RGB`, colours as RGB values, as
    /// ncurses' own entry has them) into a directory of the test's; returns the directory.
    static func compileDirectTerminfo(in folder: URL) throws -> String {
        let directory = folder.appendingPathComponent("terminfo").path
        let source = folder.appendingPathComponent("xterm-direct.ti").path
        try """
        xterm-direct|xterm with direct-color indexing,
        \tRGB, colors#16777216, pairs#65536, ccc@, initc@, oc@,
        \tsetaf=\\E[%?%p1%{8}%<%t3%p1%d%e38:2::%p1%{65536}%/%d:%p1%{256}%/%{255}%&%d:%p1%{255}%&%d%;m,
        \tsetab=\\E[%?%p1%{8}%<%t4%p1%d%e48:2::%p1%{65536}%/%d:%p1%{256}%/%{255}%&%d:%p1%{255}%&%d%;m,
        \tsetf@, setb@, use=xterm-256color,

        """.write(toFile: source, atomically: true, encoding: .utf8)
        let tic = Process()
        tic.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tic.arguments = ["tic", "-x", "-o", directory, source]
        let errors = Pipe()
        tic.standardError = errors
        try tic.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        tic.waitUntilExit()
        try #require(tic.terminationStatus == 0, "tic: \(message)")
        return directory
    }

    /// 260 cells of distinct authored fills on one screen: each shown in its exact 24-bit
    /// colour (more pairs than `COLOR_PAIR` can hold, so the extended pairs are needed); the
    /// same sheet on a terminal without 24-bit colour gets the nearest of its 256.
    @Test func manyColoursInTwentyFourBits() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("colours.xlsx").path
        try writeWithOpenpyxl("""
            from openpyxl.styles import PatternFill
            for row in range(1, 27):
                for column in range(1, 11):
                    cell = ws.cell(row=row, column=column, value=row * 100 + column)
                    cell.fill = PatternFill("solid", fgColor="%02X%02X%02X" % (row * 9, column * 23, 128))
            """, to: book)
        let sheet = try fixture.api.importSheet(book)
        let tokenFile = fixture.folder.appendingPathComponent("ann.token").path
        try fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let terminfo = try Self.compileDirectTerminfo(in: fixture.folder)
        let grid = [Project.executable.path, "open", sheet, "--server", fixture.server.base, "--token-file", tokenFile]
        var expected: Set<String> = []
        for row in 1...26 { for column in 1...10 where row > 1 || column > 1 { expected.insert("48;2;\(row * 9);\(column * 23);128") } }

        let direct = try Pane(command: ["env", "TERM=xterm-256color", "COLORTERM=truecolor",
                                        "TERMINFO_DIRS=\(terminfo):/etc/terminfo:/lib/terminfo:/usr/share/terminfo"] + grid)
        try direct.bar("A1 | 101", seconds: 15)
        try direct.wait("the last row") { $0.contains { $0.contains("2610") } }
        let shown = try direct.coloredScreen()
        let missing = expected.filter { !shown.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) of \(expected.count) fills not shown exactly, e.g. \(missing.sorted().prefix(3))")

        let indexed = try Pane(command: ["env", "TERM=xterm-256color", "COLORTERM="] + grid)
        try indexed.bar("A1 | 101", seconds: 15)
        try indexed.wait("the last row") { $0.contains { $0.contains("2610") } }
        let nearest = try indexed.coloredScreen()
        #expect(!nearest.contains("48;2;"), "\(nearest.debugDescription)")
        #expect(nearest.contains("48;5;"), "\(nearest.debugDescription)")
    }

    /// Every panel on a 20x6 terminal, over a long comment: drawn in the room there is, the grid
    /// still answering after each (Escape brings the formula bar's cell back).
    @Test func panelsOnATinyTerminal() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("tiny.xlsx").path
        try writeWithOpenpyxl("ws.append(['Qty', 'Price'])\nws.append([1, 10])", to: book)
        let sheet = try fixture.api.importSheet(book)
        let comment = try fixture.api.call("POST", "/api/sheets/\(sheet)/comments", json: ["ref": "A1", "text": String(repeating: "a long comment ", count: 2_000)])
        #expect(comment.status == 201, "\(comment.text)")
        let tokenFile = fixture.folder.appendingPathComponent("ann.token").path
        try fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let pane = try Pane(command: [Project.executable.path, "open", sheet, "--server", fixture.server.base, "--token-file", tokenFile], width: 20, height: 6)
        try pane.bar("A1 | Qty", seconds: 15)
        for (key, title) in [("M-m", "Comments on A1"), ("M-h", "History of A1"), ("M-s", "Sharing"), ("M-t", "Table view")] {
            try pane.keys(key)
            let lines = try pane.wait("the \(title) panel") { $0.count > 1 && $0[1].hasPrefix(String(title.prefix(14))) }
            #expect(lines.allSatisfy { $0.count <= 20 }, "\(lines)")
            try pane.keys("Down", "Down", "Up")
            try pane.keys("Escape")
            try pane.bar("A1 | Qty")
        }
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
        // The token revoked: the event stream ends and the status line says live updates stopped.
        #expect(try fixture.server.revoke(token: fixture.api.token!))
        let stale = try pane.wait("live updates reported stopped", seconds: 10) { pane.status($0).contains("live updates stopped") }
        #expect(pane.status(stale).contains("401") || pane.status(stale).contains("unauthorized"), "\(pane.status(stale))")
        let pid = try pane.tmux(["list-panes", "-t", "grid", "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let grid = try #require(Self.descendant(of: pid, named: "sheetport"))
        kill(grid, SIGTERM)
        let lines = try pane.wait("the exit status and the terminal's modes") { $0.contains { $0.contains("restored=") } }
        #expect(lines.contains { $0.contains("exit=143") }, "\(lines)")
        #expect(lines.contains { $0.contains("restored=yes") }, "\(lines)")
    }
}
