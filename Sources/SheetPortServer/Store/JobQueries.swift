import Foundation
import SheetPortCore
import SheetPortReader
import SheetPortConvert

/// An import job as stored.
package struct JobRecord: Sendable, Equatable {
    /// Where a job is: the one status type the client decodes too.
    package typealias Status = ImportJobStatus

    /// The job's id (32 hexadecimal digits).
    package var id: String
    /// The subject whose session uploaded it.
    package var subject: String
    /// Where it is.
    package var status: Status
    /// `X-Filename` of the upload.
    package var filename: String
    /// The upload's size in bytes.
    package var uploadBytes: Int
    /// Progress: bytes of the worksheet read, rows and cells stored.
    package var bytes: Int
    /// Rows stored so far.
    package var rows: Int
    /// Cells stored so far.
    package var cells: Int
    /// The sheet the job writes (visible once it succeeds).
    package var sheetID: String?
    /// The `result` object (JSON) once it succeeded.
    package var result: String?
    /// The `error` object (JSON) once it failed.
    package var error: String?

    /// `{"id","status","filename","progress":{..},"result":..,"error":..}`.
    package var json: JSON {
        .object([
            ("id", .string(id)), ("status", .string(status.rawValue)), ("filename", .string(filename)),
            ("progress", .object([("bytes", .int(bytes)), ("rows", .int(rows)), ("cells", .int(cells))])),
            ("result", result.map(JSON.raw) ?? .null), ("error", error.map(JSON.raw) ?? .null),
        ])
    }
}

extension Database {
    private static let jobColumns = "id, subject, status, filename, upload_bytes, bytes, rows, cells, sheet_id, result, error"

    private func jobRecord(_ row: [SQLValue]) -> JobRecord {
        JobRecord(id: row[0].string ?? "", subject: row[1].string ?? "", status: JobRecord.Status(rawValue: row[2].string ?? "") ?? .failed,
                  filename: row[3].string ?? "", uploadBytes: row[4].int ?? 0, bytes: row[5].int ?? 0, rows: row[6].int ?? 0,
                  cells: row[7].int ?? 0, sheetID: row[8].string,
                  result: SealedJobText.open(row[9].string, job: row[0].string ?? "", field: "result", with: jobSealer),
                  error: SealedJobText.open(row[10].string, job: row[0].string ?? "", field: "error", with: jobSealer))
    }

    /// A job by id, whoever owns it.
    package func job(_ id: String) throws -> JobRecord? {
        try query("SELECT \(Self.jobColumns) FROM jobs WHERE id = ?", [.text(id)]).first.map(jobRecord)
    }

    /// `subject`'s job, or nil when there is none of that id for this subject.
    package func job(_ id: String, for subject: String) throws -> JobRecord? {
        try query("SELECT \(Self.jobColumns) FROM jobs WHERE id = ? AND subject = ?", [.text(id), .text(subject)]).first.map(jobRecord)
    }

    /// `subject`'s job started with an idempotency key.
    package func job(idempotencyKey key: String, for subject: String) throws -> JobRecord? {
        try query("SELECT \(Self.jobColumns) FROM jobs WHERE idempotency_key = ? AND subject = ?", [.text(key), .text(subject)]).first.map(jobRecord)
    }

    /// `subject`'s jobs, newest first.
    package func jobs(for subject: String) throws -> [JobRecord] {
        try query("SELECT \(Self.jobColumns) FROM jobs WHERE subject = ? ORDER BY created DESC, \(insertionOrder) DESC", [.text(subject)]).map(jobRecord)
    }

    /// Jobs in a status.
    package func jobs(in status: JobRecord.Status) throws -> [JobRecord] {
        try query("SELECT \(Self.jobColumns) FROM jobs WHERE status = ? ORDER BY \(insertionOrder)", [.text(status.rawValue)]).map(jobRecord)
    }

    /// The job `subject` started with an idempotency key, with the digest of its upload (nil
    /// for a job recorded before digests were kept).
    package func idempotencyDigest(key: String, for subject: String) throws -> (job: String, digest: [UInt8]?)? {
        try query("SELECT id, body_digest FROM jobs WHERE idempotency_key = ? AND subject = ?", [.text(key), .text(subject)])
            .first.map { ($0[0].string ?? "", $0[1].bytes) }
    }

    /// Records a queued job with its upload's digest; false when `subject` already has a job
    /// with this idempotency key.
    package func insertJob(id: String, subject: String, filename: String, uploadBytes: Int, idempotencyKey: String?,
                          bodyDigest: [UInt8]? = nil) throws -> Bool {
        try query("""
            INSERT INTO jobs (id, subject, status, idempotency_key, filename, upload_bytes, body_digest, created)
            VALUES (?, ?, 'queued', ?, ?, ?, ?, ?) ON CONFLICT (subject, idempotency_key) DO NOTHING
            """, [.text(id), .text(subject), idempotencyKey.map(SQLValue.text) ?? .null, .text(filename),
                  .integer(Int64(uploadBytes)), bodyDigest.map(SQLValue.blob) ?? .null, .integer(Int64(Date().timeIntervalSince1970))])
        return changes > 0
    }

    /// Moves a job from `from` to `to`; false when it was not in `from`.
    package func transition(job id: String, from: JobRecord.Status, to: JobRecord.Status) throws -> Bool {
        try query("UPDATE jobs SET status = ? WHERE id = ? AND status = ?", [.text(to.rawValue), .text(id), .text(from.rawValue)])
        return changes > 0
    }

    /// Records a job's progress.
    package func updateProgress(job id: String, bytes: Int, rows: Int, cells: Int) throws {
        try query("UPDATE jobs SET bytes = ?, rows = ?, cells = ? WHERE id = ?",
                  [.integer(Int64(bytes)), .integer(Int64(rows)), .integer(Int64(cells)), .text(id)])
    }

    /// Ends a job as failed with an `error` object, unless it already ended (a cancel).
    package func fail(job id: String, error: String) throws {
        try query("UPDATE jobs SET status = 'failed', error = ? WHERE id = ? AND status IN ('queued', 'running')", [.text(SealedJobText.seal(error, job: id, field: "error", with: jobSealer)), .text(id)])
    }

    /// Puts a job an earlier run left queued or running back in the queue, its progress and
    /// its partial sheet forgotten (the embedded store's start: it runs again from its upload).
    func requeue(job id: String) throws {
        try query("UPDATE jobs SET status = 'queued', bytes = 0, rows = 0, cells = 0, sheet_id = NULL WHERE id = ?", [.text(id)])
    }

    /// Sets the sheet a job writes.
    package func setSheet(job id: String, sheet: String) throws {
        try query("UPDATE jobs SET sheet_id = ? WHERE id = ?", [.text(sheet), .text(id)])
    }
}
