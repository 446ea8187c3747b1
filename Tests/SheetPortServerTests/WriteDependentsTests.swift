import Testing
import SheetPortTestSupport

/// A write whose dependents fill many row blocks: the blocks holding only recalculated cells are
/// rewritten side by side (`SheetEdit.flush`), the ones holding an updated cell the general way,
/// and the answer lists the first changed cells in row order whichever way each block went.
@Suite struct WriteDependentsTests {
    @Test func dependentsAcrossBlocksAreStoredAndListedInRowOrder() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        // 2,000 rows: 32 blocks of a running total on A1.
        _ = try sheet.write([("A1", "1"), ("B1", "=A1")] + (2...2_000).map { ("B\($0)", "=B\($0 - 1)+1") })
        // A1 changes every B; A1000 (in block 15, amid recalculated-only blocks) is updated too.
        let answer = try sheet.write([("A1", "5"), ("A1000", "x")])
        let changed = try #require(answer["changed"] as? [[String: Any]])
        #expect(answer["more"] as? Bool == true)
        #expect(changed.map { $0["ref"] as? String ?? "" } == ["A1", "B1"] + (2...999).map { "B\($0)" })
        #expect(changed.last?["value"] as? Double == Double(5 + 998))
        let cells = try sheet.cells()
        #expect(cells["B2000"]?["value"] as? Double == Double(5 + 1_999))
        #expect(cells["B1500"]?["input"] as? String == "=B1499+1" && cells["B1500"]?["value"] as? Double == Double(5 + 1_499))
        #expect(cells["A1000"]?["value"] as? String == "x" && cells["B1000"]?["value"] as? Double == Double(5 + 999))
        // The same value again changes nothing past A1: no dependent is listed or rewritten.
        let again = try sheet.write([("A1", "5")])
        #expect((again["changed"] as? [[String: Any]])?.map { $0["ref"] as? String ?? "" } == ["A1"])
        #expect(again["more"] as? Bool == false)
        // A formula reading a dependent far down keeps up, and the export carries every value.
        _ = try sheet.write([("C1", "=B2000*2")])
        _ = try sheet.write([("A1", "7")])
        let after = try sheet.cells()
        #expect(after["C1"]?["value"] as? Double == Double(2 * (7 + 1_999)))
        #expect(after["B1999"]?["value"] as? Double == Double(7 + 1_998))
    }
}
