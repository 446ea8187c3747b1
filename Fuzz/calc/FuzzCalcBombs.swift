// The libFuzzer entry point for the engine's limits (issue 35): every input is a formula set, as a
// dynamic array, beside the cells an attacker arranges for array and text bombs (the grid's last
// row and column written, texts of 32,767 characters) and at the head of a doubling `&` chain.
// Whatever the formula builds, the recalculation must end with Excel's errors in bounded memory
// and time (libFuzzer's -rss_limit_mb and -timeout), and no cell may hold a text past 32,767
// characters. The engine's limits are a tenth of the defaults so each input stays quick under ASan.

/// Each input of the `calc-bombs` target (FuzzMain.swift); returns 0 (inputs are never rejected).
public func fuzzCalcBombs(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: min(size, 4_096)), as: UTF8.self)
    let engine = CalcEngine(clock: .fixed(unixTime: 1_767_225_600), randomSeed: 1)
    engine.limits = CalcLimits(maxArrayCells: 1_000_000, maxEvalBytes: 32 << 20, maxEvalSteps: 10_000_000)
    let s = engine.addSheet("Sheet1")
    let long = String(repeating: "x", count: CalcLimits.maxTextLength)
    let constants: [(String, CalcValue)] = [
        ("A1", .number(1)), ("A2", .text(long)), ("A3", .text("ab")), ("A4", .number(1e9)),
        ("XFD1", .number(1)), ("A1048576", .number(2)), ("B1", .text(long)), ("B2", .number(32_767)),
    ]
    for (ref, value) in constants { engine.setValue(value, at: CellReference(ref)!, sheet: s) }
    let chain = 17
    engine.setFormula(text, at: CellReference("C1")!, sheet: s, isDynamicArray: true)
    for row in 2...chain {
        engine.setFormula("C\(row - 1)&C\(row - 1)", at: CellReference("C\(row)")!, sheet: s, isDynamicArray: true)
    }
    engine.setFormula(text, at: CellReference("D1")!, sheet: s)
    engine.setFormula("SUM(LEN(C1#))+ROWS(C1#)", at: CellReference("E1")!, sheet: s, isDynamicArray: true)
    engine.recalculate()
    // A widening input: the bombs that wait for a collaborator's write.
    _ = engine.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference("A1")!), content: .value(.number(1_048_576)))])
    for row in 1...chain {
        for column in ["C", "D", "E"] {
            guard case .text(let t) = engine.value(at: CellReference("\(column)\(row)")!, sheet: s) else { continue }
            precondition(CalcLimits.fits(t), "\(column)\(row) holds \(t.utf16.count) characters")
        }
    }
    return 0
}
