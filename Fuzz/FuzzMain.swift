// The one libFuzzer entry point of the fuzz binary: FUZZ_TARGET, read once, picks the harness,
// so that Scripts/fuzz.sh compiles the library sources (the slow part) once for every target.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The harnesses, one per FUZZ_TARGET value.
private enum Harness: String {
    case check, worksheet, jsonl, calc
    case calcBombs = "calc-bombs"
    case numberFormat = "number-format"
}

/// The harness that FUZZ_TARGET names (`check` when unset); an unknown name stops the run.
private let harness: Harness = {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? "check"
    guard let harness = Harness(rawValue: name) else {
        fatalError("FUZZ_TARGET is check, worksheet, jsonl, calc, calc-bombs or number-format, not \(name)")
    }
    return harness
}()

/// libFuzzer calls this with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    switch harness {
    case .check: fuzzCheck(data, size)
    case .worksheet: fuzzWorksheet(data, size)
    case .jsonl: fuzzJSONL(data, size)
    case .calc: fuzzCalc(data, size)
    case .calcBombs: fuzzCalcBombs(data, size)
    case .numberFormat: fuzzNumberFormat(data, size)
    }
}
