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
}
