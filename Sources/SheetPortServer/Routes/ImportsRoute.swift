import SheetPortCore
import SheetPortReader
import SheetPortConvert
/// `POST /api/imports` (the workbook streamed into sealed staging, then a queued job),
/// `GET /api/imports[/{id}]`, `DELETE /api/imports/{id}` (cancel). A job of another subject
/// answers exactly as one that does not exist.
enum ImportsRoute {
    static let acceptedExtensions = ["xlsx", "xlsm"]

    /// The most UTF-8 bytes an `Idempotency-Key` holds.
    static let maxKeyBytes = 255

    /// The headers are in: refuse at once what can be refused (too large by Content-Length,
    /// not xlsx/xlsm, control characters), else start staging; a repeated idempotency key is
    /// only hashed, to compare with the first upload's bytes.
    static func begin(_ request: inout Request, _ context: ServerContext) -> Reply? {
        let limit = context.configuration.maxUploadBytes
        if let length = request.header("Content-Length").flatMap(Int.init), length > limit {
            return tooLarge(limit)
        }
        let filename = request.header("X-Filename") ?? ""
        let key = request.header("Idempotency-Key")
        if let refusal = BoundaryText.refusal(filename, "X-Filename", log: context.log) ?? BoundaryText.refusal(key ?? "", "Idempotency-Key", log: context.log) {
            return refusal.reply
        }
        let fileExtension = filename.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard filename.contains("."), acceptedExtensions.contains(fileExtension) else {
            return .error(415, .unsupportedMediaType, "imports take .xlsx or .xlsm workbooks (X-Filename names the file)")
        }
        if let key, key.isEmpty || key.utf8.count > maxKeyBytes {
            return .error(400, .badRequest, "an Idempotency-Key holds 1 to \(maxKeyBytes) bytes")
        }
        do {
            if let key, let existing = try context.database({ try $0.job(idempotencyKey: key, for: request.subject!) }) {
                request.upload = UploadStaging(repeating: existing, limit: limit, filename: filename, idempotencyKey: key)
                return nil
            }
            let jobID = Sodium.identifier()
            request.upload = try UploadStaging(jobID: jobID, path: context.directory.stagingFile(job: jobID), limit: limit,
                                               filename: String(filename.suffix(255)), idempotencyKey: key, sealer: context.sealer)
            return nil
        } catch {
            return SheetServer.internalError(error, request, context)
        }
    }

    /// The body is in: record the job and queue it.
    static func finish(_ request: inout Request, _ context: ServerContext) throws -> Reply {
        guard let upload = request.upload else { return .error(400, .badRequest, "no upload") }
        defer { request.upload = nil }
        if upload.isTooLarge {
            upload.discard()
            return tooLarge(upload.limit)
        }
        if let failure = upload.failure {
            upload.discard()
            throw failure
        }
        try upload.complete()
        let subject = request.subject!
        if upload.repeating != nil { return try repeated(upload, subject, context) }
        // The job and (on a shared store) its staged upload are recorded together: no
        // instance sees the job without its upload.
        let inserted: Bool
        do {
            inserted = try context.database { database in
                try database.transaction {
                    let inserted = try database.insertJob(id: upload.jobID, subject: subject, filename: upload.filename, uploadBytes: upload.received,
                                                          idempotencyKey: upload.idempotencyKey, bodyDigest: upload.digest)
                    if inserted { try StagedUploads.publish(upload, database) }
                    return inserted
                }
            }
        } catch {
            upload.discard() // no job holds it (a full store, a failed insert): the staged file goes
            throw error
        }
        if context.store.isShared { upload.discard() } // the store holds it now
        guard inserted else {
            // The same key raced in on another connection: that job is the answer if the bytes match.
            upload.discard()
            return try repeated(upload, subject, context)
        }
        context.imports.enqueue(upload.jobID)
        let job = try context.database { try $0.job(upload.jobID) }!
        return accepted(job)
    }

    static func list(_ request: Request, _ context: ServerContext) throws -> Reply {
        let jobs = try context.database { try $0.jobs(for: request.subject!) }
        return .json(.object([("jobs", .array(jobs.map(\.json)))]))
    }

    static func get(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        guard let job = try context.database({ try $0.job(id, for: request.subject!) }) else { return .notFound }
        return .json(.object([("job", job.json)]))
    }

    /// Cancels a queued or running job: a queued one never runs (its staging goes now), a
    /// running one stops at its next batch and its worker removes what it wrote.
    static func cancel(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        guard var job = try context.database({ try $0.job(id, for: request.subject!) }) else { return .notFound }
        switch job.status {
        case .queued, .running:
            let cancelled = try context.database { database in
                try database.transaction {
                    let cancelled = try database.transition(job: id, from: job.status, to: .cancelled)
                    if cancelled { try database.deleteStagedUpload(job: id) }
                    return cancelled
                }
            }
            guard cancelled else { return try cancel(id, request, context) } // it moved on meanwhile: look again
            // A waiting job never reaches a worker; a running one stops at its next batch, its
            // worker reading on through the descriptor it holds. Either way the staging goes now.
            context.imports.cancel(id)
            unlink(context.directory.stagingFile(job: id))
            context.changes.signal(job: id)
            job.status = .cancelled
            return .json(.object([("job", job.json)]))
        case .cancelled:
            return .json(.object([("job", job.json)]))
        case .succeeded, .failed:
            return .error(409, .jobEnded, "the job already \(job.status.rawValue)")
        }
    }

    /// The answer to an upload whose idempotency key `subject` already used: the same job for
    /// the same bytes, 422 `idempotency-key-reused` for other bytes. A job recorded before
    /// digests were kept has none to compare, and answers as the same job.
    private static func repeated(_ upload: UploadStaging, _ subject: String, _ context: ServerContext) throws -> Reply {
        guard let key = upload.idempotencyKey,
              let (job, digest) = try context.database({ database in
                  try database.idempotencyDigest(key: key, for: subject).flatMap { id, digest in
                      try database.job(id).map { ($0, digest) }
                  }
              }) else {
            return .error(409, .conflict, "the job could not be recorded")
        }
        if let digest, digest != upload.digest {
            return .error(422, .idempotencyKeyReused,
                          "this Idempotency-Key was used for an upload with other bytes (job \(job.id)); use a new key for a new upload")
        }
        return accepted(job)
    }

    private static func accepted(_ job: JobRecord) -> Reply {
        .json(.object([("job", job.json)]), status: 202, headers: [("Location", "/api/imports/\(job.id)")])
    }

    static func tooLarge(_ limit: Int) -> Reply {
        .error(413, .tooLarge, "the upload is over the server's limit of \(limit) bytes (maxUploadBytes)")
    }
}

#if canImport(Glibc)
import Glibc
#endif
