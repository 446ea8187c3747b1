import Foundation
import Testing
@testable import SheetPortCore
import SheetPortCalc
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// The engine's limits through the real server (issue 35, attacks 2, 3 and 8): a formula that
/// would build a huge array or text answers with Excel's error, the server stays up and answers
/// the next request, and `--calc-memory` counts the texts the graphs hold.
@Suite(.serialized) struct CalcLimitsServerTests {
    static func value(_ cell: [String: Any]?) -> String? {
        guard let cell else { return nil }
        if let text = cell["value"] as? String { return text }
        return (cell["value"] as? Double).map { String($0) }
    }

    @Test func limitsAreReported() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let limits = try fixture.api.object("/api/limits")
        #expect(limits["maxArrayCells"] as? Int == 10_000_000)
        #expect(limits["maxEvalBytes"] as? Int == 256 << 20)
        #expect(limits["maxEvalSteps"] as? Int == 100_000_000)
        let small = try ServerFixture { $0.calcLimits = .init(maxArrayCells: 50, maxEvalBytes: 1 << 20, maxEvalSteps: 1_000) }
        defer { small.close() }
        let reported = try small.api.object("/api/limits")
        #expect(reported["maxArrayCells"] as? Int == 50 && reported["maxEvalBytes"] as? Int == 1 << 20 && reported["maxEvalSteps"] as? Int == 1_000)
        // The configured caps are the ones formulas meet: 7 x 7 passes, 8 x 8 does not.
        let sheet = EditingClient(small.api, try EditingClient.create(small.api))
        let answer = EditingClient.changed(try sheet.write(["A1": "=SUM(MUNIT(7))", "A2": "=SUM(MUNIT(8))"]))
        #expect(Self.value(answer["A1"]) == "7.0" && Self.value(answer["A2"]) == "#NUM!", "\(answer)")
    }

    /// Attack 2: XFD1 and A1048576 written, `=SUM(A:A+1:1)` (17 billion cells) is #NUM!, as is
    /// an INDIRECT range a later write widens; the server answers the next request.
    @Test func aWholeGridBroadcastIsNumAndTheServerStaysUp() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        _ = try sheet.write(["XFD1": "1", "A1048576": "2", "C1": "2"])
        let bomb = EditingClient.changed(try sheet.write(["B2": "=SUM(A:A+1:1)", "B3": "=SUM(INDIRECT(\"A1:A\"&C1)+INDIRECT(\"1:1\"))"]))
        #expect(Self.value(bomb["B2"]) == "#NUM!" && bomb["B2"]?["type"] as? String == "error", "\(bomb)")
        #expect(Self.value(bomb["B3"]) != "#NUM!", "\(bomb)")
        let widened = EditingClient.changed(try sheet.write(["C1": "1048576"]))
        #expect(Self.value(widened["B3"]) == "#NUM!", "\(widened)")
        #expect(try fixture.api.call("GET", "/api/limits").status == 200)
        let after = try sheet.cells()
        #expect(Self.value(after["B2"]) == "#NUM!" && Self.value(after["B3"]) == "#NUM!")
        #expect(Self.value(EditingClient.changed(try sheet.write(["D1": "=1+1"]))["D1"]) == "2.0")
    }

    /// Attack 3: a doubling chain of `&` over 20 cells: A16 would be 32,768 characters, so it
    /// and the cells after it are #VALUE!, and so are REPT, CONCAT and SUBSTITUTE past the limit.
    @Test func textsPastTheLimitAreValueAndTheServerStaysUp() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        var inputs: [(String, String)] = [("A1", "x")]
        for row in 2...20 { inputs.append(("A\(row)", "=A\(row - 1)&A\(row - 1)")) }
        inputs += [("B1", "=REPT(\"ab\",8E15)"), ("B2", "=CONCAT(A15,A15)"), ("B3", "=SUBSTITUTE(A15,\"x\",\"yy\")"),
                   ("B4", "=TEXTJOIN(\",\",TRUE,A1:A15)"), ("B5", "=REPT(\"x\",32767)")]
        let changed = EditingClient.changed(try sheet.write(inputs))
        #expect((Self.value(changed["A15"]) ?? "").count == 16_384)
        for ref in ["A16", "A20", "B1", "B2", "B3", "B4"] { #expect(Self.value(changed[ref]) == "#VALUE!", "\(ref): \(String(describing: changed[ref]))") }
        #expect((Self.value(changed["B5"]) ?? "").count == 32_767)
        #expect(Self.value(EditingClient.changed(try sheet.write(["D1": "=1+1"]))["D1"]) == "2.0")
    }

    /// Attack 8: the memory estimate counts the texts a graph holds, so a sheet of long texts
    /// is not kept past `--calc-memory`.
    @Test func calcMemoryCountsTexts() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let budget = 4 << 20
        let (server, api) = try SheetEnginesTests.server(in: folder, calcMemory: budget)
        defer { server.stop() }
        // 100 texts of 32,767 characters (3.3 MB): kept, and counted.
        let kept = EditingClient(api, try EditingClient.create(api, name: "kept"))
        _ = try kept.write((1...100).map { ("A\($0)", "=REPT(\"x\",32767)") })
        let usage = server.context.engines.usage
        #expect(usage.sheets == 1 && usage.bytes >= 100 * 32_767, "\(usage)")
        // 200 of them (6.6 MB) is past the budget: the graph is not kept.
        let big = EditingClient(api, try EditingClient.create(api, name: "big"))
        _ = try big.write((1...200).map { ("A\($0)", "=REPT(\"y\",32767)") })
        #expect(server.context.engines.usage.bytes <= budget, "\(server.context.engines.usage)")
        #expect((try big.cells()["A200"]?["value"] as? String)?.count == 32_767)
    }
}
