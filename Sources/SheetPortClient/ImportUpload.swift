import Foundation
import SheetPortCore

/// Starts an import job (`POST /api/imports`): the workbook streamed from disk (never read
/// whole), with an `Idempotency-Key` so that a retry after a dropped connection or a 5xx
/// answer finds the job the first try created instead of making a second one.
public struct ImportUpload {
    /// The workbook.
    public let file: String
    /// The key every try of this upload sends.
    public let idempotencyKey: String
    /// The name sent as `X-Filename` (the file's own by default; a spooled pipe's is the pipe's).
    public let name: String

    /// An upload of `file` as `name` (default: the file's name) with a fresh random key.
    public init(file: String, name: String? = nil, idempotencyKey: String = UUID().uuidString.lowercased()) {
        self.file = file
        self.name = name ?? (file as NSString).lastPathComponent
        self.idempotencyKey = idempotencyKey
    }

    /// Seconds a cancellation waits for the answer once the whole workbook has been sent.
    public static let answerGrace = 0.4

    /// Uploads and returns the queued job. `progress` is told the bytes sent and the total;
    /// it may throw to abort. The client's `cancellation` ends the upload at once while the body
    /// is sent, and within `answerGrace` once it is all sent (then the job, if the answer came).
    package func start(on connection: ServerConnection, client: HTTPClient,
                      progress: @escaping (_ sent: Int64, _ total: Int64) throws -> Void = { _, _ in }) throws -> ImportJob {
        var status = stat()
        guard stat(file, &status) == 0 else {
            throw ClientError.io(file: file, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        let request = connection.request("POST", "/api/imports", headers: [
            ("Content-Type", Self.contentType(of: name)),
            // A header value carries no control character (CR/LF would split the request).
            ("X-Filename", String(String.UnicodeScalarView(name.unicodeScalars.map { $0.isUnsafeControl ? "_" : $0 }))),
            ("Idempotency-Key", idempotencyKey),
        ], body: .file(file))
        // Once the whole body is sent the server may have made the job: a cancellation then waits
        // up to `answerGrace` for the answer, so that the caller learns the job and can cancel it.
        let cancellation = client.cancellation
        defer { client.cancellation = cancellation }
        var sentAll = false
        var graceEnds: Double?
        client.cancellation = {
            do {
                try cancellation()
            } catch {
                guard sentAll else { throw error }
                let now = monotonicSeconds()
                graceEnds = graceEnds ?? now + Self.answerGrace
                if now >= graceEnds! { throw error }
            }
        }
        let answer = try connection.json(request, client: client, what: "imports", uploadProgress: { sent, total in
            sentAll = sent == total
            try progress(sent, total)
        })
        return try connection.decode(request.url) { try ImportJob(json: answer) }
    }

    /// The media type of an xlsx or xlsm by its name.
    static func contentType(of name: String) -> String {
        name.lowercased().hasSuffix(".xlsm") ? "application/vnd.ms-excel.sheet.macroEnabled.12"
                                             : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    }
}

/// Follows an import job until it ends: through its event stream, and by polling (backing
/// off from 0.1 s to 1 s) when the stream is refused or breaks.
public struct JobPoller {
    public let connection: ServerConnection
    public let jobID: String

    public init(connection: ServerConnection, jobID: String) {
        self.connection = connection
        self.jobID = jobID
    }

    /// Follows the job until it is finished, or the client's `cancellation` throws (a signal:
    /// then `ClientError.cancelled`), also between polls; `update` sees each state. The event
    /// stream first; polling once it is refused or breaks.
    package func wait(client: HTTPClient, update: (ImportJob) -> Void = { _ in }) throws -> ImportJob {
        var lastEventID: String?
        do {
            var events = JobEvents(connection: connection, jobID: jobID)
            // An idle stream is given up on after the request timeout (--timeout), then polled.
            if client.timeout > 0 { events.stallTimeout = min(events.stallTimeout, client.timeout) }
            return try events.follow(client: client, lastEventID: &lastEventID, update: update)
        } catch is JobEvents.Unavailable {
            return try poll(client: client, update: update)
        }
    }

    /// Polls until the job is finished (see `wait`).
    package func poll(client: HTTPClient, update: (ImportJob) -> Void = { _ in }) throws -> ImportJob {
        var interval = 0.1
        while true {
            try client.cancellation()
            let job = try connection.job(jobID, client: client)
            update(job)
            if job.status.isFinal { return job }
            RetryPolicy.sleep(interval) { (try? client.cancellation()) == nil }
            interval = min(interval * 1.5, 1)
        }
    }
}
