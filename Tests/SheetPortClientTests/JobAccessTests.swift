import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport

/// The client library's view of another subject's job (the commands' faults: SheetPortCLITests'
/// `ImportFaultTests`).
@Suite struct ImportFaultTests {
    /// A job of another subject answers 404, and the client says "not found".
    @Test func aJobOfAnotherSubjectIsReportedAsNotFound() throws {
        let server = try ClientFixture()
        defer { server.stop() }
        let book = try makeLargeWorkbook(rows: 100, in: server.folder)
        let alice = try server.connection(subject: "alice"), bob = try server.connection(subject: "bob")
        let job = try ImportUpload(file: book).start(on: alice, client: HTTPClient())
        #expect(try alice.job(job.id, client: HTTPClient()).id == job.id)
        do {
            _ = try bob.job(job.id, client: HTTPClient())
            Issue.record("bob could read alice's job")
        } catch let error as ClientError {
            guard case .notFound = error else { Issue.record("not a not-found error: \(error)"); return }
            #expect(error.description.contains("import job \(job.id) not found"))
        }
    }
}
