import SheetPortCore
/// The kinds a user declares for CSV/TSV columns (`--types id=text,score=number,when=date`), by
/// header name or column letter, and the fields that mean "no value" (`--null NA,null,`):
/// what steers `ColumnTypes` past its whole-column inference.
public struct ColumnDeclarations: Sendable, Equatable {
    /// The kind a declared column holds.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case text, number, boolean, date, time

        /// The inferred kind it forces, nil for text.
        var inferred: TypeInference.Kind? {
            switch self {
            case .text: return nil
            case .number: return .number
            case .boolean: return .boolean
            case .date: return .date
            case .time: return .time
            }
        }
    }

    /// One declaration: a header name or a column letter, and its kind.
    public struct Declaration: Sendable, Equatable {
        /// The header name, or a column letter (`B`, `AA`) when no header field has the name.
        public var column: String
        /// The kind of every field of the column.
        public var kind: Kind
    }

    /// Declared columns, in the order given.
    public var declarations: [Declaration] = []
    /// Fields equal to one of these (byte for byte) are empty cells that do not decide a column's kind.
    public var nullFields: [[UInt8]] = []

    /// No declarations and no null fields.
    public init() {}

    /// Whether nothing is declared.
    public var isEmpty: Bool { declarations.isEmpty && nullFields.isEmpty }

    /// Parses `--types`: comma-separated `NAME=KIND` pairs; a name may hold `=` (the last one splits).
    public static func parseTypes(_ spec: String) throws(ColumnDeclarationError) -> [Declaration] {
        var declarations: [Declaration] = []
        for pair in spec.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = pair.lastIndex(of: "=") else {
                throw ColumnDeclarationError("\"\(String(pair).visibleControlCharacters)\" is not NAME=KIND (for example id=text,score=number)")
            }
            let name = String(pair[..<equals])
            let word = pair[pair.index(after: equals)...].lowercased()
            guard !name.isEmpty else { throw ColumnDeclarationError("\"\(String(pair).visibleControlCharacters)\" names no column") }
            guard let kind = Kind(rawValue: word) else {
                let kinds = Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw ColumnDeclarationError("\"\(word.visibleControlCharacters)\" is not a column type; use one of \(kinds)")
            }
            if declarations.contains(where: { $0.column == name }) {
                throw ColumnDeclarationError("column \"\(name.visibleControlCharacters)\" is declared twice")
            }
            declarations.append(Declaration(column: name, kind: kind))
        }
        return declarations
    }

    /// Parses `--null`: comma-separated tokens, an empty one included (`NA,null,`).
    public static func parseNullFields(_ spec: String) -> [[UInt8]] {
        spec.split(separator: ",", omittingEmptySubsequences: false).map { Array($0.utf8) }
    }

    /// Each declared column's 0-based index and kind, its name looked up in `header` (the
    /// header record's fields, nil with `--no-header`) before it is read as a column letter.
    func resolve(header: [String]?) throws(ColumnDeclarationError) -> [Int: Kind] {
        var kinds: [Int: Kind] = [:]
        for declaration in declarations {
            let index: Int
            if let named = header?.firstIndex(of: declaration.column) {
                index = named
            } else if let letter = CellReference.columnNumber(declaration.column.utf8).map({ $0 - 1 }) {
                index = letter
            } else {
                let headers = header.map { names in
                    " among the header's " + names.prefix(20).map { "\"\($0.visibleControlCharacters)\"" }.joined(separator: ", ")
                        + (names.count > 20 ? ", ..." : "")
                } ?? " (there is no header row)"
                throw ColumnDeclarationError("--types names column \"\(declaration.column.visibleControlCharacters)\", which is neither a header name\(headers) nor a column letter")
            }
            if let earlier = kinds[index], earlier != declaration.kind {
                throw ColumnDeclarationError("--types declares column \(CellReference.columnName(index + 1)) both \(earlier.rawValue) and \(declaration.kind.rawValue)")
            }
            kinds[index] = declaration.kind
        }
        return kinds
    }

    /// Whether `field` is one of the null fields.
    @inline(__always)
    func isNull(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        for token in nullFields where token.count == field.count {
            if token.withUnsafeBufferPointer({ $0.elementsEqual(field) }) { return true }
        }
        return false
    }
}

/// A `--types` or `--null` that cannot be used: the reason.
public struct ColumnDeclarationError: Error, CustomStringConvertible, Equatable {
    /// What is wrong.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
