import Foundation

/// Runs `arguments` (the executable first) as a child process with its output discarded and
/// returns its exit status and its own peak resident memory. The child is started by
/// `/usr/bin/time` (Scripts/setup.sh installs it), a small process of its own: Linux carries a
/// process's peak across fork and exec, so a child started straight from the test process
/// would report the test process's peak, not its own.
package func runMeasured(_ arguments: [String]) throws -> (status: Int32, peakKiB: Int) {
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("sheetport-rss-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: report) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments = ["-f", "%M", "-o", report.path] + arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
    // time writes "Command exited with non-zero status N" before the figure when the child failed.
    let peak = text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
    return (process.terminationStatus, peak)
}
