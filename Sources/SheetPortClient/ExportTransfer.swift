#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SheetPortReader
import SheetPortWriter

/// The export of one sheet (`GET /api/sheets/{id}/export.xlsx`) into a private staging file,
/// verified with the reader and published atomically (Docs/Reference/CLI.md, "sheetport export"). A broken-off
/// download is retried with backoff, resuming with a `Range` request where the server allows
/// it (a 206 of the same sheet version), else from the start.
package struct ExportTransfer {
    /// The sheet.
    package let sheet: RemoteSheet
    /// Where the workbook is published.
    package let destination: String
    /// Wait for the sheet to reach this version (`?minVersion=N`).
    package var minVersion: Int?
    /// The limits the download is verified with.
    package var limits: ArchiveLimits
    /// The most bytes a download may have (`export --max-bytes`): past it the transfer fails
    /// at once and its staging is removed, so no server can fill the temporary directory.
    package var maxBytes: Int64 = ExportTransfer.defaultMaxBytes

    /// `--max-bytes`' default, 4 GiB: far above any export of a sheet within the server's caps
    /// (its default upload cap is 256 MiB; an export with inline strings is larger than its upload).
    package static let defaultMaxBytes: Int64 = 4 << 30

    /// The folder and the file name in it, when the name came from the server (`export --out DIR`).
    let entry: (folder: String, name: String)?

    package init(sheet: RemoteSheet, destination: String, minVersion: Int? = nil, limits: ArchiveLimits = ArchiveLimits()) {
        self.sheet = sheet
        self.destination = destination
        self.minVersion = minVersion
        self.limits = limits
        entry = nil
    }

    /// A transfer to `folder/fileName`, a name made from the sheet's: published only as a
    /// regular file inside `folder`, a link, FIFO, device or socket of that name refused at once.
    package init(sheet: RemoteSheet, fileName: String, in folder: String, minVersion: Int? = nil, limits: ArchiveLimits = ArchiveLimits()) {
        self.sheet = sheet
        destination = FolderEntry.path(fileName, in: folder)
        self.minVersion = minVersion
        self.limits = limits
        entry = (folder, fileName)
    }

    /// What a finished transfer reports.
    package struct Outcome: Sendable {
        /// Bytes published.
        package var bytes: Int64
        /// `X-Sheet-Version` of the export.
        package var version: String?
    }

    /// Downloads, verifies and publishes; `progress` is told the bytes staged so far. On any
    /// error the staging file is removed and the destination left as it was.
    package func run(on connection: ServerConnection, client: HTTPClient,
                    progress: (Int64) -> Void = { _ in }) throws -> Outcome {
        let staging = try entry.map { try ExportStaging(entry: $0.name, in: $0.folder) } ?? ExportStaging(destination: destination)
        defer { staging.discard() }
        var path = "/api/sheets/" + ServerConnection.pathSegment(sheet.id) + "/export.xlsx"
        if let minVersion { path += "?minVersion=\(minVersion)" }
        var version: String?
        var validator: String?
        try connection.retry.run { _ in
            var headers: [(name: String, value: String)] = [("Accept", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")]
            if staging.size > 0 {
                headers.append(("Range", "bytes=\(staging.size)-"))
                if let validator { headers.append(("If-Range", validator)) }
            }
            let request = connection.request("GET", path, headers: headers)
            var errorBody: [UInt8] = []
            var accepted: Bool?
            // An error answer: its first 64 KiB say why; the rest is not read.
            func failure(_ head: HTTPResponseHead) -> any Error {
                let failure = ServerConnection.error(HTTPResponse(head: head, body: errorBody), url: request.url, what: "sheet \(sheet.name)")
                return RetryPolicy.isRetryable(status: head.status)
                    ? RetryableFailure(failure, retryAfter: ServerConnection.retryAfter(head)) : failure
            }
            let head: HTTPResponseHead
            do {
                head = try client.send(request) { head, chunk in
                    if accepted == nil { accepted = try accept(head, staging: staging, version: &version, validator: &validator) }
                    if accepted == true {
                        guard staging.size + Int64(chunk.count) <= maxBytes else { throw tooLarge() }
                        try staging.write(chunk)
                        progress(staging.size)
                    } else {
                        errorBody.append(contentsOf: chunk.prefix(Self.maxErrorBytes - errorBody.count))
                        if errorBody.count >= Self.maxErrorBytes { throw failure(head) }
                    }
                }
            } catch let error as HTTPClientError {
                throw ServerConnection.failure(error, url: request.url)
            }
            if accepted == nil { accepted = try accept(head, staging: staging, version: &version, validator: &validator) }
            if accepted == false { throw failure(head) }
        }
        try staging.verify(sheet: sheet.name, limits: limits)
        try staging.publish()
        return Outcome(bytes: staging.size, version: version)
    }

    /// The error of a download past `maxBytes` (not retried: the next try would be as large).
    private func tooLarge() -> ClientError {
        .invalidResponse(url: destination, reason: "the export of sheet \(sheet.name) is larger than \(maxBytes) bytes, "
                         + "the most --max-bytes allows; nothing was kept (give a larger --max-bytes to take it)")
    }

    /// Whether the answer's body is the workbook (200, or a 206 that continues what is
    /// staged); false for an error answer. A 206 of another version or offset makes the
    /// transfer start again from nothing.
    private func accept(_ head: HTTPResponseHead, staging: ExportStaging, version: inout String?,
                        validator: inout String?) throws -> Bool {
        switch head.status {
        case 200:
            if let declared = head.header("Content-Length").flatMap({ Int64($0) }), declared > maxBytes { throw tooLarge() }
            if staging.size > 0 { try staging.truncate() }
            version = head.header("X-Sheet-Version")
            validator = head.header("ETag")
            return true
        case 206:
            let start = head.header("Content-Range").flatMap(Self.rangeStart)
            guard start == staging.size, head.header("X-Sheet-Version") == version else {
                try staging.truncate()
                throw RetryableFailure(ClientError.invalidResponse(url: destination, reason: "a resumed download does not continue the first"))
            }
            return true
        default:
            return false
        }
    }

    /// The most bytes of an error answer read (the message is in its beginning).
    static let maxErrorBytes = 64 << 10

    /// The first byte of `bytes 100-199/200`.
    static func rangeStart(_ contentRange: String) -> Int64? {
        let text = contentRange.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("bytes "), let dash = text.firstIndex(of: "-") else { return nil }
        return Int64(text[text.index(text.startIndex, offsetBy: 6)..<dash])
    }
}
