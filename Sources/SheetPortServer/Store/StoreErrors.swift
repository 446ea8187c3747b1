/// What a store's failure means, read from each database's own codes (SQLite's result codes,
/// PostgreSQL's SQLSTATE), so the rest of the server asks the question, not the database.
extension Error {
    /// Whether this failure is a full disk: SQLite's SQLITE_FULL, PostgreSQL's `disk_full`
    /// (53100), ENOSPC or EDQUOT on a staged file. A job fails with `storage-full`, a request
    /// answers 507, and the server recovers once space is freed.
    var isStorageFull: Bool {
        guard let error = self as? ServerError else { return false }
        switch error {
        case .storageFull: return true
        case let .database(code, _): return code & 0xFF == 13 // SQLITE_FULL, with any extended code
        case let .postgres(state, _): return state == "53100"
        default: return false
        }
    }

    /// Whether this failure is SQLite's SQLITE_BUSY or SQLITE_LOCKED (another connection held
    /// the lock past the busy timeout): worth trying again later, not a fault.
    var isBusy: Bool {
        guard case let .database(code, _) = self as? ServerError else { return false }
        return code & 0xFF == 5 || code & 0xFF == 6
    }

    /// Whether this failure is a lost connection to a shared store (SQLSTATE class 08, an ended
    /// session 57P0x, or a failure libpq gave no state: the connection closed under it). The
    /// embedded store has no connection to lose.
    var isConnectionLoss: Bool {
        guard case .postgres(let state, _) = self as? ServerError else { return false }
        return state.isEmpty || state.hasPrefix("08") || state.hasPrefix("57P")
    }
}
