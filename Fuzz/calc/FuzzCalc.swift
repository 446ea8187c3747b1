// The libFuzzer entry point for the calculation engine: every input is a formula (UTF-8, as
// stored in xlsx) set in a small workbook next to constants of every kind, a self reference and
// a second sheet; the workbook is recalculated fully and incrementally and the formula rendered
// back and translated. Built with the SheetPortCalc sources (one module), never by SwiftPM.

/// Each input of the `calc` target (FuzzMain.swift); returns 0 (inputs are never rejected).
public func fuzzCalc(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: min(size, 16_384)), as: UTF8.self)
    let engine = CalcEngine(clock: .fixed(unixTime: 1_767_225_600), randomSeed: 1)
    let s = engine.addSheet("Sheet1")
    let other = engine.addSheet("My Sheet")
    let constants: [(String, CalcValue)] = [
        ("A1", .number(1)), ("A2", .text("12")), ("A3", .boolean(true)), ("A4", .error(.divisionByZero)),
        ("A5", .number(1e308)), ("A6", .text("x*?~")), ("B1", .number(-0.0)), ("B2", .number(60)),
    ]
    for (ref, value) in constants { engine.setValue(value, at: CellReference(ref)!, sheet: s) }
    engine.setValue(.number(2), at: CellReference("A1")!, sheet: other)
    engine.defineName("Rate", formula: "Sheet1!$A$1")
    engine.addTable(CalcTable(name: "Table1", sheet: s, range: CellRange("A1:B6")!, columnNames: ["Qty", "Price"]))
    engine.setFormula(text, at: CellReference("C3")!, sheet: s)
    engine.setFormula("C3+1", at: CellReference("C4")!, sheet: s)
    engine.setFormula(text, at: CellReference("D1")!, sheet: s, arrayRange: CellRange("D1:E2")!)
    engine.recalculate()
    _ = engine.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference("A1")!), content: .value(.text("3")))])
    _ = engine.formula(at: CellReference("C3")!, sheet: s)
    _ = try? CalcEngine.translateFormula(text, from: CellReference("C3")!, to: CellReference("A1")!)
    return 0
}
