/// A compiled formula's A1 text as runs of literal bytes and reference slots, so that the text a
/// copied cell stores (`B3*C3` below `B2*C2`) is recognised as the same compiled formula without
/// parsing it: the references are matched against the text at the new cell, byte by byte, with
/// no allocation. A file of 200,000 filled rows parses each column's formula once.
///
/// Sound because the engine uses a template only for a formula whose text it has seen parse to
/// that formula and match the template at its own cell: the renderer is then faithful for the
/// formula's shape, and another cell's text that matches differs only in the references' letters
/// and digits, which parse to the same relative references.
struct FormulaTemplate: Sendable {
    enum Part: Sendable {
        case literal([UInt8])
        case cell(CellRef)
        case area(AreaRef)
    }

    let parts: [Part]

    /// The template of a formula, or nil when its text cannot be split (a literal holding the marker).
    init?(_ formula: CompiledFormula) {
        var slots: [Instruction] = []
        let marked = formula.render(at: CellIndex(row: 0, column: 0)) { step in
            slots.append(step)
            return "\u{1}"
        }
        var parts: [Part] = []
        var literal: [UInt8] = []
        var k = 0
        for b in marked.utf8 {
            guard b == 1 else { literal.append(b); continue }
            guard k < slots.count else { return nil }
            if !literal.isEmpty { parts.append(.literal(literal)); literal = [] }
            switch slots[k] {
            case .cell(let r, _): parts.append(.cell(r))
            case .area(let a, _): parts.append(.area(a))
            default: return nil
            }
            k += 1
        }
        guard k == slots.count else { return nil }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// True when `text` (no leading `=`) is exactly this template rendered at `cell`.
    func matches(_ text: String, at cell: CellIndex) -> Bool {
        var text = text
        return text.withUTF8 { s in
            var i = 0
            for part in parts {
                switch part {
                case .literal(let bytes):
                    guard s.count - i >= bytes.count else { return false }
                    for b in bytes {
                        guard s[i] == b else { return false }
                        i += 1
                    }
                case .cell(let r):
                    guard Self.matchCell(r, at: cell, s, &i) else { return false }
                case .area(let a):
                    switch a.kind {
                    case .cells:
                        guard Self.matchCell(a.start, at: cell, s, &i), Self.match(UInt8(ascii: ":"), s, &i),
                              Self.matchCell(a.end, at: cell, s, &i) else { return false }
                    case .columns:
                        guard Self.matchColumn(a.start.column, at: cell, s, &i), Self.match(UInt8(ascii: ":"), s, &i),
                              Self.matchColumn(a.end.column, at: cell, s, &i) else { return false }
                    case .rows:
                        guard Self.matchRow(a.start.row, at: cell, s, &i), Self.match(UInt8(ascii: ":"), s, &i),
                              Self.matchRow(a.end.row, at: cell, s, &i) else { return false }
                    }
                }
            }
            return i == s.count
        }
    }

    @inline(__always)
    private static func match(_ b: UInt8, _ s: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Bool {
        guard i < s.count, s[i] == b else { return false }
        i += 1
        return true
    }

    private static func matchCell(_ r: CellRef, at cell: CellIndex, _ s: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Bool {
        matchColumn(r.column, at: cell, s, &i) && matchRow(r.row, at: cell, s, &i)
    }

    /// `$`? and the upper-case letters of the column the coordinate names at `cell` (as the renderer writes them).
    private static func matchColumn(_ c: RefCoord, at cell: CellIndex, _ s: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Bool {
        let column = c.resolve(cell.column)
        guard column >= 0, column <= maxColumnIndex else { return false }
        if c.absolute, !match(UInt8(ascii: "$"), s, &i) { return false }
        var n = 0, j = i
        while j < s.count, s[j] >= 65, s[j] <= 90, j - i < 3 {
            n = n * 26 + Int(s[j] - 64)
            j += 1
        }
        guard j > i, n == Int(column) + 1 else { return false }
        i = j
        return true
    }

    /// `$`? and the decimal row number (no leading zero) the coordinate names at `cell`.
    private static func matchRow(_ r: RefCoord, at cell: CellIndex, _ s: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Bool {
        let row = r.resolve(cell.row)
        guard row >= 0, row <= maxRowIndex else { return false }
        if r.absolute, !match(UInt8(ascii: "$"), s, &i) { return false }
        guard i < s.count, s[i] >= 49, s[i] <= 57 else { return false }
        var n = 0, j = i
        while j < s.count, s[j] >= 48, s[j] <= 57, j - i < 8 {
            n = n * 10 + Int(s[j] - 48)
            j += 1
        }
        guard n == Int(row) + 1 else { return false }
        i = j
        return true
    }
}
