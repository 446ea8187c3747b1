/// Space given back when sheets go: on the embedded store, the SQLite file runs with
/// `auto_vacuum=INCREMENTAL`, and after a delete the free pages are returned to the file system
/// a bounded step at a time (`PRAGMA incremental_vacuum(N)`, each step its own short write
/// transaction, so imports and edits wait at most one step), then the WAL is truncated; the
/// server's relief thread does it off the request path (`StorageRelief`). On PostgreSQL the
/// tables a delete touched are vacuumed (dead rows reused, an emptied end returned), and a
/// job's staged upload, its whole size again in `staged_uploads` and dead once the job ends,
/// is vacuumed at once (SheetPortServer.docc/StorageAndSealing.md).
extension Database {
    /// The tables whose rows go with a sheet (by `ON DELETE CASCADE`) and hold its bulk.
    static let sheetBulkTables = ["row_blocks", "cell_history", "sheet_events", "comments"]

    /// Gives back the space deleted sheets or blocks left: on SQLite the free pages in bounded
    /// steps, then a checkpoint that truncates the WAL; on PostgreSQL a VACUUM of each of the
    /// sheet's bulk tables (each its own statement, outside a transaction). Answers false when a
    /// lock was busy (another connection writing): the caller tries again later.
    func giveSpaceBack() throws -> Bool {
        do {
            switch kind {
            case .sqlite:
                try reclaimSpace()
                return try truncateWAL()
            case .postgres:
                for table in Self.sheetBulkTables { try execute("VACUUM \(table)") }
                return true
            }
        } catch where error.isBusy {
            return false
        }
    }

    /// On SQLite, waits at most a tenth of a second for another connection's lock (the
    /// housekeeping's own connection, which must not hold requests back); nothing on PostgreSQL.
    func waitForLocksBriefly() throws {
        if kind == .sqlite { try execute("PRAGMA busy_timeout=100") }
    }

    /// On PostgreSQL, vacuums `staged_uploads` (outside a transaction): a job's pieces are
    /// deleted when it ends, and until autovacuum's next round (a minute or more) they held as
    /// many bytes again as the sheet stored from them. The table holds only the pieces of jobs
    /// waiting or running, so this is quick; its emptied end is given back to the file system.
    /// Nothing on SQLite, whose staging files are removed (`StagedUploads.removeLocal`). A
    /// failure goes to `log`.
    package func reclaimStagedUploads(log: ServerLog) {
        guard kind == .postgres else { return }
        do {
            try execute("VACUUM staged_uploads")
        } catch {
            log.write("storage: vacuuming staged uploads failed: \(error); autovacuum does it later")
        }
    }

    /// Runs `body` (deleting sheets) with SQLite's secure delete in its FAST mode: freed pages of
    /// sealed blocks are not overwritten with zeros in the WAL, so removing a large sheet needs
    /// little space on a full disk (the blocks are sealed; their pages are reused). As it is on
    /// PostgreSQL.
    package func deletingQuickly(_ body: () throws -> Void) throws {
        guard kind == .sqlite else { return try body() }
        try execute("PRAGMA secure_delete=FAST")
        defer { try? execute("PRAGMA secure_delete=ON") }
        try body()
    }

    /// Pages returned to the file system in one step: 256 pages of 64 KiB, 16 MiB.
    static let reclaimStepPages = 256
    /// The most steps after one delete (4 GiB); what is left waits for the next delete or start.
    static let reclaimMaxSteps = 256

    /// Returns the SQLite file's free pages to the file system, in bounded steps, unless a
    /// transaction is open (then the next call does it). Nothing on PostgreSQL. Returns the
    /// pages returned.
    @discardableResult
    package func reclaimSpace() throws -> Int {
        guard let sqlite = connection as? SQLiteConnection, !sqlite.inTransaction else { return 0 }
        var returned = 0
        for _ in 0..<Self.reclaimMaxSteps {
            let free = try query("PRAGMA freelist_count").first?.first?.int ?? 0
            guard free > 0 else { break }
            try query("PRAGMA incremental_vacuum(\(Self.reclaimStepPages))")
            let left = try query("PRAGMA freelist_count").first?.first?.int ?? 0
            guard left < free else { break } // not an incremental-vacuum file (yet): nothing to return
            returned += free - left
        }
        return returned
    }
}

extension Schema {
    /// The `user_version` of a SQLite store that runs with `auto_vacuum=INCREMENTAL`.
    static let incrementalVacuumVersion: Int64 = 5

    /// Switches a SQLite store made before version 5 to `auto_vacuum=INCREMENTAL`: the mode of
    /// an existing file changes only through a `VACUUM`, which rewrites the whole file once
    /// (it needs as much free disk again), noted in `log`. New stores are made in that mode and
    /// are only marked.
    static func enableIncrementalVacuum(_ database: Database, log: ServerLog) throws {
        guard database.kind == .sqlite,
              (try database.query("PRAGMA user_version").first?.first?.int ?? 0) < incrementalVacuumVersion else { return }
        let mode = try database.query("PRAGMA auto_vacuum").first?.first?.int ?? 0
        if mode != 2 {
            try database.execute("PRAGMA auto_vacuum=INCREMENTAL")
            try database.execute("VACUUM")
            let after = try database.query("PRAGMA auto_vacuum").first?.first?.int ?? 0
            guard after == 2 else {
                throw ServerError.database(code: 0, message: "switching the store to incremental vacuum failed (auto_vacuum is \(after))")
            }
            log.write("storage: the database was switched to incremental vacuum (a one-time VACUUM)")
        }
        try database.execute("PRAGMA user_version=\(incrementalVacuumVersion)")
    }
}
