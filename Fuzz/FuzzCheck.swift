// The libFuzzer entry point: every input is pre-flighted as `sheetport check` does, then
// every worksheet is read to the end as `convert` does. Built by Scripts/fuzz.sh together
// with the SheetPort library sources (one module), never by SwiftPM.

/// Limits small enough that one input runs in milliseconds, strict enough to hit every check.
private let fuzzOptions: PreflightOptions = {
    var options = PreflightOptions()
    options.limits.maxEntrySize = 64 << 20
    options.limits.maxTotalSize = 256 << 20
    return options
}()

/// Each input of the `check` target (FuzzMain.swift); returns 0 (inputs are never rejected).
public func fuzzCheck(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? Preflight.check(bytes: bytes, name: "fuzz.xlsx", options: fuzzOptions)
    guard let workbook = try? Workbook(bytes: bytes, name: "fuzz.xlsx", limits: fuzzOptions.limits) else { return 0 }
    for sheet in workbook.sheets where sheet.kind == .worksheet {
        guard let reader = try? workbook.rows(of: sheet) else { continue }
        while let row = try? reader.nextRow() { _ = row.cells.count }
        _ = try? workbook.comments(of: sheet)
    }
    return 0
}
