import Testing
@testable import SheetPortServer
import SheetPortTestSupport
import Foundation
@testable import SheetPortCore
@testable import SheetPortClient

/// Writes through two instances on one PostgreSQL database (Docs/Reference/CLI.md "sheetport serve", Docs/Reference/HTTP.md "Writing"): they
/// take turns on a sheet (the advisory lock), and each instance's graph sees the other's writes
/// at once. Skipped, saying so, without the test cluster of Scripts/postgres.sh.
@Suite(.serialized, .enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
struct SharedEditingTests {
    @Test func writersThroughTwoInstancesLoseNothing() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let a = try deployment.start("a"), b = try deployment.start("b")
        let token = try deployment.token("ann")
        let id = try EditingClient.create(a.api(token))
        // A formula written through A reads a value written through B, and the other way round.
        _ = try EditingClient(b.api(token), id).write(["A1": "4"])
        let first = try EditingClient(a.api(token), id).write(["C1": "=SUM(A1:B30)"])
        #expect(EditingClient.changed(first)["C1"]?["value"] as? Double == 4)
        let writes = 30
        let (versions, failures) = EditingClient.twoWriters([API(base: a.base, token: token), API(base: b.base, token: token)], sheet: id, writes: writes)
        #expect(failures.isEmpty, "\(failures)")
        for list in versions { #expect(list == list.sorted() && Set(list).count == list.count, "\(list)") }
        #expect(Set(versions.flatMap { $0 }) == Set(4...(3 + 2 * writes)))
        let expected = Double(writes * (writes + 1))
        for server in [a, b] {
            let cells = try EditingClient(server.api(token), id).cells()
            #expect(cells["C1"]?["value"] as? Double == expected)
        }
        // The last write's dependents, answered by either instance, are computed on current cells.
        let last = try EditingClient(b.api(token), id).write(["A1": "100"])
        #expect(EditingClient.changed(last)["C1"]?["value"] as? Double == expected - 1 + 100)
        let events = try deployment.database().sheetEvents(of: id, after: 0, limit: 1_000)
        #expect(events.map(\.version) == Array(1...(4 + 2 * writes)))
    }

    /// A write computes before its transaction opens: a small write through the other instance
    /// to the same sheet lands meanwhile (answered before the long one), and the long write,
    /// finding the sheet moved on, computes again on it and is stored after it (its version the
    /// next, its values counting the small write's A1), nothing of either lost.
    @Test func aWriteThatLosesTheVersionRaceComputesAgain() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let a = try deployment.start("a"), b = try deployment.start("b")
        let token = try deployment.token("ann")
        let writer = EditingClient(a.api(token), try EditingClient.create(a.api(token)))
        _ = try writer.write(CalcWorkersTests.data())
        let other = EditingClient(b.api(token), writer.sheet)
        _ = try other.write(["F1": "0"])  // b's graph of the sheet, built before the race
        let ended = LockedBox<[String]>([])
        let (longAnswer, finished) = try CalcWorkersTests.startLongWrite(writer, on: a, ended: ended)
        usleep(100_000)
        let small = try other.post("cells", ["cells": [["ref": "A1", "input": "5000"]]])
        ended.update { $0.append("small") }
        finished.wait()
        #expect(ended.value == ["small", "write"], "\(ended.value)")
        #expect(small.status == 200, "\(small.text)")
        let long = try #require(longAnswer.value)
        #expect(long.status == 200, "\(long.text)")
        let smallVersion = try #require(try EditingClient.object(small)["version"] as? Int)
        let answer = try EditingClient.object(long)
        #expect(answer["version"] as? Int == smallVersion + 1)
        // Computed on the store with the small write's A1 (every value of A above 1 now).
        #expect(EditingClient.changed(answer)["C1"]?["value"] as? Double == Double(CalcWorkersTests.dataRows))
        for instance in [a, b] {
            let cells = try EditingClient(instance.api(token), writer.sheet).cells()
            #expect(cells["A1"]?["value"] as? Double == 5000 && cells["C1"]?["value"] as? Double == Double(CalcWorkersTests.dataRows))
        }
        let events = try deployment.database().sheetEvents(of: writer.sheet, after: 0, limit: 1_000)
        #expect(events.map(\.version) == Array(1...(smallVersion + 1)))
    }

    /// Reads through both instances while writes go through one: the writing instance shows
    /// the values its graph holds, the other brings the store level first; neither shows a value
    /// older than the last write answered before the read began.
    @Test func readsThroughEitherInstanceSeeNoOlderValue() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let a = try deployment.start("a"), b = try deployment.start("b")
        let token = try deployment.token("ann")
        let writer = EditingClient(a.api(token), try EditingClient.create(a.api(token)))
        let rows = 3_000
        var inputs: [(String, String)] = [("A1", "1"), ("B1", "=A1")]
        for r in 2...rows { inputs += [("A\(r)", String(r % 7)), ("B\(r)", "=B\(r - 1)+A\(r)")] }
        _ = try writer.write(inputs)
        let offset = Double((2...2_500).reduce(0) { $0 + $1 % 7 })
        let (reads, failures) = EditingClient.readsDuringWrites(writer: writer, readers: [writer, EditingClient(b.api(token), writer.sheet)],
                                                                 writes: 20, row: 2_500, offset: offset)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(reads >= 2)
    }
}
