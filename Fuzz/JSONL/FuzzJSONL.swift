// The cell JSONL libFuzzer entry point: every input is read to the end by CellJSONLReader, as
// `convert IN.jsonl` and the server's export read it; then each line is parsed alone, and a
// line CellObjectParser takes must be an object to JSONSerialization too (the parser is the
// stricter of the two: it also refuses trailing commas and never reads zero bytes as UTF-16).
// Built by `FUZZ_TARGET=jsonl Scripts/fuzz.sh` with the SheetPort library sources (one module).

import Foundation

/// Each input of the `jsonl` target (FuzzMain.swift); returns 0, and aborts when the parser takes a line
/// that JSONSerialization refuses.
public func fuzzJSONL(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if var reader = try? CellJSONLReader(input: ByteInput(bytes: bytes, name: "fuzz.jsonl")) {
        while let row = try? reader.nextRow() { _ = row.row.cells.count }
    }
    for var line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true).map(Array.init) {
        if line.last == 0x0D { line.removeLast() }
        guard line.withUnsafeBufferPointer(CellObjectParser.parse) != nil else { continue }
        if (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] == nil {
            print("CellObjectParser took a line JSONSerialization refuses: \(line)")
            abort()
        }
    }
    return 0
}
