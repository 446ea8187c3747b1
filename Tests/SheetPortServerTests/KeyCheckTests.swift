import Foundation
import Testing
@testable import SheetPortServer
import SheetPortTestSupport
import SheetPortClient

/// The sealing key against the store it seals (issue 23), on the server itself (`serve` and
/// `token` refusing another key: SheetPortCLITests' `SealKeyTests`).
@Suite(.serialized) struct SealKeyTests {
    /// An empty store: the first start creates the key (mode 0600) and records its check value.
    @Test func emptyStoreCreatesTheKeyAndRecordsItsCheck() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let keyPath = fixture.server.keyFile
        let key = try #require(try KeyFile.load(at: keyPath))
        var status = stat()
        #expect(stat(keyPath, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(try fixture.server.store().recordedKeyCheck() == KeyCheck.value(of: key))
        #expect(KeyCheck.value(of: key) != KeyCheck.value(of: Sodium.randomBytes(32)))
        #expect(try fixture.server.store().query("SELECT value FROM meta").allSatisfy { $0.first?.bytes != key })
        // Restarts with the same key.
        fixture.server.stop()
        try fixture.server.restart()
        #expect(try fixture.server.api(fixture.api.token).call("GET", "/api/sheets").status == 200)
    }

    /// Instances starting at once on one new key file (`serve --key-file`, a shared database)
    /// all read the one key that won, never a file still being written; nothing else is left.
    @Test func startsAtOnceShareOneWholeKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("key-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for round in 0..<400 {
            let path = folder.appendingPathComponent("seal-\(round).key").path
            let keys = (0..<8).map { _ in LockedBox<Result<[UInt8], any Error>?>(nil) }
            DispatchQueue.concurrentPerform(iterations: keys.count) { k in
                keys[k].value = Result { try KeyFile.loadOrCreate(at: path) }
            }
            let read = try keys.map { try #require(try $0.value?.get()) }
            #expect(read.count == 8 && Set(read.map { Data($0) }).count == 1 && read[0].count == 32)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == (0..<400).map { "seal-\($0).key" }.sorted())
    }
}
