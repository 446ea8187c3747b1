#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// The element name of an XML event: its namespace and a borrowed local name.
///
/// The bytes belong to libxml2 and live only for the callback; compare, don't keep.
package struct XMLName {
    /// The element's namespace.
    package let namespace: Namespace
    /// The NUL-terminated local name.
    package let local: UnsafePointer<UInt8>

    /// Whether the local name is `name` (ASCII, exact).
    @inline(__always)
    package func `is`(_ name: StaticString) -> Bool {
        // Byte by byte up to the local name's NUL: memcmp may read `count` bytes past a shorter
        // name's end (found by the fuzzer: libxml2's dictionary strings end at the buffer's end).
        let count = name.utf8CodeUnitCount
        let expected = name.utf8Start
        for index in 0..<count where local[index] != expected[index] { return false }
        return local[count] == 0
    }

    /// Whether the element is `name` in the SpreadsheetML namespace (or in none).
    @inline(__always)
    package func isSpreadsheet(_ name: StaticString) -> Bool {
        (namespace == .spreadsheet || namespace == .none) && self.is(name)
    }

    /// The local name as a string, for messages.
    package var localName: String { String(cString: local) }
}

/// The attributes of a start-element event, borrowed from libxml2 for the callback.
package struct XMLAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    let count: Int
    /// The parser, for namespace lookups (unmanaged: no reference counting per element).
    let parser: Unmanaged<XMLPushParser>?
    /// Each attribute's namespace, already resolved (events replayed on another thread).
    let namespaces: UnsafePointer<Namespace>?

    init(base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int, parser: Unmanaged<XMLPushParser>) {
        self.base = base
        self.count = count
        self.parser = parser
        namespaces = nil
    }

    init(base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int, namespaces: UnsafePointer<Namespace>) {
        self.base = base
        self.count = count
        parser = nil
        self.namespaces = namespaces
    }

    /// The raw value of the attribute `name` without a namespace (most OOXML attributes),
    /// or in `namespace` when given.
    package func bytes(_ name: StaticString, in namespace: Namespace? = nil) -> UnsafeBufferPointer<UInt8>? {
        guard let base else { return nil }
        let length = name.utf8CodeUnitCount
        for index in 0..<count {
            let field = base + index * 5 // localname, prefix, URI, value, end
            guard let local = field[0], memcmp(local, name.utf8Start, length) == 0, local[length] == 0 else { continue }
            if let namespace {
                let found = namespaces?[index] ?? parser?.takeUnretainedValue().namespace(of: field[2])
                guard found == namespace else { continue }
            } else if field[2] != nil {
                continue
            }
            guard let start = field[3], let end = field[4] else { return nil }
            return UnsafeBufferPointer(start: start, count: end - start)
        }
        return nil
    }

    /// The attribute as a string, or nil when absent.
    package func string(_ name: StaticString, in namespace: Namespace? = nil) -> String? {
        bytes(name, in: namespace).map(Self.decode)
    }

    /// The attribute as an integer, or nil when absent or not an integer.
    package func int(_ name: StaticString, in namespace: Namespace? = nil) -> Int? {
        bytes(name, in: namespace).flatMap { ASCII.parseInt($0) }
    }

    /// The attribute as a double, or nil when absent or not a number.
    package func double(_ name: StaticString) -> Double? {
        bytes(name).flatMap { ASCII.parseDouble($0) }
    }

    /// An `xsd:boolean` attribute (`1`, `true`, `0`, `false`), or `defaultValue` when absent.
    package func bool(_ name: StaticString, default defaultValue: Bool = false) -> Bool {
        guard let value = bytes(name), let first = value.first else { return defaultValue }
        return first == UInt8(ascii: "1") || first == UInt8(ascii: "t") || first == UInt8(ascii: "T")
    }

    /// Decodes a value. Without entity substitution libxml2 hands `&amp;` in attribute
    /// values over as `&#38;` (for a later reparse that never happens in SAX), so undo it.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.contains("&#38;") ? text.replacing("&#38;", with: "&") : text
    }
}

/// Receives the events of one XML part. Handlers are part readers (workbook, styles,
/// worksheet, ...); they match elements by `XMLName` and ignore what they do not know.
package protocol XMLHandler: AnyObject {
    /// An element starts.
    func startElement(_ name: XMLName, attributes: XMLAttributes) throws
    /// An element ends.
    func endElement(_ name: XMLName) throws
    /// Character data (text or CDATA), possibly in several pieces.
    func characters(_ text: UnsafeBufferPointer<UInt8>)
}
