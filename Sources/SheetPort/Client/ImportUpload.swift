import Foundation

/// Starts an import job (`POST /api/imports`): the workbook streamed from disk (never read
/// whole), with an `Idempotency-Key` so that a retry after a dropped connection or a 5xx
/// answer finds the job the first try created instead of making a second one.
public struct ImportUpload {
    /// The workbook.
    public let file: String
    /// The key every try of this upload sends.
    public let idempotencyKey: String

    /// An upload of `file` with a fresh random key.
    public init(file: String, idempotencyKey: String = UUID().uuidString.lowercased()) {
        self.file = file
        self.idempotencyKey = idempotencyKey
    }

    /// Uploads and returns the queued job. `progress` is told the bytes sent and the total;
    /// it may throw to abort (a signal).
    public func start(on connection: ServerConnection, client: HTTPClient,
                      progress: @escaping (_ sent: Int64, _ total: Int64) throws -> Void = { _, _ in }) throws -> ImportJob {
        var status = stat()
        guard stat(file, &status) == 0 else {
            throw ClientError.io(file: file, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        let name = (file as NSString).lastPathComponent
        let request = connection.request("POST", "/api/imports", headers: [
            ("Content-Type", Self.contentType(of: name)),
            ("X-Filename", String(name.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "_" : Character($0) })),
            ("Idempotency-Key", idempotencyKey),
        ], body: .file(file))
        let response = try connection.retry.run({ _ in
            let response = try ServerConnection.send(request, client: client, uploadProgress: progress)
            if RetryPolicy.isRetryable(status: response.status) {
                throw RetryableFailure(ServerConnection.error(response, url: request.url, what: "imports"),
                                       retryAfter: ServerConnection.retryAfter(response.head))
            }
            return response
        }, shouldStop: { CancellationSignal.received != nil })
        guard (200..<300).contains(response.status) else {
            throw ServerConnection.error(response, url: request.url, what: "imports")
        }
        do {
            return try ImportJob(json: try JSONObject(parsing: response.body))
        } catch {
            throw ClientError.invalidResponse(url: request.url, reason: error.description)
        }
    }

    /// The media type of an xlsx or xlsm by its name.
    static func contentType(of name: String) -> String {
        name.lowercased().hasSuffix(".xlsm") ? "application/vnd.ms-excel.sheet.macroEnabled.12"
                                             : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    }
}

/// Polls an import job until it ends, backing off from 0.1 s to 1 s between polls.
public struct JobPoller {
    public let connection: ServerConnection
    public let jobID: String

    public init(connection: ServerConnection, jobID: String) {
        self.connection = connection
        self.jobID = jobID
    }

    /// Polls until the job is finished, or a signal arrives (then `ClientError.cancelled`);
    /// `update` sees each state.
    public func wait(client: HTTPClient, update: (ImportJob) -> Void = { _ in }) throws -> ImportJob {
        var interval = 0.1
        while true {
            try CancellationSignal.check()
            let job = try connection.job(jobID, client: client, shouldStop: { CancellationSignal.received != nil })
            update(job)
            if job.isFinished { return job }
            RetryPolicy.sleep(interval) { CancellationSignal.received != nil }
            interval = min(interval * 1.5, 1)
        }
    }
}
