import Foundation
import Testing
import SheetPortTestSupport

/// `serve`'s options refused before it starts (the time zone NOW and TODAY follow:
/// SheetPortServerTests' `nowFollowsTheServersTimeZone`).
@Suite struct ServeOptionsTests {
    @Test func anUnknownTimeZoneIsAUsageError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let refused = try runSheetport(["serve", "--data", folder.appendingPathComponent("x").path, "--time-zone", "Mars/Olympus"])
        #expect(refused.status == 2 && refused.stderr.contains("--time-zone"), "\(refused.stderr)")
    }
}
