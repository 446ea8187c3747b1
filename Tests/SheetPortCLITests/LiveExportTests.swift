import Foundation
import Testing
import SheetPortTestSupport

extension ServerTests {
    /// Stopping the server while an export is being sent to a client that reads nothing ends
    /// it: the server exits, cleanly (143, as on any SIGTERM), without waiting for that client.
    @Test func stoppingTheServerEndsExportsInFlight() throws {
        let fixture = try ServeProcessFixture()
        defer { fixture.close() }
        let (stalled, _) = try stalledExport(fixture.api, in: fixture.folder)
        defer { stalled.close() }
        let process = fixture.server.process
        kill(process.processIdentifier, SIGTERM)
        let exited = eventually(within: 30) { !process.isRunning }
        if !exited { fixture.server.kill9() }
        #expect(exited, "the server did not stop with an export in flight")
        #expect(process.terminationStatus == 143) // its clean end on SIGTERM
    }
}
