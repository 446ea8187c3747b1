import Foundation
import Testing
import SheetPortTestSupport

// Running the `sheetport` executable: only the command-line tests do (the other test targets
// test their modules through the libraries, the server in the test process).

extension Project {
    /// The `sheetport` executable built by this test build (SheetPortCLITests depends on it):
    /// in the products folder that holds the test bundle, never a stale one elsewhere.
    static let executable: URL = {
        var folder = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
            .resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {   // macOS nests the test binary in SheetPortPackageTests.xctest/Contents/MacOS
            let candidate = folder.appendingPathComponent("sheetport")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        fatalError("no sheetport executable beside the test bundle: build the tests with `swift build --build-tests`")
    }()
}

/// Runs the `sheetport` executable (with `environment` added to the tests' own); returns the
/// exit status, standard output and error.
func runSheetport(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws
    -> (status: Int32, stdout: Data, stderr: String) {
    let process = Process()
    process.executableURL = Project.executable
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let output = Pipe(), error = Pipe(), standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    if let input { standardInput.fileHandleForWriting.write(input) }
    try standardInput.fileHandleForWriting.close()
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
}

/// Starts `sheetport arguments`, waits (up to 10 s) until `ready()` holds, then sends `signal`;
/// returns whether it was ready before it ended, and its exit status.
func interruptSheetport(_ arguments: [String], with signal: Int32, when ready: () throws -> Bool) throws
    -> (wasReady: Bool, status: Int32) {
    let process = Process()
    process.executableURL = Project.executable
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    try process.run()
    var wasReady = false
    for _ in 0..<1000 where process.isRunning {
        if try ready() { wasReady = true; break }
        usleep(10_000)
    }
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    return (wasReady, process.terminationStatus)
}

/// Runs `sheetport` with standard input closed, killing it after `seconds`; the exit status
/// (-9 when killed), output, error and how long it ran.
func runWithDeadline(_ arguments: [String], seconds limit: Double, environment: [String: String] = [:]) throws
    -> (status: Int32, stdout: String, stderr: String, seconds: Double) {
    let process = Process()
    process.executableURL = Project.executable
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
    FileManager.default.createFile(atPath: out.path, contents: nil)
    FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    process.standardInput = FileHandle.nullDevice
    let start = Date()
    try process.run()
    while process.isRunning && Date().timeIntervalSince(start) < limit { usleep(20_000) }
    let killed = process.isRunning
    if killed { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let seconds = Date().timeIntervalSince(start)
    return (killed ? -9 : process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            (try? String(contentsOf: err, encoding: .utf8)) ?? "", seconds)
}

/// Starts `sheetport arguments` with `environment` added, output and errors captured; with
/// `shell`, through that bash script, in which `"$0" "$@"` is the sheetport command.
func startSheetport(_ arguments: [String], environment: [String: String] = [:], shell: String? = nil) throws -> (Process, Pipe, Pipe) {
    let process = Process()
    if let shell {
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", shell, Project.executable.path] + arguments
    } else {
        process.executableURL = Project.executable
        process.arguments = arguments
    }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    return (process, output, errors)
}

/// Waits for `process` and reads its output and errors.
func finish(_ process: Process, _ output: Pipe, _ errors: Pipe) -> (status: Int32, stdout: String, stderr: String) {
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

/// Runs `sheetport arguments` with a private `TMPDIR`; once `ready()` holds (polled, at most
/// 30 s), sends `signal`; returns the result and the seconds from the signal to the exit.
func signalWhileStalled(_ arguments: [String], temporary: URL, signal: Int32,
               when ready: () -> Bool) throws -> (status: Int32, stdout: String, stderr: String, seconds: Double) {
    let (process, output, errors) = try startSheetport(arguments, environment: ["TMPDIR": temporary.path])
    let waiting = eventually { ready() || !process.isRunning }
    #expect(waiting && process.isRunning, "the command ended (or never got there) before the signal")
    usleep(300_000) // well inside the stalled wait
    let sent = Date()
    kill(process.processIdentifier, signal)
    let exited = eventually(within: 10) { !process.isRunning }
    let seconds = Date().timeIntervalSince(sent)
    if !exited { kill(process.processIdentifier, SIGKILL) }
    let result = finish(process, output, errors)
    return (result.status, result.stdout, result.stderr, seconds)
}
