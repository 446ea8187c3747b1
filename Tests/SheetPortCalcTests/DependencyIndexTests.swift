@testable import SheetPortCalc
import Testing

/// The dependency index's lookup from a hint (`forEachDependent(...hint:)`) finds what a scan
/// of the whole table finds, whatever order the cells are looked up in.
@Suite struct DependencyIndexTests {
    @Test func lookupsFromAHintFindWhatAScanFinds() {
        var generator = SystemRandomNumberGenerator()
        var cells: [String: Any] = [:]
        for r in 1...400 {
            let a = Int.random(in: 1...60, using: &generator), b = Int.random(in: 1...60, using: &generator)
            cells["C\(r)"] = "=A\(a)+B\(b)+A\(a)"
            if r % 3 == 0 { cells["D\(r)"] = "=C\(r - 1)*2" }
        }
        let e = engine(cells)
        let index = DependencyIndex(engine: e)
        func scanned(_ r: Int32, _ c: Int32) -> [Int32] {
            let k = DependencyIndex.key(0, r, c)
            return index.cellKeys.indices.filter { index.cellKeys[$0] == k }.map { index.cellDependents[$0] }
        }
        var positions: [(Int32, Int32)] = []
        for r in Int32(0)..<420 { for c in Int32(0)..<4 { positions.append((r, c)) } }
        // In order (a walk down), in reverse, and shuffled, each with one hint throughout.
        for order in [positions, positions.reversed(), positions.shuffled(using: &generator)] {
            var hint = 0
            for (r, c) in order {
                var found: [Int32] = []
                index.forEachDependent(sheet: 0, row: r, column: c, hint: &hint) { found.append($0) }
                #expect(found == scanned(r, c), "row \(r) column \(c)")
                #expect(hint >= 0 && hint <= index.cellKeys.count)
            }
        }
    }
}
