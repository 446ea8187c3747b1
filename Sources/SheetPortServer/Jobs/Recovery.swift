import Foundation
import SheetPortCore

/// What a start does about a previous run that was killed: jobs left queued or running are
/// queued again from their sealed staged upload (their partial sheet removed first, with
/// every sheet never made visible), or
/// failed when the upload is gone; sheets never made visible and staging files of ended
/// jobs are removed. No half-imported sheet survives a restart.
enum Recovery {
    static func run(_ context: ServerContext) throws {
        let database = try context.connect()
        guard !database.isShared else { return try sweepScratch(context) }
        var queued: Set<String> = []
        // Secure delete's FAST mode: removing a large hidden sheet needs little space on a full disk.
        try database.deletingQuickly { try database.transaction {
            for status in [JobRecord.Status.running, .queued] {
                for job in try database.jobs(in: status) {
                    if FileManager.default.fileExists(atPath: context.directory.stagingFile(job: job.id)) {
                        try database.requeue(job: job.id)
                        queued.insert(job.id)
                    } else {
                        try database.fail(job: job.id, error: ImportWorker.errorJSON(code: .interrupted,
                            message: "the server stopped during the import and its upload is gone; upload again"))
                    }
                }
            }
            try database.deleteHiddenSheets()
        } }
        // The space of the sheets removed, and of any a previous run deleted, is given back.
        _ = try? database.reclaimSpace()
        // Every leftover goes, files and directories alike: stagings of ended jobs and, as
        // exports are unlinked once open, whatever a killed server was building.
        let staged = (try? FileManager.default.contentsOfDirectory(atPath: context.directory.staging)) ?? []
        for name in staged where !queued.contains(String(name.prefix { $0 != "." })) || !name.hasSuffix(".sealed") {
            try sweep(context.directory.staging + "/" + name)
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: context.directory.exports)) ?? [] {
            try sweep(context.directory.exports + "/" + name)
        }
        for job in try database.jobs(in: .queued) where queued.contains(job.id) { context.imports.enqueue(job.id) }
    }

    /// A shared store's jobs are other instances' too: a job this instance was running when it
    /// died is taken over once its lease runs out (`claimNextJob`). Only the local scratch is
    /// swept: scratch copies of staged uploads and exports being built.
    private static func sweepScratch(_ context: ServerContext) throws {
        for folder in [context.directory.staging, context.directory.exports] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] { try sweep(folder + "/" + name) }
        }
    }

    /// Removes a leftover file or directory tree (a symbolic link itself, never its target); a
    /// leftover that cannot be removed stops the start, as it may hold sealed data.
    private static func sweep(_ path: String) throws {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            guard FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil else { return }
            throw ServerError.io(path: path, message: "cannot remove this leftover of an earlier run: \(error.localizedDescription)")
        }
    }
}
