/// A value bound to or read from the store (SQLite or PostgreSQL).
package enum SQLValue: Equatable, Sendable {
    /// SQL NULL.
    case null
    /// An integer.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes (every sealed record).
    case blob([UInt8])

    /// The integer, or nil.
    package var int: Int? { if case .integer(let value) = self { return Int(value) }; return nil }
    /// The text, or nil.
    package var string: String? { if case .text(let value) = self { return value }; return nil }
    /// The bytes, or nil.
    package var bytes: [UInt8]? { if case .blob(let value) = self { return value }; return nil }
}

