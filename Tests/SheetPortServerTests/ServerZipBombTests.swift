import Foundation
import Testing
import SheetPortTestSupport
@testable import SheetPortClient
@testable import SheetPortServer

extension ServerTests {
    /// A zip bomb made for the test (one entry inflating 1,000 times, to 300 MiB: past the
    /// 256 MiB below which the expansion ratio alone is no bomb) is refused as `zip-bomb`, and
    /// nothing is stored. It is about 300 KiB, so this server keeps the default upload cap.
    @Test func zipBombUploadIsRefused() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let bomb = fixture.folder.appendingPathComponent("bomb.xlsx").path
        try makeInflationBomb(at: bomb, part: .worksheet)
        let job = try fixture.api.importWorkbook(bomb)
        #expect(job["status"] as? String == "failed")
        #expect((job["error"] as? [String: Any])?["code"] as? String == "zip-bomb", "\(job)")
        #expect((try fixture.api.object("/api/sheets")["sheets"] as? [Any])?.isEmpty == true)
        #expect(isEmptySoon(fixture.server.data + "/staging"))
    }
}
