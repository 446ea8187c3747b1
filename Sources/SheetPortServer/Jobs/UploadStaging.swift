import Foundation

/// An upload being received: written, as MHD reads it, into a sealed block file in the
/// staging folder, bound to the job id, and hashed (the digest an `Idempotency-Key` repeat is
/// compared with). Over the cap it stops storing and removes the file. A repeat of a key
/// already used (`repeating` set) is only hashed, never stored.
package final class UploadStaging {
    /// The job the upload will become.
    package let jobID: String
    /// The staged file.
    package let path: String
    /// The cap in bytes.
    package let limit: Int
    /// `X-Filename`.
    package let filename: String
    /// `Idempotency-Key`, if any.
    package let idempotencyKey: String?
    /// Bytes received.
    package private(set) var received = 0
    /// Whether the body went over the cap.
    package private(set) var isTooLarge = false
    /// The first write error, if any.
    package private(set) var failure: (any Error)?
    /// The BLAKE2b digest of the whole body, once complete.
    package private(set) var digest: [UInt8]?
    /// The job that already holds `idempotencyKey`, when this upload repeats the key: the body
    /// is hashed to compare, not stored.
    let repeating: JobRecord?
    private var file: SealedBlockFile?
    private let hash = StreamingHash()

    init(jobID: String, path: String, limit: Int, filename: String, idempotencyKey: String?, sealer: Sealer) throws {
        self.jobID = jobID
        self.path = path
        self.limit = limit
        self.filename = filename
        self.idempotencyKey = idempotencyKey
        repeating = nil
        file = try SealedBlockFile(creating: path, identity: jobID, sealer: sealer)
    }

    /// An upload repeating `job`'s idempotency key: hashed only.
    init(repeating job: JobRecord, limit: Int, filename: String, idempotencyKey: String) {
        jobID = job.id
        path = ""
        self.limit = limit
        self.filename = filename
        self.idempotencyKey = idempotencyKey
        repeating = job
    }

    deinit { if file != nil { discard() } }

    /// Stores a chunk, or notes that the body is over the cap (and drops what was stored).
    func append(_ chunk: UnsafeRawBufferPointer) {
        received += chunk.count
        guard !isTooLarge, failure == nil else { return }
        if received > limit {
            isTooLarge = true
            discard()
            return
        }
        hash.update(chunk)
        do { try file?.append(chunk) } catch { failure = error; discard() }
    }

    /// Seals the last block and flushes the file to disk: the upload is staged.
    func complete() throws {
        digest = hash.finish()
        try file?.flush(sync: true)
        try file?.close()
        file = nil
    }

    /// Removes the staged file.
    func discard() {
        try? file?.close()
        file = nil
        if repeating == nil { unlink(path) }
    }
}
