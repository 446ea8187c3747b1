#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// The worksheet fast path: a tokenizer made for the worksheet grammar that reads the inflated
/// bytes on the caller's thread and calls the worksheet handler directly, with no parser thread
/// and no recorded events (as calamine does with quick-xml).
///
/// It is strict and never guesses: it checks well-formedness as it goes (tags closed in order,
/// attribute syntax, namespace prefixes bound, characters allowed in XML, UTF-8 valid, entities
/// and character references), and anything it does not handle, or any doubt, answers
/// `handOver`. The reader then starts libxml2 on the part from its start, which decides (a
/// DOCTYPE: `forbidden-dtd`, malformed XML with libxml2's message, another encoding, handler
/// errors). What the fast path hands over:
/// - an encoding other than UTF-8, an XML declaration other than version 1.0, a BOM other than UTF-8's;
/// - `<!DOCTYPE` and any other `<!` than a comment or CDATA;
/// - entities other than the five predefined ones, character references to non-characters;
/// - in attribute values: `&`, tab, line feed, carriage return (libxml2 normalises them), non-ASCII;
/// - a carriage return anywhere (line-end normalisation), non-ASCII names, names over 1,000 bytes;
/// - more than 64 attributes, nesting deeper than 128, a token (tag, text, comment) over 4 MiB;
/// - duplicate attributes or namespace declarations, unbound or reserved prefixes;
/// - an error of the handler (a bad row number, text over the limit), and a failure of the source
///   (archive limits, corrupt data): libxml2's path reports them after the same rows.
///
/// The hot tokens of a sheet (`<c r="A1" t="s">`, `<v>`, `1.5`, `</v>`, `</c>`, `</row>`) take
/// fast paths (`fastText`, `fastEndTag`, `fastStartTag`) that accept only what the general
/// code would accept the same way, with the same handler calls, and otherwise change nothing
/// and let the general code decide: they narrow what is read quickly, never what is accepted.
///
/// The shared-string table, the other part as big as the sheet, takes the same path
/// (`SharedStringsPart`): the tokenizer is generic over the part reader it drives.
final class WorksheetTokenizer<Handler: FastPathPart> {
    /// What `advance()` ended with.
    typealias Step = FastPathStep

    /// The outcome of scanning one token.
    private enum Scan { case done, more, refuse }

    private let source: BackgroundInflater
    private let handler: Handler

    // The scan state is touched on every byte by one thread: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity = 256 << 10
    /// The first byte not yet consumed.
    @exclusivity(unchecked) private var position = 0
    /// One past the last byte read.
    @exclusivity(unchecked) private var limit = 0
    @exclusivity(unchecked) private var sourceEnded = false
    @exclusivity(unchecked) private var started = false
    @exclusivity(unchecked) private var rootClosed = false

    /// Open elements: their qualified names, NUL-terminated, end to end in `openNames`, where
    /// each starts and where its local name starts, and their namespaces (raw storage: this
    /// stack changes on every tag).
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var openNames: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var openStarts: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var openLocals: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var openNamespaces: UnsafeMutablePointer<Namespace>
    /// For an open element whose qualified name is at most 7 bytes: its end tag's bytes after
    /// `</` (the name and `>`) as a little-endian word, and the mask of those bytes; for a
    /// longer name, a key no masked word equals (1) and mask 0. The fast end tag is one compare.
    @exclusivity(unchecked) private var openKeys: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) private var openMasks: UnsafeMutablePointer<UInt64>

    /// Namespace declarations in scope; `depth` is that of the element declaring them.
    private struct Binding {
        var prefix: [UInt8]
        var namespace: Namespace
        var depth: Int
    }
    @exclusivity(unchecked) private var bindings: [Binding] = []
    @exclusivity(unchecked) private var defaultNamespace = Namespace.none
    /// The depth of the last binding, -1 with none: an end tag at another depth pops nothing.
    @exclusivity(unchecked) private var lastBindingDepth = -1

    /// The attributes of the tag at hand: offsets into `buffer` (qualified name start and end,
    /// colon or -1, value start and end).
    @exclusivity(unchecked) private var attributeCount = 0
    @exclusivity(unchecked) private var attributeOffsets: UnsafeMutablePointer<Int>
    /// libxml2's layout for `XMLAttributes` (localname, prefix, URI, value, end) and the namespaces.
    @exclusivity(unchecked) private var fields: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    @exclusivity(unchecked) private var fieldNamespaces: UnsafeMutablePointer<Namespace>
    /// Stands for "has a namespace" in an attribute's URI field: `XMLAttributes` reads the
    /// resolved namespace from `namespaces`, and only whether the field is nil from here.
    private let someURI: UnsafeMutablePointer<UInt8>
    /// Text with references decoded.
    @exclusivity(unchecked) private var decoded: [UInt8] = []

    /// Byte classes, one table lookup per byte in the hot loops.
    private let classes: UnsafeMutablePointer<UInt8>
    // Constants as computed properties: a generic type has no static stored properties.
    private static var nameByte: UInt8 { 1 }
    private static var nameStart: UInt8 { 2 }
    private static var space: UInt8 { 4 }
    private static var plainValue: UInt8 { 8 }
    private static var plainText: UInt8 { 16 }

    private static var maxToken: Int { 4 << 20 }
    private static var maxAttributes: Int { 64 }
    private static var maxDepth: Int { 128 }
    private static var maxName: Int { 1_000 }
    /// Past the bytes read: `XMLAttributes` compares names with `memcmp`, which may read a
    /// little past a short name's NUL; the fast paths load 8-byte words and find a NUL
    /// sentinel at `limit`.
    private static var slack: Int { 64 }
    /// The fast start tag takes at most this many attributes (more: the general path).
    private static var fastAttributes: Int { 8 }

    /// A tokenizer over the bytes of `source`, calling `handler`.
    init(source: BackgroundInflater, handler: Handler) {
        self.source = source
        self.handler = handler
        buffer = .allocate(capacity: capacity + Self.slack)
        buffer.initialize(repeating: 0, count: capacity + Self.slack)
        attributeOffsets = .allocate(capacity: Self.maxAttributes * 5)
        fields = .allocate(capacity: Self.maxAttributes * 5)
        fields.initialize(repeating: nil, count: Self.maxAttributes * 5)
        fieldNamespaces = .allocate(capacity: Self.maxAttributes)
        fieldNamespaces.initialize(repeating: .none, count: Self.maxAttributes)
        classes = .allocate(capacity: 256)
        for byte in 0...255 {
            let value = UInt8(byte), folded = value | 0x20
            let letter = folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")
            var bits: UInt8 = 0
            if letter || value == UInt8(ascii: "_") { bits |= Self.nameStart | Self.nameByte }
            if (value >= 0x30 && value <= 0x39) || value == UInt8(ascii: "-") || value == UInt8(ascii: ".") { bits |= Self.nameByte }
            if value == 0x20 || value == 0x09 || value == 0x0A { bits |= Self.space }
            let printable = value >= 0x20 && value < 0x80
            if printable, !"<&\"'".utf8.contains(value) { bits |= Self.plainValue }
            if (printable || value == 0x09 || value == 0x0A), !"<&]".utf8.contains(value) { bits |= Self.plainText }
            classes[byte] = bits
        }
        someURI = .allocate(capacity: 1)
        someURI.initialize(to: 0)
        openNames = .allocate(capacity: Self.maxDepth * (Self.maxName + 1) + Self.slack)
        openStarts = .allocate(capacity: Self.maxDepth + 1)
        openStarts[0] = 0
        openLocals = .allocate(capacity: Self.maxDepth)
        openNamespaces = .allocate(capacity: Self.maxDepth)
        openNamespaces.initialize(repeating: .none, count: Self.maxDepth)
        openKeys = .allocate(capacity: Self.maxDepth)
        openMasks = .allocate(capacity: Self.maxDepth)
    }

    deinit {
        buffer.deallocate()
        attributeOffsets.deallocate()
        fields.deallocate()
        fieldNamespaces.deallocate()
        someURI.deallocate()
        classes.deallocate()
        openNames.deallocate()
        openStarts.deallocate()
        openLocals.deallocate()
        openNamespaces.deallocate()
        openKeys.deallocate()
        openMasks.deallocate()
    }

    /// Bytes of the part consumed from the inflater so far.
    var bytesRead: Int64 { source.bytesRead }

    /// Tokenizes until some rows are complete, the part ends, or the fast path must hand over.
    func advance() -> Step {
        while true {
            if handler.completedCount >= 256 { return .rows }
            let scan: Scan = position < limit ? token() : .more
            switch scan {
            case .done:
                continue
            case .refuse:
                return .handOver
            case .more:
                // Rows first, before waiting on the inflater.
                if handler.completedCount > 0 { return .rows }
                if sourceEnded { return position == limit && started && rootClosed ? .end : .handOver }
                guard refill() else { return .handOver }
            }
        }
    }

    /// Moves the unconsumed bytes to the front and reads until the buffer is full or the part
    /// ends; false when the source failed or a token outgrew `maxToken`.
    private func refill() -> Bool {
        if position > 0 {
            if limit > position { memmove(buffer, buffer + position, limit - position) }
            limit -= position
            position = 0
        }
        if limit == capacity {
            guard capacity < Self.maxToken else { return false }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2 + Self.slack)
            grown.update(from: buffer, count: limit)
            (grown + limit).initialize(repeating: 0, count: capacity * 2 + Self.slack - limit)
            buffer.deallocate()
            buffer = grown
            capacity *= 2
        }
        while limit < capacity {
            let count: Int
            do { count = try source.read(into: buffer + limit, count: capacity - limit) } catch { buffer[limit] = 0; return false }
            if count == 0 { sourceEnded = true; break }
            limit += count
        }
        // The sentinel: byte loops stop at `limit` without comparing against it (0 is in no class).
        buffer[limit] = 0
        return true
    }

    // MARK: tokens

    @inline(__always)
    private func token() -> Scan {
        if !started { return prolog() }
        // The hot tokens first, each on a fast path that takes only what it can prove the
        // general path would take the same way and leaves anything else to it, unchanged.
        guard buffer[position] == UInt8(ascii: "<") else { return fastText() ?? text() }
        // `position + 1` is at most `limit`, where the sentinel is: no bounds check needed.
        let next = buffer[position + 1]
        if next == UInt8(ascii: "/") { return fastEndTag() ?? endTag() }
        if classes[Int(next)] & Self.nameStart != 0 { return fastStartTag() ?? startTag() }
        guard position + 1 < limit else { return .more }
        switch next {
        case UInt8(ascii: "/"): return endTag()
        case UInt8(ascii: "?"): return processingInstruction()
        case UInt8(ascii: "!"): return markup()
        default: return startTag()
        }
    }

    // MARK: fast paths

    /// Plain character data (ASCII without `&`, `]`, controls other than tab and line feed)
    /// inside the root up to a `<`; nil for anything else, which `text()` decides.
    @inline(__always)
    private func fastText() -> Scan? {
        let buffer = self.buffer, classes = self.classes
        var p = position
        // The sentinel at `limit` is not plain text: the loop needs no bound.
        while classes[Int(buffer[p])] & Self.plainText != 0 { p &+= 1 }
        guard p < limit, buffer[p] == UInt8(ascii: "<"), depth > 0 else { return nil }
        handler.characters(UnsafeBufferPointer(start: buffer + position, count: p - position))
        position = p
        return .done
    }

    /// `</name>` closing the innermost element when its name is at most 7 bytes and no
    /// namespace declaration ends with it: one masked word compare; nil for anything else,
    /// which `endTag()` decides.
    @inline(__always)
    private func fastEndTag() -> Scan? {
        let depth = self.depth
        guard depth > 0, lastBindingDepth != depth else { return nil }
        let top = depth - 1
        // The name and `>`; bytes past `limit` never match (the sentinel is 0, a key byte never).
        let word = UnsafeRawPointer(buffer + position + 2).loadUnaligned(as: UInt64.self)
        guard word & openMasks[top] == openKeys[top] else { return nil }
        do {
            try handler.endElement(XMLName(namespace: openNamespaces[top], local: UnsafePointer(openNames + openLocals[top])))
        } catch {
            return .refuse
        }
        self.depth = top
        if top == 0 { rootClosed = true }
        // `</`, the name (its slot less the NUL) and `>`; wrapping: all are small.
        position = position &+ 2 &+ (openStarts[depth] &- openStarts[top])
        return .done
    }

    /// A start tag without prefixes or namespace declarations: a name of at most 7 bytes, at
    /// most `fastAttributes` attributes written `name="value"` (no white space around `=`)
    /// with plain values. It checks what `startTag()` and `openElement` check (distinct
    /// attributes, the depth, one root) and calls the handler the same way; nil, with nothing
    /// changed, for anything else, which the general path decides.
    @inline(__always)
    private func fastStartTag() -> Scan? {
        let buffer = self.buffer, classes = self.classes, fields = self.fields
        guard depth < Self.maxDepth, !(depth == 0 && rootClosed) else { return nil }
        let nameStart = position + 1
        // Every loop stops at the sentinel at `limit`: no bounds in the byte loops.
        // Wrapping arithmetic: offsets stay below the buffer's capacity.
        var p = nameStart &+ 1
        while classes[Int(buffer[p])] & Self.nameByte != 0 { p &+= 1 }
        let nameEnd = p
        guard nameEnd - nameStart <= 7 else { return nil }
        var count = 0
        var selfClosing = false
        while true {
            let spaceStart = p
            while classes[Int(buffer[p])] & Self.space != 0 { p &+= 1 }
            let byte = buffer[p]
            if byte == UInt8(ascii: ">") { p &+= 1; break }
            if byte == UInt8(ascii: "/") {
                guard buffer[p &+ 1] == UInt8(ascii: ">") else { return nil }
                p &+= 2
                selfClosing = true
                break
            }
            // A colon, a byte that ends no name, or the end of the bytes read: the general path.
            guard p > spaceStart, count < Self.fastAttributes, classes[Int(byte)] & Self.nameStart != 0 else { return nil }
            let attributeStart = p
            p &+= 1
            while classes[Int(buffer[p])] & Self.nameByte != 0 { p &+= 1 }
            let attributeEnd = p
            let length = attributeEnd &- attributeStart
            guard buffer[p] == UInt8(ascii: "="), length <= Self.maxName else { return nil }
            if length == 5, matches(attributeStart, "xmlns") { return nil }
            let quote = buffer[p &+ 1]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
            p &+= 2
            let valueStart = p
            while true {
                while classes[Int(buffer[p])] & Self.plainValue != 0 { p &+= 1 }
                let byte = buffer[p]
                if byte == quote { break }
                // `<`, `&`, tab, line ends, non-ASCII, the sentinel: the general path decides.
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") else { return nil }
                p &+= 1
            }
            // Distinct qualified names (without prefixes, the only rule that applies); an
            // earlier name ends 2 bytes before its value (`="`).
            let name = UnsafePointer(buffer + attributeStart)
            for other in 0..<count {
                let earlier = fields + other &* 5
                let earlierName = earlier[0].unsafelyUnwrapped
                if earlier[3].unsafelyUnwrapped - earlierName == length &+ 2, earlierName.pointee == name.pointee,
                   length == 1 || memcmp(earlierName, name, length) == 0 { return nil }
            }
            // The prefix and URI fields stay nil: `openElement` leaves them so.
            let slot = fields + count &* 5
            slot[0] = name
            slot[3] = UnsafePointer(buffer + valueStart)
            slot[4] = UnsafePointer(buffer + p)
            count &+= 1
            p &+= 1
        }
        guard p - position <= Self.maxToken else { return nil }
        // The tag is parsed: names NUL-terminated in place (on their `=`), as `openElement`
        // does (the attributes' namespaces are all `.none` already: `openElement` leaves them so).
        for index in 0..<count { UnsafeMutablePointer(mutating: fields[index &* 5 &+ 3].unsafelyUnwrapped - 2).pointee = 0 }
        buffer[nameEnd] = 0
        let namespace = defaultNamespace
        let name = XMLName(namespace: namespace, local: UnsafePointer(buffer + nameStart))
        do {
            try handler.startElement(name, attributes: XMLAttributes(base: fields, count: count, namespaces: fieldNamespaces))
            if selfClosing { try handler.endElement(name) }
        } catch {
            return .refuse
        }
        if selfClosing {
            if depth == 0 { rootClosed = true }
        } else {
            push(nameStart: nameStart, nameEnd: nameEnd, localStart: nameStart, namespace: namespace)
        }
        position = p
        return .done
    }

    /// An optional UTF-8 byte order mark and XML declaration (version 1.0, UTF-8).
    private func prolog() -> Scan {
        if limit - position < 64, !sourceEnded { return .more }
        var p = position
        if limit - p >= 3, buffer[p] == 0xEF, buffer[p + 1] == 0xBB, buffer[p + 2] == 0xBF { p += 3 }
        if limit - p >= 6, matches(p, "<?xml"), isSpace(buffer[p + 5]) {
            var end = p + 5
            while end + 1 < limit, !(buffer[end] == UInt8(ascii: "?") && buffer[end + 1] == UInt8(ascii: ">")) {
                end += 1
                if end - p > 512 { return .refuse }
            }
            guard end + 1 < limit else { return sourceEnded ? .refuse : .more }
            guard Self.declarationIsPlain(Array(UnsafeBufferPointer(start: buffer + p + 5, count: end - p - 5))) else {
                return .refuse
            }
            p = end + 2
        }
        guard p < limit, buffer[p] == UInt8(ascii: "<") || isSpace(buffer[p]) else { return .refuse }
        position = p
        started = true
        return .done
    }

    /// Whether the XML declaration's pseudo-attributes are `version="1.0"`, then optionally
    /// `encoding` UTF-8 and `standalone` yes or no, in that order.
    private static func declarationIsPlain(_ bytes: [UInt8]) -> Bool {
        var index = 0
        var pairs: [(String, String)] = []
        while true {
            let spaceStart = index
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A { index += 1 }
            if index == bytes.count { break }
            guard index > spaceStart else { return false }
            let nameStart = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "a"), bytes[index] <= UInt8(ascii: "z") { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            while index < bytes.count, bytes[index] == 0x20 { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return false }
            index += 1
            while index < bytes.count, bytes[index] == 0x20 { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return false }
            let quote = bytes[index]
            index += 1
            let valueStart = index
            while index < bytes.count, bytes[index] != quote {
                guard bytes[index] > 0x20, bytes[index] < 0x80 else { return false }
                index += 1
            }
            guard index < bytes.count else { return false }
            pairs.append((name, String(decoding: bytes[valueStart..<index], as: UTF8.self)))
            index += 1
        }
        guard let first = pairs.first, first == ("version", "1.0") else { return false }
        var rest = pairs.dropFirst()
        if let pair = rest.first, pair.0 == "encoding" {
            guard pair.1.lowercased() == "utf-8" else { return false }
            rest = rest.dropFirst()
        }
        if let pair = rest.first, pair.0 == "standalone" {
            guard pair.1 == "yes" || pair.1 == "no" else { return false }
            rest = rest.dropFirst()
        }
        return rest.isEmpty
    }

    /// Character data up to the next `<`: checked, references decoded, handed to the handler
    /// inside the root element; outside it only white space is allowed.
    private func text() -> Scan {
        // Locals, not properties, in the byte loops: the compiler keeps them in registers.
        let buffer = self.buffer, limit = self.limit
        let classes = self.classes
        var p = position
        var references = false
        while p < limit {
            while p < limit, classes[Int(buffer[p])] & Self.plainText != 0 { p += 1 }
            guard p < limit else { break }
            let byte = buffer[p]
            if byte >= 0x20, byte < 0x80 {
                if byte == UInt8(ascii: "<") { break }
                if byte == UInt8(ascii: "&") {
                    let length = reference(at: p, into: nil)
                    guard length > 0 else { return length == 0 ? .more : .refuse }
                    references = true
                    p += length
                    continue
                }
                if byte == UInt8(ascii: "]") {
                    guard p + 2 < limit else { return sourceEnded ? .refuse : .more }
                    if buffer[p + 1] == UInt8(ascii: "]"), buffer[p + 2] == UInt8(ascii: ">") { return .refuse }
                }
                p += 1
            } else if byte == 0x09 || byte == 0x0A {
                p += 1
            } else if byte >= 0x80 {
                let length = utf8Length(at: p)
                guard length > 0 else { return length == 0 ? .more : .refuse }
                p += length
            } else {
                return .refuse // other controls, and a carriage return (line ends are normalised)
            }
        }
        if p == limit, !sourceEnded { return .more }
        if depth == 0 {
            // Outside the root: white space only, and nothing for the handler.
            for index in position..<p where !isSpace(buffer[index]) { return .refuse }
        } else if references {
            decoded.removeAll(keepingCapacity: true)
            var index = position
            while index < p {
                if buffer[index] == UInt8(ascii: "&") {
                    index += reference(at: index, into: &decoded)
                } else {
                    decoded.append(buffer[index])
                    index += 1
                }
            }
            decoded.withUnsafeBufferPointer { handler.characters($0) }
        } else {
            handler.characters(UnsafeBufferPointer(start: buffer + position, count: p - position))
        }
        position = p
        return .done
    }

    /// The length of the reference at `p` (`&amp;`, `&#65;`, `&#x41;`), appending its character
    /// to `output` when given; 0 when more bytes are needed, -1 when it is not one to decode here.
    private func reference(at p: Int, into output: UnsafeMutablePointer<[UInt8]>?) -> Int {
        var end = p + 1
        while end < limit, buffer[end] != UInt8(ascii: ";") {
            end += 1
            if end - p > 12 { return -1 }
        }
        guard end < limit else { return sourceEnded ? -1 : 0 }
        let body = UnsafeBufferPointer(start: buffer + p + 1, count: end - p - 1)
        var scalar: UInt32
        if body.first == UInt8(ascii: "#") {
            let hex = body.count > 1 && body[1] == UInt8(ascii: "x")
            let digits = body.dropFirst(hex ? 2 : 1)
            guard !digits.isEmpty, digits.count <= 8 else { return -1 }
            scalar = 0
            for byte in digits {
                if hex {
                    guard let digit = ASCII.hexValue(byte) else { return -1 }
                    scalar = scalar << 4 | UInt32(digit)
                } else {
                    guard ASCII.isDigit(byte) else { return -1 }
                    scalar = scalar * 10 + UInt32(byte - 0x30)
                }
            }
            let allowed = scalar == 0x09 || scalar == 0x0A || scalar == 0x0D || (0x20...0xD7FF).contains(scalar)
                || (0xE000...0xFFFD).contains(scalar) || (0x10000...0x10FFFF).contains(scalar)
            guard allowed else { return -1 }
        } else {
            switch String(decoding: body, as: UTF8.self) {
            case "amp": scalar = 0x26
            case "lt": scalar = 0x3C
            case "gt": scalar = 0x3E
            case "quot": scalar = 0x22
            case "apos": scalar = 0x27
            default: return -1
            }
        }
        if let output { output.pointee.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8) }
        return end - p + 1
    }

    /// The length of the UTF-8 sequence at `p` if it encodes a character XML allows; 0 when
    /// more bytes are needed, -1 when it is invalid.
    @inline(__always)
    private func utf8Length(at p: Int) -> Int {
        let lead = buffer[p]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: length = 3; high = 0x9F // no surrogates
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return -1
        }
        guard p + length <= limit else { return sourceEnded ? -1 : 0 }
        guard buffer[p + 1] >= low, buffer[p + 1] <= high else { return -1 }
        for index in 2..<max(length, 2) where buffer[p + index] & 0xC0 != 0x80 { return -1 }
        // U+FFFE and U+FFFF are not XML characters.
        if lead == 0xEF, buffer[p + 1] == 0xBF, buffer[p + 2] >= 0xBE { return -1 }
        return length
    }

    /// Checks a run of comment, CDATA or processing-instruction content up to `terminator`;
    /// returns the index of the terminator, or nil with the scan's answer.
    private func content(from start: Int, until terminator: StaticString) -> (Int?, Scan) {
        var p = start
        let first = terminator.utf8Start[0]
        let length = terminator.utf8CodeUnitCount
        while p < limit {
            let byte = buffer[p]
            if byte == first {
                guard p + length <= limit else { return (nil, sourceEnded ? .refuse : .more) }
                if memcmp(buffer + p, terminator.utf8Start, length) == 0 { return (p, .done) }
                p += 1
            } else if (byte >= 0x20 && byte < 0x80) || byte == 0x09 || byte == 0x0A {
                p += 1
            } else if byte >= 0x80 {
                let count = utf8Length(at: p)
                guard count > 0 else { return (nil, count == 0 ? .more : .refuse) }
                p += count
            } else {
                return (nil, .refuse)
            }
        }
        return (nil, sourceEnded ? .refuse : .more)
    }

    /// `<!-- ... -->` (skipped; `--` inside is malformed) and `<![CDATA[ ... ]]>` (text).
    private func markup() -> Scan {
        guard position + 9 <= limit else { return sourceEnded ? .refuse : .more }
        if matches(position, "<!--") {
            let (end, scan) = content(from: position + 4, until: "--")
            guard let end else { return scan }
            guard end + 2 < limit else { return sourceEnded ? .refuse : .more }
            guard buffer[end + 2] == UInt8(ascii: ">") else { return .refuse }
            position = end + 3
            return .done
        }
        if matches(position, "<![CDATA["), depth > 0 {
            let (end, scan) = content(from: position + 9, until: "]]>")
            guard let end else { return scan }
            if end > position + 9 { handler.characters(UnsafeBufferPointer(start: buffer + position + 9, count: end - position - 9)) }
            position = end + 3
            return .done
        }
        return .refuse // a DOCTYPE, or anything else libxml2 decides on
    }

    /// `<?target ...?>`, skipped as libxml2 is told to; a target `xml` past the start is malformed.
    private func processingInstruction() -> Scan {
        var colon = -1
        let nameEnd = scanName(from: position + 2, colon: &colon)
        guard nameEnd > 0 else { return nameEnd == Self.needMore ? .more : .refuse }
        let length = nameEnd - position - 2
        if length == 3, buffer[position + 2] | 0x20 == UInt8(ascii: "x"), buffer[position + 3] | 0x20 == UInt8(ascii: "m"),
           buffer[position + 4] | 0x20 == UInt8(ascii: "l") { return .refuse }
        guard colon < 0 else { return .refuse }
        guard nameEnd + 1 < limit else { return sourceEnded ? .refuse : .more }
        if buffer[nameEnd] == UInt8(ascii: "?") {
            guard buffer[nameEnd + 1] == UInt8(ascii: ">") else { return .refuse }
        } else {
            guard isSpace(buffer[nameEnd]) else { return .refuse }
        }
        let (end, scan) = content(from: nameEnd, until: "?>")
        guard let end else { return scan }
        position = end + 2
        return .done
    }

    // MARK: tags

    private static var needMore: Int { -1 }
    private static var refused: Int { -2 }

    /// The end of the ASCII name at `p`, `needMore` or `refused` (a name over `maxName`, an
    /// empty prefix or local part, two colons); `colon` is where its colon is, or -1.
    @inline(__always)
    private func scanName(from start: Int, colon: inout Int) -> Int {
        // Locals, not properties, in the byte loops: the compiler keeps them in registers.
        let buffer = self.buffer, limit = self.limit
        let classes = self.classes
        guard start < limit else { return Self.needMore }
        guard classes[Int(buffer[start])] & Self.nameStart != 0 else { return Self.refused }
        colon = -1
        var p = start + 1
        while p < limit {
            while p < limit, classes[Int(buffer[p])] & Self.nameByte != 0 { p += 1 }
            guard p < limit, buffer[p] == UInt8(ascii: ":") else { break }
            guard colon < 0 else { return Self.refused }
            colon = p
            p += 1
        }
        guard p < limit else { return Self.needMore }
        guard p - start <= Self.maxName, buffer[p] < 0x80, colon != p - 1 else { return Self.refused }
        return p
    }

    private func startTag() -> Scan {
        // Locals, not properties, in the byte loops: the compiler keeps them in registers.
        let buffer = self.buffer, limit = self.limit, classes = self.classes
        guard depth < Self.maxDepth, !(depth == 0 && rootClosed) else { return .refuse }
        let nameStart = position + 1
        var nameColon = -1
        var p = scanName(from: nameStart, colon: &nameColon)
        guard p > 0 else { return p == Self.needMore ? .more : .refuse }
        let nameEnd = p
        attributeCount = 0
        var selfClosing = false
        while true {
            let spaceStart = p
            while p < limit, classes[Int(buffer[p])] & Self.space != 0 { p += 1 }
            guard p < limit else { return .more }
            let byte = buffer[p]
            if byte == UInt8(ascii: ">") { p += 1; break }
            if byte == UInt8(ascii: "/") {
                guard p + 1 < limit else { return .more }
                guard buffer[p + 1] == UInt8(ascii: ">") else { return .refuse }
                p += 2
                selfClosing = true
                break
            }
            guard p > spaceStart, attributeCount < Self.maxAttributes else { return .refuse }
            let attributeStart = p
            var attributeColon = -1
            p = scanName(from: p, colon: &attributeColon)
            guard p > 0 else { return p == Self.needMore ? .more : .refuse }
            let attributeEnd = p
            while p < limit, isSpace(buffer[p]) { p += 1 }
            guard p < limit else { return .more }
            guard buffer[p] == UInt8(ascii: "=") else { return .refuse }
            p += 1
            while p < limit, isSpace(buffer[p]) { p += 1 }
            guard p < limit else { return .more }
            let quote = buffer[p]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return .refuse }
            p += 1
            let valueStart = p
            while p < limit {
                while p < limit, classes[Int(buffer[p])] & Self.plainValue != 0 { p += 1 }
                guard p < limit else { break }
                let byte = buffer[p]
                if byte == quote { break }
                // `<` is malformed; `&`, tab, line ends and non-ASCII are libxml2's to normalise.
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") else { return .refuse }
                p += 1
            }
            guard p < limit else { return .more }
            let offsets = attributeOffsets + attributeCount * 5
            offsets[0] = attributeStart
            offsets[1] = attributeEnd
            offsets[2] = attributeColon
            offsets[3] = valueStart
            offsets[4] = p
            attributeCount += 1
            p += 1
            if p - position > Self.maxToken { return .refuse }
        }
        return openElement(nameStart: nameStart, nameEnd: nameEnd, nameColon: nameColon, selfClosing: selfClosing, end: p)
    }

    /// Declares the tag's namespaces, resolves its names, checks its attributes are distinct
    /// and calls the handler.
    private func openElement(nameStart: Int, nameEnd: Int, nameColon: Int, selfClosing: Bool, end: Int) -> Scan {
        let buffer = self.buffer
        let depth = self.depth + 1
        let bindingsBefore = bindings.count
        var attributes = 0
        // Namespace declarations first: they apply to the tag's own names.
        for index in 0..<attributeCount {
            let offsets = attributeOffsets + index * 5
            let (start, stop, colon, value, valueEnd) = (offsets[0], offsets[1], offsets[2], offsets[3], offsets[4])
            let prefix: [UInt8]
            if colon < 0, stop - start == 5, matches(start, "xmlns") {
                prefix = []
            } else if colon == start + 5, matches(start, "xmlns") {
                prefix = Array(UnsafeBufferPointer(start: buffer + colon + 1, count: stop - colon - 1))
                guard prefix != Array("xml".utf8), prefix != Array("xmlns".utf8), value < valueEnd else {
                    bindings.removeLast(bindings.count - bindingsBefore)
                    return .refuse
                }
            } else {
                attributes += 1
                continue
            }
            guard !bindings[bindingsBefore...].contains(where: { $0.prefix == prefix }) else {
                bindings.removeLast(bindings.count - bindingsBefore)
                return .refuse
            }
            let uri = String(decoding: UnsafeBufferPointer(start: buffer + value, count: valueEnd - value), as: UTF8.self)
            bindings.append(Binding(prefix: prefix, namespace: uri.isEmpty ? .none : Namespace(uri: uri), depth: depth))
        }
        if bindings.count > bindingsBefore { updateDefaultNamespace() }
        func refuse() -> Scan {
            if bindings.count > bindingsBefore {
                bindings.removeLast(bindings.count - bindingsBefore)
                updateDefaultNamespace()
            }
            return .refuse
        }
        guard let namespace = resolve(nameStart, nameColon) else { return refuse() }
        // libxml2's attribute layout, local names NUL-terminated in place: the tag is parsed.
        let localStart = nameColon < 0 ? nameStart : nameColon + 1
        var field = 0
        for index in 0..<attributeCount where attributes > 0 {
            let offsets = attributeOffsets + index * 5
            let (start, stop, colon, value, valueEnd) = (offsets[0], offsets[1], offsets[2], offsets[3], offsets[4])
            if (colon < 0 && stop - start == 5 && matches(start, "xmlns")) || (colon == start + 5 && matches(start, "xmlns")) { continue }
            let attributeNamespace: Namespace
            if colon < 0 {
                attributeNamespace = .none
            } else if colon == start + 3, matches(start, "xml") {
                attributeNamespace = .xml
            } else {
                guard let resolved = resolve(start, colon), resolved != .none else { return refuse() }
                attributeNamespace = resolved
            }
            let localStart = colon < 0 ? start : colon + 1
            // Distinct: by qualified name, and by local name and namespace.
            for other in 0..<index {
                let earlier = attributeOffsets + other * 5
                if earlier[1] - earlier[0] == stop - start, buffer[earlier[0]] == buffer[start],
                   stop - start == 1 || memcmp(buffer + earlier[0], buffer + start, stop - start) == 0 { return refuse() }
            }
            if colon >= 0 {
                for other in 0..<field where fieldNamespaces[other] == attributeNamespace && fields[other * 5 + 2] != nil {
                    if strlen(fields[other * 5]!) == stop - localStart, memcmp(fields[other * 5]!, buffer + localStart, stop - localStart) == 0 {
                        return refuse()
                    }
                }
            }
            buffer[stop] = 0
            let slot = fields + field * 5
            slot[0] = UnsafePointer(buffer + localStart)
            slot[1] = nil
            slot[2] = colon < 0 ? nil : UnsafePointer(someURI)
            slot[3] = UnsafePointer(buffer + value)
            slot[4] = UnsafePointer(buffer + valueEnd)
            fieldNamespaces[field] = attributeNamespace
            field += 1
        }
        buffer[nameEnd] = 0
        let name = XMLName(namespace: namespace, local: UnsafePointer(buffer + localStart))
        var handled = true
        do {
            try handler.startElement(name, attributes: XMLAttributes(base: fields, count: field, namespaces: fieldNamespaces))
            if selfClosing { try handler.endElement(name) }
        } catch {
            handled = false
        }
        // The fast start tag writes neither the namespaces of its attributes (all `.none`)
        // nor their URI fields (nil).
        fieldNamespaces.update(repeating: .none, count: field)
        for index in 0..<field { fields[index * 5 + 2] = nil }
        guard handled else { return .refuse }
        if selfClosing {
            if bindings.count > bindingsBefore {
                bindings.removeLast(bindings.count - bindingsBefore)
                updateDefaultNamespace()
            }
            if depth == 1 { rootClosed = true }
        } else {
            push(nameStart: nameStart, nameEnd: nameEnd, localStart: localStart, namespace: namespace)
        }
        position = end
        return .done
    }

    /// Opens an element whose tag is parsed (its name NUL-terminated in `buffer`): its name,
    /// local name and namespace go on the stack, with the key of its end tag.
    @inline(__always)
    private func push(nameStart: Int, nameEnd: Int, localStart: Int, namespace: Namespace) {
        let depth = self.depth
        let start = openStarts[depth]
        let length = nameEnd &- nameStart
        if length <= 7 {
            // One word: the name and its NUL (and zeros), stored past the slot's end into
            // space the next slot overwrites (`openNames` has `slack` bytes at its end).
            let mask = UInt64.max &>> UInt64(truncatingIfNeeded: (7 &- length) &* 8)
            let word = UnsafeRawPointer(buffer + nameStart).loadUnaligned(as: UInt64.self) & (mask &>> 8)
            UnsafeMutableRawPointer(openNames + start).storeBytes(of: word, as: UInt64.self)
            openKeys[depth] = word | UInt64(UInt8(ascii: ">")) &<< UInt64(truncatingIfNeeded: length &* 8)
            openMasks[depth] = mask
        } else {
            (openNames + start).update(from: buffer + nameStart, count: length)
            openNames[start + length] = 0
            openKeys[depth] = 1
            openMasks[depth] = 0
        }
        openLocals[depth] = start &+ (localStart &- nameStart)
        openNamespaces[depth] = namespace
        openStarts[depth &+ 1] = start &+ length &+ 1
        self.depth = depth &+ 1
    }

    /// The namespace of a qualified name's prefix (`colon` < 0: the default namespace); nil
    /// for an unbound or reserved prefix.
    private func resolve(_ start: Int, _ colon: Int) -> Namespace? {
        guard colon >= 0 else { return defaultNamespace }
        let length = colon - start
        if length == 3, matches(start, "xml") { return nil }
        if length == 5, matches(start, "xmlns") { return nil }
        for binding in bindings.reversed() where binding.prefix.count == length && !binding.prefix.isEmpty {
            let same = binding.prefix.withUnsafeBufferPointer { memcmp($0.baseAddress!, buffer + start, length) == 0 }
            if same { return binding.namespace }
        }
        return nil
    }

    /// After the bindings changed: the default namespace and the depth of the last binding.
    private func updateDefaultNamespace() {
        defaultNamespace = bindings.last(where: { $0.prefix.isEmpty })?.namespace ?? .none
        lastBindingDepth = bindings.last?.depth ?? -1
    }

    private func endTag() -> Scan {
        // Locals, not properties, in the byte loops: the compiler keeps them in registers.
        let buffer = self.buffer, limit = self.limit
        let nameStart = position + 2
        var colon = -1
        var p = scanName(from: nameStart, colon: &colon)
        guard p > 0 else { return p == Self.needMore ? .more : .refuse }
        let nameEnd = p
        while p < limit, isSpace(buffer[p]) { p += 1 }
        guard p < limit else { return .more }
        guard buffer[p] == UInt8(ascii: ">"), depth > 0 else { return .refuse }
        let top = depth - 1
        let length = nameEnd - nameStart
        guard openStarts[depth] - openStarts[top] == length + 1,
              memcmp(openNames + openStarts[top], buffer + nameStart, length) == 0 else { return .refuse }
        do {
            try handler.endElement(XMLName(namespace: openNamespaces[top], local: UnsafePointer(openNames + openLocals[top])))
        } catch {
            return .refuse
        }
        let depth = self.depth
        self.depth = top
        if let last = bindings.last, last.depth == depth {
            while let last = bindings.last, last.depth == depth { bindings.removeLast() }
            updateDefaultNamespace()
        }
        if top == 0 { rootClosed = true }
        position = p + 1
        return .done
    }

    // MARK: bytes

    @inline(__always)
    private func matches(_ p: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        return p + count <= limit && memcmp(buffer + p, literal.utf8Start, count) == 0
    }

    /// XML white space without the carriage return, which the fast path hands over.
    @inline(__always)
    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 }
}

/// What `WorksheetTokenizer.advance()` ended with.
enum FastPathStep {
    /// Rows (or whatever the part completes) are waiting in the handler.
    case rows
    /// The part ended, well-formed, and everything has been handed out.
    case end
    /// The fast path cannot go on: read the part with libxml2 from its start.
    case handOver
}

/// A part reader the fast path can drive: the tokenizer returns when it has completed enough.
protocol FastPathPart: XMLHandler {
    /// How many items (rows) are complete and waiting to be taken; 0 for a part read whole.
    var completedCount: Int { get }
}

extension WorksheetPart: FastPathPart {
    var completedCount: Int { completedRows.count }
}

extension SharedStringsPart: FastPathPart {
    var completedCount: Int { 0 }
}
