import Foundation
import SheetPortClient
import SheetPortCore

/// The options `import`, `export` and `check --server` share: the server, the token, retries and the timeout.
enum ClientOptions {
    /// The options, declared once for every command that talks to a server.
    static let options: [Option] = [
        .valued("--server", "URL", "the server, e.g. http://127.0.0.1:8080"),
        .valued("--token-file", "FILE", "the session token (else the SHEETPORT_TOKEN environment variable)"),
        .valued("--retries", "N", "tries after a dropped connection or a 5xx answer (default 4)"),
        .valued("--timeout", "SECONDS", """
            the most one request may take, its retries and their waits included (default 60);
            an upload's tries each count it from the end of the body; a download has none
            unless given (its answer must begin within 300 s, then flow at 1 kB/s or more)
            """),
    ]

    /// `--timeout SECONDS` when given: above 0, at most a day.
    static func timeout(_ options: Arguments) throws -> Double? {
        guard let text = options.value("--timeout") else { return nil }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw UsageError("--timeout takes a number of seconds above 0, at most 86400")
        }
        return seconds
    }

    /// The connection the options describe; `--server` is required.
    static func connection(_ options: Arguments) throws -> ServerConnection {
        guard let server = options.value("--server") else { throw UsageError("--server URL is required") }
        var retry = RetryPolicy()
        if let text = options.value("--retries") {
            guard let retries = Int(text), retries >= 0, retries <= 20 else { throw UsageError("--retries takes a whole number from 0 to 20") }
            retry.attempts = retries + 1
        }
        retry.budget = try timeout(options) ?? 60
        let token = try ServerConnection.token(file: options.value("--token-file"))
        return try ServerConnection(url: server, token: token, retry: retry)
    }

    /// One line of JSON (keys sorted) on standard output.
    static func printJSON(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        print(terminalSafe(json: String(decoding: data, as: UTF8.self)))
    }

    /// JSON text with the control characters JSON writers leave raw (DEL, C1 controls such as
    /// U+009B, bidirectional overrides; `Unicode.Scalar.isUnsafeControl`) written as `\uXXXX`
    /// escapes: the same JSON value, and nothing in it can drive the terminal it is printed on.
    static func terminalSafe(json: String) -> String {
        guard json.unicodeScalars.contains(where: \.isUnsafeControl) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard scalar.isUnsafeControl else { result.append(scalar); continue }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(result)
    }

    /// `bytes` for a person: `512 B`, `1.5 MB`.
    static func size(_ bytes: Int64) -> String {
        if bytes < 1_000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(format: "%.1f kB", Double(bytes) / 1e3) }
        return String(format: "%.1f MB", Double(bytes) / 1e6)
    }
}
