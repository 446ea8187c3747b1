import Foundation

/// What a start does about a previous run that was killed: jobs left queued or running are
/// queued again from their sealed staged upload (their partial sheet removed first, with
/// every sheet never made visible), or
/// failed when the upload is gone; sheets never made visible and staging files of ended
/// jobs are removed. No half-imported sheet survives a restart.
enum Recovery {
    static func run(_ context: ServerContext) throws {
        let database = try context.directory.openDatabase()
        var queued: Set<String> = []
        try database.transaction {
            for status in [JobRecord.Status.running, .queued] {
                for job in try database.jobs(in: status) {
                    if FileManager.default.fileExists(atPath: context.directory.stagingFile(job: job.id)) {
                        try database.query("UPDATE jobs SET status = 'queued', bytes = 0, rows = 0, cells = 0, sheet_id = NULL WHERE id = ?", [.text(job.id)])
                        queued.insert(job.id)
                    } else {
                        try database.fail(job: job.id, error: ImportWorker.errorJSON(code: "interrupted",
                            message: "the server stopped during the import and its upload is gone; upload again"))
                    }
                }
            }
            try database.query("DELETE FROM sheets WHERE visible = 0")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: context.directory.staging)) ?? []
        for name in names where !queued.contains(String(name.prefix { $0 != "." })) {
            unlink(context.directory.staging + "/" + name)
        }
        // Exports are unlinked once open; a killed server may leave one being built.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: context.directory.exports)) ?? [] {
            unlink(context.directory.exports + "/" + name)
        }
        for job in try database.jobs(in: .queued) where queued.contains(job.id) { context.imports.enqueue(job.id) }
    }
}
