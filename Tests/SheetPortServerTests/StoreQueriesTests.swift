import Foundation
import Testing
@testable import SheetPortServer
import SheetPortCore
import SheetPortTestSupport

/// The store's named queries that the domain calls instead of SQL (issue 34), on a real SQLite
/// file and, when a cluster runs, a new PostgreSQL database: the end of a write, whose larger-of
/// differs by dialect (MAX, GREATEST); the write locks, for a sheet id that is not one; the cell
/// history an undo reads; sessions; the store's facts. Hostile text (quotes, SQL, `imported`,
/// non-ASCII, empty) and bytes (NUL, 0xFF) are bound, never spliced: each reads back as written
/// and matches nothing else.
@Suite struct StoreQueriesTests {
    static let hostile = ["'; DROP TABLE sheets; --", "x' OR '1'='1", "imported", "Ω \u{1F600} \u{7F}", ""]

    @Test func namedQueriesOnSQLite() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.check(StoreLocation.sqlite(path: folder.appendingPathComponent("store.db").path).open())
    }

    @Test(.enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
    func namedQueriesOnPostgreSQL() throws {
        try Self.check(StoreLocation.postgres(url: PostgresCluster.createDatabase()).open())
    }

    @Test func storeErrorsAreReadFromEachDatabasesCodes() {
        #expect(ServerError.postgres(state: "08006", message: "").isConnectionLoss)
        #expect(ServerError.postgres(state: "57P01", message: "").isConnectionLoss)
        #expect(ServerError.postgres(state: "", message: "closed").isConnectionLoss)
        #expect(!ServerError.postgres(state: "42P01", message: "").isConnectionLoss)
        #expect(!ServerError.database(code: 10, message: "").isConnectionLoss)
        #expect(ServerError.postgres(state: "53100", message: "").isStorageFull)
        #expect(ServerError.database(code: 13 | (1 << 8), message: "").isStorageFull)
        #expect(!ServerError.postgres(state: "08006", message: "").isStorageFull)
        #expect(!ServerError.io(path: "/", message: "").isStorageFull)
    }

    private static func check(_ database: Database) throws {
        let sheet = Sodium.identifier(), owner = hostile[0], other = hostile[1]
        try database.insertEmptySheet(id: sheet, owner: owner, name: hostile[3], created: 1)
        #expect(try database.sheet(sheet, for: owner)?.name == hostile[3])
        #expect(try database.sheet(sheet, for: other) == nil)

        // A write's end: the extent only grows, column and row each on its own.
        try database.finishWrite(sheet: sheet, version: 2, lastRow: 5, lastColumn: 3, valuesPending: true)
        try database.finishWrite(sheet: sheet, version: 3, lastRow: 2, lastColumn: 7, valuesPending: true)
        let written = try #require(try database.sheet(sheet, for: owner))
        #expect((written.version, written.rows, written.columns) == (3, 5, 7))
        #expect(try database.sheetsWithValuesPending() == [sheet])
        try database.extendRows(of: sheet, to: 4)
        #expect(try database.sheet(sheet, for: owner)?.rows == 5)
        try database.extendRows(of: sheet, to: 9)
        #expect(try database.sheet(sheet, for: owner)?.rows == 9)
        try database.markValuesStored(of: sheet)
        #expect(try database.sheetsWithValuesPending().isEmpty)

        // The write locks: a sheet's version and flag; an id that is no sheet is version 0.
        let locked = try database.transaction { try database.lockSheetForWrite(sheet) }
        #expect(locked.version == 3 && !locked.valuesPending)
        for id in hostile {
            #expect(try database.transaction { try database.lockSheetForWrite(id) }.version == 0)
            #expect(Database.advisoryKey(sheet: id) == Database.advisoryKey(sheet: id))
        }
        #expect(Database.advisoryKey(sheet: sheet) == Int64(sheet.prefix(15), radix: 16))
        #expect(try database.version(of: sheet) == 3)

        // The cell history an undo reads: `other` wrote cell (3, 4) at 2, the subject `imported` at 3.
        let data: [UInt8] = [0, 0xFF, 0x27, 0x3B, 0]
        try database.insertCellHistory(sheet: sheet, version: 1, row: 0, column: 0, subject: owner, at: 1, change: "imported", data: [1])
        for (version, subject) in [(2, other), (3, hostile[2])] {
            try database.insertCellHistory(sheet: sheet, version: version, row: 0, column: 0, subject: subject, at: 2, change: "cells", data: [2])
            try database.insertCellHistory(sheet: sheet, version: version, row: 3, column: 4, subject: subject, at: 2, change: "cells",
                                           data: data + [UInt8(version)])
        }
        #expect(try database.cellHistory(of: sheet, row: 3, column: 4, batch: CellReference(row: -1, column: -1)).map(\.version) == [3, 2, 1])
        #expect(try database.lastUndoableVersion(of: other, sheet: sheet) == 2)
        #expect(try database.lastUndoableVersion(of: hostile[2], sheet: sheet) == 3)
        #expect(try database.lastUndoableVersion(of: owner, sheet: sheet) == nil) // the import is no write
        let mine = try database.cellHistory(of: sheet, version: 2, by: other)
        #expect(mine.map { [$0.row, $0.column] } == [[0, 0], [3, 4]] && mine.last?.data == data + [2])
        let later = try database.laterCellHistory(of: sheet, after: 2, notBy: other)
        #expect(later.map { [$0.version, $0.row, $0.column] } == [[3, 3, 4]] && later.first?.data == nil && later.first?.subject == hostile[2])
        #expect(try database.cellHistoryData(of: sheet, version: 3, row: 3, column: 4) == data + [3])
        #expect(try database.cellHistoryData(of: sheet, version: 3, row: 4, column: 3) == nil)
        try database.markHistoryUndone(sheet: sheet, version: 3)
        #expect(try database.lastUndoableVersion(of: hostile[2], sheet: sheet) == nil)
        #expect(try database.laterCellHistory(of: sheet, after: 2, notBy: other).isEmpty)

        // Sessions: a hash of any bytes, a subject of any text; each matches only itself.
        let hashes: [[UInt8]] = [data, [0xFF] + data]
        for hash in hashes { try database.insertSession(tokenHash: hash, subject: owner, created: 1) }
        #expect(try database.sessionSubject(tokenHash: data) == owner)
        #expect(try database.sessionSubject(tokenHash: Array(data.dropLast())) == nil)
        #expect(try database.deleteSessions(of: other) == 0)
        #expect(try database.deleteSession(tokenHash: data))
        #expect(try !database.deleteSession(tokenHash: data))
        #expect(try database.deleteSessions(of: owner) == 1)

        // The store's facts: the first value added stays; a set replaces it.
        for name in hostile {
            try database.addMetaValue(data, for: name)
            try database.addMetaValue([9], for: name)
            #expect(try database.metaValue(name) == data)
            try database.setMetaValue([9], for: name)
            #expect(try database.metaValue(name) == [9])
        }
        #expect(try database.deleteMetaValue(hostile[0]))
        #expect(try !database.deleteMetaValue(hostile[0]))
        #expect(try database.metaValue(hostile[1]) == [9])

        // An import's sheet stays hidden until published; a start removes the hidden ones.
        let importing = Sodium.identifier()
        try database.insertImportingSheet(id: importing, owner: owner, name: hostile[0], job: hostile[1], created: 2)
        #expect(try database.sheet(importing, for: owner) == nil)
        try database.deleteHiddenSheets()
        #expect(try database.version(of: importing) == 0)
        #expect(try database.sheet(sheet, for: owner) != nil)
    }
}
