#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// Finds how far right a worksheet's cells reach from the tags of its XML alone: each `<c>`'s
/// column (its `r`, or the one after the cell before it in the row) and whether it holds a
/// formula or a value the reader keeps (a `<v>` with text other than spaces, any `<v>` of a
/// `t="str"` cell, an inline string's text), with no value decoded, no shared string looked up
/// and no row built.
/// What CSV needs before its first record (every record is as wide as the used range), at a
/// fraction of a full read: `<dimension>` cannot stand in, as producers write it absent, as
/// `A1`, or reaching XFD.
///
/// Fed the inflated part chunk by chunk; a tag cut by a chunk's end is carried into the next.
/// It agrees with the reader on the corpus (the tests compare them); it can only be wider, where
/// a value the reader drops looks like one (a shared string index past the table). A part not
/// in an ASCII-compatible encoding (UTF-16) is not scanned: `isReadable` turns false.
package struct CellWidthScanner {
    /// The last column of a cell with a value or a formula so far (0: none).
    package private(set) var columns = 0
    private var carry: [UInt8] = []
    private var skipping = Skipping.none
    private var inSheetData = false
    private var previousColumn = 0
    /// The column of the open `<c>` (0 when none is open), and whether it holds a value or a formula.
    private var openColumn = 0
    private var openHasContent = false
    /// Whether the open cell is `t="str"` (its `<v>` is kept even when empty).
    private var openIsFormulaString = false
    /// The text being read: a `<v>`'s (counts when not only spaces) or an inline `<t>`'s (counts when not empty).
    private var text = Text.none
    private var bytesSeen = 0
    /// False once the part's first bytes show an encoding the scan cannot read.
    package private(set) var isReadable = true

    private enum Text { case none, value, inline }

    /// What is being skipped to its end marker.
    private enum Skipping { case none, comment, characterData, instruction, tag }

    /// A tag longer than this is skipped unread (no producer writes one; it bounds the carry).
    static let maxTagLength = 1 << 20

    package init() {}

    /// Scans the next inflated bytes of the part.
    package mutating func scan(_ chunk: UnsafeRawBufferPointer) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        if bytesSeen < 2 {
            // UTF-16 (with a byte order mark or zero bytes), UTF-32: tags are not ASCII bytes.
            for byte in bytes.prefix(2 - bytesSeen) where byte == 0 || byte == 0xFE || byte == 0xFF { isReadable = false }
            bytesSeen += bytes.count
        }
        guard isReadable else { return }
        if carry.isEmpty {
            let used = process(bytes)
            if used < bytes.count { carry.append(contentsOf: bytes[used...]) }
            return
        }
        // The cut tag is completed from the chunk's first `>`, and the rest read in place.
        if let greater = memchr(bytes.baseAddress!, Int32(UInt8(ascii: ">")), bytes.count) {
            let cut = bytes.baseAddress!.distance(to: greater.assumingMemoryBound(to: UInt8.self)) + 1
            carry.append(contentsOf: bytes[..<cut])
            let completed = carry
            carry = []
            let used = completed.withUnsafeBufferPointer { process($0) }
            if used == completed.count {
                let rest = UnsafeBufferPointer(rebasing: bytes[cut...])
                let restUsed = process(rest)
                if restUsed < rest.count { carry.append(contentsOf: rest[restUsed...]) }
                return
            }
            var joined = Array(completed[used...])
            joined.append(contentsOf: bytes[cut...])
            joined.withUnsafeBufferPointer { joined in
                let used = process(joined)
                if used < joined.count { carry.append(contentsOf: joined[used...]) }
            }
            return
        }
        var joined = carry
        carry = []
        joined.append(contentsOf: bytes)
        joined.withUnsafeBufferPointer { joined in
            let used = process(joined)
            if used < joined.count { carry.append(contentsOf: joined[used...]) }
        }
    }

    /// The width once the whole part is scanned: the last column holding a value or a formula.
    package mutating func finish() -> Int {
        closeCell()
        return columns
    }

    /// Scans `bytes` up to a tag (or end marker) that they cut short; returns how far it got.
    private mutating func process(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        var index = 0
        while index < count {
            switch skipping {
            case .none: break
            case .comment, .characterData, .instruction, .tag:
                let marker: StaticString = switch skipping {
                case .comment: "-->"
                case .characterData: "]]>"
                case .instruction: "?>"
                default: ">"
                }
                guard let end = Self.find(marker, in: bytes, from: index) else {
                    return max(index, count - (marker.utf8CodeUnitCount - 1))
                }
                index = end + marker.utf8CodeUnitCount
                skipping = .none
                continue
            }
            let found = memchr(base + index, Int32(UInt8(ascii: "<")), count - index)
            let start = found.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? count
            if text != .none, start > index, !openHasContent {
                let between = UnsafeBufferPointer(rebasing: bytes[index..<start])
                openHasContent = text == .inline || between.contains { !Self.isSpace($0) }
            }
            guard found != nil else { return count }
            guard start + 9 <= count || Self.find(">", in: bytes, from: start) != nil else { return start }
            let next = bytes[start + 1]
            if next == UInt8(ascii: "?") { skipping = .instruction; index = start + 2; continue }
            if next == UInt8(ascii: "!") {
                if Self.matches("<!--", in: bytes, at: start) { skipping = .comment; index = start + 4; continue }
                if Self.matches("<![CDATA[", in: bytes, at: start) {
                    if text != .none { openHasContent = true } // text in CDATA (rare): taken as a value
                    skipping = .characterData; index = start + 9; continue
                }
                skipping = .tag; index = start + 2; continue // a declaration: nothing inside counts
            }
            guard let end = memchr(base + start + 1, Int32(UInt8(ascii: ">")), count - start - 1) else {
                if count - start > Self.maxTagLength { skipping = .tag; return count }
                return start
            }
            let close = base.distance(to: end.assumingMemoryBound(to: UInt8.self))
            tag(UnsafeBufferPointer(rebasing: bytes[start + 1..<close]))
            index = close + 1
            // An unprefixed row opened: its last cell with a value usually settles it at once.
            if inSheetData, openColumn == 0, close - start > 4, bytes[start + 1] == UInt8(ascii: "r"), bytes[start + 2] == UInt8(ascii: "o"),
               bytes[start + 3] == UInt8(ascii: "w"), Self.isSpace(bytes[start + 4]) || bytes[start + 4] == UInt8(ascii: ">"),
               bytes[close - 1] != UInt8(ascii: "/"), let end = lastCell(in: bytes, from: index) {
                index = end
            }
        }
        return count
    }

    /// One tag's bytes between `<` and `>`.
    private mutating func tag(_ tag: UnsafeBufferPointer<UInt8>) {
        guard !tag.isEmpty else { return }
        let isClosing = tag[0] == UInt8(ascii: "/")
        var nameEnd = isClosing ? 1 : 0
        var localStart = nameEnd
        while nameEnd < tag.count, !Self.isNameEnd(tag[nameEnd]) {
            if tag[nameEnd] == UInt8(ascii: ":") { localStart = nameEnd + 1 }
            nameEnd += 1
        }
        let name = UnsafeBufferPointer(rebasing: tag[localStart..<nameEnd])
        let isEmptyElement = tag[tag.count - 1] == UInt8(ascii: "/")
        if Self.equals(name, "sheetData") {
            inSheetData = !isClosing && !isEmptyElement
            closeCell()
            return
        }
        guard inSheetData else { return }
        switch name.count {
        case 1 where name[0] == UInt8(ascii: "c"):
            closeCell()
            guard !isClosing else { return }
            var column = previousColumn + 1
            if let reference = Self.attribute("r", in: UnsafeBufferPointer(rebasing: tag[nameEnd...])), !reference.isEmpty,
               let parsed = CellReference.parseUnchecked(reference) {
                column = parsed.column
            }
            previousColumn = column
            if !isEmptyElement {
                openColumn = column
                openHasContent = false
                let type = Self.attribute("t", in: UnsafeBufferPointer(rebasing: tag[nameEnd...]))
                openIsFormulaString = type.map { Self.equals($0, "str") } ?? false
            }
        case 1 where name[0] == UInt8(ascii: "v"):
            if isClosing { text = .none } else if openIsFormulaString { openHasContent = true } else if !isEmptyElement { text = .value }
        case 1 where name[0] == UInt8(ascii: "t"):
            if isClosing { text = .none } else if !isEmptyElement, openColumn > 0 { text = .inline }
        case 1 where name[0] == UInt8(ascii: "f"):
            if !isClosing { openHasContent = true } // `<f t="shared" si="0"/>` is a formula too
        case 3 where Self.equals(name, "row"):
            closeCell()
            if !isClosing { previousColumn = 0 }
        default:
            break
        }
    }

    /// The row from `start` to its `</row>` read from its end: the last cell holding a value or
    /// a formula gives the row's width (cells come in column order; the reader sorts the rare
    /// row that does not, which this may then find narrower). Returns where the row ends, or
    /// nil to read it tag by tag: its end is past this chunk, or it holds a comment, CDATA,
    /// prefixed tags or a cell without `r` that counts.
    private mutating func lastCell(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let base = bytes.baseAddress!
        let rowEnd: StaticString = "</row>"
        guard let end = Self.find(rowEnd, in: bytes, from: start, anchor: 4) else { return nil } // from its `w`
        if Self.find("<!", in: UnsafeBufferPointer(rebasing: bytes[..<end]), from: start, anchor: 1) != nil { return nil }
        var cellEnd = end // where the cell being looked at ends (its `</c>`, or the row's end)
        var position = end
        while position > start {
            position -= 1
            guard bytes[position] == UInt8(ascii: "<") else { continue }
            let next = bytes[position + 1]
            if next == UInt8(ascii: "/") {
                if bytes[position + 2] == UInt8(ascii: "c"), bytes[position + 3] == UInt8(ascii: ">") { cellEnd = position }
                continue
            }
            if next != UInt8(ascii: "c") { continue }
            let after = bytes[position + 2]
            guard Self.isSpace(after) || after == UInt8(ascii: ">") || after == UInt8(ascii: "/") else { return nil } // `<col`, `<x:c`
            guard let close = memchr(base + position, Int32(UInt8(ascii: ">")), end - position) else { return nil }
            let tagEnd = base.distance(to: close.assumingMemoryBound(to: UInt8.self))
            guard tagEnd < cellEnd else { return nil }
            let attributes = UnsafeBufferPointer(rebasing: bytes[position + 2..<tagEnd])
            defer { cellEnd = position }
            guard bytes[tagEnd - 1] != UInt8(ascii: "/"),
                  Self.holdsValue(UnsafeBufferPointer(rebasing: bytes[tagEnd + 1..<cellEnd]), attributes: attributes) else { continue }
            guard let reference = Self.attribute("r", in: attributes), let parsed = CellReference.parseUnchecked(reference) else { return nil }
            columns = max(columns, parsed.column)
            return end + rowEnd.utf8CodeUnitCount
        }
        return end + rowEnd.utf8CodeUnitCount // no cell with a value
    }

    /// Whether a cell's content (between `<c ...>` and `</c>`) holds what the reader keeps, as
    /// the tag-by-tag scan decides it: a formula, a `<v>` not only of spaces (any `<v>` of
    /// `t="str"`), an inline string's non-empty text.
    private static func holdsValue(_ content: UnsafeBufferPointer<UInt8>, attributes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Most cells: `<v>` and a value that starts with neither a space nor a tag.
        if content.count > 3, content[0] == UInt8(ascii: "<"), content[1] == UInt8(ascii: "v"), content[2] == UInt8(ascii: ">"),
           content[3] != UInt8(ascii: "<"), !isSpace(content[3]) { return true }
        var scanner = CellWidthScanner()
        scanner.inSheetData = true
        var tag: [UInt8] = Array("<c".utf8) + Array(attributes) + Array(">".utf8)
        tag += content
        tag += Array("</c>".utf8)
        tag.withUnsafeBufferPointer { _ = scanner.process($0) }
        return scanner.finish() > 0 || scanner.columns > 0
    }

    /// Counts the open cell, if it holds something, and closes it.
    private mutating func closeCell() {
        if openColumn > 0, openHasContent { columns = max(columns, openColumn) }
        openColumn = 0
        openHasContent = false
        openIsFormulaString = false
        text = .none
    }

    /// The value of the unprefixed attribute `name` in a tag's attribute bytes.
    private static func attribute(_ name: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        var index = 0
        while index < bytes.count {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            let nameStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "="), !isSpace(bytes[index]) { index += 1 }
            let attributeName = UnsafeBufferPointer(rebasing: bytes[nameStart..<index])
            while index < bytes.count, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "=") { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[index]
            let valueStart = index + 1
            index = valueStart
            while index < bytes.count, bytes[index] != quote { index += 1 }
            if equals(attributeName, name) { return UnsafeBufferPointer(rebasing: bytes[valueStart..<index]) }
            index += 1
        }
        return nil
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    @inline(__always)
    private static func isNameEnd(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0
    }

    private static func matches(_ text: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        index + text.utf8CodeUnitCount <= bytes.count && memcmp(bytes.baseAddress! + index, text.utf8Start, text.utf8CodeUnitCount) == 0
    }

    /// Where `marker` next starts in `bytes` from `index`, found by its byte at `anchor` (a
    /// rare one, so that few candidates are compared).
    private static func find(_ marker: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from index: Int, anchor: Int = 0) -> Int? {
        let length = marker.utf8CodeUnitCount
        guard length > 0, bytes.count - index >= length, let base = bytes.baseAddress else { return nil }
        var position = index
        while position <= bytes.count - length {
            guard let found = memchr(base + position + anchor, Int32(marker.utf8Start[anchor]), bytes.count - length + 1 - position) else { return nil }
            position = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) - anchor
            if memcmp(base + position, marker.utf8Start, length) == 0 { return position }
            position += 1
        }
        return nil
    }
}

extension Workbook {
    /// The used range's width of a worksheet (the last column holding a value or a formula),
    /// from a scan of its cells' tags alone (`CellWidthScanner`): what CSV and TSV records need
    /// before the first is written, without decoding the sheet twice. Nil for a part the scan
    /// cannot read (UTF-16): only a full read finds its width.
    package func usedWidth(of sheet: Sheet) throws -> Int? {
        // Not counted in `worksheetPasses`: nothing is decoded.
        try UsedWidthScan(self, sheet: sheet).width()
    }
}
