#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A one-line progress bar on standard error, shown only when standard error is a terminal
/// and `--no-progress` was not given (Docs/Reference/CLI.md), and never while the command's data
/// goes to a terminal on standard output (it would be drawn into the data); redrawn at most
/// ten times a second, with the speed and the time left when the amount of work is known.
/// Safe to update from several threads (bulk export's transfers).
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled: Bool
    private let summarizes: Bool
    private let label: String
    private let started = ProgressLine.seconds()
    private var lastDraw = 0.0
    private var drawn = false
    /// Whether the bar was ever drawn: the work was long enough to show it.
    private(set) var wasShown = false

    /// A bar labelled `label`; `dataOnStandardOutput` when the command writes its data to
    /// standard output (then a terminal there turns the bar off).
    init(label: String, disabled: Bool, dataOnStandardOutput: Bool = false) {
        self.label = label
        summarizes = !disabled && isatty(2) == 1
        enabled = summarizes && !(dataOnStandardOutput && isatty(1) == 1)
    }

    /// Seconds since the bar was made.
    var elapsed: Double { Self.seconds() - started }

    /// Redraws with `fraction` done (0...1) and a detail such as a row count; with `bytes`
    /// (processed so far), the speed in MB/s and the time left are shown too.
    func update(fraction: Double, detail: String, bytes: Int64? = nil) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let now = Self.seconds()
        guard now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let done = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        let width = 24
        let filled = Int((done * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        var text = "\r\u{1B}[2K\(label) [\(bar)] \(Int(done * 100))%  \(detail)"
        let seconds = now - started
        if let bytes, seconds > 0.2 {
            text += String(format: "  %.1f MB/s", Double(bytes) / 1e6 / seconds)
        }
        if done > 0.01, seconds > 0.5 {
            text += "  " + Self.duration(seconds * (1 - done) / done) + " left"
        }
        write(text)
        drawn = true
        wasShown = true
    }

    /// Clears the line.
    func finish() {
        lock.lock(); defer { lock.unlock() }
        guard enabled, drawn else { return }
        write("\r\u{1B}[2K")
        drawn = false
    }

    /// Clears the line and, on a terminal, prints a one-line summary such as
    /// `converted "Data": 200000 rows, 24.1 MB in 1.2 s (20.1 MB/s)`.
    func finish(summary: String, bytes: Int64? = nil) {
        finish()
        guard summarizes else { return }
        let seconds = elapsed
        var line = "\(summary) in " + String(format: "%.1f s", seconds)
        if let bytes, seconds > 0 { line += String(format: " (%.1f MB/s)", Double(bytes) / 1e6 / seconds) }
        write(line + "\n")
    }

    /// `0:07`, `12:30`, `2:05:00`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 360_000 else { return "?" }
        let total = Int(seconds.rounded(.up))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return total >= 3600 ? "\(total / 3600):\(two(total / 60 % 60)):\(two(total % 60))" : "\(total / 60):\(two(total % 60))"
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
