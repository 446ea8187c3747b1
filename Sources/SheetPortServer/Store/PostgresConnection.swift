import CLibPQ
import Foundation
import SheetPortCore
import SheetPortReader
import SheetPortWriter
import SheetPortConvert

/// One libpq connection to a shared PostgreSQL database: the shared store's `StoreConnection`.
///
/// Every parameter is sent apart from the SQL, in binary with its length and type (text as
/// its UTF-8 bytes, integers as `int8`, sealed records as `bytea`), never spliced into the
/// text; rows come back in binary too. The store's SQL writes parameters as SQLite does
/// (`?`, `?N`); they are numbered `$N` here, once per statement text.
///
/// Not thread-safe: a connection is used by one thread at a time (`ConnectionPool` hands them out).
final class PostgresConnection: StoreConnection {
    private let handle: OpaquePointer
    private var translated: [String: String] = [:]
    private(set) var changes = 0
    let kind = StoreKind.postgres
    let nowMilliseconds = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT"
    let insertionOrder = "seq"

    /// Connects to `url` (a `postgresql://` URL or a `key=value` connection string).
    init(url: String) throws {
        guard let handle = PQconnectdb(url) else { throw ServerError.postgres(state: "08000", message: "out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(handle))
            PQfinish(handle)
            throw ServerError.postgres(state: "08001", message: "cannot connect: \(message)")
        }
        self.handle = handle
        // Notices ("already exists, skipping") are not the server log's business.
        try execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(handle) }

    /// The socket, for waiting on notifications.
    var socket: Int32 { PQsocket(handle) }

    func execute(_ sql: String) throws {
        try reconnectIfBroken()
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    func begin() throws { try execute("BEGIN") }

    func query(_ sql: String, _ values: [SQLValue]) throws -> [[SQLValue]] {
        try reconnectIfBroken()
        let text = translated[sql] ?? Self.numbered(sql)
        translated[sql] = text
        // One buffer for every value, each one's place in it, type and length (NULL: no place).
        var bytes: [UInt8] = []
        var places: [Int?] = []
        var types: [Oid] = []
        var lengths: [Int32] = []
        for value in values {
            let start = bytes.count
            switch value {
            case .null: places.append(nil); types.append(0); lengths.append(0); continue
            case .integer(let number): withUnsafeBytes(of: number.bigEndian) { bytes += $0 }; types.append(20)
            case .real(let number): withUnsafeBytes(of: number.bitPattern.bigEndian) { bytes += $0 }; types.append(701)
            case .text(let string): bytes += string.utf8; types.append(25)
            case .blob(let blob): bytes += blob; types.append(17)
            }
            places.append(start)
            lengths.append(Int32(bytes.count - start))
        }
        bytes.append(0) // a base address even when every value is empty
        let formats = [Int32](repeating: 1, count: values.count)
        let result: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = places.map { $0.map { base + $0 } }
            return PQexecParams(handle, text, Int32(values.count), types, pointers, lengths, formats, 1)
        }
        defer { PQclear(result) }
        try check(result)
        changes = Int(Self.text(PQcmdTuples(result))) ?? 0
        return Self.rows(result!)
    }

    /// Waits up to `timeout` seconds for notifications (after `LISTEN`); returns their payloads.
    func notifications(timeout: Double) throws -> [String] {
        var poll = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        _ = Glibc.poll(&poll, 1, Int32(timeout * 1000))
        guard PQconsumeInput(handle) == 1 else {
            throw ServerError.postgres(state: "08006", message: Self.text(PQerrorMessage(handle)))
        }
        var payloads: [String] = []
        while let notify = PQnotifies(handle) {
            payloads.append(Self.text(notify.pointee.extra))
            PQfreemem(notify)
        }
        return payloads
    }

    /// A connection the server closed (a restart, a failover) is opened again before the next
    /// statement; a transaction it was in has failed already.
    private func reconnectIfBroken() throws {
        guard PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw ServerError.postgres(state: "08006", message: "connection lost: \(Self.text(PQerrorMessage(handle)))")
        }
        try execute("SET client_min_messages = warning")
    }

    private func check(_ result: OpaquePointer?) throws {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else { return }
        let state = result.map { Self.text(PQresultErrorField($0, Int32(UInt8(ascii: "C")))) } ?? ""
        let message = result.map { Self.text(PQresultErrorMessage($0)) } ?? Self.text(PQerrorMessage(handle))
        throw ServerError.postgres(state: state, message: message.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The rows of a binary result, by column type.
    private static func rows(_ result: OpaquePointer) -> [[SQLValue]] {
        let count = PQntuples(result), fields = PQnfields(result)
        let types = (0..<fields).map { PQftype(result, $0) }
        return (0..<count).map { row in
            (0..<fields).map { field in
                guard PQgetisnull(result, row, field) == 0, let value = PQgetvalue(result, row, field) else { return .null }
                let bytes = UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result, row, field)))
                switch types[Int(field)] {
                case 20, 23, 21: // int8, int4, int2: big-endian two's complement, sign-extended
                    let shift = Int64(64 - 8 * min(bytes.count, 8))
                    let raw = bytes.reduce(Int64(0)) { ($0 << 8) | Int64($1) }
                    return .integer((raw << shift) >> shift)
                case 16: return .integer(Int64(bytes.first ?? 0)) // bool
                case 701: return .real(Double(bitPattern: bytes.reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }))
                case 17: return .blob(Array(bytes))
                default: return .text(String(decoding: bytes, as: UTF8.self))
                }
            }
        }
    }

    /// `?` numbered in order and `?N` as `$N`: the store's SQL holds no `?` in a literal.
    static func numbered(_ sql: String) -> String {
        var output = "", next = 1
        var scalars = sql.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            guard scalar == "?" else { output.unicodeScalars.append(scalar); continue }
            var digits = ""
            while let digit = pending, ("0"..."9").contains(digit) {
                digits.unicodeScalars.append(digit)
                pending = scalars.next()
            }
            if digits.isEmpty { digits = String(next); next += 1 }
            output += "$" + digits
        }
        return output
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
    private static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
}
