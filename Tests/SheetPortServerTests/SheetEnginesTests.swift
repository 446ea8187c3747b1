import Foundation
import Testing
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortClient

/// The server keeps the calculation graphs of recently used sheets within `--calc-memory`: an
/// in-process `SheetServer` (loopback, its own SQLite store) whose cache can be looked at.
@Suite(.serialized) struct SheetEnginesTests {
    /// An in-process server (one worker, `calcMemory` bytes for graphs) storing in `folder`, and ann's API.
    static func server(in folder: URL, calcMemory: Int) throws -> (server: SheetServer, api: API) {
        var configuration = ServerConfiguration(dataDirectory: folder.appendingPathComponent("data").path, address: try ListenAddress(parsing: "127.0.0.1:0"))
        configuration.calcMemory = calcMemory
        configuration.workers = 1
        let server = try SheetServer(configuration: configuration)
        let token = try server.context.database { try Tokens.issue(subject: "ann", in: $0) }
        return (server, API(base: "http://127.0.0.1:\(server.port)", token: token))
    }

    /// Four sheets of 3,000 cells (about 1 MB of graph each, by the estimate) through a server with
    /// a 2.5 MB budget: the cache never holds more than the budget, the least recently used
    /// graphs go, and a write to a sheet whose graph went is computed on its stored cells (the
    /// graph rebuilt from the sealed store), its dependents right.
    @Test func graphsStayWithinTheBudgetAndAreRebuilt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let budget = 5 << 19
        let (server, api) = try Self.server(in: folder, calcMemory: budget)
        defer { server.stop() }
        var sheets: [EditingClient] = []
        for index in 0..<4 {
            let sheet = EditingClient(api, try EditingClient.create(api, name: "S\(index)"))
            // A running total down column B over 1,500 values in column A.
            var inputs: [(String, String)] = [("A1", String(index)), ("B1", "=A1")]
            for row in 2...1_500 { inputs.append(("A\(row)", "1")); inputs.append(("B\(row)", "=B\(row - 1)+A\(row)")) }
            _ = try sheet.write(inputs)
            sheets.append(sheet)
            let usage = server.context.engines.usage
            #expect(usage.bytes <= budget, "\(usage)")
        }
        #expect(server.context.engines.usage.sheets < 4)
        // The first sheet's graph went; a write to it is computed on its stored cells.
        for (index, sheet) in sheets.enumerated() {
            let answer = try sheet.write(["A2": "100"])
            // 1,499 dependents: the answer lists 1,000 and says there are more.
            #expect(answer["more"] as? Bool == true && EditingClient.changed(answer)["B2"]?["value"] as? Double == Double(index + 100))
            #expect(try sheet.cells()["B1500"]?["value"] as? Double == Double(index + 100 + 1_498), "sheet \(index)")
            #expect(server.context.engines.usage.bytes <= budget)
        }
    }
}
