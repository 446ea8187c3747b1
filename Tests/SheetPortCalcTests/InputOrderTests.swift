import Testing
import SheetPortCore
@testable import SheetPortCalc

/// The order `setInputs` places a batch in: each cell's last input, clears bottom-up, the rest
/// top-down; and a batch in any order leaves the engine as the inputs one by one would.
@Suite struct InputOrderTests {
    static func at(_ ref: String, _ content: CellContent) -> CellInput {
        CellInput(location: CellLocation(sheet: 0, cell: CellReference(ref)!), content: content)
    }

    @Test func clearsGoBottomUpThenTheRestTopDownEachCellOnce() {
        let inputs = [Self.at("A3", .value(.number(1))), Self.at("A1", .empty), Self.at("A2", .value(.number(2))),
                      Self.at("A5", .empty), Self.at("A3", .empty), Self.at("A2", .formula("A1+1")), Self.at("A4", .empty)]
        let order = CalcEngine.placementOrder(inputs).map { "\($0.location.cell)" }
        #expect(order == ["A5", "A4", "A3", "A1", "A2"])
        let a2 = CalcEngine.placementOrder(inputs).first { $0.location.cell == CellReference("A2")! }
        #expect(a2?.content == .formula("A1+1"))
    }

    /// 2,000 inputs in a shuffled order (sets, formulas, clears, a cell written several times):
    /// values equal to the same inputs applied one at a time.
    @Test func aShuffledBatchEqualsTheInputsOneByOne() {
        var generator = SystemRandomNumberGenerator()
        var inputs: [CellInput] = []
        for k in 0..<2_000 {
            let row = Int.random(in: 1...300, using: &generator)
            let ref = "\(["A", "B"][k % 2])\(row)"
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: inputs.append(Self.at(ref, .value(.number(Double(k)))))
            case 1: inputs.append(Self.at(ref, .empty))
            default: inputs.append(Self.at(ref, .formula("SUM(A1:A300)+\(k)")))
            }
        }
        let batch = CalcEngine(), single = CalcEngine()
        _ = batch.addSheet("S")
        _ = single.addSheet("S")
        _ = batch.setInputs(inputs)
        for input in inputs { _ = single.setInputs([input]) }
        for row in 1...300 {
            for column in ["A", "B"] {
                let cell = CellReference("\(column)\(row)")!
                #expect(batch.value(at: cell, sheet: 0) == single.value(at: cell, sheet: 0), "\(cell)")
            }
        }
    }
}
