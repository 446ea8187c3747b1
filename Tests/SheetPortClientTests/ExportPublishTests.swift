import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// An export's publish (`ExportStaging.publish`) as `-o` publishes (SheetPortCLITests'
/// `PublishTargetTests`): what is not a regular file is written through, a link is kept.
@Suite struct PublishTargetTests {
    /// The export's publish follows the same rule: a device stays a device, a link is kept.
    @Test(.enabled(if: getuid() == 0, "mknod needs root"))
    func exportPublishWritesThroughADeviceAndKeepsALink() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Project.fixture("cell_types.xlsx")))
        let device = folder.appendingPathComponent("null").path
        #expect(mknod(device, S_IFCHR | 0o666, nullDevice) == 0)
        let target = folder.appendingPathComponent("target.xlsx").path
        let link = folder.appendingPathComponent("link.xlsx").path
        #expect(symlink("target.xlsx", link) == 0)
        for destination in [device, link] {
            let staging = try ExportStaging(destination: destination)
            try bytes.withUnsafeBytes { try staging.write($0) }
            try staging.verify(sheet: "Sheet1")
            try staging.publish()
        }
        #expect(fileType(device) == S_IFCHR)
        #expect(fileType(link) == S_IFLNK)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["link.xlsx", "null", "target.xlsx"])
    }
}
