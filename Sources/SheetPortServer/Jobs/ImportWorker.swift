import Foundation
import SheetPortCore
import SheetPortReader
import SheetPortConvert

/// A worker thread that runs import jobs: the pre-flight, then the reader over the first
/// worksheet, both on the sealed staged upload opened through a decrypting libzip source.
/// Cells are stored in sealed blocks of rows, in batches, with the job's progress; the sheet
/// becomes visible, and the job succeeded, in one transaction at the end. A failure or a
/// cancel removes everything the job wrote, and the staged upload goes when the job ends.
/// Every batch and the end hold the job's claim (`JobClaim`): a job whose claim went (its
/// lease ran out and another instance took it over) stops without touching the job.
package final class ImportWorker: @unchecked Sendable {
    private let context: ServerContext
    private let thread = JoinableThread()

    /// Blocks written per transaction.
    static let blocksPerBatch = 16

    init(context: ServerContext) {
        self.context = context
    }

    /// Starts the thread.
    func start() {
        thread.start(named: "import worker") { [self] in
            guard let database = try? context.connect() else {
                context.log.write("an import worker cannot connect to the store")
                return
            }
            while let claim = context.nextClaim(database) {
                context.leases.keep(claim)
                run(claim, database)
                context.leases.release(claim)
                context.imports.finished(claim.job.id)
            }
        }
    }

    /// Waits for the thread to end (after `ImportQueue.shutDown()`).
    func join() {
        thread.join()
    }

    /// Runs one claimed job to its end.
    func run(_ claim: JobClaim, _ database: Database) {
        let id = claim.job.id
        context.changes.signal(job: id)
        // Whatever the end (or a return to the queue), the job's streams look again.
        defer { context.changes.signal(job: id) }
        var sheetID: String?
        do {
            let staging = try StagedUploads.file(for: id, claim: claim.token, database, context)
            try importJob(claim, staging: staging, database, sheetID: &sheetID)
        } catch ImportInterruption.shuttingDown {
            removeSheet(sheetID, database)
            try? database.release(job: id, claim: claim.token) // resumed by the next start, or another instance
            if database.isShared { StagedUploads.removeLocal(job: id, claim: claim.token, database, context) }
            return
        } catch ImportInterruption.cancelled {
            removeSheet(sheetID, database)
        } catch ImportInterruption.claimLost {
            removeSheet(sheetID, database)
            context.log.write("import job \(id) was taken over by another instance; stopped here")
            if database.isShared { StagedUploads.removeLocal(job: id, claim: claim.token, database, context) }
            return
        } catch let failure as ImportFailure {
            removeSheet(sheetID, database)
            try? database.fail(job: id, claim: claim.token, error: failure.json)
        } catch where error.isStorageFull {
            // Space first: the staged upload goes (the job ends failed), then the job's sheet
            // and its failure are written in one transaction, retried with backoff until the
            // store takes them; the WAL is truncated so the space freed stays free.
            StagedUploads.removeLocal(job: id, claim: claim.token, database, context)
            let incident = context.log.incident(error, during: "import job \(id)")
            endOnFullStorage(id, claim: claim.token, sheet: sheetID, incident: incident, database)
            return
        } catch let error as ReaderError {
            removeSheet(sheetID, database)
            try? database.fail(job: id, claim: claim.token, error: Self.errorJSON(code: ServerErrorCode(error.code), message: error.description.visibleControlCharacters))
        } catch where error.isConnectionLoss {
            // The database connection dropped (a restart, an ended session): the sealed staged
            // upload is intact, so the job runs again from it, a bounded number of times.
            removeSheet(sheetID, database)
            if requeue(claim, database) {
                context.log.write("import job \(id) lost its database connection; it runs again from its staged upload")
                StagedUploads.removeLocal(job: id, claim: claim.token, database, context)
                return
            }
            let incident = context.log.incident(error, during: "import job \(id) (its last try)")
            try? database.fail(job: id, claim: claim.token, error: Self.errorJSON(code: .internal,
                message: "the server lost its database connection \(Self.maxAttempts) times during the import; report incident \(incident) to its operator",
                incident: incident))
        } catch {
            removeSheet(sheetID, database)
            // The detail (a path, the database's text) goes to the log only; the job carries the incident.
            let incident = context.log.incident(error, during: "import job \(id)")
            try? database.fail(job: id, claim: claim.token, error: Self.errorJSON(code: .internal,
                message: "the server could not complete the import; report incident \(incident) to its operator", incident: incident))
        }
        StagedUploads.removeLocal(job: id, claim: claim.token, database, context)
        database.reclaimStagedUploads(log: context.log) // the job's pieces were deleted as it ended
    }

    /// Tries a job runs at most when its database connection drops (the first included).
    static let maxAttempts = 3

    /// Gives a job whose connection dropped back to the queue to run again from its staged
    /// upload, unless it has had its tries or its claim went; whether it was given back.
    private func requeue(_ claim: JobClaim, _ database: Database) -> Bool {
        guard let attempts = try? database.attempts(of: claim.job.id), attempts < Self.maxAttempts else { return false }
        return (try? database.release(job: claim.job.id, claim: claim.token)) == true
    }

    /// Removes the sheet a job wrote before the job is marked ended, retried until it goes (a
    /// busy database is waited out), so a failed or cancelled job leaves no hidden sheet; only
    /// a stopping server leaves it, to the next start's sweep. Retries back off to 30 s and are
    /// logged once, and once more when they end; a full store is relieved between tries.
    private func removeSheet(_ id: String?, _ database: Database) {
        guard let id else { return }
        retryWithBackoff("remove the sheet of an ended import", database) { try database.deletingQuickly { try database.deleteSheet(id) } }
        context.relief.noteFreed()
    }

    /// Ends a job that found the storage full: its sheet removed and the job failed with
    /// `storage-full` in one transaction (nothing of it stays), retried with backoff until the
    /// store takes it (space freed) or the server stops; then the WAL is truncated.
    private func endOnFullStorage(_ id: String, claim: String, sheet: String?, incident: String, _ database: Database) {
        let error = Self.errorJSON(code: .storageFull, message: "the server's storage filled up during the import, and nothing of it was "
                                   + "kept; upload again once its operator has freed space (incident \(incident))", incident: incident)
        retryWithBackoff("end import job \(id) after its storage filled up", database) {
            try database.deletingQuickly {
                try database.transaction {
                    if let sheet { try database.deleteSheet(sheet) }
                    try database.failClaimed(job: id, claim: claim, error: error)
                }
            }
        }
        database.relieveFullStorage(noting: context.relief)
        context.relief.noteFreed()
    }

    /// Runs `attempt` until it succeeds or the server stops: pauses from 50 ms doubling to 30 s;
    /// the first failure is logged, and how many tries it took once it succeeds.
    private func retryWithBackoff(_ what: String, _ database: Database, _ attempt: () throws -> Void) {
        var pause: UInt32 = 50_000
        var failures = 0
        while true {
            do {
                try attempt()
                if failures > 0 { context.log.write("could \(what) after \(failures + 1) tries") }
                return
            } catch {
                failures += 1
                if failures == 1 { context.log.write("cannot \(what) yet, retrying with backoff: \(error)") }
                if error.isStorageFull { database.relieveFullStorage(noting: context.relief) }
                if context.imports.isStopping { return }
                usleep(pause)
                pause = min(pause * 2, 30_000_000)
            }
        }
    }

    private func importJob(_ claim: JobClaim, staging: String, _ database: Database, sheetID: inout String?) throws {
        let job = claim.job
        let configuration = context.configuration
        let file = try SealedBlockFile(opening: staging, identity: job.id, sealer: context.sealer)
        StagedUploads.opened(staging, database)
        var options = PreflightOptions()
        options.limits = configuration.archiveLimits
        options.maxCells = configuration.maxCells

        // The pre-flight's package findings first; the first worksheet's come from the pass below that stores it.
        var preflight = try PreflightRun(name: job.filename, options: options) {
            try self.openWorkbook(file, name: job.filename, limits: options.limits)
        }
        // Counted before the job's end is visible (a test reads the count once the job ended).
        var passesCounted = false
        defer { if !passesCounted { context.worksheetPasses.add(preflight.workbook?.worksheetPasses ?? 0) } }
        guard let workbook = preflight.workbook, let sheet = preflight.firstWorksheet, !preflight.hasError else {
            // Refused already: the worksheet's own findings still join the job's, as they always did.
            try preflight.readFirstWorksheet()
            throw Self.refusal(preflight.report)
        }
        try context.hold(claim, database)

        // Every stored name is one the writer accepts, so the sheet can always be exported.
        let name = SheetName.valid(sheet.name)
        let id = Sodium.identifier()
        try database.transaction {
            try context.hold(claim, database)
            try database.insertImportingSheet(id: id, owner: job.subject, name: name, job: job.id, created: Int64(Date().timeIntervalSince1970))
            try database.setSheet(job: job.id, sheet: id)
        }
        sheetID = id

        let cellWriter = StoredCellWriter(styles: try workbook.styles(), dateSystem: workbook.dateSystem)
        // Every formula is computed before it is stored: blocks holding formulas wait in memory,
        // packed (`HeldRows`), until the pass has loaded the whole sheet.
        let calculation = try ImportCalculation(workbook, sheet: sheet, clock: context.calcClock, limits: context.configuration.calcLimits)
        var block: (number: Int, first: Int, last: Int, rows: [Row], hasFormula: Bool)?
        var sealedBlocks: [(number: Int, first: Int, last: Int, data: [UInt8])] = []
        var deferredBlocks: [(number: Int, first: Int, last: Int, rows: HeldRows)] = []
        var rows = 0, cells = 0, lastRow = 0, lastColumn = 0
        var metadata = WorksheetMetadata()
        var bytesRead: Int64 = 0

        func seal(_ number: Int, _ first: Int, _ last: Int, _ blockRows: [Row]) {
            let bytes = RowBlock.binary(rows: blockRows, writer: cellWriter)
            sealedBlocks.append((number, first, last, context.sealer.seal(bytes, context: RowBlock.context(sheet: id, block: number))))
        }
        func sealBlock() {
            guard let current = block else { return }
            if current.hasFormula {
                deferredBlocks.append((current.number, current.first, current.last, HeldRows(current.rows)))
            } else {
                seal(current.number, current.first, current.last, current.rows)
            }
            block = nil
        }
        func storeSealed() throws {
            try database.transaction {
                for sealed in sealedBlocks {
                    try database.insertRowBlock(sheet: id, block: sealed.number, firstRow: sealed.first, lastRow: sealed.last, data: sealed.data)
                }
                try context.hold(claim, database)
            }
            sealedBlocks.removeAll()
        }
        func storeBatch(_ reader: WorksheetReader) throws {
            try database.transaction {
                for sealed in sealedBlocks {
                    try database.insertRowBlock(sheet: id, block: sealed.number, firstRow: sealed.first, lastRow: sealed.last, data: sealed.data)
                }
                // The job's row last, just before the commit: it is locked for a moment, not for the
                // batch, so a cancel or a takeover never waits on the rows being written.
                try context.hold(claim, database)
                try database.updateProgress(job: job.id, bytes: Int(reader.progress.bytesRead), rows: rows, cells: cells)
            }
            sealedBlocks.removeAll()
            context.changes.signal(job: job.id)
        }

        try preflight.readFirstWorksheet { pass in
            while let row = try pass.nextRow() {
                // An error finding is certain (a cap passed): the job fails once the pass has counted
                // the rest for the findings; nothing more is stored.
                if pass.refuses { continue }
                guard row.index <= ServerConfiguration.maxRows else {
                    throw ImportFailure(code: .exceedsLimit, message: "row \(row.index) is outside the grid", findings: [])
                }
                if row.cells.isEmpty && row.height == nil && !row.isHidden { continue }
                let number = RowBlock.block(of: row.index)
                if let current = block, current.number != number {
                    sealBlock()
                    if sealedBlocks.count >= Self.blocksPerBatch { try storeBatch(pass.reader) }
                }
                if block == nil { block = (number, row.index, row.index, [], false) }
                block!.last = row.index
                if calculation.load(row) { block!.hasFormula = true }
                block!.rows.append(row)
                lastColumn = max(lastColumn, row.cells.last?.column ?? 0) // cells come ordered by column
                rows += 1
                cells += row.cells.count
                lastRow = row.index
                guard cells <= configuration.maxCells else {
                    throw ImportFailure(code: .exceedsLimit, message: "over the server's limit of \(configuration.maxCells) cells", findings: [])
                }
            }
            guard !pass.refuses else { return }
            sealBlock()
            try storeBatch(pass.reader)
            metadata = pass.reader.metadata
            bytesRead = pass.reader.progress.bytesRead
        }
        // The same refusals as the pre-flight's: its findings are complete now.
        let report = preflight.report
        guard !preflight.hasError else { throw Self.refusal(report) }
        try calculation.recalculate { body in
            for deferred in deferredBlocks { try deferred.rows.rows().forEach(body) }
            try SheetModel.forEachStoredRow(of: id, database, context, body)
        }
        for (offset, deferred) in deferredBlocks.enumerated() {
            seal(deferred.number, deferred.first, deferred.last, try deferred.rows.rows().map(calculation.computed))
            if sealedBlocks.count >= Self.blocksPerBatch || offset == deferredBlocks.count - 1 { try storeSealed() }
        }
        deferredBlocks.removeAll()
        // A dynamic array's spilled cells are stored as plain values in the file: marked now that
        // every block is stored (a spill may reach blocks without a formula, stored early).
        let spilled = try database.transaction { try calculation.markSpills(ofImported: id, database, context) }
        lastRow = max(lastRow, spilled.lastRow)
        lastColumn = max(lastColumn, spilled.lastColumn)
        var warnings = report.findings.filter { $0.severity != .error }.map(Self.storable)
        if let finding = calculation.crossSheetFinding { warnings.append(Self.storable(finding)) }
        if let violation = SheetName.violation(of: sheet.name) {
            warnings.append(Finding(.sheetNameChanged, .warning,
                                    "the sheet \"\(sheet.name.visibleControlCharacters)\" is imported as \"\(name)\": \(violation)",
                                    part: "xl/workbook.xml").json)
        }

        let others = workbook.sheets.filter { $0.position != sheet.position }.map(\.name)
        let layout = SheetLayout(columns: metadata.columns, defaultRowHeight: metadata.defaultRowHeight,
                                 names: ImportNames.kept(workbook.definedNames, of: sheet, otherSheets: others),
                                 tables: ImportNames.tables(workbook.tables(of: sheet)),
                                 sheetName: sheet.name)
        let comments = try preflight.comments ?? workbook.comments(of: sheet)
        context.worksheetPasses.add(workbook.worksheetPasses)
        passesCounted = true
        let result = JSON.object([("sheet", .object([("id", .string(id)), ("name", .string(name))])),
                                  ("warnings", .array(warnings.map(JSON.raw)))]).text
        try database.transaction {
            for (offset, comment) in comments.enumerated() {
                // An author is a name like a subject: no control characters (a comment's text may hold line breaks).
                let author = String(String.UnicodeScalarView(comment.author.unicodeScalars.map { $0.isUnsafeControl ? " " : $0 }))
                let record = CommentRecord(reference: comment.reference, author: author, text: comment.text)
                try database.insertComment(sheet: id, seq: offset + 1, data: record.sealed(sheet: id, seq: offset + 1, context.sealer))
            }
            try database.publishImportedSheet(id, rows: lastRow, columns: lastColumn, layout: layout.sealed(sheet: id, context.sealer))
            try context.hold(claim, database) // the job's row last (see storeBatch)
            // Cancelled or taken over meanwhile (the claim held a moment ago): nothing of this commit may stand.
            guard try database.succeed(job: job.id, claim: claim.token, result: result, rows: rows, cells: cells, bytes: bytesRead) else {
                throw ImportInterruption.cancelled
            }
            try database.record(SheetEvent(version: 1, change: .import), of: id)
            try CellHistory.recordImport(sheet: id, subject: job.subject, database, context)
            try database.deleteStagedUpload(job: job.id)
            try context.sheetChanges.publish(sheet: id, version: 1, database)
        }
        context.changes.signal(SheetChange(sheet: id, version: 1))
    }

    /// Opens the staged workbook: through the decrypting libzip source, or, for a Compound
    /// File container (an encrypted workbook, a legacy `.xls`), read whole so the reader can
    /// say which it is (those are refused, and small).
    private func openWorkbook(_ file: SealedBlockFile, name: String, limits: ArchiveLimits) throws -> Workbook {
        var prefix = [UInt8](repeating: 0, count: 8)
        let count = try prefix.withUnsafeMutableBytes { try file.read(into: $0.baseAddress!, count: 8, at: 0) }
        prefix.removeLast(8 - count)
        if prefix == CompoundFile.signature || file.size == 0 {
            var bytes = [UInt8](repeating: 0, count: Int(file.size))
            _ = try bytes.withUnsafeMutableBytes { try file.read(into: $0.baseAddress!, count: $0.count, at: 0) }
            return try Workbook(bytes: bytes, name: name, limits: limits)
        }
        let source = try SealedZipSource(file: file).makeSource()
        return try Workbook(archive: ZipArchive(source: source, name: name, prefix: prefix, limits: limits))
    }

    /// The failure of a job whose pre-flight `report` holds an error: the first error's code
    /// and message, with every error finding.
    static func refusal(_ report: CheckReport) -> ImportFailure {
        let errors = report.findings.filter { $0.severity == .error }
        guard let error = errors.first else {
            return ImportFailure(code: .missingPart, message: "the workbook has no worksheet", findings: [])
        }
        return ImportFailure(code: ServerErrorCode(rawValue: error.code), message: error.message.visibleControlCharacters, findings: errors.map(Self.storable))
    }

    /// A finding as a job stores it: its message names parts of the workbook (other sheets'
    /// names, authors), so its control characters are made visible.
    static func storable(_ finding: Finding) -> String {
        var finding = finding
        finding.message = finding.message.visibleControlCharacters
        finding.part = finding.part?.visibleControlCharacters
        return finding.json
    }

    /// An `error` object: `{"code","message","findings":[...]}`.
    static func errorJSON(code: ServerErrorCode, message: String, findings: [String] = [], incident: String? = nil) -> String {
        var members: [(String, JSON)] = [("code", .string(code.rawValue)), ("message", .string(message)), ("findings", .array(findings.map(JSON.raw)))]
        if let incident { members.append(("incident", .string(incident))) }
        return JSON.object(members).text
    }
}

/// A job that fails with a pre-flight code.
struct ImportFailure: Error {
    let code: ServerErrorCode
    let message: String
    let findings: [String]

    var json: String { ImportWorker.errorJSON(code: code, message: message, findings: findings) }
}
