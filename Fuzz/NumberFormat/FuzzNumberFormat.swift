// The number-format libFuzzer entry point (issue 35, attack 1): each input is a (double, format
// code) pair, the first 8 bytes the double's bits (little-endian, zero-padded) and the rest the
// code as UTF-8. The code is validated and renders the double, its negation and a text through
// NumberFormatRenderer: no trap, output bounded by the code's length (a few characters per code
// character, plus a double's digits) and at most one second of the thread's CPU time for the
// three (CPU, not wall-clock, time: a run beside a busy machine is not a finding). Built by
// `FUZZ_TARGET=number-format Scripts/fuzz.sh` with the SheetPort library sources (one module).

import Foundation

/// A text long enough that `@` repetitions would amplify it (attack 5).
private let sampleText = String(repeating: "text ", count: 2_000)

/// Each input of the `number-format` target (FuzzMain.swift); returns 0, and aborts when a
/// rendering is over its output or time bound.
public func fuzzNumberFormat(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var bits: UInt64 = 0
    for (index, byte) in bytes.prefix(8).enumerated() { bits |= UInt64(byte) << (8 * UInt64(index)) }
    let value = Double(bitPattern: bits)
    let code = String(decoding: bytes.dropFirst(8), as: UTF8.self)
    let started = threadCPUNanoseconds()
    _ = NumberFormat.isValid(code)
    let bound = 1_024 + 16 * code.utf16.count
    for number in [value, -value] {
        let shown = NumberFormatRenderer.text(number: number, code: code)
        if shown.utf16.count > bound {
            fail("\(number) in \(code.debugDescription) is \(shown.utf16.count) characters, over \(bound)")
        }
    }
    // The text section stops once past a cell's 32,767 characters (the last piece added whole).
    let text = NumberFormatRenderer.text(text: sampleText, code: code)
    let textBound = NumberFormatRenderer.maxTextLength + sampleText.utf16.count + code.utf16.count
    if text.utf16.count > textBound || NumberFormatRenderer.capped(text).utf16.count > NumberFormatRenderer.maxTextLength {
        fail("a text in \(code.debugDescription) shows \(text.utf16.count) characters, over \(textBound)")
    }
    let elapsed = threadCPUNanoseconds() - started
    if elapsed > 1_000_000_000 {
        fail("\(value) in \(code.debugDescription) took \(elapsed / 1_000_000) ms of CPU")
    }
    return 0
}

/// The CPU time this thread has used, in nanoseconds.
private func threadCPUNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Says why on standard error (unbuffered: stdout would be lost to the abort) and aborts.
private func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("number-format: " + message + "\n").utf8))
    abort()
}
