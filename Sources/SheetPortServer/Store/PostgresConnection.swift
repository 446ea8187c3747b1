import CLibPQ
import Foundation

/// The bounds a session sets (a server's, from its lease): no lock is waited for longer than
/// `lockTimeout` seconds, and a session left idle inside a transaction (its process frozen, say)
/// is ended by PostgreSQL after `idleInTransactionTimeout`, which releases its locks, so a
/// stalled instance holds no job row and its jobs are taken over as a dead instance's are.
/// (0: PostgreSQL's default.)
package struct PostgresSessionBounds: Sendable, Equatable {
    var lockTimeout = 10.0
    var idleInTransactionTimeout = 10.0
}

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

    /// The bounds this connection's sessions set.
    private let bounds: PostgresSessionBounds

    /// Connects to `url` (a `postgresql://` URL or a `key=value` connection string).
    init(url: String, bounds: PostgresSessionBounds = PostgresSessionBounds()) throws {
        self.bounds = bounds
        guard let handle = PQconnectdb(url) else { throw ServerError.postgres(state: "08000", message: "out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(handle))
            PQfinish(handle)
            throw ServerError.postgres(state: "08001", message: "cannot connect: \(message)")
        }
        self.handle = handle
        try configureSession()
    }

    /// The session's settings, set on connecting and on every reconnection: notices ("already
    /// exists, skipping") are not the server log's business; the lock and idle bounds; the
    /// process in `application_name` (an operator sees which instance holds what).
    private func configureSession() throws {
        let result = PQexec(handle, """
            SET client_min_messages = warning;
            SET lock_timeout = \(Int(bounds.lockTimeout * 1000));
            SET idle_in_transaction_session_timeout = \(Int(bounds.idleInTransactionTimeout * 1000));
            SET application_name = 'sheetport \(getpid())'
            """)
        defer { PQclear(result) }
        try check(result)
    }

    deinit { PQfinish(handle) }

    /// The socket, for waiting on notifications.
    var socket: Int32 { PQsocket(handle) }

    func execute(_ sql: String) throws {
        try onceMoreIfDropped(sql) {
            let result = PQexec(handle, sql)
            defer { PQclear(result) }
            try check(result)
        }
    }

    /// Runs a statement; when it failed because the connection was found broken (the database
    /// restarted, the session was ended) while no transaction was open, the statement never
    /// ran: the connection is opened again and the statement tried once more. Inside a
    /// transaction the failure stands (the transaction is lost; the caller decides).
    private func onceMoreIfDropped<T>(_ sql: String, _ statement: () throws -> T) throws -> T {
        try reconnectIfBroken()
        let outside = PQtransactionStatus(handle) == PQTRANS_IDLE
        do {
            return try statement()
        } catch {
            // Only a statement that changes nothing by itself is tried again: a write whose
            // connection broke after it ran would be made twice.
            guard outside, PQstatus(handle) != CONNECTION_OK, Self.isRepeatable(sql) else { throw error }
            try reconnectIfBroken()
            return try statement()
        }
    }

    func begin() throws { try execute("BEGIN") }

    func query(_ sql: String, _ values: [SQLValue]) throws -> [[SQLValue]] {
        try onceMoreIfDropped(sql) { try run(sql, values) }
    }

    private func run(_ sql: String, _ values: [SQLValue]) throws -> [[SQLValue]] {
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

    /// Whether a statement may be sent again after its connection broke: it starts a
    /// transaction, reads or sets the session.
    static func isRepeatable(_ sql: String) -> Bool {
        let word = sql.drop(while: { $0 == " " || $0 == "\n" }).prefix(while: { $0.isLetter }).uppercased()
        return ["BEGIN", "SELECT", "SET", "SHOW", "LISTEN"].contains(word)
    }

    /// A connection the server closed (a restart, a failover, the session ended) is opened
    /// again before the next statement; a transaction it was in has failed already. An idle
    /// connection outside a transaction has nothing to read unless the server said goodbye
    /// (or sent a notification): a look at its socket without waiting finds a closed one
    /// before a statement is sent on it, with no round trip.
    private func reconnectIfBroken() throws {
        if PQstatus(handle) == CONNECTION_OK, PQtransactionStatus(handle) == PQTRANS_IDLE {
            var entry = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            if Glibc.poll(&entry, 1, 0) > 0 { _ = PQconsumeInput(handle) } // EOF marks the connection bad
        }
        guard PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw ServerError.postgres(state: "08006", message: "connection lost: \(Self.text(PQerrorMessage(handle)))")
        }
        try configureSession()
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
