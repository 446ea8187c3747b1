import CLibXML2
import SheetPortCore

/// libxml2's SAX2 push parser, fed in chunks as libzip inflates a part.
///
/// Hostile input is expected: no DTD is accepted (a DOCTYPE stops the parse with
/// `forbidden-dtd`), entities are never substituted, nothing is loaded from the network
/// or the file system, and libxml2's default depth and text-size limits stay on
/// (no `XML_PARSE_HUGE`).
package final class XMLPushParser {
    private let handler: XMLHandler
    private let file: String
    private let part: String
    private var context: xmlParserCtxtPtr?
    // Read on every event by one thread; dynamic exclusivity checks buy nothing here.
    @exclusivity(unchecked) private var handlerError: Error?
    @exclusivity(unchecked) private var sawDoctype = false
    @exclusivity(unchecked) private var namespaces = NamespaceCache()

    /// Whether any element used a Strict OOXML namespace.
    package var usesStrictNamespaces: Bool { namespaces.usesStrictNamespaces }

    static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
        | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)

    static let initialized: Void = {
        xmlInitParser()
        // Belt and braces: even if a code path asked for an external entity, load nothing.
        xmlSetExternalEntityLoader { _, _, _ in nil }
    }()

    /// A parser that sends the events of `part` (of `file`, for errors) to `handler`.
    package init(handler: XMLHandler, file: String, part: String) {
        _ = Self.initialized
        self.handler = handler
        self.file = file
        self.part = part
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
    }

    /// Parses the next chunk of the part.
    package func feed(_ chunk: UnsafeRawBufferPointer) throws {
        guard !chunk.isEmpty else { return }
        let bytes = chunk.baseAddress!.assumingMemoryBound(to: CChar.self)
        if context == nil {
            // The first bytes let libxml2 detect the encoding (UTF-16 BOMs included).
            let head = min(chunk.count, 4)
            try start(bytes, count: head)
            if chunk.count > head { try parse(bytes + head, count: chunk.count - head, terminate: false) }
        } else {
            try parse(bytes, count: chunk.count, terminate: false)
        }
    }

    /// Ends the part: reports truncated or empty documents.
    package func finish() throws {
        if context == nil { try start(nil, count: 0) }
        try parse(nil, count: 0, terminate: true)
    }

    /// Parses a whole part from `archive` through `handler`; returns whether it used Strict namespaces.
    @discardableResult
    package static func parse(_ entry: ZipArchive.Entry, in archive: ZipArchive, with handler: XMLHandler) throws -> Bool {
        try archive.parsing(entry) {
            let parser = XMLPushParser(handler: handler, file: archive.file, part: entry.name)
            try archive.read(entry) { try parser.feed($0) }
            try parser.finish()
            return parser.usesStrictNamespaces
        }
    }

    private func start(_ bytes: UnsafePointer<CChar>?, count: Int) throws {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { context, local, _, uri, _, _, count, _, attributes in
            let parser = Unmanaged<XMLPushParser>.fromOpaque(context!).takeUnretainedValue()
            parser.startElement(local: local!, uri: uri, attributes: attributes, count: Int(count))
        }
        sax.endElementNs = { context, local, _, uri in
            let parser = Unmanaged<XMLPushParser>.fromOpaque(context!).takeUnretainedValue()
            parser.endElement(local: local!, uri: uri)
        }
        let characters: charactersSAXFunc = { context, text, count in
            let parser = Unmanaged<XMLPushParser>.fromOpaque(context!).takeUnretainedValue()
            parser.handler.characters(UnsafeBufferPointer(start: text, count: Int(count)))
        }
        sax.characters = characters
        sax.ignorableWhitespace = characters
        sax.cdataBlock = characters
        sax.internalSubset = { context, _, _, _ in
            let parser = Unmanaged<XMLPushParser>.fromOpaque(context!).takeUnretainedValue()
            parser.sawDoctype = true
            xmlStopParser(parser.context)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&sax, me, bytes, Int32(count), part) else {
            throw ReaderError(.io, file: file, part: part, "libxml2 could not create a parser")
        }
        xmlCtxtUseOptions(context, Self.options)
        self.context = context
        try check(status: 0)
    }

    private func parse(_ bytes: UnsafePointer<CChar>?, count: Int, terminate: Bool) throws {
        let status = xmlParseChunk(context, bytes, Int32(count), terminate ? 1 : 0)
        try check(status: status)
    }

    private func check(status: Int32) throws {
        if let handlerError { throw Self.readerError(handlerError, file: file, part: part) }
        if sawDoctype { throw Self.doctypeError(file: file, part: part) }
        guard status != 0 || (context?.pointee.wellFormed ?? 1) == 0 else { return }
        throw Self.malformedError(context, file: file, part: part)
    }

    /// A handler's error as the reader reports it: text over the limit is `exceeds-limit`.
    static func readerError(_ error: Error, file: String, part: String) -> Error {
        guard let tooLong = error as? TextTooLong else { return error }
        return ReaderError(.exceedsLimit, file: file, part: part, "an element's text is longer than \(tooLong.limit) bytes")
    }

    static func doctypeError(file: String, part: String) -> ReaderError {
        ReaderError(.forbiddenDTD, file: file, part: part, "has a DOCTYPE; DTDs and entity declarations are refused")
    }

    /// `malformed-xml` with libxml2's own message and line.
    static func malformedError(_ context: xmlParserCtxtPtr?, file: String, part: String) -> ReaderError {
        var message = "not well-formed XML"
        if let error = xmlCtxtGetLastError(context), let text = error.pointee.message {
            let detail = String(cString: text).trimmingSuffixNewlines
            message += " (line \(error.pointee.line): \(detail))"
        }
        return ReaderError(.malformedXML, file: file, part: part, message)
    }

    func namespace(of uri: UnsafePointer<UInt8>?) -> Namespace { namespaces.namespace(of: uri) }

    private func startElement(local: UnsafePointer<UInt8>, uri: UnsafePointer<UInt8>?,
                              attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int) {
        guard handlerError == nil else { return }
        let name = XMLName(namespace: namespace(of: uri), local: local)
        let attributes = XMLAttributes(base: attributes, count: count, parser: Unmanaged.passUnretained(self))
        do { try handler.startElement(name, attributes: attributes) } catch { stop(error) }
    }

    private func endElement(local: UnsafePointer<UInt8>, uri: UnsafePointer<UInt8>?) {
        guard handlerError == nil else { return }
        do { try handler.endElement(XMLName(namespace: namespace(of: uri), local: local)) } catch { stop(error) }
    }

    private func stop(_ error: Error) {
        handlerError = error
        xmlStopParser(context)
    }
}

extension String {
    fileprivate var trimmingSuffixNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
