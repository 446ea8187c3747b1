#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SheetPortWriter

/// `sheetport serve` run as a child process on 127.0.0.1 with an ephemeral port, and
/// `sheetport token issue` for its data folder: the server through its command line
/// (Docs/Reference/CLI.md), for `sheetport demo` and the tests.
package final class EmbeddedServer: @unchecked Sendable {
    /// `http://127.0.0.1:PORT`.
    package let url: String
    /// The data folder.
    package let data: String
    private let executable: String
    private let process = Process()
    private var childSlot = -1

    /// Starts `executable serve --data DATA --listen 127.0.0.1:0` (with `arguments` added) and
    /// waits up to `timeout` seconds for it to print its bound address.
    package init(executable: String, data: String, arguments: [String] = [], timeout: Double = 20) throws {
        self.executable = executable
        self.data = data
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve", "--data", data, "--listen", "127.0.0.1:0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        childSlot = try PendingFiles.registerChild { [process] in
            try process.run()
            return process.processIdentifier
        }
        let descriptor = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        var seen = ""
        var found: String?
        while found == nil, Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            seen += String(decoding: buffer[..<count], as: UTF8.self)
            found = Self.address(in: seen)
        }
        guard let found else {
            PendingFiles.unregisterChild(childSlot)
            process.terminate()
            process.waitUntilExit()
            throw ClientError.io(file: data, message: "the embedded server did not start: \(seen)")
        }
        url = found
        // Keep draining its standard output so that it never blocks on a full pipe.
        output.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` from what `serve` prints once it listens.
    static func address(in text: String) -> String? {
        guard let range = text.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else { return nil }
        return "http://" + text[range]
    }

    /// The port it listens on.
    package var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

    /// Issues a token for `subject` with `sheetport token issue`.
    package func issueToken(subject: String) throws -> String {
        let issue = Process()
        issue.executableURL = URL(fileURLWithPath: executable)
        issue.arguments = ["token", "issue", "--data", data, "--subject", subject]
        let output = Pipe()
        issue.standardOutput = output
        try issue.run()
        let token = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        issue.waitUntilExit()
        guard issue.terminationStatus == 0, !token.isEmpty else {
            throw ClientError.missingToken("sheetport token issue failed (exit \(issue.terminationStatus))")
        }
        return token
    }

    /// Stops the server (SIGTERM) and waits for it.
    package func stop() {
        PendingFiles.unregisterChild(childSlot)
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Kills the server (SIGKILL), as a crash would.
    package func kill() {
        PendingFiles.unregisterChild(childSlot)
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
