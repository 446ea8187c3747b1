#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A one-line progress bar on standard error, shown only when standard error is a terminal
/// and `--no-progress` was not given (CONTRACTS section 1); redrawn at most ten times a second.
/// Safe to update from several threads (bulk export's transfers).
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled: Bool
    private let label: String
    private var lastDraw = 0.0
    private var drawn = false

    init(label: String, disabled: Bool) {
        self.label = label
        enabled = !disabled && isatty(2) == 1
    }

    /// Redraws with `fraction` done (0...1) and a detail such as a row count.
    func update(fraction: Double, detail: String) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let now = Self.seconds()
        guard now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let width = 24
        let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        write("\r\u{1B}[2K\(label) [\(bar)] \(Int(fraction * 100))%  \(detail)")
        drawn = true
    }

    /// Clears the line.
    func finish() {
        lock.lock(); defer { lock.unlock() }
        guard enabled, drawn else { return }
        write("\r\u{1B}[2K")
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    private static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
