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

    /// `--calc-timeout` takes seconds above 0 and at most 3600: 0 (every write refused),
    /// negative, non-numeric, non-finite and huge values are usage errors naming the option.
    @Test func hostileCalcTimeoutsAreUsageErrors() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for value in ["0", "-1", "-0.5", "abc", "", "30s", "nan", "inf", "1e308", "3601", "1e400"] {
            let refused = try runSheetport(["serve", "--data", folder.appendingPathComponent("x").path, "--calc-timeout", value])
            #expect(refused.status == 2 && refused.stderr.contains("--calc-timeout"), "\(value): \(refused.status) \(refused.stderr)")
        }
    }
}
