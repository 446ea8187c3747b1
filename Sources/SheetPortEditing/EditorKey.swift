/// What a person does to the grid, as the terminal's keys map to it (Docs/Reference/CLI.md, "sheetport open";
/// "Terminal grid"); an app maps its own events to the same.
public enum EditorKey: Sendable, Equatable {
    /// Typed characters: start or continue a draft (or the address field's text).
    case text(String)
    /// Backspace: the draft's last character (no draft: a draft that clears the cell).
    case backspace
    /// F2: a draft holding the active cell's input.
    case edit
    /// Delete: clears the contents of the selection.
    case delete
    /// Commit and move down (inside a range selected: down its columns).
    case enter
    /// Commit and move up (Alt-Enter, Shift-Enter).
    case reverseEnter
    /// Commit and move right.
    case tab
    /// Commit and move left (Shift-Tab).
    case reverseTab
    /// Abandon the draft (or leave the address field or the menu; answer cancel to a question).
    case escape
    /// Move one cell (a draft is committed first).
    case arrow(Direction)
    /// Extend the selection one cell.
    case extend(Direction)
    /// Ctrl-A.
    case selectAll
    /// Ctrl-C: the selection to the clipboard.
    case copy
    /// Ctrl-V: the clipboard at the active cell (after Ctrl-X, the cut cells are moved: their
    /// source is cleared once the paste is written).
    case paste
    /// Ctrl-X: the selection to the clipboard, to be moved by the next paste.
    case cut
    /// Ctrl-B: bold on the selection, or off when the active cell is bold.
    case bold
    /// Alt-I (a terminal sends Ctrl-I as Tab): italic on the selection, or off when the active cell is italic.
    case italic
    /// Ctrl-D: the selection's first row copied down over the rest of it (one row selected: the
    /// row above copied into it), formulas translated by the server.
    case fillDown
    /// Ctrl-R: the selection's first column copied right over the rest (one column: the column
    /// to the left copied into it).
    case fillRight
    /// Ctrl-Z: takes back the person's own last write (outside a draft).
    case undo
    /// Ctrl-G: focus the range address field.
    case goTo
    /// Alt-= (SUM) or a choice of the menu.
    case insertFunction(InsertableFunction)
    /// F3: the menu of SUM, AVERAGE, COUNT, MIN, MAX and the panels.
    case functionMenu
    /// Alt-H history, Alt-M comments, Alt-S sharing: a panel over the grid (Escape closes it).
    case panel(PanelKind)
    /// Alt-F: the format menu (alignment, number format, colours, sizes, clear formatting).
    case formatMenu
    /// Ctrl-Q: close, asking about an unresolved draft.
    case quit
    /// An answer to the save, discard or cancel question.
    case answer(DraftAnswer)
}

/// The answers to "the draft is not saved".
public enum DraftAnswer: Sendable, Equatable {
    case save, discard, cancel
}

/// Where the keys go.
public enum EditorFocus: Sendable, Equatable {
    /// The grid (and its draft).
    case grid
    /// The range address field, with what was typed so far.
    case addressField(String)
    /// The F3 menu, with the highlighted entry (an index of `GridMenuEntry.allCases`).
    case functionMenu(Int)
    /// The open panel (`SheetEditor.panel`).
    case panel
    /// The format menu, with the highlighted entry (an index of `FormatMenuEntry.allCases`).
    case formatMenu(Int)
    /// A value the format menu asks for, with what was typed so far.
    case formatField(FormatField, String)
}

/// A draft: what is typed into a cell before it is committed.
public struct Draft: Sendable, Equatable {
    /// The cell.
    public var ref: CellReference
    /// The text so far.
    public var text: String
}

/// What waits for the save, discard or cancel answer.
public enum PendingNavigation: Sendable, Equatable {
    /// Closing the grid.
    case close
    /// Going to a range from the address field.
    case goTo(CellRange)
}

/// The last error shown: `retryable` when trying again may succeed.
public struct EditorError: Sendable, Equatable, CustomStringConvertible {
    /// A sentence.
    public var message: String
    /// Whether the same action may succeed later.
    public var retryable: Bool
    /// The message.
    public var description: String { message }
}

import SheetPortCore
