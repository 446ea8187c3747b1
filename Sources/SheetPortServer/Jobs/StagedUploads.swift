import Foundation

/// Where a job's sealed staged upload lives while it waits and runs. The embedded store keeps
/// it as the sealed block file in the data directory's staging folder. A shared store keeps
/// the same sealed bytes in the database (`staged_uploads`, in pieces), so that any instance
/// can run the job: the receiving instance moves the file in with the job's record, and the
/// instance that claims it copies them back into a scratch file of its own for the reader.
enum StagedUploads {
    /// Bytes per stored piece.
    static let pieceBytes = 1 << 20

    /// Moves an upload's staged file into a shared store (in the caller's transaction, with
    /// the job's record, so no instance sees the job without its upload); nothing to do on
    /// the embedded store.
    static func publish(_ upload: UploadStaging, _ database: Database) throws {
        guard database.isShared else { return }
        guard let file = FileHandle(forReadingAtPath: upload.path) else {
            throw ServerError.io(path: upload.path, message: "the staged upload is gone")
        }
        defer { try? file.close() }
        var piece = 0
        while let data = try file.read(upToCount: pieceBytes), !data.isEmpty {
            try database.insertStagedPiece(job: upload.jobID, piece: piece, data: Array(data))
            piece += 1
        }
    }

    /// The staging file a claim reads: the embedded store's own, or a scratch copy of the
    /// pieces named by the claim (two claims never share one).
    static func file(for job: String, claim: String, _ database: Database, _ context: ServerContext) throws -> String {
        guard database.isShared else { return context.directory.stagingFile(job: job) }
        let path = scratchFile(for: job, claim: claim, context)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw ServerError.io(path: path, message: String(cString: strerror(errno))) }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var next = 0
        while true {
            let pieces = try database.stagedPieces(job: job, from: next, count: 16)
            for piece in pieces {
                guard piece.piece == next else { throw ServerError.io(path: path, message: "piece \(next) of the staged upload is missing") }
                do { try file.write(contentsOf: piece.data) } catch let error as NSError
                    where error.domain == NSPOSIXErrorDomain && (error.code == Int(ENOSPC) || error.code == Int(EDQUOT)) {
                    throw ServerError.storageFull("\(path): cannot write the scratch copy of a staged upload")
                }
                next += 1
            }
            if pieces.count < 16 { break }
        }
        try file.close()
        return path
    }

    /// A scratch copy goes as soon as the reader holds it open: nothing of it stays on disk,
    /// whatever ends the job (a cancel through another instance, a kill).
    static func opened(_ path: String, _ database: Database) {
        if database.isShared { unlink(path) }
    }

    /// Removes what a claim used locally (the store's pieces go when the job ends, in the
    /// transaction that ends it).
    static func removeLocal(job: String, claim: String, _ database: Database, _ context: ServerContext) {
        unlink(database.isShared ? scratchFile(for: job, claim: claim, context) : context.directory.stagingFile(job: job))
    }

    private static func scratchFile(for job: String, claim: String, _ context: ServerContext) -> String {
        context.directory.staging + "/" + job + "-" + claim + ".sealed"
    }
}
