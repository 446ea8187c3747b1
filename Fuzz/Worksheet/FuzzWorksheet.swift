// The differential libFuzzer entry point: every input is a worksheet part's XML, wrapped in a
// workbook as given (StoredZip), and read with the fast path and with libxml2; any difference
// in rows, metadata or error stops the run with both readings. Built by
// `FUZZ_TARGET=worksheet Scripts/fuzz.sh` with the SheetPort library sources (one module).

#if canImport(Glibc)
import Glibc
#endif

/// Each input of the `worksheet` target (FuzzMain.swift); returns 0, and aborts when the engines disagree.
public func fuzzWorksheet(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let xml = Array(UnsafeBufferPointer(start: data, count: size))
    guard let workbook = try? Workbook(bytes: StoredZip.workbook(sheetXML: xml), name: "fuzz.xlsx"),
          let sheet = workbook.firstWorksheet else { return 0 }
    let fast = WorksheetReading(sheet, of: workbook, engine: .automatic, maxRows: 100_000)
    let reference = WorksheetReading(sheet, of: workbook, engine: .libxml2, maxRows: 100_000)
    if fast != reference {
        print("fast path: \(fast.rows.count) rows, error \(fast.error ?? "none"), handed over \(fast.handedOver)")
        print("libxml2:   \(reference.rows.count) rows, error \(reference.error ?? "none")")
        if let (left, right) = zip(fast.rows, reference.rows).first(where: { $0 != $1 }) {
            print("first different row:\n  \(left)\n  \(right)")
        }
        if fast.metadata != reference.metadata { print("metadata:\n  \(fast.metadata)\n  \(reference.metadata)") }
        fflush(stdout) // abort() does not flush: the readings would be lost in a pipe or file
        abort()
    }
    return 0
}
