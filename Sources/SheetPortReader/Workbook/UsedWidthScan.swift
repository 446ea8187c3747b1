import Foundation
import SheetPortCore

/// `Workbook.usedWidth(of:)` running on a thread of its own, the part inflated on another
/// (`BackgroundInflater`): a conversion to CSV starts it and reads the sheet's rows meanwhile,
/// rather than waiting on the scan with a core idle (the scan is a sixth of the conversion).
package final class UsedWidthScan {
    /// The scan's answer once it ended: the width, nil for a part it cannot read, or the error.
    private final class Outcome: @unchecked Sendable {
        let condition = NSCondition()
        var result: Result<Int?, any Error>?

        /// The result, once there is one.
        func wait() -> Result<Int?, any Error> {
            condition.withLock {
                while result == nil { condition.wait() }
                return result!
            }
        }
    }

    /// The scanning thread's work, with everything it touches.
    private struct Job: @unchecked Sendable {
        let source: BackgroundInflater
        let outcome: Outcome

        func run() {
            let result = Result { try UsedWidthScan.scan(source) }
            outcome.condition.withLock {
                outcome.result = result
                outcome.condition.broadcast()
            }
        }
    }

    private let outcome = Outcome()
    private let source: BackgroundInflater

    /// Starts scanning `sheet` of `workbook`.
    package init(_ workbook: Workbook, sheet: Sheet) throws {
        source = BackgroundInflater(try workbook.archive.stream(try workbook.worksheetEntry(sheet)))
        let job = Job(source: source, outcome: outcome)
        let thread = Thread { job.run() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        // Given up before its end (the conversion failed): the inflating thread stops, so the
        // scan ends soon, and it must end before the archive it reads from can go away.
        source.abort()
        _ = outcome.wait()
    }

    /// Whether the scan has ended (`width()` returns at once).
    package var isDone: Bool { outcome.condition.withLock { outcome.result != nil } }

    /// The width (the last column holding a value or a formula), nil for a part the scan cannot
    /// read (UTF-16); waits for the scan's end, and throws what reading the part threw.
    package func width() throws -> Int? { try outcome.wait().get() }

    private static func scan(_ source: BackgroundInflater) throws -> Int? {
        var scanner = CellWidthScanner()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { chunk.deallocate() }
        while scanner.isReadable {
            let count = try source.read(into: chunk.baseAddress!, count: chunk.count)
            guard count > 0 else { break }
            scanner.scan(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
        return scanner.isReadable ? scanner.finish() : nil
    }
}
