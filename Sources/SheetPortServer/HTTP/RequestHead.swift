import Foundation
import SheetPortCore

/// The strict reading of an HTTP/1.x request head (RFC 9112) that the server applies before
/// libmicrohttpd parses a connection: anything libmicrohttpd would refuse with its own HTML
/// answer (or answer twice, as with a Content-Length past 64 bits) is refused here with a JSON
/// error, and so is what it would let through but the server never accepts (control
/// characters, NUL, bare LF, folded lines, conflicting lengths, two `Authorization` fields).
enum RequestHead {
    /// The longest head read, request line and header fields together.
    static let maxBytes = 32 * 1024
    /// The longest request target.
    static let maxTargetBytes = 8 * 1024
    /// The most digits a Content-Length may have (up to 10^18 - 1, within Int64).
    static let maxLengthDigits = 18

    /// What the bytes at the start of a connection are.
    enum Verdict: Equatable {
        /// The head has not ended yet (and is within `maxBytes`).
        case incomplete
        /// A well-formed head.
        case valid
        /// A head to refuse with this status, error code and message.
        case refused(status: Int, code: ServerErrorCode, message: String)
    }

    /// Judges `bytes`, the start of a connection.
    static func check(_ bytes: UnsafeRawBufferPointer) -> Verdict {
        var lines: [UnsafeRawBufferPointer.SubSequence] = []
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A { return bad("a line of the request head ends in a bare LF, not CRLF") }
            if byte == 0x0D {
                guard index + 1 < bytes.count else { break }
                guard bytes[index + 1] == 0x0A else { return bad("the request head holds a CR that ends no line") }
                let line = bytes[lineStart..<index]
                if line.isEmpty && !lines.isEmpty { return judge(lines) }
                if line.isEmpty { return bad("the request starts with an empty line") }
                lines.append(line)
                index += 2
                lineStart = index
                continue
            }
            index += 1
        }
        if bytes.count > maxBytes {
            // The request line alone is too long: the target is.
            if lines.isEmpty { return refused(414, .uriTooLong, "the request target is longer than \(maxTargetBytes) bytes") }
            return refused(431, .headerTooLarge, "the request head is longer than \(maxBytes) bytes")
        }
        return .incomplete
    }

    private static func judge(_ lines: [UnsafeRawBufferPointer.SubSequence]) -> Verdict {
        let parts = lines[0].split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenCharacter) else {
            return bad("the request line is not METHOD TARGET HTTP/1.1")
        }
        guard parts[1].count <= maxTargetBytes else {
            return refused(414, .uriTooLong, "the request target is longer than \(maxTargetBytes) bytes")
        }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return bad("the request target holds a space, a control character or a byte outside ASCII")
        }
        guard ["HTTP/1.1", "HTTP/1.0"].contains(String(decoding: parts[2], as: UTF8.self)) else {
            return bad("the request line does not end in HTTP/1.1 or HTTP/1.0")
        }
        var lengths: Set<String> = []
        var encodings: [String] = []
        var authorizations = 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 0x3A) else { return bad("a header line has no colon") }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
                return bad("a header name is empty or holds a character outside a token (a space, a control character)")
            }
            let value = line[(colon + 1)...]
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                // The name passed the token check above, so it is safe to say which field it was.
                return bad("the header field \(String(decoding: name, as: UTF8.self)) holds NUL or another control character")
            }
            let field = String(decoding: name, as: UTF8.self).lowercased()
            let text = String(decoding: value, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if field == "content-length" { lengths.insert(text) }
            if field == "transfer-encoding" { encodings.append(text.lowercased()) }
            if field == "authorization" { authorizations += 1 }
        }
        // Two credentials: which one a proxy or libmicrohttpd takes differs, so neither is.
        guard authorizations <= 1 else { return bad("the request has more than one Authorization field") }
        if !encodings.isEmpty {
            guard lengths.isEmpty else { return bad("a request has either Content-Length or Transfer-Encoding, not both") }
            guard encodings == ["chunked"] else { return refused(501, .notImplemented, "the only transfer coding taken is chunked") }
        }
        if let length = lengths.first {
            guard lengths.count == 1 else { return bad("the request has Content-Length fields that differ") }
            guard !length.isEmpty, length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return bad("Content-Length is not a whole number of bytes")
            }
            guard length.utf8.drop(while: { $0 == 0x30 }).count <= maxLengthDigits else {
                return refused(413, .tooLarge, "Content-Length is larger than any body the server takes")
            }
        }
        return .valid
    }

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func bad(_ message: String) -> Verdict { refused(400, .badRequest, message) }

    private static func refused(_ status: Int, _ code: ServerErrorCode, _ message: String) -> Verdict {
        .refused(status: status, code: code, message: message)
    }
}
