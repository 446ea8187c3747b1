import Testing
import SheetPortCore
@testable import SheetPortEditing

/// The panels over the grid (issue 38): history with restore, comments, sharing; Escape closes.
@Suite struct PanelTests {
    let a1 = CellReference("A1")!, b2 = CellReference("B2")!

    @Test func historyListsOldAndNewAndRestoresTheChosenEntry() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        run(editor, "12 enter up 15 enter up A-h")
        #expect(editor.focus == .panel)
        let panel = try! #require(editor.panel)
        #expect(panel.kind == .history && panel.ref == a1)
        #expect(panel.lines.map(\.text) == ["v2 me 2026-12-06 21:00  12 -> 15", "v1 me 2026-12-06 21:00  (empty) -> 12"])
        #expect(panel.chosenAction == .restore(version: 2))
        run(editor, "down enter")
        #expect(model.inputs[a1] == "12")
        #expect(editor.cells[a1]?.input == "12")
        #expect(editor.version == 3)
        // The panel is read again: the restore is its newest entry, the choice stays on v1.
        #expect(editor.panel?.lines.count == 3)
        #expect(editor.panel?.lines.first?.text.hasSuffix("15 -> 12") == true)
        #expect(editor.panel?.chosenAction == .restore(version: 1))
        #expect(editor.panel?.notice?.contains("restored") == true)
        // Ctrl-Z is not the grid's inside a panel; Escape closes it.
        run(editor, "^Z esc")
        #expect(model.inputs[a1] == "12")
        #expect(editor.focus == .grid && editor.panel == nil)
        run(editor, "^Z")
        #expect(model.inputs[a1] == "15")
    }

    @Test func aViewerReadsTheHistoryButCannotRestore() {
        let model = MemorySheetTransport()
        model.cellHistory[a1] = [CellHistoryEntry(version: 4, subject: "bob", input: "9", at: "2026-01-02T03:04:05Z", change: "cells")]
        let editor = shownEditor(model)
        editor.role = .viewer
        run(editor, "A-h")
        #expect(editor.focus == .panel)
        #expect(editor.panel?.chosen == nil)
        #expect(editor.panel?.notice == "read-only: only an editor restores")
        run(editor, "enter down enter")
        #expect(model.version == 0)
        run(editor, "esc")
        #expect(editor.focus == .grid)
    }

    @Test func commentsAddReplyResolveAndReopen() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        run(editor, "right down A-m")
        #expect(editor.panel?.title == "Comments on B2")
        #expect(editor.panel?.chosenAction == .newComment)
        run(editor, "enter Check space this enter")
        #expect(model.commentList == [CellComment(id: 1, ref: b2, author: "me", text: "Check this")])
        #expect(editor.panel?.input == nil)
        #expect(editor.panel?.lines.map(\.text) == ["New comment…", "me: Check this", "Reply…", "Resolve"])
        run(editor, "down enter Done enter")
        #expect(model.commentList.last == CellComment(id: 2, ref: b2, author: "me", text: "Done", replyTo: 1))
        #expect(editor.panel?.lines.map(\.text) == ["New comment…", "me: Check this", "me: Done", "Reply…", "Resolve"])
        run(editor, "down enter")
        #expect(model.commentList.allSatisfy { $0.resolved })
        #expect(editor.panel?.lines[1].text == "[resolved] me: Check this")
        #expect(editor.panel?.chosenAction == .resolve(thread: 1, resolved: false))
        #expect(editor.panel?.lines[editor.panel!.chosen!].text == "Reopen")
        run(editor, "enter")
        #expect(!model.commentList.contains { $0.resolved })
        // Nothing of this touched the cells.
        #expect(model.inputs.isEmpty)
    }

    @Test func aCommentNeedsTextAndEscapeLeavesTheFieldThenThePanel() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        run(editor, "A-m enter space enter")
        #expect(editor.lastError?.message == "a comment needs some text")
        #expect(editor.panel?.input != nil)
        run(editor, "esc")
        #expect(editor.panel?.input == nil && editor.focus == .panel)
        run(editor, "esc")
        #expect(editor.focus == .grid)
        #expect(model.commentList.isEmpty)
    }

    @Test func aCommentOverTheCapIsRefusedBeforeSending() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        run(editor, "A-m enter")
        editor.handle(.text(String(repeating: "x", count: SheetEditor.maxCommentLength + 1)))
        editor.handle(.enter)
        #expect(editor.lastError?.message.contains("at most 32767") == true)
        #expect(model.commentList.isEmpty)
    }

    /// A commenter's editor on a sheet whose A1 has bob's thread `hi`.
    func commenterOnBobsThread() -> (MemorySheetTransport, SheetEditor) {
        let model = MemorySheetTransport()
        model.commentList = [CellComment(id: 1, ref: a1, author: "bob", text: "hi")]
        let editor = shownEditor(model)
        editor.role = .commenter
        return (model, editor)
    }

    @Test func aCommenterCommentsAViewerOnlyReads() {
        let (_, editor) = commenterOnBobsThread()
        run(editor, "A-m")
        #expect(editor.panel?.lines.map(\.action) == [.newComment, nil, .reply(thread: 1), .resolve(thread: 1, resolved: true)])
        run(editor, "esc")
        editor.role = .viewer
        run(editor, "A-m")
        #expect(editor.panel?.lines.map(\.text) == ["bob: hi"])
        #expect(editor.panel?.chosen == nil)
        #expect(editor.panel?.notice == "read-only: a viewer cannot comment")
    }

    @Test func aRefusedResolveIsShownAndThePanelStays() {
        let (model, editor) = commenterOnBobsThread()
        run(editor, "A-m down down")
        model.failPanel = TransportError(status: 403, code: .forbidden, message: "only the thread's author resolves it", retryable: false)
        run(editor, "enter")
        #expect(editor.lastError?.message.hasPrefix("cannot resolve the thread: only the thread's author") == true)
        #expect(editor.focus == .panel)
        #expect(!model.commentList[0].resolved)
    }

    @Test func anOwnerGrantsRevokesAndMakesLinks() {
        let model = MemorySheetTransport()
        model.grantList = ["carol": .viewer, "link:9": .viewer]
        let editor = shownEditor(model)
        run(editor, "A-s")
        #expect(editor.panel?.lines.map(\.text) == ["People:", "carol  viewer  (Enter revokes)", "Add a person…", "Links:", "New viewer link", "New commenter link"])
        run(editor, "down enter bob enter")
        #expect(editor.lastError?.message.hasPrefix("type a person and a role") == true)
        #expect(model.grantList["bob"] == nil)
        run(editor, "space editor enter")
        #expect(model.grantList["bob"] == .editor)
        #expect(editor.panel?.notice == "bob is now an editor")
        // Lines: People, bob, carol, Add (chosen), Links, New viewer link, New commenter link.
        run(editor, "down enter")
        #expect(model.linkList == [ShareLink(id: "1", role: .viewer)])
        #expect(editor.panel?.notice == "viewer link: http://127.0.0.1:8080/l/tok1")
        #expect(editor.panel?.lines.contains { $0.action == .deleteLink(id: "1") } == true)
        // Up to the link's line: Enter revokes it.
        run(editor, "up enter")
        #expect(model.linkList.isEmpty)
        #expect(editor.panel?.notice == "link:1 revoked")
        // The revoked link's line is gone: the line now there (New viewer link) stays chosen.
        #expect(editor.panel?.chosenAction == .createLink(.viewer))
        run(editor, "up up enter")
        #expect(model.grantList == ["bob": .editor, "link:9": .viewer])
    }

    @Test func aGrantNamesAPersonAndARoleAGrantCanGive() throws {
        for (text, subject, role) in [("  bob   editor ", "bob", SheetRole.editor), ("Ann Lee commenter", "Ann Lee", .commenter), ("bob VIEWER", "bob", .viewer)] {
            let request = try SheetEditor.grantRequest(text)
            #expect(request.subject == subject && request.role == role)
        }
        for refused in ["bob", "bob owner", "editor", "", "bob admin", String(repeating: "x", count: 256) + " viewer"] {
            #expect(throws: PanelInputError.self) { try SheetEditor.grantRequest(refused) }
        }
    }

    @Test func aNonOwnerIsToldTheyCannotShare() {
        let model = MemorySheetTransport()
        // A request would fail: none may be made.
        model.failPanel = TransportError(status: 403, code: .forbidden, message: "owner only", retryable: false)
        let editor = shownEditor(model)
        editor.role = .editor
        run(editor, "A-s")
        #expect(editor.focus == .panel)
        #expect(editor.panel?.lines.isEmpty == true)
        #expect(editor.panel?.notice == "only the sheet's owner can share it (you are an editor)")
        #expect(model.failPanel != nil)
    }

    @Test func aPanelThatCannotBeReadLeavesTheGridWithTheError() {
        let model = MemorySheetTransport()
        model.failPanel = TransportError(status: 0, code: nil, message: "connection refused", retryable: true)
        let editor = shownEditor(model)
        run(editor, "A-h")
        #expect(editor.focus == .grid)
        #expect(editor.lastError?.message == "cannot read the history: connection refused (will retry)")
    }

    /// The F3 menu on a narrow status line keeps the chosen entry seen, `…` for the rest.
    @Test func theF3MenuLineKeepsTheChosenEntrySeen() {
        let count = GridMenuEntry.allCases.count
        #expect(GridMenuEntry.line(selected: 0, width: 200) == "[SUM] AVERAGE COUNT MIN MAX History Comments Table view Sharing")
        for width in [12, 20, 40, 60] {
            for selected in 0..<count {
                let line = GridMenuEntry.line(selected: selected, width: width)
                #expect(line.count <= width && line.contains("[" + GridMenuEntry.allCases[selected].title + "]"), "\(selected) in \(width): \(line)")
            }
        }
        #expect(GridMenuEntry.line(selected: count - 1, width: 30).hasPrefix("… ") && GridMenuEntry.line(selected: count - 1, width: 30).hasSuffix("[Sharing]"))
        // Hostile widths and indexes draw nothing rather than trap.
        #expect(GridMenuEntry.line(selected: count, width: 40) == "" && GridMenuEntry.line(selected: -1, width: 40) == "" && GridMenuEntry.line(selected: 0, width: -5) == "")
    }

    @Test func theF3MenuOpensThePanelsForAViewerToo() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        editor.role = .viewer
        run(editor, "F3 left enter")
        #expect(editor.panel?.kind == .sharing)
        run(editor, "esc F3")
        for _ in 0..<InsertableFunction.allCases.count { run(editor, "right") }
        #expect(GridMenuEntry.allCases[InsertableFunction.allCases.count] == .panel(.history))
        run(editor, "enter")
        #expect(editor.panel?.kind == .history)
        // A function from the menu is still refused to a viewer.
        run(editor, "esc F3 enter")
        #expect(editor.lastError?.message.hasPrefix("read-only") == true)
        #expect(model.version == 0)
    }

    @Test func anOpenDraftIsCommittedBeforeAPanelOpens() {
        let model = MemorySheetTransport()
        let editor = shownEditor(model)
        run(editor, "7 A-h")
        #expect(model.inputs[a1] == "7")
        #expect(editor.panel?.lines.count == 1)
    }

    // MARK: Hostile values

    @Test func escapeSequencesNeverReachTheScreenRaw() {
        let model = MemorySheetTransport()
        model.commentList = [CellComment(id: 1, ref: a1, author: "eve\u{1B}]0;owned\u{07}", text: "\u{1B}[2J\u{9B}31mred\u{202E}txt")]
        model.cellHistory[a1] = [CellHistoryEntry(version: 1, subject: "\u{1B}[31m", input: "=\"\u{1B}c\"", at: "\u{1B}[H", change: "cells")]
        model.grantList = ["\u{1B}[5mbob": .editor]
        model.linkURLPrefix = "http://x/\u{1B}[8m"
        let editor = shownEditor(model)
        var screens: [[PanelRow]] = []
        run(editor, "A-m")
        screens.append(editor.panel!.layout(width: 60, height: 10))
        run(editor, "esc A-h")
        screens.append(editor.panel!.layout(width: 60, height: 10))
        run(editor, "esc A-s down down enter")
        #expect(editor.panel?.notice?.hasPrefix("viewer link: http://x/") == true)
        screens.append(editor.panel!.layout(width: 60, height: 10))
        for row in screens.joined() {
            #expect(!row.text.containsControlCharacters, "\(row.text.visibleControlCharacters)")
        }
        #expect(screens[0].contains { $0.text.contains("\\u{1B}[2J") })
        #expect(screens[2].contains { $0.text.contains("\\u{1B}[8m") })
    }

    @Test func aVeryLongCommentWrapsAndIsCut() {
        let long = (0..<5_000).map { "word\($0)" }.joined(separator: " ")
        let panel = SheetEditor.commentsPanel(a1, [CellComment(id: 1, ref: a1, author: "bob", text: long)], role: .editor)
        let rows = panel.layout(width: 30, height: 20)
        let comment = rows.filter { $0.text.hasPrefix("bob:") || $0.text.hasPrefix("word") }
        #expect(comment.count == Panel.maxLinesPerItem)
        #expect(comment.last?.text.hasSuffix("…") == true)
        #expect(rows.allSatisfy { $0.text.count <= 30 })
        // One word longer than the panel is broken inside.
        let unbroken = Panel.wrap(String(repeating: "y", count: 100), width: 30, maxLines: 10)
        #expect(unbroken.map(\.count) == [30, 30, 30, 10])
        #expect(Panel.wrap("a\nb\n\nc", width: 5, maxLines: 10) == ["a", "b", "", "c"])
    }

    @Test func aPanelFitsATinyTerminal() {
        let comments = (1...6).map { CellComment(id: $0, ref: a1, author: "author\($0)", text: String(repeating: "long text ", count: 30)) }
        var panel = SheetEditor.commentsPanel(a1, comments, role: .owner)
        for _ in 0..<12 { panel.moveChoice(by: 1) }
        panel.input = PanelInput(action: .newComment, prompt: "Comment on A1", text: String(repeating: "typed ", count: 20) + "END")
        // A 20x6 terminal: the panel has the 4 lines between the formula bar and the status line.
        for (width, height) in [(20, 4), (20, 1), (1, 4), (3, 2), (0, 0), (-5, -1), (200, 200)] {
            let rows = panel.layout(width: width, height: height)
            #expect(rows.count <= max(height, 0))
            #expect(rows.allSatisfy { $0.text.count <= max(width, 0) })
        }
        let small = panel.layout(width: 20, height: 4)
        #expect(small.contains { $0.isChosen })
        #expect(small.last?.text.hasSuffix("END") == true)
    }
}
